// Package drop is the drop lab: how a relation's pages leave shared buffers when DROP
// TABLE, TRUNCATE or a VACUUM truncation is replayed on a standby (or run on a primary), by
// a full scan of every buffer descriptor or by one mapping-table lookup per block, as
// DropRelationBuffers and DropRelationsAllBuffers choose (sim/drop.go).
//
// The lab is a replay (replay.go) of an experiment (experiment.go) stepped unit by unit: a
// WAL record replayed, a descriptor checked or a block looked up. Its parameters
// (params.go), counters, legend and headless experiment (this file) follow the lab shape
// of package lab; reproduce.go reproduces the published measurements and measure.go times
// the real paths on the reader's device.
package drop

import (
	"fmt"
	"io"
	"strings"

	"github.com/bufferscope/bufferscope/sim"
	"github.com/bufferscope/bufferscope/sim/lab"
)

// Lab is the drop lab.
type Lab struct{}

// Info names the drop lab.
func (Lab) Info() lab.Info {
	return lab.Info{
		Name: "drop", Command: "drop", Title: "Drop",
		Summary: "replay dropping relations' buffers under each drop policy",
	}
}

// Params returns the drop lab's parameter table.
func (Lab) Params() *lab.Table { return table }

// New builds the replay v describes: up to RaceMaxNBuffers, a race of the policy chosen
// against its rival (RivalPolicy), whose run is the first pane and the rival's the second;
// above it, the policy chosen alone.
func (Lab) New(v lab.Values) (lab.Run, error) {
	e, pol := ExperimentOf(v)
	if !Racing(e.NBuffers) {
		s, err := NewReplay(e, pol)
		if err != nil {
			return nil, err
		}
		return newRun(s, e), nil
	}
	rivalPol := RivalPolicy(pol)
	s, rival, err := NewRace(e, pol, rivalPol)
	if err != nil {
		return nil, err
	}
	own, other := newRun(s, e), newRun(rival, e)
	own.rival = other
	own.panes = []lab.Pane{paneOf(own, pol), paneOf(other, rivalPol)}
	return own, nil
}

func newRun(s *sim.Sim, e Experiment) *run {
	r := &run{s: s, nrel: relations(e.Tables)}
	r.smallest, r.largest, r.total = e.DropBlocks()
	return r
}

// paneOf is the pane of run r, which replays under policy pol, labelled as the policy control
// names it.
func paneOf(r *run, pol sim.DropPolicy) lab.Pane {
	label := map[sim.DropPolicy]string{sim.DropPG14: "PostgreSQL 14+", sim.DropPG13: "PostgreSQL 13", sim.DropLookup: "Lookups forced"}[pol]
	doc := ""
	for _, o := range table.Param("policy").Choices {
		if o.Value == pol.String() {
			doc = o.Doc
		}
	}
	return lab.Pane{Run: r, Key: pol.String(), Label: label, Doc: doc}
}

// NewRace builds the race of one drop experiment under policy own against policy rival
// (race.go): the simulation whose steps are the race's units, its pool replaying under own,
// and the rival's simulation, which only those steps advance. Both pools are filled alike:
// the rival's is a copy of the own one, made before either replays.
func NewRace(e Experiment, own, rival sim.DropPolicy) (*sim.Sim, *sim.Sim, error) {
	p, rels, err := prepareDropPool(e)
	if err != nil {
		return nil, nil, err
	}
	q, qrels := p.Clone(rels)
	p.Drop = sim.DropSettings{Policy: own, Threshold: e.Threshold}
	q.Drop = sim.DropSettings{Policy: rival, Threshold: e.Threshold}
	rr := newReplay(q, qrels, e)
	rs := sim.NewScenario(q, sim.Config{}, rr)
	return sim.NewScenario(p, sim.Config{}, &race{own: newReplay(p, rels, e), rival: rs, rr: rr}), rs, nil
}

func relations(gs []TableGroup) int {
	n := 0
	for _, g := range gs {
		n += g.Count * g.Relations()
	}
	return n
}

// Counters are the drop lab's counters. Once the replay is done, descriptorsChecked,
// lookups, invalidated, modelledSeconds and resultPath are what bufferscope drop prints for
// the same parameters.
type Counters struct {
	ModelledSeconds    float64 `counter:"modelledSeconds" label:"Modelled time" unit:"s" format:"seconds" doc:"The virtual time of the whole replay."`
	DropSeconds        float64 `counter:"dropSeconds" sub:"true" label:"of which dropping buffers" unit:"s" format:"seconds" doc:"The buffer work of the drops alone."`
	DescriptorsChecked uint64  `counter:"descriptorsChecked" label:"Descriptors checked" format:"count" doc:"Buffer descriptors the full scans visited."`
	Lookups            uint64  `counter:"lookups" label:"Lookups" format:"count" doc:"Blocks looked up in the buffer mapping table."`
	LookupMisses       uint64  `counter:"lookupMisses" sub:"true" label:"of which missed" format:"count" doc:"Lookups of blocks that were not in shared buffers."`
	Invalidated        uint64  `counter:"invalidated" label:"Buffers invalidated" format:"count" doc:"Buffers InvalidateBuffer emptied, unwritten."`
	Drops              int     `counter:"drops" label:"Drops" format:"count" doc:"DropRelationBuffers and DropRelationsAllBuffers calls."`
	Step               uint64  `counter:"step" label:"Replay steps" format:"count" doc:"Units replayed: a WAL record, a descriptor checked or a block looked up (in a race, by this side)."`
	Done               bool    `counter:"done" label:"Done" format:"bool" hidden:"true"`
	Path               string  `counter:"path" label:"Path of the drop under way" format:"text" hidden:"true" doc:"scan, lookup, or none between drops."`
	PathSoFar          string  `counter:"pathSoFar" label:"Paths so far" format:"text" hidden:"true" doc:"The paths the drops took so far, the one under way included: scan, lookup, mixed, or none before the first drop; at the end, resultPath."`
	ResultPath         string  `counter:"resultPath" label:"Path" format:"text" hidden:"true" doc:"The path of the whole replay: scan, lookup or mixed."`
	Relation           int     `counter:"relation" label:"Relation" format:"count" hidden:"true" doc:"Index of the relation being replayed."`
	RelationName       string  `counter:"relationName" label:"Relation name" format:"text" hidden:"true"`
	Relations          int     `counter:"relations" label:"Relations" format:"count" hidden:"true"`
	Cursor             int     `counter:"cursor" label:"Scan cursor" format:"count" hidden:"true" doc:"The next descriptor the scan under way checks, or -1."`
	ThresholdBlocks    uint64  `counter:"thresholdBlocks" label:"Threshold" unit:"blocks" format:"count" hidden:"true"`
	Blocks             int     `counter:"blocks" label:"Blocks dropped" unit:"blocks" format:"count" hidden:"true" doc:"The blocks of every drop call together."`
	SmallestDrop       int     `counter:"smallestDrop" label:"Smallest drop" unit:"blocks" format:"count" hidden:"true" doc:"The blocks of the smallest drop call (Experiment.DropBlocks)."`
	LargestDrop        int     `counter:"largestDrop" label:"Largest drop" unit:"blocks" format:"count" hidden:"true" doc:"The blocks of the largest drop call."`
}

// Counters returns the drop lab's counters at zero.
func (Lab) Counters() any { return &Counters{} }

// Events are what a reader of the drop lab may want to find next.
func (Lab) Events() []lab.EventSpec {
	return []lab.EventSpec{
		{Kind: sim.EvInvalidate, Label: "buffer dropped", Plural: "buffers dropped", Doc: "InvalidateBuffer empties a buffer of a dropped relation, unwritten."},
		{Kind: sim.EvLookup, Label: "lookup", Plural: "lookups", Doc: "A block is looked up in the buffer mapping table."},
	}
}

type run struct {
	s    *sim.Sim
	nrel int // the experiment's relations, first in the catalog; "others" follows
	// smallest, largest and total are the experiment's DropBlocks.
	smallest, largest, total int
	// In a race, the panes (this run first) and the rival's run; nil otherwise.
	panes []lab.Pane
	rival *run
}

func (r *run) Sim() *sim.Sim { return r.s }

// Done reports whether the replay is done: in a race, both.
func (r *run) Done() bool { return r.s.Done() }

// Panes returns the race's panes, or none when the run does not race.
func (r *run) Panes() []lab.Pane { return r.panes }

// Seeded is false: the replay draws no random numbers.
func (r *run) Seeded() bool { return false }

// CheckInvariants checks the pool's invariants, and in a race the rival's.
func (r *run) CheckInvariants() error {
	if err := r.s.CheckInvariants(); err != nil {
		return err
	}
	if r.rival != nil {
		if err := r.rival.s.CheckInvariants(); err != nil {
			return fmt.Errorf("the rival's pool: %w", err)
		}
	}
	return nil
}

// Relations returns how many relations the experiment drops; they come first in the
// catalog.
func (r *run) Relations() int { return r.nrel }

func (r *run) Counters() any {
	p := ProgressOf(r.s)
	res := p.Result
	name := ""
	if rels := r.s.Relations(); p.Relation < r.nrel && p.Relation < len(rels) {
		name = rels[p.Relation].Name
	}
	return &Counters{
		Step: p.Units, Done: p.Done, Path: p.Path.String(), PathSoFar: p.SoFar, ResultPath: res.Path,
		Relation: p.Relation, RelationName: name, Relations: r.nrel, Cursor: p.Cursor,
		ModelledSeconds: res.Time.Seconds(), DropSeconds: res.DropTime.Seconds(),
		DescriptorsChecked: res.DescriptorsChecked, Lookups: res.Lookups, LookupMisses: res.LookupMisses,
		Invalidated: res.Invalidated, Drops: res.Drops, ThresholdBlocks: r.s.Pool.BufDropFullScanThreshold(),
		Blocks: r.total, SmallestDrop: r.smallest, LargestDrop: r.largest,
	}
}

// The drop lab's mark colours on the light and dark themes: probe for what looks for a
// relation's buffers (the scan's cursor and trail, a lookup's ring, a missed lookup on the
// tape), burn for a buffer InvalidateBuffer empties.
var (
	probe = [2]string{"#2463eb", "#5e9bff"}
	burn  = [2]string{"#d7263d", "#ff5468"}
)

// Shades is how many colours the dropped relations take in turn.
const Shades = 4

// Legend colours the relations by role: the relation that fills the rest of the pool
// ("others") in a quiet grey, the dropped ones in Shades shades of one warm family taken in
// turn, alternating light and dark so that neighbours stay apart. Usage counts matter
// little to a drop, so colours fade less with them, and an emptied buffer is close to the
// background, so that dropped pages are seen to be gone.
func (r *run) Legend() lab.Legend {
	nrel := r.nrel
	return lab.Legend{
		Roles: []lab.Swatch{
			{Key: "others", Label: "other relations", Doc: "Pages of relations that stay.", Light: "#b0aca3", Dark: "#555a64"},
			{Key: "dropped1", Label: "relations being dropped", Doc: "Pages of the relations the replay drops, in four shades taken in turn.", Light: "#f76707", Dark: "#ffa94d"},
			{Key: "dropped2", Label: "", Light: "#b8420b", Dark: "#e8590c"},
			{Key: "dropped3", Label: "", Light: "#fa9a1e", Dark: "#ffc078"},
			{Key: "dropped4", Label: "", Light: "#d9530e", Dark: "#ff7a1a"},
		},
		Role: func(rel int) int {
			switch {
			case rel < 0:
				return -1
			case rel >= nrel:
				return 0
			}
			return 1 + rel%Shades
		},
		Marks: []lab.Swatch{
			{Key: "empty", Label: "Empty buffer", Doc: "On the freelist: a dropped page leaves its buffer empty."},
			{Key: "cursor", Label: "Scan cursor (ring)", Doc: "The next descriptor the full scan checks; markers in the rulers point at it."},
			{Key: "checked", Label: "Checked (blue tint)", Doc: "Descriptors the full scan under way has already checked.", Light: probe[0], Dark: probe[1]},
			{Key: "trail", Label: "Just checked", Doc: "Those it checked in the last half second, fading behind the cursor.", Light: probe[0], Dark: probe[1], Motion: true},
			{Key: "found", Label: "Found by a lookup", Doc: "A lookup in the buffer mapping table went straight to this buffer; a ring marks the latest.", Light: probe[0], Dark: probe[1]},
			{Key: "burn", Label: "Invalidated (red)", Doc: "InvalidateBuffer emptied it: the page is discarded, unwritten.", Light: burn[0], Dark: burn[1]},
			{Key: "lane", Label: "The lane under the grid", Wide: true, Shape: "hollow", Light: probe[0], Dark: probe[1],
				Doc: "A blue bar tracks the full scan through the pool. The tape shows the latest lookups, newest at the right: a bar in the relation's colour for a block that was in shared buffers, a hollow bar for one that was not. The lookups pay for every block, cached or not."},
		},
		Empty:    &lab.Swatch{Key: "empty", Label: "empty buffer", Light: "#efede7", Dark: "#1f2228", EdgeLight: "#d8d5cd", EdgeDark: "#30343c"},
		FadeFrom: 0.78,
	}
}

// Experiment returns bufferscope drop.
func (Lab) Experiment() lab.Experiment { return experiment{} }

type experiment struct{}

// About is bufferscope drop's usage.
func (experiment) About() string {
	return `Usage: bufferscope drop [flags]
       bufferscope drop --reproduce

Drop runs the drop lab's experiment for each size in --shared-buffers and each
policy in --policy (sizes first, policies within a size, in the order given)
and prints one row each. The pool first holds the pages of the relations of
--tables, then another relation's pages until every buffer is used. Then the
WAL of --op is replayed: for drop and truncate, commit records whose replay
drops every buffer of the transaction's relations (DropRelationsAllBuffers);
for vacuum, each relation's page records, then its truncation to zero blocks
(DropRelationBuffers on the main, free space map and visibility map forks).

A drop finds the buffers either by looking each block up in the buffer mapping
table (path lookup) or by checking every buffer descriptor (path scan); mixed
means some drops did each. PostgreSQL 14 (pg14) looks blocks up only when the
sizes of the forks are cached, which happens only in recovery, and fewer blocks
than BUF_DROP_FULL_SCAN_THRESHOLD (--threshold) are dropped at once; PostgreSQL
13 (pg13) always scans; lookup looks blocks up whenever the sizes are cached.
modelled_seconds is the virtual time of the whole replay under the cost model;
descriptors_checked, lookups and buffers_invalidated add up every drop.
The experiment is deterministic and draws no random numbers: the same flags
print the same table, whatever --seed says.

The cost model is built from named parts: a lookup is the tag's hash, the
partition lock's acquire and release, and a probe of the mapping table that
costs a memory access once the table outgrows the CPU cache; a descriptor check
streams from memory once the descriptor array outgrows it; replaying a record
that drops or truncates fsyncs pg_control (the --device preset) and truncates
and unlinks each fork's file. --costs lists every part with its value, default,
unit and source; --cost PART=VALUE (repeatable) overrides one.

--checkpoint yes replays a checkpoint record before the operation: from
PostgreSQL 17 (--version) that forgets every cached size (commit 8c8f7b199d),
so a DROP or TRUNCATE commit scans the pool however small its relations are.

--reproduce instead runs the experiments behind the published drop measurements
(pgsql-hackers, January 2021) and prints the published tables beside the
simulated ones as Markdown, with each target marked pass or FAIL; progress goes
to standard error. It exits 0 when every target passes and 1 when any fails.
It builds 100GB pools: over a minute of CPU time and about 3.5GB of memory. It
takes no other flag.

Examples:
  bufferscope drop --shared-buffers 128MB,1GB,20GB,100GB --tables 1000x1 \
      --op truncate --policy pg13,pg14 --format csv
  bufferscope drop --tables 1xNB/32,1xNB/64 --op vacuum --policy pg14,lookup
  bufferscope drop --tables 100x5 --transactions single --mode primary
  bufferscope drop --tables 1x600 --threshold 1024 --format json
  bufferscope drop --costs --shared-buffers 100GB
  bufferscope drop --tables 1xNB/16 --op vacuum --policy pg13,lookup \
      --shared-buffers 100GB --cost memory_latency=200ns --cost memory_line=8ns
  bufferscope drop --tables 1000x1 --op truncate --device hdd
  bufferscope drop --tables 100x1 --op truncate --checkpoint yes --version 16
  bufferscope drop --reproduce > drop.md
`
}

// Row is one line of bufferscope drop: a size as written, its NBuffers, a policy and what
// the experiment did under it. Other tools read the columns by name: change them only with
// those tools.
type Row struct {
	SharedBuffers      string `col:"shared_buffers"`
	NBuffers           int    `col:"nbuffers"`
	Policy             string `col:"policy"`
	Path               string `col:"path"`
	DescriptorsChecked uint64 `col:"descriptors_checked"`
	Lookups            uint64 `col:"lookups"`
	Invalidated        uint64 `col:"buffers_invalidated"`
	// Nine digits give whole nanoseconds, so one lookup (65–145 ns) or descriptor check
	// (1.5–5 ns) shows.
	ModelledSeconds float64 `col:"modelled_seconds" prec:"9"`
}

// Run runs each combination. Consecutive combinations that differ only in policy share
// one filled pool, as RunExperiment does.
func (experiment) Run(combos []lab.Values, _ io.Writer) ([]any, error) {
	var rows []any
	for i := 0; i < len(combos); {
		e, _ := ExperimentOf(combos[i])
		var policies []sim.DropPolicy
		j := i
		for ; j < len(combos) && samePool(combos[i], combos[j]); j++ {
			_, pol := ExperimentOf(combos[j])
			policies = append(policies, pol)
		}
		results, err := RunExperiment(e, policies...)
		if err != nil {
			return nil, fmt.Errorf("shared_buffers %s: %w", combos[i].Text("shared_buffers"), err)
		}
		for k, r := range results {
			rows = append(rows, Row{
				SharedBuffers: combos[i].Text("shared_buffers"), NBuffers: e.NBuffers, Policy: policies[k].String(),
				Path: r.Path, DescriptorsChecked: r.DescriptorsChecked, Lookups: r.Lookups,
				Invalidated: r.Invalidated, ModelledSeconds: r.Time.Seconds(),
			})
		}
		i = j
	}
	return rows, nil
}

// samePool reports whether two combinations differ at most in their policy.
func samePool(a, b lab.Values) bool {
	for k, v := range a {
		if k != "policy" && b[k] != v {
			return false
		}
	}
	return true
}

// ReproduceBudget is what make bench allows the reproduction natively (issue #16).
func (experiment) ReproduceBudget() (seconds, peakBytes float64) { return 60, 4 << 30 }

// Reproduce prints the published drop tables beside the simulated ones.
func (experiment) Reproduce(w, progress io.Writer) (bool, error) {
	r, err := reproduce(sim.CostModel{}, func(s string) { fmt.Fprintf(progress, "reproducing: %s\n", s) })
	if err != nil {
		return false, err
	}
	if _, err := io.WriteString(w, r.Markdown()); err != nil {
		return false, err
	}
	return r.Passed(), nil
}

// Costs lists every part of the cost model with its value under v, default, unit and
// source, then what they make of a lookup and a descriptor check at v's shared_buffers.
func (experiment) Costs(w io.Writer, v lab.Values) error {
	c := CostOf(v).WithDefaults()
	def := sim.CostModel{}.WithDefaults()
	var b strings.Builder
	b.WriteString("| part | value | default | unit | what it prices | source |\n|---|---|---|---|---|---|\n")
	for _, p := range sim.CostParts() {
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s |\n", p.Key, p.Value(c), p.Value(def), p.Unit, p.Doc, p.Source)
	}
	nb := lab.NBuffers(v)
	fmt.Fprintf(&b, "\nDevice %s: %s.\n", c.Device, c.Device.Source())
	fmt.Fprintf(&b, "At shared_buffers %s (NBuffers %d): the mapping table is %s (%s the %s cache), so a lookup costs %v; "+
		"the descriptors are %s (%s it), so a full scan checks each for %v and costs %v in all; "+
		"one lookup costs as much as %.1f descriptor checks.\n",
		v.Text("shared_buffers"), nb, megabytes(c.MappingTableBytes(nb)), fits(c.MappingTableBytes(nb) <= c.CacheSize), megabytes(c.CacheSize),
		c.BufTableLookupCost(nb), megabytes(int64(nb)*sim.DescriptorBytes), fits(int64(nb)*sim.DescriptorBytes <= c.CacheSize),
		c.DescriptorScanCost(nb), sim.Duration(nb)*c.DescriptorScanCost(nb),
		float64(c.BufTableLookupCost(nb))/float64(c.DescriptorScanCost(nb)))
	_, err := io.WriteString(w, b.String())
	return err
}

// megabytes writes a size in MB with one decimal.
func megabytes(n int64) string { return fmt.Sprintf("%.1fMB", float64(n)/(1<<20)) }

func fits(in bool) string {
	if in {
		return "within"
	}
	return "beyond"
}

// reproduce runs the published drop experiments; tests replace it, as the real ones take
// over a minute and 3.5GB.
var reproduce = Reproduce
