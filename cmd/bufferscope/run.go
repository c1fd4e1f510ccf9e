package main

import (
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/bufferscope/bufferscope/sim"
)

// runAbout is the usage of bufferscope run above its flags.
const runAbout = `Usage: bufferscope run [flags]

Run simulates the free-play workload once for each size in --shared-buffers and
prints one row of counters per size. The workload is pgbench-like: clients read
and update pages under WAL, beside the WAL writer and the background writer.
Workload flags left out take the defaults of the browser's free play. The same
flags print the same table natively and in WebAssembly; the hash column is the
simulation's state hash. --seconds stops at the first step that reaches the
time, or just after; its steps column reproduces the run through --steps.
`

// The PostgreSQL releases the models follow, as free play's version control offers them.
const (
	minVersion = 14
	maxVersion = 19
)

// Limits of bufferscope run's duration flags.
const (
	defaultSteps = 100_000
	maxSeconds   = 1e6 // about 11.6 days of virtual time; keeps seconds×sim.Second in int64
)

// runFlags are the flags of bufferscope run.
type runFlags struct {
	*flagSet
	sizes        *[]string
	seed         *uint64
	version      *int
	clients      *int
	updates      *int
	distribution *string
	zipfS        *float64
	osCache      *int
	bgwriter     *int
	steps        *int
	seconds      *float64
	format       format
}

// newRunFlags defines the flags of bufferscope run. Workload flags show the defaults of
// sim.DefaultWorkload, which apart from the relations do not depend on the pool size.
func newRunFlags() *runFlags {
	def := sim.DefaultWorkload(sim.MinNBuffers)
	f := &runFlags{flagSet: newFlagSet("run", runAbout)}
	f.example = "--steps 1000"
	f.sizes = f.List("shared-buffers", sim.DefaultSharedBuffers,
		"`sizes` of shared_buffers, comma-separated, 128kB to 100GB; one row each",
		func(s string) error {
			_, err := sim.SharedBuffersToNBuffers(s)
			if err != nil {
				return simProblem(err)
			}
			return nil
		})
	f.seed = f.Uint64("seed", 1, "`n` seeds the random source; the same seed gives the same run")
	f.version = f.Int("version", int(sim.DefaultVersion),
		fmt.Sprintf("PostgreSQL major `version` the model follows, %d to %d", minVersion, maxVersion),
		between(minVersion, maxVersion))
	f.clients = f.Int("clients", def.Clients, "`n` client backends, each pinning one page at a time", nil)
	f.updates = f.Int("updates", def.UpdatePercent, "`percent` of accesses that change their page under WAL", nil)
	f.distribution = f.Choice("distribution", def.Distribution.String(), []string{"uniform", "zipfian"},
		"`kind` of block choice: uniform or zipfian")
	f.zipfS = f.Float("zipf-s", def.ZipfS,
		fmt.Sprintf("Zipfian skew `s`, %g to %g", sim.MinZipfianParam, sim.MaxZipfianParam), nil)
	f.osCache = f.Int("os-cache", def.OSCachePercent, "`percent` of misses served by the kernel's page cache", nil)
	f.bgwriter = f.Int("bgwriter-lru-maxpages", def.BgWriterPages,
		"`n` pages the background writer may write a round; 0 turns it off", nil)
	f.steps = f.Int("steps", defaultSteps, "run `n` simulation steps", func(n int) error {
		if n < 0 {
			return errors.New("not 0 or more")
		}
		return nil
	})
	f.seconds = f.Float("seconds", math.NaN(),
		"run until the virtual clock reaches `s` seconds, instead of --steps",
		func(x float64) error {
			if x < 0 || x > maxSeconds {
				return fmt.Errorf("not between 0 and %s", strconv.FormatFloat(maxSeconds, 'f', -1, 64))
			}
			return nil
		})
	f.define("format", markdown.String(), "output `format`: markdown, csv or json", func(s string) error {
		v, err := parseFormat(s)
		if err == nil {
			f.format = v
		}
		return err
	})
	return f
}

// workload returns the free-play workload for a pool of nbuffers buffers: DefaultWorkload
// with the workload flags the command line gave.
func (f *runFlags) workload(nbuffers int) sim.Workload {
	w := sim.DefaultWorkload(nbuffers)
	if f.Set("clients") {
		w.Clients = *f.clients
	}
	if f.Set("updates") {
		w.UpdatePercent = *f.updates
	}
	if f.Set("distribution") {
		w.Distribution, _ = sim.ParseDistribution(*f.distribution) // checked by the flag
	}
	if f.Set("zipf-s") {
		w.ZipfS = *f.zipfS
	}
	if f.Set("os-cache") {
		w.OSCachePercent = *f.osCache
	}
	if f.Set("bgwriter-lru-maxpages") {
		w.BgWriterPages = *f.bgwriter
	}
	return w
}

// runResult is one finished run: the size as the command line wrote it and the simulation.
type runResult struct {
	size string
	s    *sim.Sim
}

// runColumns are the columns bufferscope run prints, each with how to fill it.
var runColumns = []struct {
	name  string
	value func(r runResult) cell
}{
	{"shared_buffers", func(r runResult) cell { return text(r.size) }},
	{"nbuffers", func(r runResult) cell { return intCell(r.s.Pool.NBuffers) }},
	{"seed", func(r runResult) cell { return uintCell(r.s.Config().Seed) }},
	{"steps", func(r runResult) cell { return uintCell(r.s.Stats().Steps) }},
	{"modelled_seconds", func(r runResult) cell { return floatCell(r.s.Now().Seconds(), 6) }},
	{"accesses", func(r runResult) cell { return uintCell(r.s.Stats().Accesses) }},
	{"hits", func(r runResult) cell { return uintCell(r.s.Stats().Hits) }},
	{"misses", func(r runResult) cell { return uintCell(r.s.Stats().Misses) }},
	{"hit_ratio", func(r runResult) cell { return floatCell(r.s.Stats().HitRatio(), 4) }},
	{"evictions", func(r runResult) cell { return uintCell(r.s.Stats().Evictions) }},
	{"dirty_writes", func(r runResult) cell { return uintCell(r.s.Stats().DirtyWrites) }},
	{"bgwriter_writes", func(r runResult) cell { return uintCell(r.s.Stats().BgWriterWrites) }},
	{"wal_flushes", func(r runResult) cell { return uintCell(r.s.Stats().WALFlushes) }},
	{"wal_flushes_backend", func(r runResult) cell { return uintCell(r.s.Stats().WALFlushesBackend) }},
	{"wal_flushes_walwriter", func(r runResult) cell { return uintCell(r.s.Stats().WALFlushesWriter) }},
	{"descriptors_checked", func(r runResult) cell { return uintCell(r.s.Stats().DescriptorsChecked) }},
	{"hash", func(r runResult) cell { return text(fmt.Sprintf("%016x", r.s.Hash())) }},
}

// runMain is bufferscope run. It checks every size's configuration before running any, so
// a bad value fails at once, then runs the sizes in turn and prints the table.
func runMain(args []string, stdout, _ io.Writer) error {
	f := newRunFlags()
	if err := f.Parse(args, stdout); err != nil {
		return err
	}
	if f.Set("steps") && f.Set("seconds") {
		return usagef("--steps and --seconds both given: run for a number of steps or until a virtual time, not both")
	}
	cfgs := make([]sim.Config, len(*f.sizes))
	for i, size := range *f.sizes {
		n, err := sim.SharedBuffersToNBuffers(size)
		if err != nil {
			return usagef("--shared-buffers %q: %v", size, simProblem(err))
		}
		w := f.workload(n)
		if err := w.Validate(n); err != nil {
			return usagef("shared_buffers %s: %v", size, err)
		}
		cfgs[i] = sim.Config{NBuffers: n, Version: sim.Version(*f.version), Seed: *f.seed, Workload: &w}
	}
	t := &table{}
	for _, c := range runColumns {
		t.columns = append(t.columns, c.name)
	}
	for i, cfg := range cfgs {
		size := (*f.sizes)[i]
		s, err := sim.New(cfg)
		if err != nil {
			return usagef("shared_buffers %s: %v", size, err)
		}
		if f.Set("seconds") {
			err = stepUntil(s, sim.Duration(math.Round(*f.seconds*float64(sim.Second))))
		} else {
			err = stepN(s, *f.steps)
		}
		if err != nil {
			return fmt.Errorf("shared_buffers %s: %w", size, err)
		}
		row := make([]cell, len(runColumns))
		for j, c := range runColumns {
			row[j] = c.value(runResult{size: size, s: s})
		}
		t.add(row...)
	}
	return t.write(stdout, f.format)
}

// stepper is the part of *sim.Sim that stepping needs; tests give a stand-in.
type stepper interface {
	Step(n int) error
	Now() sim.Duration
	Stats() sim.Stats
}

// stepN runs n steps, in commands of at most sim.MaxStepsPerCommand.
func stepN(s stepper, n int) error {
	for n > 0 {
		k := min(n, sim.MaxStepsPerCommand)
		if err := s.Step(k); err != nil {
			return err
		}
		n -= k
	}
	return nil
}

// Batching of stepUntil.
const (
	// A batch is 1/untilShare of the steps the mean rate so far says remain, so it overshoots
	// only if the clock runs untilShare times faster than its mean so far.
	untilShare = 8
	// untilMinBatch is the smallest batch; below it stepUntil takes single steps.
	untilMinBatch = 512
	// maxStalledSteps is how many steps may pass without the virtual clock moving before
	// stepUntil gives up rather than loop for ever.
	maxStalledSteps = 1 << 20
)

// stepUntil steps s until its virtual clock reaches t. It steps in batches, each at most
// 1/untilShare of the steps the mean rate so far says remain and at most the steps taken so
// far (the first steps say little about the rate), and singly when the batch would be below
// untilMinBatch, so it stops at the first step that reaches t, or in rare cases just after,
// with a short command log; the steps taken reproduce the run through --steps. It fails if
// the clock stops moving.
func stepUntil(s stepper, t sim.Duration) error {
	stalled := 0
	for s.Now() < t {
		now := s.Now()
		n := 1
		if steps := s.Stats().Steps; now > 0 {
			est := float64(t-now) / float64(now) * float64(steps) / untilShare
			if est >= untilMinBatch {
				n = int(min(est, float64(steps), sim.MaxStepsPerCommand))
			}
		}
		if err := s.Step(n); err != nil {
			return err
		}
		if s.Now() > now {
			stalled = 0
			continue
		}
		if stalled += n; stalled >= maxStalledSteps {
			return fmt.Errorf("the virtual clock stopped at %v: %d steps without it moving", now, stalled)
		}
	}
	return nil
}
