package drop

import (
	"fmt"
	"strings"

	"github.com/bufferscope/bufferscope/sim"
	"github.com/bufferscope/bufferscope/sim/lab"
)

// DefaultTables are the drop lab's tables when none are given: 96 tables of NBuffers/128
// blocks each, three quarters of the pool at any size, so that the replay is seen to empty
// the pool, and each table far enough below BUF_DROP_FULL_SCAN_THRESHOLD (NBuffers/32) and
// below the crossover of the cost model (about NBuffers/42 at 128MB) that PostgreSQL 14's
// lookups beat the full scan. Table B of the published measurements (1000x1) is one address
// away.
const DefaultTables = "96xNB/128"

// MaxBlocks bounds the blocks of an experiment's relations at one size: 1TB of 8kB pages.
// VACUUM replays every heap page and the lookup path looks up every block, and the simulated
// disk keeps an LSN for each page written, so beyond this an experiment would run for hours
// or exhaust memory.
const MaxBlocks = 1 << 27

// The words of transactions and mode.
const (
	perRelation = "per-relation"
	singleXact  = "single"
	recovery    = "recovery"
	primary     = "primary"
)

// table is the drop lab's parameters.
var table = &lab.Table{
	Params: []lab.Param{
		lab.SharedBuffers("The size of the pool: a full scan checks every one of its buffer descriptors."),
		{Key: "tables", Label: "Tables", Kind: lab.Text, Unit: "COUNTxBLOCKS", Default: DefaultTables,
			Parse: func(s string, _ lab.Values) (string, error) {
				gs, err := ParseTableGroups(s)
				if err != nil {
					return "", problemOf(err)
				}
				parts := make([]string, len(gs))
				for i, g := range gs {
					parts[i] = g.String()
				}
				return strings.Join(parts, ","), nil
			},
			Doc: fmt.Sprintf("The tables, as comma-separated groups COUNTxBLOCKS: 1000x1 is 1000 tables of one block; "+
				"BLOCKS may be NB/k, NBuffers/k of the pool (1xNB/32). +Ni gives each table N B-tree indexes of 1+⌈2×BLOCKS/3⌉ blocks "+
				"and +t a TOAST table (empty) with its index (one block): 1000x1+2i+t. DROP TABLE and TRUNCATE drop a table with its "+
				"indexes and TOAST in one call; VACUUM truncates only the heap. At most %d relations and %d blocks (1TB) in all.", MaxRelations, MaxBlocks)},
		{Key: "op", Label: "Operation", Kind: lab.Choice, Default: OpDrop.String(),
			Choices: []lab.Option{
				{Value: "drop", Label: "DROP TABLE", Doc: "The replay of each commit record unlinks the relations' files and drops all their buffers (DropRelationsAllBuffers)."},
				{Value: "truncate", Label: "TRUNCATE", Doc: "TRUNCATE gives each table a new file; the commit's replay unlinks the old ones and drops their buffers (DropRelationsAllBuffers)."},
				{Value: "vacuum", Label: "VACUUM truncation", Doc: "VACUUM's records are replayed page by page, then each table is truncated to nothing (DropRelationBuffers on its main, free space map and visibility map forks)."},
			},
			Doc: "The operation whose WAL is replayed."},
		{Key: "transactions", Label: "Transactions", Kind: lab.Choice, Default: perRelation,
			Choices: []lab.Option{
				{Value: perRelation, Label: "one per relation", Doc: "Each relation is dropped by its own commit: one drop per relation."},
				{Value: singleXact, Label: "one for all", Doc: "One commit drops all the relations at once: their blocks count together against the threshold, and a full scan checks each buffer against all of them (by binary search beyond 20)."},
			},
			Doc: "Whether each relation has its own transaction. Not for vacuum, which PostgreSQL runs outside transaction blocks."},
		{Key: "mode", Label: "Server", Kind: lab.Choice, Default: recovery,
			Choices: []lab.Option{
				{Value: recovery, Label: "standby replaying WAL", Doc: "While it replays WAL the startup process caches each fork's size (smgrnblocks_cached), so it knows exactly which blocks to look up."},
				{Value: primary, Label: "primary", Doc: "On a primary the sizes are never cached, so PostgreSQL cannot be sure it found every buffer by lookups: every drop scans the whole pool."},
			},
			Doc: "Where the drops happen."},
		{Key: "policy", Label: "Drop policy", Kind: lab.Choice, Default: sim.DropPG14.String(), Sweep: true,
			Choices: []lab.Option{
				{Value: "pg14", Label: "PostgreSQL 14+", Doc: "When every size is cached and fewer blocks than the threshold are dropped, look each up; otherwise scan the pool."},
				{Value: "pg13", Label: "PostgreSQL 13: always scan", Doc: "Check every buffer descriptor for every drop, as PostgreSQL 13 and earlier do."},
				{Value: "lookup", Label: "lookups forced", Doc: "Look every block up whenever the sizes are cached, however many there are: the optimisation forced on, as in the test that chose the threshold."},
			},
			Doc: "How a drop finds the buffers."},
		{Key: "threshold", Label: "Threshold", Kind: lab.Text, Unit: "blocks or NB/k", Default: "NB/32",
			Parse: func(s string, _ lab.Values) (string, error) {
				t, err := sim.ParseThreshold(s)
				if err != nil {
					return "", problemOf(err)
				}
				return t.String(), nil
			},
			Doc: "BUF_DROP_FULL_SCAN_THRESHOLD: PostgreSQL 14 looks blocks up only when fewer than this many are dropped at once; NB/32 is PostgreSQL's value."},
		{Key: "checkpoint", Label: "Checkpoint before the drops", Kind: lab.Choice, Default: "no", Advanced: true,
			Choices: []lab.Option{
				{Value: "no", Label: "no", Doc: "The relations' sizes are still cached from the replay of their inserts."},
				{Value: "yes", Label: "yes", Doc: "A checkpoint record is replayed between the relations' last change and the drops: from PostgreSQL 17 its replay forgets every cached size (commit 8c8f7b199d), so DROP and TRUNCATE commits scan the pool; VACUUM's truncation asks for the sizes again."},
			},
			Doc: "Whether a checkpoint record is replayed after the relations were last written and before the operation."},
		{Key: "version", Label: "PostgreSQL version", Kind: lab.Int, Default: "17", Min: float64(sim.MinVersion), Max: float64(sim.MaxVersion), Advanced: true,
			Doc: "The server's major version; it decides whether replaying a checkpoint record forgets the cached sizes (17 and later). The drop policy decides the path choice."},
		{Key: "device", Label: "Storage", Kind: lab.Choice, Default: sim.DeviceServer.String(), Advanced: true,
			Choices: deviceOptions(),
			Doc:     "The storage preset that prices pg_control's fsync (once per replayed record that drops or truncates) and each file create, truncate or unlink."},
		{Key: "cost", Label: "Cost parts", Kind: lab.Text, Unit: "PART=VALUE", Default: "", Advanced: true, Repeat: true,
			Parse: func(s string, _ lab.Values) (string, error) {
				if _, err := sim.ParseCostOverrides(s, sim.CostModel{}); err != nil {
					return "", err
				}
				return normaliseCosts(s), nil
			},
			Doc: "Overrides of the cost model's parts, as comma-separated PART=VALUE (memory_latency=200ns, cache_size=30MB); " +
				"bufferscope drop --costs lists the parts with their defaults, units and sources. A lookup costs tag_hash + lwlock_pair + " +
				"a probe (cache_probe while the mapping table fits in cache_size, memory_latency beyond); a descriptor check costs " +
				"descriptor_compare while the descriptors fit in cache_size, memory_line beyond."},
		{Key: "seed", Label: "Seed", Kind: lab.Uint, Default: "1", CLI: true,
			Doc: "Accepted for symmetry with the other commands: the replay draws no random numbers, so every seed prints the same table."},
	},
	Check: check,
}

// check refuses what cannot run together: VACUUM in one transaction, and relations that do
// not fit in memory.
func check(v lab.Values) []*lab.Problem {
	var out []*lab.Problem
	if v.Text("op") == OpVacuum.String() && v.Text("transactions") == singleXact {
		out = append(out, &lab.Problem{Key: "transactions", Value: singleXact,
			Problem: "VACUUM cannot run inside a transaction block: each relation is vacuumed and truncated on its own",
			Used:    perRelation})
		v["transactions"] = perRelation
	}
	gs, _ := ParseTableGroups(v.Text("tables"))
	n := lab.NBuffers(v)
	var blocks uint64
	for _, g := range gs {
		blocks += uint64(g.Count) * uint64(g.TableBlocks(n))
	}
	if blocks > MaxBlocks {
		out = append(out, &lab.Problem{Key: "tables", Value: v.Text("tables"),
			Problem: fmt.Sprintf("%d blocks in all at shared_buffers %s; at most %d (1TB)", blocks, v.Text("shared_buffers"), MaxBlocks),
			Used:    DefaultTables})
		v["tables"] = DefaultTables
	}
	return out
}

// ExperimentOf returns the experiment v describes, and its policy.
func ExperimentOf(v lab.Values) (Experiment, sim.DropPolicy) {
	gs, _ := ParseTableGroups(v.Text("tables"))
	op, _ := ParseOperation(v.Text("op"))
	t, _ := sim.ParseThreshold(v.Text("threshold"))
	pol, _ := sim.ParseDropPolicy(v.Text("policy"))
	return Experiment{
		NBuffers: lab.NBuffers(v), Tables: gs, Op: op,
		SingleXact: v.Text("transactions") == singleXact, InRecovery: v.Text("mode") == recovery,
		Threshold: t, Cost: CostOf(v), Checkpoint: v["checkpoint"] == "yes", Version: versionOf(v),
	}, pol
}

// CostOf returns the cost model v describes: the device preset, then the overridden parts.
// A value without the cost parameters (an older address) gives the defaults.
func CostOf(v lab.Values) sim.CostModel {
	var c sim.CostModel
	if d, err := sim.ParseDevice(v["device"]); err == nil {
		c.Device = d
	}
	c, _ = sim.ParseCostOverrides(v["cost"], c)
	return c
}

// versionOf returns v's version, or the default for a value without one.
func versionOf(v lab.Values) sim.Version {
	if _, ok := v["version"]; !ok {
		return 0
	}
	return sim.Version(v.Int("version"))
}

// deviceOptions are the device presets as choices.
func deviceOptions() []lab.Option {
	var out []lab.Option
	for _, d := range sim.Devices() {
		c := sim.CostModel{Device: d}.WithDefaults()
		out = append(out, lab.Option{Value: d.String(),
			Label: fmt.Sprintf("%s (pg_control fsync %v)", d, c.ControlFileSync),
			Doc:   fmt.Sprintf("pg_control's write and fsync %v, a file call %v: %s.", c.ControlFileSync, c.FileOp, d.Source())})
	}
	return out
}

// normaliseCosts writes overrides as PART=VALUE joined by commas, without spaces; a part
// given twice keeps its last value, in the place of its first.
func normaliseCosts(s string) string {
	var keys []string
	vals := map[string]string{}
	for _, item := range strings.Split(s, ",") {
		k, val, ok := strings.Cut(strings.TrimSpace(item), "=")
		if !ok {
			continue
		}
		k, val = strings.TrimSpace(k), strings.TrimSpace(val)
		if _, seen := vals[k]; !seen {
			keys = append(keys, k)
		}
		vals[k] = val
	}
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + "=" + vals[k]
	}
	return strings.Join(parts, ",")
}

// problemOf returns what sim found wrong with a value, without the value itself.
func problemOf(err error) error {
	if ve, ok := err.(*sim.ValueError); ok {
		return fmt.Errorf("%s", ve.Problem)
	}
	return err
}
