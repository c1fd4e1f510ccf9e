package fidelity

import (
	"strings"
	"testing"
)

// TestRingHooks gives the ring lab's hooks rows as the real experiments 1–3 produce them
// (the figures real PostgreSQL 13–18 gave at 128MB and a 10,345-page table) and checks the
// simulated side: exact page counts for the rings, WAL flushes within the stated tolerance,
// 13 simulated under 14's rules and said so.
func TestRingHooks(t *testing.T) {
	hooks := RingHooks()
	for _, tc := range []struct {
		row    Row
		agrees bool
	}{
		{Row{Experiment: ExpVacuumRing, Major: 13, Case: "vacuum_buffer_usage_limit default", Value: 32}, true},
		{Row{Experiment: ExpVacuumRing, Major: 16, Case: "vacuum_buffer_usage_limit 2MB", Value: 256}, true},
		{Row{Experiment: ExpVacuumRing, Major: 16, Case: "vacuum_buffer_usage_limit 16MB", Value: 2048}, true},
		{Row{Experiment: ExpVacuumRing, Major: 17, Case: "vacuum_buffer_usage_limit default", Value: 256}, true},
		{Row{Experiment: ExpVacuumRing, Major: 18, Case: "vacuum_buffer_usage_limit 0", Value: 10345}, true},
		{Row{Experiment: ExpVacuumRing, Major: 17, Case: "vacuum_buffer_usage_limit default", Value: 32}, false},
		{Row{Experiment: ExpSeqScanRing, Major: 13, Case: "count(*) of 10345 pages", Value: 32}, true},
		{Row{Experiment: ExpSeqScanRing, Major: 17, Case: "count(*) of 10345 pages", Value: 32}, true},
		{Row{Experiment: ExpSeqScanRing, Major: 18, Case: "count(*) of 10345 pages", Value: 94}, true},
		{Row{Experiment: ExpSeqScanRing, Major: 18, Case: "count(*) of 10345 pages", Value: 32}, false},
		{Row{Experiment: ExpVacuumWAL, Major: 14, Case: "cold, limit default", Value: 330}, true},
		{Row{Experiment: ExpVacuumWAL, Major: 14, Case: "cached, limit default", Value: 4}, true},
		{Row{Experiment: ExpVacuumWAL, Major: 16, Case: "cold, limit 16MB", Value: 9}, true},
		{Row{Experiment: ExpVacuumWAL, Major: 17, Case: "cold, limit default", Value: 46}, true},
		{Row{Experiment: ExpVacuumWAL, Major: 16, Case: "cold, limit default", Value: 5}, false},
	} {
		r := tc.row
		fig, agrees, ok := hooks[r.Experiment](r)
		t.Logf("%s pg%d %s: real %v, simulated %s", r.Experiment, r.Major, r.Case, r.Value, fig)
		if !ok || agrees != tc.agrees {
			t.Errorf("%s pg%d %s (real %v): %q agrees=%v ok=%v, want agrees=%v", r.Experiment, r.Major, r.Case, r.Value, fig, agrees, ok, tc.agrees)
		}
		if r.Major == 13 && !strings.Contains(fig, "PG14's rules") {
			t.Errorf("pg13 %s: %q does not say it is simulated under 14's rules", r.Case, fig)
		}
	}
	// 13 has no WAL sync count: no verdict.
	if _, _, ok := hooks[ExpVacuumWAL](Row{Experiment: ExpVacuumWAL, Major: 13, Case: "cold, limit default", Value: -1}); ok {
		t.Error("a 13 row without a WAL sync count got a simulated verdict")
	}
	if _, _, ok := hooks[ExpVacuumRing](Row{Experiment: ExpVacuumRing, Major: 16, Case: "something else"}); ok {
		t.Error("an unknown case was simulated")
	}
}

// TestPinsHooks gives the pins lab's hook the rows of experiment 6 with the figures real
// PostgreSQL 13–18 gave, and a wrong one of each kind.
func TestPinsHooks(t *testing.T) {
	hook := PinsHooks()[ExpLPDead]
	for _, major := range []int{13, 16, 18} {
		for _, tc := range []struct {
			c    string
			real float64
		}{
			{"plain index scan, logged", 100},
			{"cursor, logged", 100},
			{"cursor + insert into the leaf, logged", 0},
			{"cursor + insert into the leaf, unlogged", 100},
			{"VACUUM vs a cursor, logged, index scan", 0},
			{"VACUUM vs a cursor, logged, index-only scan", 1},
			{"VACUUM vs a cursor, unlogged, index scan", 1},
		} {
			fig, agrees, ok := hook(Row{Experiment: ExpLPDead, Major: major, Case: tc.c, Value: tc.real})
			if !ok || !agrees {
				t.Errorf("pg%d %s (real %v): %q agrees=%v ok=%v", major, tc.c, tc.real, fig, agrees, ok)
			}
			if _, agrees, _ := hook(Row{Experiment: ExpLPDead, Major: major, Case: tc.c, Value: 1 - tc.real/100}); agrees {
				t.Errorf("pg%d %s agrees with a wrong figure", major, tc.c)
			}
		}
	}
	if _, _, ok := hook(Row{Experiment: ExpLPDead, Major: 16, Case: "unknown"}); ok {
		t.Error("an unknown case was simulated")
	}
}

// TestAllHooks: every experiment has its simulated side.
func TestAllHooks(t *testing.T) {
	h := AllHooks()
	for _, e := range Experiments {
		if h[e] == nil {
			t.Errorf("%s has no hook", e)
		}
	}
}

// TestRingCostHook: experiment 7's simulated side evicts the ring's pages of a hot table that
// fills the pool, one eviction per ring buffer and a reuse per page after, and all of the
// pool without a ring; a row whose counts differ is not agreed.
func TestRingCostHook(t *testing.T) {
	args := map[string]int64{"nbuffers": 16384, "hot": 18100, "cold": 25000, "reuses": 24968}
	// With clients reading, the shape: a larger ring loses more hot pages than the smallest in
	// the model, so a real row that lost more agrees and one that lost fewer does not; the
	// smallest ring's own row is the reference.
	readers := map[string]int64{"nbuffers": 16384, "hot": 18100, "cold": 25000, "clients": 4, "ref_kb": 256, "ref_lost": 90}
	hook := RingHooks()[ExpRingCost]
	for _, c := range []struct {
		row   Row
		agree bool
	}{
		{Row{Experiment: ExpRingCost, Major: 17, Case: "limit 256kB, hot pages evicted", Value: 32, Args: args}, true},
		{Row{Experiment: ExpRingCost, Major: 17, Case: "limit 256kB, VACUUM's evictions and reuses", Value: 32, Args: args}, true},
		{Row{Experiment: ExpRingCost, Major: 18, Case: "limit 256kB, hot pages evicted", Value: 43, Args: args}, false},
		{Row{Experiment: ExpRingCost, Major: 18, Case: "limit 0, hot pages evicted", Value: 16384, Args: args}, true},
		{Row{Experiment: ExpRingCost, Major: 17, Case: "limit 16MB, 4 clients reading, hot pages evicted", Value: 2100, Args: readers}, true},
		{Row{Experiment: ExpRingCost, Major: 17, Case: "limit 16MB, 4 clients reading, hot pages evicted", Value: 60, Args: readers}, false},
		{Row{Experiment: ExpRingCost, Major: 17, Case: "limit 256kB, 4 clients reading, hot pages evicted", Value: 95, Args: readers}, true},
	} {
		fig, agrees, ok := hook(c.row)
		if !ok || agrees != c.agree {
			t.Errorf("%s on %d (real %v): %q agrees=%v ok=%v, want agrees=%v", c.row.Case, c.row.Major, c.row.Value, fig, agrees, ok, c.agree)
		}
	}
	if _, _, ok := hook(Row{Experiment: ExpRingCost, Case: "limit 256kB, hot pages evicted"}); ok {
		t.Error("a row without the run's sizes was simulated")
	}
}
