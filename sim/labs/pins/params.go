package pins

import (
	"fmt"

	"github.com/bufferscope/bufferscope/sim"
	"github.com/bufferscope/bufferscope/sim/lab"
)

var boolChoices = []lab.Option{{Value: "true", Label: "yes"}, {Value: "false", Label: "no"}}

func durationParam(key, label, def, doc string) lab.Param {
	return lab.Param{Key: key, Label: label, Kind: lab.Text, Unit: "duration", Default: def, Doc: doc,
		Parse: func(s string, _ lab.Values) (string, error) {
			d, err := parseServerTime(s)
			if err != nil {
				return "", fmt.Errorf("not a duration %v, like 5s or 600s", err)
			}
			return d.String(), nil
		}}
}

// parseServerTime reads a span of the server's time: above zero and at most sim.MaxTime, the
// end of a simulation's virtual time, so that its normalised text (Duration.String, to three
// decimals) reads back as itself.
func parseServerTime(s string) (sim.Duration, error) {
	d, err := sim.ParseDuration(s)
	if err != nil || d <= 0 || d > sim.MaxTime {
		return 0, fmt.Errorf("above 0 and at most %v", sim.MaxTime)
	}
	return d, nil
}

// DefaultSharedBuffers is the lab's pool: 2,048 buffers, enough for the table's 1,640 heap
// pages and the index's 275 at the default 100,000 rows with room for a run's growth, so
// that, as in the published runs, the whole data set is in shared buffers and every cell of
// the grid is a page of the story. The model's throughput does not depend on the pool's
// size while the data fits.
const DefaultSharedBuffers = "16MB"

// sharedBuffers is the pool's parameter with the lab's default, offered among the sizes in
// order.
func sharedBuffers() lab.Param {
	return lab.SharedBuffersDefault("The size of the pool holding the table's and its index's pages. From 16MB the default table and index fit whole, as in the published runs; a smaller pool evicts pages and reads them back.", DefaultSharedBuffers)
}

// table is the pins lab's parameters.
var table = &lab.Table{
	Params: []lab.Param{
		sharedBuffers(),
		{Key: "clients", Label: "Clients", Kind: lab.Int, Unit: "clients", Default: "20", Min: 1, Max: 1000, Sweep: true,
			Bounds: func(v lab.Values) (float64, float64, string) {
				return 1, float64(min(1000, (lab.NBuffers(v)-4)/2)), "at most (NBuffers − 4)/2, so pinned pages never fill the pool: a client holds at most two pins between its steps (its leaf and its heap page) and two more within one"
			},
			Doc: "pgbench clients, each one connection running one transaction after another."},
		{Key: "policy", Label: "Pin policy", Kind: lab.Choice, Default: DropPin.String(), Sweep: true,
			Choices: []lab.Option{
				{Value: "keep-pin", Label: "keep pin (before 9.5)", Doc: "Every scan keeps its leaf pin until it leaves the page (8217fb14): hints are always safe to set, VACUUM waits for the pin."},
				{Value: "drop-pin", Label: "drop pin (9.5–18)", Doc: "MVCC scans of WAL-logged indexes that are not index-only drop the pin after reading the page (2ed5b87f96); _bt_killitems then sets hints only if the page LSN has not moved."},
				{Value: "pg19", Label: "drop pin, unlogged too (19)", Doc: "As 9.5–18, and unlogged indexes get fake LSNs so their scans drop the pin too (8a879119a1)."},
			},
			Doc: "Whether a B-tree scan keeps or drops its leaf-page pin, by PostgreSQL version."},
		{Key: "select_share", Label: "SELECT share", Kind: lab.Float, Unit: "share", Default: "0.5", Min: 0, Max: 1, Step: 0.05,
			Doc: "The share of transactions that read a row by its key; the others update its balance, a HOT update when the new version fits on its heap page, else a new index entry."},
		{Key: "zipf", Label: "Zipfian skew", Kind: lab.Float, Default: "1.1", Min: sim.MinZipfianParam, Max: 5, Step: 0.1,
			Doc: "pgbench random_zipfian's parameter: key k is drawn with probability proportional to k^-s, so low keys, on the leftmost leaf, are hot."},
		{Key: "unique", Label: "Unique index", Kind: lab.Choice, Default: "true", Choices: boolChoices,
			Doc: "A unique index checks each insert against the key's other entries (_bt_check_unique), which marks dead ones LP_DEAD as it goes."},
		{Key: "logged", Label: "Logged", Kind: lab.Choice, Default: "true", Choices: boolChoices,
			Doc: "Whether the table and index are WAL-logged. An unlogged index's LSN never moves before PostgreSQL 19, so its scans keep the pin; its commits need no WAL flush."},
		{Key: "index_only", Label: "Index-only SELECTs", Kind: lab.Choice, Default: "false", Choices: boolChoices, Advanced: true,
			Doc: "Whether the SELECTs are index-only scans, which never drop the leaf pin."},
		{Key: "vacuum", Label: "VACUUM", Kind: lab.Choice, Default: "true", Choices: boolChoices,
			Doc: "Whether VACUUM runs on the index every naptime, taking a cleanup lock on every leaf."},
		{Key: "naptime", Label: "VACUUM every", Kind: lab.Text, Unit: "duration", Default: "60s", Advanced: true,
			Parse: func(s string, _ lab.Values) (string, error) {
				d, err := parseServerTime(s)
				if err != nil {
					return "", fmt.Errorf("not a duration %v, like 60s", err)
				}
				return d.String(), nil
			},
			Doc: "autovacuum_naptime: the time from the end of one VACUUM to the start of the next, divided by scale like the duration."},
		{Key: "cores", Label: "CPU cores", Kind: lab.Int, Unit: "cores", Default: "16", Min: 1, Max: 256,
			Doc: "The server's CPU cores: backends queue for them, first come first served."},
		{Key: "rows", Label: "Rows", Kind: lab.Int, Unit: "rows", Default: "100000", Min: 1000, Max: 300000, Advanced: true,
			Doc: "Rows of the table (pgbench_accounts at scale 1 has 100000); the index starts with one entry per row, leaves 90% full."},
		durationParam("duration", "Duration", "600s", "The run's length, as pgbench -T; the server simulates duration/scale."),
		durationParam("slice", "Slice", "5s", "The length of the slices whose TPS is measured (pgbench --progress); divided by scale like the duration."),
		{Key: "scale", Label: "Time scale", Kind: lab.Int, Default: "1000", Min: 1, Max: 100000, Advanced: true,
			Doc: "The run simulates duration/scale of the server's time, op by op, with slices and naptime divided alike; TPS is per simulated second. 1000 turns a 600s run into 0.6s of 100k-400k transactions."},
		{Key: "seed", Label: "Seed", Kind: lab.Uint, Default: "1",
			Doc: "Seed of the random source that draws the transactions and keys."},
	},
	Check: check,
}

// MaxSlices bounds the slices of a run. The server counts each slice's commits in a list
// that grows with the slices passed, so a slice of 1ps in a 600s run (6×10^14 slices)
// exhausted memory before the page drew a frame.
const MaxSlices = 100_000

// check refuses a slice so short that the run would hold more than MaxSlices of them; the
// slice used instead is the shortest round one (1, 2 or 5 times a power of ten) that fits.
func check(v lab.Values) []*lab.Problem {
	_, _, dur, slice := ConfigOf(v)
	if dur/slice <= MaxSlices {
		return nil
	}
	given := v.Text("slice")
	d, _ := sim.ParseDuration(v.Text("duration"))
	least := (d + MaxSlices - 1) / MaxSlices
	used := roundUp(least)
	for v["slice"] = used.String(); ; v["slice"] = used.String() {
		if _, _, dur, slice := ConfigOf(v); dur/slice <= MaxSlices {
			break
		}
		used *= 2 // the scale's rounding left a few too many
	}
	return []*lab.Problem{{Key: "slice", Value: given, Used: used.String(),
		Problem: fmt.Sprintf("not at least %v (a %s run holds at most %d slices)", least, v.Text("duration"), MaxSlices)}}
}

// roundUp returns the least of 1, 2 or 5 times a power of ten picoseconds that is at least d.
func roundUp(d sim.Duration) sim.Duration {
	for p := sim.Duration(1); ; p *= 10 {
		for _, m := range []sim.Duration{1, 2, 5, 10} {
			if m*p >= d {
				return m * p
			}
		}
	}
}

// ConfigOf returns the server v describes, its pool size, and the server time to run and
// the slice length, both divided by scale.
func ConfigOf(v lab.Values) (cfg Config, nbuffers int, duration, slice sim.Duration) {
	pol, _ := ParsePolicy(v.Text("policy"))
	scale := sim.Duration(v.Int("scale"))
	dur, _ := sim.ParseDuration(v.Text("duration"))
	sl, _ := sim.ParseDuration(v.Text("slice"))
	nap, _ := sim.ParseDuration(v.Text("naptime"))
	cfg = Config{
		Policy: pol, Clients: v.Int("clients"), Cores: v.Int("cores"), SelectShare: v.Float("select_share"),
		ZipfS: v.Float("zipf"), Rows: v.Int("rows"), Unique: v.Text("unique") == "true", Logged: v.Text("logged") == "true",
		IndexOnly: v.Text("index_only") == "true", Vacuum: v.Text("vacuum") == "true", VacuumEvery: max(nap/scale, 1),
		Seed: v.Uint("seed"), Cost: DefaultCost(),
	}
	return cfg, lab.NBuffers(v), max(dur/scale, 1), max(sl/scale, 1)
}
