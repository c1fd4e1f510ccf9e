// Package free is free play: the shared buffer pool under a pgbench-like workload, with the
// WAL writer and the background writer (sim.New, sim.Workload). It declares the workload's
// parameters, its counters and its legend, and runs `bufferscope run`.
package free

import (
	"fmt"
	"io"
	"math"

	"github.com/bufferscope/bufferscope/sim"
	"github.com/bufferscope/bufferscope/sim/lab"
)

// Lab is free play.
type Lab struct{}

// Info names free play; its headless command is bufferscope run.
func (Lab) Info() lab.Info {
	return lab.Info{
		Name: "free", Command: "run", Title: "Free play",
		Summary: "run the free-play workload and print its counters",
	}
}

var def = sim.DefaultWorkload(sim.MinNBuffers)

// table is free play's parameters.
var table = &lab.Table{Params: []lab.Param{
	lab.SharedBuffers("The size of the pool, as PostgreSQL's shared_buffers: 128kB to 100GB. Pools over 1GB are drawn several buffers to a pixel."),
	{Key: "seed", Label: "Seed", Kind: lab.Uint, Default: "1",
		Doc: "Seeds the random source: the same seed and settings give the same run, step for step."},
	{Key: "version", Label: "PostgreSQL", Kind: lab.Int, Unit: "major version", Default: fmt.Sprint(int(sim.DefaultVersion)),
		Min: float64(sim.MinVersion), Max: float64(sim.MaxVersion),
		Presets: []lab.Option{{Value: "14"}, {Value: "15"}, {Value: "16"}, {Value: "17"}, {Value: "18"}, {Value: "19", Label: "19 (no freelist)"}},
		Doc:     "The major version the model follows: 19 removes the freelist, so only the clock sweep finds buffers."},
	{Key: "clients", Label: "Clients", Kind: lab.Int, Unit: "clients", Default: fmt.Sprint(def.Clients),
		Min: 0, Max: sim.MaxClients,
		Bounds: func(v lab.Values) (float64, float64, string) {
			n := lab.NBuffers(v)
			if n/2 < sim.MaxClients {
				return 0, float64(n / 2), fmt.Sprintf("at most half of the %d buffers: every client holds a pin", n)
			}
			return 0, sim.MaxClients, ""
		},
		Doc: "Client backends, each pinning one page at a time, pgbench-like; 0 leaves the pool to the background processes."},
	{Key: "updates", Label: "Updates", Kind: lab.Int, Unit: "%", Default: fmt.Sprint(def.UpdatePercent), Min: 0, Max: 100,
		Doc: "Share of accesses that change their page under a WAL record."},
	{Key: "distribution", Label: "Keys", Kind: lab.Choice, Default: def.Distribution.String(),
		Choices: []lab.Option{
			{Value: "uniform", Label: "Uniform", Doc: "Every block equally likely, as pgbench's random()."},
			{Value: "zipfian", Label: "Zipfian", Doc: "Block k with weight k^−s, as pgbench's random_zipfian()."},
		},
		Doc: "How clients pick blocks within a relation."},
	{Key: "zipf_s", Label: "Zipfian skew", Kind: lab.Float, Unit: "s", Default: fmt.Sprint(def.ZipfS),
		Min: sim.MinZipfianParam, Max: sim.MaxZipfianParam, Step: 0.01,
		Doc: "random_zipfian's skew s: the larger, the more accesses go to the first blocks."},
	{Key: "os_cache", Label: "OS cache hits", Kind: lab.Int, Unit: "%", Default: fmt.Sprint(def.OSCachePercent), Min: 0, Max: 100, Advanced: true,
		Doc: "Share of misses the kernel's page cache serves; the rest are read from storage."},
	{Key: "bgwriter_lru_maxpages", Label: "bgwriter_lru_maxpages", Kind: lab.Int, Unit: "pages", Default: fmt.Sprint(def.BgWriterPages),
		Min: 0, Max: 1073741823, Advanced: true,
		Doc: "Pages the background writer may write a round, as PostgreSQL's setting (0 to 1073741823); 0 turns it off."},
	{Key: "steps", Label: "Steps", Kind: lab.Int, Unit: "steps", Default: "100000", Min: 0, Max: 1 << 40, CLI: true,
		Doc: "Run this many simulation steps."},
	{Key: "seconds", Label: "Seconds", Kind: lab.Float, Unit: "s", Default: "0", Min: 0, Max: sim.MaxTime.Seconds(), CLI: true,
		Doc: "Run until the virtual clock reaches this many seconds; when above 0 it replaces --steps."},
}}

// Params returns free play's parameter table.
func (Lab) Params() *lab.Table { return table }

// Config returns the simulation free play builds from v.
func Config(v lab.Values) sim.Config {
	n := lab.NBuffers(v)
	w := sim.DefaultWorkload(n)
	w.Clients = v.Int("clients")
	w.UpdatePercent = v.Int("updates")
	w.Distribution, _ = sim.ParseDistribution(v.Text("distribution"))
	w.ZipfS = v.Float("zipf_s")
	w.OSCachePercent = v.Int("os_cache")
	w.BgWriterPages = v.Int("bgwriter_lru_maxpages")
	return sim.Config{NBuffers: n, Version: sim.Version(v.Int("version")), Seed: v.Uint("seed"), Workload: &w}
}

// New builds free play from v.
func (Lab) New(v lab.Values) (lab.Run, error) {
	s, err := sim.New(Config(v))
	if err != nil {
		return nil, err
	}
	return &run{s: s}, nil
}

// Counters are free play's counters: the pool's.
type Counters struct {
	lab.Pool
}

// Counters returns free play's counters at zero.
func (Lab) Counters() any { return &Counters{} }

// Events are what a reader of free play may want to find next.
func (Lab) Events() []lab.EventSpec {
	return []lab.EventSpec{
		{Kind: sim.EvEvict, Label: "eviction", Plural: "evictions", Doc: "The clock sweep evicts a valid page to make room."},
		{Kind: sim.EvWALFlush, Label: "WAL flush", Plural: "WAL flushes", Doc: "XLogFlush writes and syncs WAL."},
		{Kind: sim.EvWrite, Label: "page write", Plural: "page writes", Doc: "A dirty page is written (FlushBuffer)."},
	}
}

type run struct{ s *sim.Sim }

func (r *run) Sim() *sim.Sim          { return r.s }
func (r *run) Done() bool             { return false }
func (r *run) Seeded() bool           { return true }
func (r *run) Counters() any          { return &Counters{Pool: lab.PoolOf(r.s)} }
func (r *run) CheckInvariants() error { return r.s.CheckInvariants() }

// Legend gives each relation its own colour.
func (r *run) Legend() lab.Legend {
	rels := r.s.Relations()
	names := make([]string, len(rels))
	for i, rel := range rels {
		names[i] = rel.Name
	}
	return lab.PerRelation(names)
}

// Experiment returns bufferscope run.
func (Lab) Experiment() lab.Experiment { return experiment{} }

type experiment struct{}

// About is bufferscope run's usage.
func (experiment) About() string {
	return `Usage: bufferscope run [flags]

Run simulates the free-play workload once for each size in --shared-buffers and
prints one row of counters per size. The workload is pgbench-like: clients read
and update pages under WAL, beside the WAL writer and the background writer.
Workload flags left out take the defaults of the browser's free play. The same
flags print the same table natively and in WebAssembly; the hash column is the
simulation's state hash. --seconds stops at the first step that reaches the
time, or just after; its steps column reproduces the run through --steps.
`
}

// Row is one line of bufferscope run.
type Row struct {
	SharedBuffers      string  `col:"shared_buffers"`
	NBuffers           int     `col:"nbuffers"`
	Seed               uint64  `col:"seed"`
	Steps              uint64  `col:"steps"`
	ModelledSeconds    float64 `col:"modelled_seconds" prec:"6"`
	Accesses           uint64  `col:"accesses"`
	Hits               uint64  `col:"hits"`
	Misses             uint64  `col:"misses"`
	HitRatio           float64 `col:"hit_ratio" prec:"4"`
	Evictions          uint64  `col:"evictions"`
	DirtyWrites        uint64  `col:"dirty_writes"`
	BgWriterWrites     uint64  `col:"bgwriter_writes"`
	WALFlushes         uint64  `col:"wal_flushes"`
	WALFlushesBackend  uint64  `col:"wal_flushes_backend"`
	WALFlushesWriter   uint64  `col:"wal_flushes_walwriter"`
	DescriptorsChecked uint64  `col:"descriptors_checked"`
	Hash               string  `col:"hash"`
}

// Run runs the workload for each combination and returns a Row each.
func (experiment) Run(combos []lab.Values, _ io.Writer) ([]any, error) {
	var rows []any
	for _, v := range combos {
		s, err := sim.New(Config(v))
		if err != nil {
			return nil, fmt.Errorf("shared_buffers %s: %w", v.Text("shared_buffers"), err)
		}
		if secs := v.Float("seconds"); secs > 0 {
			err = StepUntil(s, sim.Duration(math.Round(secs*float64(sim.Second))))
		} else {
			err = StepN(s, v.Int("steps"))
		}
		if err != nil {
			return nil, fmt.Errorf("shared_buffers %s: %w", v.Text("shared_buffers"), err)
		}
		st := s.Stats()
		rows = append(rows, Row{
			SharedBuffers: v.Text("shared_buffers"), NBuffers: s.Pool.NBuffers, Seed: s.Config().Seed,
			Steps: st.Steps, ModelledSeconds: s.Now().Seconds(), Accesses: st.Accesses, Hits: st.Hits,
			Misses: st.Misses, HitRatio: st.HitRatio(), Evictions: st.Evictions, DirtyWrites: st.DirtyWrites,
			BgWriterWrites: st.BgWriterWrites, WALFlushes: st.WALFlushes, WALFlushesBackend: st.WALFlushesBackend,
			WALFlushesWriter: st.WALFlushesWriter, DescriptorsChecked: st.DescriptorsChecked,
			Hash: fmt.Sprintf("%016x", s.Hash()),
		})
	}
	return rows, nil
}

// StepN takes n steps in commands of at most sim.MaxStepsPerCommand.
func StepN(s Stepper, n int) error {
	for n > 0 {
		c := min(n, sim.MaxStepsPerCommand)
		if err := s.Step(c); err != nil {
			return err
		}
		n -= c
	}
	return nil
}
