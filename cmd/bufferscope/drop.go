package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/bufferscope/bufferscope/sim"
	"github.com/bufferscope/bufferscope/sim/labs/drop"
)

// dropAbout is the usage of bufferscope drop above its flags.
const dropAbout = `Usage: bufferscope drop [flags]
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
modelled_seconds is the virtual time of the whole replay under the default cost
model; descriptors_checked, lookups and buffers_invalidated add up every drop.
The experiment is deterministic and draws no random numbers: the same flags
print the same table, whatever --seed says.

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
  bufferscope drop --reproduce > drop.md
`

// maxDropBlocks bounds the blocks of an experiment's relations at one size: 1TB of 8kB
// pages. VACUUM replays every heap page and the lookup path looks up every block, and the
// simulated disk keeps an LSN for each page written, so beyond this an experiment would run
// for hours or exhaust memory.
const maxDropBlocks = 1 << 27

// The words of --transactions and --mode.
const (
	perRelation = "per-relation"
	singleXact  = "single"
	recovery    = "recovery"
	primary     = "primary"
)

// dropPolicyNames are the words --policy accepts.
var dropPolicyNames = []string{sim.DropPG13.String(), sim.DropPG14.String(), sim.DropLookup.String()}

// dropFlags are the flags of bufferscope drop.
type dropFlags struct {
	*flagSet
	sizes        *[]string
	tables       *[]string // COUNTxBLOCKS groups as written
	op           *string
	transactions *string
	mode         *string
	policies     *[]string
	threshold    sim.Threshold
	seed         *uint64
	format       format
	reproduce    *bool
}

// newDropFlags defines the flags of bufferscope drop.
func newDropFlags() *dropFlags {
	f := &dropFlags{flagSet: newFlagSet("drop", dropAbout)}
	f.example = "--tables 1000x1"
	f.sizes = f.List("shared-buffers", sim.DefaultSharedBuffers,
		"`sizes` of shared_buffers, comma-separated, 128kB to 100GB; a row for each size and policy",
		func(s string) error {
			_, err := sim.SharedBuffersToNBuffers(s)
			if err != nil {
				return simProblem(err)
			}
			return nil
		})
	f.tables = f.List("tables", drop.DefaultTables,
		fmt.Sprintf("the relations, as comma-separated `groups` COUNTxBLOCKS: 1000x1 is 1000 "+
			"relations of one block; BLOCKS may be NB/k, NBuffers/k of each size (1xNB/32); "+
			"at most %d relations and %d blocks (1TB) in all", drop.MaxRelations, maxDropBlocks),
		func(s string) error {
			_, err := drop.ParseTableGroups(s)
			if err != nil {
				return simProblem(err)
			}
			return nil
		})
	f.op = f.Choice("op", drop.OpDrop.String(),
		[]string{drop.OpDrop.String(), drop.OpTruncate.String(), drop.OpVacuum.String()},
		"`operation` whose WAL is replayed: drop (DROP TABLE), truncate (TRUNCATE) or vacuum, "+
			"a VACUUM that truncates relations whose rows were all deleted")
	f.transactions = f.Choice("transactions", perRelation, []string{perRelation, singleXact},
		"the `kind` of transactions: per-relation gives each relation its own; single puts "+
			"all in one, whose commit drops all their buffers at once. Not for vacuum, which "+
			"PostgreSQL runs outside transaction blocks")
	f.mode = f.Choice("mode", recovery, []string{recovery, primary},
		"the server's `mode`: recovery is a standby replaying the WAL, where the sizes of "+
			"the forks are cached; primary is the primary, where they never are, so every "+
			"drop scans")
	f.policies = f.List("policy", sim.DropPG14.String(),
		"drop `policies`, comma-separated: pg13 always scans the pool; pg14 looks blocks up "+
			"when their sizes are cached and fewer than the threshold; lookup looks them up "+
			"whenever their sizes are cached",
		func(s string) error {
			if _, err := sim.ParseDropPolicy(s); err != nil {
				return fmt.Errorf("not %s", orList(dropPolicyNames))
			}
			return nil
		})
	f.define("threshold", sim.Threshold{}.String(),
		"BUF_DROP_FULL_SCAN_THRESHOLD of pg14, in `blocks` or as NB/k, NBuffers/k of each size",
		func(s string) error {
			t, err := sim.ParseThreshold(s)
			if err != nil {
				return simProblem(err)
			}
			f.threshold = t
			return nil
		})
	f.seed = f.Uint64("seed", 1,
		"`n` is accepted for symmetry with run; the drop experiment is deterministic and "+
			"draws no random numbers, so it changes nothing")
	f.define("format", markdown.String(), "output `format`: markdown, csv or json", func(s string) error {
		v, err := parseFormat(s)
		if err == nil {
			f.format = v
		}
		return err
	})
	f.reproduce = f.Bool("reproduce",
		"run the experiments behind the published measurements instead and print them "+
			"beside the simulation; exit 1 if a target fails")
	return f
}

// dropRun is one size of a drop experiment: the size as the command line wrote it and the
// experiment, with its threshold resolved for the size.
type dropRun struct {
	size string
	e    drop.Experiment
}

// experiments checks the flags and returns the experiment of each size, before any runs.
func (f *dropFlags) experiments() ([]dropRun, error) {
	op, _ := drop.ParseOperation(*f.op) // checked by the flag
	if op == drop.OpVacuum && *f.transactions == singleXact {
		return nil, usagef("--transactions single: VACUUM cannot run inside a transaction block, " +
			"so each relation is vacuumed and truncated on its own; single is for --op drop or truncate")
	}
	var tables []drop.TableGroup
	relations := 0
	for _, g := range *f.tables {
		gs, _ := drop.ParseTableGroups(g) // checked by the flag
		for _, x := range gs {
			relations += x.Count
		}
		tables = append(tables, gs...)
	}
	if relations > drop.MaxRelations {
		return nil, usagef("--tables %q: %d relations in all; at most %d",
			strings.Join(*f.tables, ","), relations, drop.MaxRelations)
	}
	var runs []dropRun
	for _, size := range *f.sizes {
		n, err := sim.SharedBuffersToNBuffers(size)
		if err != nil {
			return nil, usagef("--shared-buffers %q: %v", size, simProblem(err))
		}
		var blocks uint64
		for _, g := range tables {
			blocks += uint64(g.Count) * uint64(g.Resolve(n))
		}
		if blocks > maxDropBlocks {
			return nil, usagef("--tables %q: %d blocks in all at shared_buffers %s; at most %d (1TB)",
				strings.Join(*f.tables, ","), blocks, size, maxDropBlocks)
		}
		runs = append(runs, dropRun{size: size, e: drop.Experiment{
			NBuffers:   n,
			Tables:     tables,
			Op:         op,
			SingleXact: *f.transactions == singleXact,
			InRecovery: *f.mode == recovery,
			// A threshold of NB/k can come to 0 blocks in a small pool, which DropExperiment
			// would read as NBuffers/32. Every drop here drops at least one block, so a
			// threshold of 1 chooses the path exactly as 0 would: the scan, always.
			Threshold: f.threshold,
		}})
	}
	return runs, nil
}

// dropResult is one row of bufferscope drop: a size as written, its NBuffers, a policy and
// what the experiment did under it.
type dropResult struct {
	size     string
	nbuffers int
	policy   sim.DropPolicy
	r        drop.Result
}

// dropColumns are the columns bufferscope drop prints, each with how to fill it. Other
// tools read them by name: change them only with those tools.
var dropColumns = []struct {
	name  string
	value func(r dropResult) cell
}{
	{"shared_buffers", func(r dropResult) cell { return text(r.size) }},
	{"nbuffers", func(r dropResult) cell { return intCell(r.nbuffers) }},
	{"policy", func(r dropResult) cell { return text(r.policy.String()) }},
	{"path", func(r dropResult) cell { return text(r.r.Path) }},
	{"descriptors_checked", func(r dropResult) cell { return uintCell(r.r.DescriptorsChecked) }},
	{"lookups", func(r dropResult) cell { return uintCell(r.r.Lookups) }},
	{"buffers_invalidated", func(r dropResult) cell { return uintCell(r.r.Invalidated) }},
	// Nine digits give whole nanoseconds, so one lookup (160 ns) or descriptor check (5 ns)
	// shows.
	{"modelled_seconds", func(r dropResult) cell { return floatCell(r.r.Time.Seconds(), 9) }},
}

// dropMain is bufferscope drop. It checks every size's experiment before running any, so a
// bad value fails at once, then runs each size under every policy and prints the table.
func dropMain(args []string, stdout, stderr io.Writer) error {
	f := newDropFlags()
	if err := f.Parse(args, stdout); err != nil {
		return err
	}
	if *f.reproduce {
		return f.reproduceMain(stdout, stderr)
	}
	runs, err := f.experiments()
	if err != nil {
		return err
	}
	policies := make([]sim.DropPolicy, len(*f.policies))
	for i, p := range *f.policies {
		policies[i], _ = sim.ParseDropPolicy(p) // checked by the flag
	}
	t := &table{}
	for _, c := range dropColumns {
		t.columns = append(t.columns, c.name)
	}
	for _, x := range runs {
		results, err := drop.RunExperiment(x.e, policies...)
		if err != nil {
			return fmt.Errorf("shared_buffers %s: %w", x.size, err)
		}
		for i, r := range results {
			row := make([]cell, len(dropColumns))
			for j, c := range dropColumns {
				row[j] = c.value(dropResult{size: x.size, nbuffers: x.e.NBuffers, policy: policies[i], r: r})
			}
			t.add(row...)
		}
	}
	return t.write(stdout, f.format)
}

// reproduceDrop runs the published drop experiments; tests replace it, as the real ones
// take over a minute and 3.5GB.
var reproduceDrop = drop.Reproduce

// reproduceMain is bufferscope drop --reproduce: it prints the published tables beside the
// simulated ones and fails if a target is missed.
func (f *dropFlags) reproduceMain(stdout, stderr io.Writer) error {
	var others []string
	for _, name := range f.order {
		if name != "reproduce" && f.Set(name) {
			others = append(others, "--"+name)
		}
	}
	if len(others) > 0 {
		return usagef("--reproduce cannot be combined with %s: it runs the published experiments with their own settings",
			orList(others))
	}
	r, err := reproduceDrop(sim.CostModel{}, func(s string) { fmt.Fprintf(stderr, "reproducing: %s\n", s) })
	if err != nil {
		return err
	}
	if _, err := io.WriteString(stdout, r.Markdown()); err != nil {
		return err
	}
	failed := 0
	for _, c := range r.Checks {
		if !c.Pass {
			failed++
		}
	}
	if failed > 0 {
		return fmt.Errorf("%d of %d targets of the published measurements missed", failed, len(r.Checks))
	}
	return nil
}
