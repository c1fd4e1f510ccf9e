package pins

import (
	"strings"
	"testing"

	"github.com/bufferscope/bufferscope/sim"
	"github.com/bufferscope/bufferscope/sim/lab"
)

// newRun builds the lab's run for the defaults changed by kv.
func newRun(t *testing.T, kv map[string]string) *run {
	t.Helper()
	v, problems := table.Parse(kv)
	if len(problems) > 0 {
		t.Fatal(problems[0])
	}
	r, err := Lab{}.New(v)
	if err != nil {
		t.Fatal(err)
	}
	return r.(*run)
}

// The invariants hold after every step, under each policy: no hint set by a dropped-pin
// scan after the LSN moved, no cleanup lock granted while another backend pins the leaf,
// the pool's own rules, and no hint moving an LSN (KillItems panics on that).
// Reference: src/backend/access/nbtree/nbtutils.c, _bt_killitems;
// src/backend/storage/buffer/bufmgr.c, LockBufferForCleanup.
func TestInvariantsEveryStep(t *testing.T) {
	for _, pol := range []string{"keep-pin", "drop-pin", "pg19"} {
		for _, logged := range []string{"true", "false"} {
			// A pool far smaller than the table and index (they evict each other), and a
			// table small enough that VACUUM's heap pass ends and its index pass starts
			// within the run.
			r := newRun(t, map[string]string{"policy": pol, "logged": logged, "clients": "40", "shared_buffers": "1MB", "naptime": "2s", "duration": "20s", "rows": "10000"})
			sawDead := false
			for range 3000 {
				if err := r.Sim().Step(20); err != nil {
					t.Fatal(err)
				}
				if err := r.CheckInvariants(); err != nil {
					t.Fatalf("%s logged=%s: %v", pol, logged, err)
				}
				// The dead items' counts the index keeps agree with a count of its items.
				d, lp := r.srv.Index.DeadItems()
				if cd, clp := r.srv.Index.countDeadItems(); d != cd || lp != clp {
					t.Fatalf("%s logged=%s: DeadItems says %d dead, %d LP_DEAD; the items show %d and %d", pol, logged, d, lp, cd, clp)
				}
				sawDead = sawDead || lp > 0
			}
			if !sawDead {
				t.Errorf("%s logged=%s: no LP_DEAD dead item in the whole run, so the counts went unchecked", pol, logged)
			}
			c := r.Counters().(*Counters)
			if c.Commits == 0 || c.HintsSet == 0 {
				t.Errorf("%s logged=%s: %+v", pol, logged, c)
			}
			dropped := pol != "keep-pin" && (logged == "true" || pol == "pg19")
			if dropped && c.HintsLost == 0 {
				t.Errorf("%s logged=%s: dropped pins lost no hints on hot leaves", pol, logged)
			}
			if !dropped && c.VacuumWaitSeconds == 0 {
				t.Errorf("%s logged=%s: VACUUM never waited for a kept pin", pol, logged)
			}
		}
	}
}

// The page's counters at the end equal the headless command's row for the same values.
func TestCountersMatchExperiment(t *testing.T) {
	kv := map[string]string{"clients": "30", "duration": "30s", "seed": "7"}
	r := newRun(t, kv)
	for !r.Done() {
		if err := r.Sim().Step(10000); err != nil {
			t.Fatal(err)
		}
	}
	v, _ := table.Parse(kv)
	rows, err := experiment{}.Run([]lab.Values{v}, nil)
	if err != nil {
		t.Fatal(err)
	}
	row := rows[0].(Row)
	c := r.Counters().(*Counters)
	if c.HintsSet != row.HintsSet || c.HintsLost != row.HintsLost || c.DeadItems != row.DeadItems || c.Splits != row.Splits || c.TPS != row.TPS {
		t.Fatalf("page %+v, command %+v", c, row)
	}
}

// The smallest pool with the most clients it allows, and the largest table, run without
// breaking: every pinned leaf still leaves the clock sweep a victim.
func TestExtremesRun(t *testing.T) {
	for _, kv := range []map[string]string{
		{"shared_buffers": "128kB", "clients": "1000", "policy": "keep-pin", "cores": "256"},
		{"shared_buffers": "1MB", "clients": "64", "policy": "keep-pin", "cores": "1", "zipf": "5", "select_share": "0"},
		{"rows": "300000", "clients": "1", "select_share": "1", "vacuum": "false"},
	} {
		v, _ := table.Parse(kv)
		r, err := Lab{}.New(v)
		if err != nil {
			t.Fatal(err)
		}
		for range 50 {
			if err := r.Sim().Step(1000); err != nil {
				t.Fatal(err)
			}
		}
		if err := r.CheckInvariants(); err != nil {
			t.Fatalf("%v: %v", kv, err)
		}
	}
}

// The same values and seed give the same run; another seed another.
func TestDeterministic(t *testing.T) {
	run := func(seed string) Row {
		v, _ := table.Parse(map[string]string{"clients": "40", "duration": "20s", "seed": seed})
		rows, err := experiment{}.Run([]lab.Values{v}, nil)
		if err != nil {
			t.Fatal(err)
		}
		return rows[0].(Row)
	}
	a, b, c := run("3"), run("3"), run("4")
	if a != b {
		t.Fatalf("same seed, different rows: %+v, %+v", a, b)
	}
	if a == c {
		t.Fatalf("seeds 3 and 4 gave the same row %+v", a)
	}
}

// A run stepped one event per call reaches the same state and clock as one stepped in one
// call: the page's playback and seeking group steps as they like.
func TestSteppingInChunksAgrees(t *testing.T) {
	v, problems := table.Parse(map[string]string{"clients": "6", "duration": "5s", "naptime": "1s"})
	if len(problems) > 0 {
		t.Fatal(problems)
	}
	one, err := Lab{}.New(v)
	if err != nil {
		t.Fatal(err)
	}
	many, err := Lab{}.New(v)
	if err != nil {
		t.Fatal(err)
	}
	const n = 500
	if err := one.Sim().Step(n); err != nil {
		t.Fatal(err)
	}
	for range n {
		if err := many.Sim().Step(1); err != nil {
			t.Fatal(err)
		}
	}
	if a, b := one.Sim().Now(), many.Sim().Now(); a != b || a == 0 {
		t.Errorf("clock after one call of %d: %v; after %d calls of one: %v", n, a, n, b)
	}
	if a, b := one.Sim().Hash(), many.Sim().Hash(); a != b {
		t.Errorf("hash after one call %x, after single steps %x", a, b)
	}
}

// TestSliceCountBounded: a slice so short that the run would hold more than MaxSlices of
// them is refused with the shortest round slice that fits. A 1ps slice in a 600s run
// (6×10^14 slices) grew the server's list of slice commits until memory ran out, so the
// page hung on its first step; now a run steps at once.
func TestSliceCountBounded(t *testing.T) {
	for _, c := range []struct {
		kv      map[string]string
		used    string
		problem string
	}{
		{map[string]string{"slice": "1ps"}, "10ms", `slice "1ps": not at least 6ms (a 600s run holds at most 100000 slices); using 10ms`},
		{map[string]string{"slice": "1ns", "scale": "1", "duration": "9000s"}, "100ms", `slice "1ns": not at least 90ms (a 9000s run holds at most 100000 slices); using 100ms`},
		{map[string]string{"slice": "6ms"}, "6ms", ""},
	} {
		v, problems := table.Parse(c.kv)
		got := ""
		if len(problems) > 0 {
			got = problems[0].Error()
		}
		if got != c.problem || v.Text("slice") != c.used {
			t.Errorf("%v: slice %s, problem %q; want %s, %q", c.kv, v.Text("slice"), got, c.used, c.problem)
		}
		if _, _, dur, slice := ConfigOf(v); dur/slice > MaxSlices {
			t.Errorf("%v: %d slices", c.kv, dur/slice)
		}
	}
	r := newRun(t, map[string]string{"slice": "10ms", "shared_buffers": "1MB"})
	if err := r.Sim().Step(10_000); err != nil {
		t.Fatal(err)
	}
}

// When the page's command-driven backends pin every buffer the server's own backends do not,
// a backend that must read a leaf finds no victim: the step fails with PostgreSQL's error,
// and the server, stopped in the middle of a phase, takes no more steps. The pool's
// invariants still hold.
// Reference: src/backend/storage/buffer/freelist.c, StrategyGetBuffer ("no unpinned buffers
// available").
func TestNoUnpinnedBufferStopsTheServer(t *testing.T) {
	r := newRun(t, map[string]string{"shared_buffers": "128kB", "clients": "6", "rows": "10000"})
	s := r.Sim()
	if err := s.Step(20); err != nil {
		t.Fatal(err)
	}
	for blk := sim.BlockNumber(1); blk <= 16; blk++ {
		_ = s.Apply(sim.PinCmd{PageCmd: sim.PageCmd{Backend: int(blk % 4), Rel: r.srv.rel.Name, Block: blk}})
	}
	err := s.Step(500)
	if err == nil || !strings.Contains(err.Error(), "no unpinned buffers available") {
		t.Fatalf("stepping with the pool pinned: %v, want no unpinned buffers available", err)
	}
	if err := r.CheckInvariants(); err != nil {
		t.Fatal(err)
	}
	steps := s.Stats().Steps
	if again := s.Step(1); again == nil || again.Error() != err.Error() || s.Stats().Steps != steps {
		t.Fatalf("the stopped server stepped on: %v, steps %d → %d", again, steps, s.Stats().Steps)
	}
}
