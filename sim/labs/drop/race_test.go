package drop

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/bufferscope/bufferscope/sim"
	"github.com/bufferscope/bufferscope/sim/lab"
)

// races are drop labs raced under every kind of replay: the defaults, scans of many relations
// (bsearch past 20), VACUUM's page records and truncations, TRUNCATE with indexes, a
// primary (both sides scan), a checkpoint that forgets the sizes, PostgreSQL 13 chosen (the
// rival is then 14), lookups forced past the crossover, a tiny pool.
var races = []struct {
	name   string
	values map[string]string
}{
	{"defaults", map[string]string{}},
	{"bsearch", map[string]string{"tables": "30x2", "transactions": "single"}},
	{"vacuum", map[string]string{"shared_buffers": "1MB", "tables": "2x40,3x3", "op": "vacuum"}},
	{"truncate indexes", map[string]string{"shared_buffers": "1MB", "tables": "4x5+2i+t", "op": "truncate"}},
	{"primary", map[string]string{"tables": "6x3", "mode": "primary"}},
	{"checkpoint", map[string]string{"tables": "5x4", "checkpoint": "yes"}},
	{"pg13 chosen", map[string]string{"tables": "8x20", "policy": "pg13"}},
	{"lookups forced", map[string]string{"tables": "3xNB/8", "policy": "lookup"}},
	{"tiny pool", map[string]string{"shared_buffers": "128kB", "tables": "5x2"}},
}

// buildRace builds the lab for values through its interface and returns the run, its panes
// and the experiment.
func buildRace(t *testing.T, values map[string]string) (lab.Run, []lab.Pane, Experiment, sim.DropPolicy) {
	t.Helper()
	v, problems := table.Parse(values)
	if len(problems) > 0 {
		t.Fatalf("%v: %v", values, problems)
	}
	run, err := Lab{}.New(v)
	if err != nil {
		t.Fatal(err)
	}
	panes := lab.PanesOf(run)
	if len(panes) != 2 || panes[0].Run != run {
		t.Fatalf("%v: %d panes, the first %v; want the run and its rival", values, len(panes), panes[0].Run)
	}
	e, pol := ExperimentOf(v)
	return run, panes, e, pol
}

// clock is a side's modelled time so far.
func clock(p lab.Pane) sim.Duration { return p.Run.Counters().(*Counters).time() }

func (c *Counters) time() sim.Duration { return sim.Duration(c.ModelledSeconds*1e9 + 0.5) }

// TestRaceIsEachPolicyAlone runs races to the end and checks that each side ends with exactly
// what bufferscope drop prints for its policy (RunExperiment), the chosen policy first and
// its rival second, and that the race's steps are the units of both.
func TestRaceIsEachPolicyAlone(t *testing.T) {
	for _, x := range races {
		t.Run(x.name, func(t *testing.T) {
			run, panes, e, pol := buildRace(t, x.values)
			if panes[0].Key != pol.String() || panes[1].Key != RivalPolicy(pol).String() || panes[0].Label == "" || panes[1].Label == "" {
				t.Fatalf("panes %q (%s) and %q (%s)", panes[0].Key, panes[0].Label, panes[1].Key, panes[1].Label)
			}
			for !run.Done() {
				if err := run.Sim().Step(4096); err != nil {
					t.Fatal(err)
				}
				if err := run.CheckInvariants(); err != nil {
					t.Fatal(err)
				}
			}
			want, err := RunExperiment(e, pol, RivalPolicy(pol))
			if err != nil {
				t.Fatal(err)
			}
			units := uint64(0)
			for i, p := range panes {
				c := p.Run.Counters().(*Counters)
				got := ProgressOf(p.Run.Sim()).Result
				if got != want[i] || !c.Done || c.ResultPath != want[i].Path || c.PathSoFar != want[i].Path {
					t.Errorf("%s: the race ended with %+v (%+v); alone it ends with %+v", p.Key, got, c, want[i])
				}
				units += c.Step
			}
			if steps := run.Sim().Stats().Steps; steps != units {
				t.Errorf("the race took %d steps for %d units of its two replays", steps, units)
			}
		})
	}
}

// naiveRace races two replays the obvious way: one unit at a time, of the own replay while
// its modelled time is at or before the rival's, of the rival otherwise, and of whichever is
// left once one is done.
type naiveRace struct{ own, rival *sim.Sim }

func (n *naiveRace) step(units int) {
	for range units {
		o, r := ProgressOf(n.own), ProgressOf(n.rival)
		switch {
		case o.Done && r.Done:
			return
		case !o.Done && (r.Done || o.Result.Time <= r.Result.Time):
			n.own.Step(1)
		default:
			n.rival.Step(1)
		}
	}
}

// TestRaceStepsTheSideBehind holds the race against naiveRace: stepped in frames of random
// sizes, after every frame each side's pool, clock and counts are exactly those of the race
// run one unit at a time, and the rival's simulation has the same hash.
func TestRaceStepsTheSideBehind(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, x := range races {
		t.Run(x.name, func(t *testing.T) {
			run, panes, e, pol := buildRace(t, x.values)
			own, err := NewReplay(e, pol)
			if err != nil {
				t.Fatal(err)
			}
			rival, err := NewReplay(e, RivalPolicy(pol))
			if err != nil {
				t.Fatal(err)
			}
			naive := &naiveRace{own, rival}
			n := e.NBuffers
			a, b := make([]sim.BufferView, n), make([]sim.BufferView, n)
			for frame := 0; !run.Done(); frame++ {
				k := 1 + rng.IntN(3*n)
				if err := run.Sim().Step(k); err != nil {
					t.Fatal(err)
				}
				naive.step(k)
				for i, s := range []*sim.Sim{own, rival} {
					got, want := ProgressOf(panes[i].Run.Sim()), ProgressOf(s)
					panes[i].Run.Sim().Snapshot(a, 0)
					s.Snapshot(b, 0)
					if got.Result != want.Result || got.Units != want.Units || !slices.Equal(a, b) {
						t.Fatalf("frame %d (%d steps), %s: the race is at %+v, one unit at a time at %+v", frame, k, panes[i].Key, got, want)
					}
				}
				if got, want := panes[1].Run.Sim().Hash(), rival.Hash(); got != want {
					t.Fatalf("frame %d: the rival's hash %016x, one unit at a time %016x", frame, got, want)
				}
			}
			if o, r := ProgressOf(own), ProgressOf(rival); !o.Done || !r.Done {
				t.Fatal("the race is done and the naive one is not")
			}
		})
	}
}

// TestRaceKeepsOneClock steps races frame by frame, as the page plays them, and checks that
// both sides advance by the same modelled time per frame: while both run, their clocks are
// never further apart than the longest single unit either replay has (measured by replaying
// each alone one unit at a time), and a frame moves them by amounts that differ by no more
// than twice that.
func TestRaceKeepsOneClock(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, x := range races {
		t.Run(x.name, func(t *testing.T) {
			run, panes, e, pol := buildRace(t, x.values)
			var longest sim.Duration
			for _, p := range []sim.DropPolicy{pol, RivalPolicy(pol)} {
				s, err := NewReplay(e, p)
				if err != nil {
					t.Fatal(err)
				}
				for !ProgressOf(s).Done {
					t0 := ProgressOf(s).Result.Time
					s.Step(1)
					longest = max(longest, ProgressOf(s).Result.Time-t0)
				}
			}
			both := 0
			for !run.Done() {
				a0, b0 := clock(panes[0]), clock(panes[1])
				if err := run.Sim().Step(1 + rng.IntN(max(e.NBuffers/16, 4))); err != nil {
					t.Fatal(err)
				}
				a, b := clock(panes[0]), clock(panes[1])
				if ProgressOf(panes[0].Run.Sim()).Done || ProgressOf(panes[1].Run.Sim()).Done {
					continue
				}
				both++
				if d := a - b; d > longest || -d > longest {
					t.Fatalf("the clocks are %v and %v apart, more than the longest unit (%v)", a, b, longest)
				}
				if d := (a - a0) - (b - b0); d > 2*longest || -d > 2*longest {
					t.Fatalf("a frame moved %s by %v and %s by %v", panes[0].Key, a-a0, panes[1].Key, b-b0)
				}
			}
			if both == 0 {
				t.Fatal("no frame ran both sides")
			}
		})
	}
}

// finishOrder races v to the end and returns the keys of the panes in the order they
// finished (the first to finish first) and their modelled times.
func finishOrder(t *testing.T, values map[string]string) ([]string, []sim.Duration) {
	t.Helper()
	run, panes, _, _ := buildRace(t, values)
	var order []string
	for !run.Done() {
		if err := run.Sim().Step(64); err != nil {
			t.Fatal(err)
		}
		for _, p := range panes {
			if ProgressOf(p.Run.Sim()).Done && !slices.Contains(order, p.Key) {
				order = append(order, p.Key)
			}
		}
	}
	return order, []sim.Duration{clock(panes[0]), clock(panes[1])}
}

// TestRaceLookupsFinishFirstAtTheDefaults: at the lab's defaults (a standby replaying 96
// DROP TABLEs of NBuffers/128 blocks each in a 128MB pool), PostgreSQL 14 looks each table's
// blocks up and finishes before PostgreSQL 13, which scans the pool for every table.
// Reference: src/backend/storage/buffer/bufmgr.c, DropRelationsAllBuffers (commit bea449c635)
func TestRaceLookupsFinishFirstAtTheDefaults(t *testing.T) {
	order, times := finishOrder(t, nil)
	if fmt.Sprint(order) != "[pg14 pg13]" || times[0] >= times[1] {
		t.Errorf("at the defaults the race finished in the order %v, in %v and %v; want pg14 first", order, times[0], times[1])
	}
}

// TestRaceScanWinsPastTheCrossover: past the threshold PostgreSQL 14 scans too, so both sides
// take the same time; with the lookups forced on for tables of NBuffers/8 blocks, well past
// the crossover (about NBuffers/42 at 128MB), the full scan wins.
// Reference: src/backend/storage/buffer/bufmgr.c, BUF_DROP_FULL_SCAN_THRESHOLD
func TestRaceScanWinsPastTheCrossover(t *testing.T) {
	order, times := finishOrder(t, map[string]string{"tables": "4xNB/16"})
	if len(order) != 2 || times[0] != times[1] {
		t.Errorf("past the threshold the race finished in %v and %v; want a tie, both scanning", times[0], times[1])
	}
	order, times = finishOrder(t, map[string]string{"tables": "4xNB/8", "policy": "lookup"})
	if fmt.Sprint(order) != "[pg13 lookup]" || times[1] >= times[0] {
		t.Errorf("lookups forced past the crossover: the race finished in the order %v, in %v and %v; want pg13 first", order, times[0], times[1])
	}
}

// TestNoRaceAbove20GB: above RaceMaxNBuffers the lab replays the policy chosen alone.
func TestNoRaceAbove20GB(t *testing.T) {
	if !Racing(2_621_440) || Racing(2_621_441) {
		t.Error("the race is for pools up to 20GB")
	}
	v, _ := table.Parse(map[string]string{"shared_buffers": "1MB"})
	run, err := Lab{}.New(v)
	if err != nil {
		t.Fatal(err)
	}
	if len(lab.PanesOf(run)) != 2 {
		t.Error("a 1MB pool does not race")
	}
}
