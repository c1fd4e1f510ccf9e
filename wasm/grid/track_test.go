package grid

import (
	"fmt"
	"testing"

	"github.com/bufferscope/bufferscope/sim"
	"github.com/bufferscope/bufferscope/sim/labs/drop"
)

// TestTrackerMatchesAFullCopy runs simulations in uneven slices, keeping codes with a
// Tracker, and compares them after every Sync with a fresh copy of the whole pool.
func TestTrackerMatchesAFullCopy(t *testing.T) {
	for _, tc := range []struct {
		nbuffers int
		version  sim.Version
		slices   []int
	}{
		{16, 17, []int{1, 1, 2, 3, 5, 8, 13, 100, 1000}},
		{128, 19, []int{1, 7, 50, 300, 2000, 1, 1}},
		{1024, 17, []int{10, 100, 1000, 5000, 3, 20000}},
		{16384, 16, []int{100, 2048, 2048, 2048, 9000}},
	} {
		t.Run(fmt.Sprintf("n=%d/PG%d", tc.nbuffers, tc.version), func(t *testing.T) {
			s, err := sim.New(sim.Config{NBuffers: tc.nbuffers, Version: tc.version, Seed: 9})
			if err != nil {
				t.Fatal(err)
			}
			var tr Tracker
			var fl Flashes
			fl.Reset(tc.nbuffers)
			tr.Reset(s, tc.nbuffers, s.Pool.ClockHand())
			want := make([]Code, tc.nbuffers)
			var r Refresher
			for i, k := range tc.slices {
				// Step as the app does: chunks small enough that no events are dropped.
				for k > 0 {
					c := min(k, 2048)
					if err := s.Step(c); err != nil {
						t.Fatal(err)
					}
					tr.Note(s.Events(), &fl)
					k -= c
				}
				if i == 3 {
					if err := s.Apply(sim.CheckpointCmd{}); err != nil {
						t.Fatal(err)
					}
					tr.Note(s.Events(), &fl)
				}
				for {
					tr.Sync(s, s.Pool.ClockHand(), tc.nbuffers/3+1)
					if !tr.Pending() {
						break
					}
				}
				r.RefreshAll(s, want)
				for id := range want {
					if tr.Codes[id] != want[id] {
						t.Fatalf("after slice %d: buffer %d tracked %#x, really %#x", i, id, uint16(tr.Codes[id]), uint16(want[id]))
					}
				}
			}
			if fl.Active() == 0 {
				t.Error("no flashes were started")
			}
		})
	}
}

// TestTrackerStartLeavesTheRefreshToSyncs: Start sizes the codes and leaves all of them to
// the Syncs that follow, a budget at a time, which end with the codes a Reset gives.
func TestTrackerStartLeavesTheRefreshToSyncs(t *testing.T) {
	s, err := sim.New(sim.Config{NBuffers: 4096, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Step(20000); err != nil {
		t.Fatal(err)
	}
	var want Tracker
	want.Reset(s, 4096, s.Pool.ClockHand())
	var tr Tracker
	tr.Reset(s, 4096, s.Pool.ClockHand()) // codes of its own to be cleared
	tr.Start(s, 4096, s.Pool.ClockHand())
	if !tr.Pending() || tr.Changed() {
		t.Fatalf("after Start: pending %v, changed %v; want a refresh to come and nothing changed yet", tr.Pending(), tr.Changed())
	}
	for id, c := range tr.Codes {
		if c != 0 {
			t.Fatalf("after Start buffer %d has code %#x, want none yet", id, uint16(c))
		}
	}
	syncs := 0
	for tr.Pending() {
		tr.Sync(s, s.Pool.ClockHand(), 1024)
		syncs++
	}
	if syncs != 4 {
		t.Errorf("4096 buffers at 1024 per Sync took %d Syncs, want 4", syncs)
	}
	if a, b := tr.ChangedRange(); a != 0 || b != 4096 {
		t.Errorf("after the refresh the changed range is [%d,%d), want the pool", a, b)
	}
	for id := range want.Codes {
		if tr.Codes[id] != want.Codes[id] {
			t.Fatalf("buffer %d: %#x after Start and Syncs, %#x after Reset", id, uint16(tr.Codes[id]), uint16(want.Codes[id]))
		}
	}
}

func TestTrackerRefreshesInBudgetedSlices(t *testing.T) {
	s, err := sim.New(sim.Config{NBuffers: 4096, Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	var tr Tracker
	tr.Reset(s, 4096, s.Pool.ClockHand())
	if !tr.Changed() || tr.Changed() {
		t.Error("Changed must report the reset once")
	}
	s.Step(30000) // one command: more events than EventCap
	tr.Note(s.Events(), nil)
	if !tr.Pending() {
		t.Fatal("a command with EventCap events must start a full refresh")
	}
	syncs := 0
	for tr.Pending() {
		tr.Sync(s, s.Pool.ClockHand(), 1000)
		syncs++
	}
	if syncs != 5 {
		t.Errorf("4096 buffers at 1000 per Sync took %d Syncs, want 5", syncs)
	}
	want := make([]Code, 4096)
	var r Refresher
	r.RefreshAll(s, want)
	for id := range want {
		if tr.Codes[id] != want[id] {
			t.Fatalf("buffer %d differs after the full refresh", id)
		}
	}
}

// TestTrackerFollowsADropLab: with a drop lab's relation map and MaxTouched raised, a scan
// that invalidates a long run of buffers is copied run by run, without a full refresh, and
// ChangedRange reports where.
func TestTrackerFollowsADropLab(t *testing.T) {
	v, _ := drop.Lab{}.Params().Parse(map[string]string{"tables": "2x3000", "policy": "pg13"})
	s, err := drop.NewReplay(drop.ExperimentOf(v))
	if err != nil {
		t.Fatal(err)
	}
	n := s.Pool.NBuffers
	var tr Tracker
	tr.MaxTouched = n
	tr.SetRelMap(RelMap(dropLegend, 3))
	tr.Reset(s, n, s.Pool.ClockHand())
	if a, b := tr.ChangedRange(); a != 0 || b != n {
		t.Errorf("after Reset the changed range is [%d,%d), want the pool", a, b)
	}
	if c := tr.Codes[0]; c.Rel() != 1 || tr.Codes[3000].Rel() != 2 || tr.Codes[n-1].Rel() != 0 {
		t.Errorf("codes by role: %v %v %v, want relations 1, 2 and 0 (others)", tr.Codes[0].Rel(), tr.Codes[3000].Rel(), tr.Codes[n-1].Rel())
	}
	for done := 0; done < 5000; done += 1000 {
		if err := s.Step(1000); err != nil { // the scan of t0, whose 3000 buffers come first
			t.Fatal(err)
		}
		tr.Note(s.Events(), nil)
	}
	if tr.Pending() {
		t.Fatal("the scan's invalidations started a full refresh")
	}
	tr.Sync(s, s.Pool.ClockHand(), 1)
	if a, b := tr.ChangedRange(); a != 0 || b != 3000 {
		t.Errorf("changed range [%d,%d), want [0,3000)", a, b)
	}
	if a, b := tr.ChangedRange(); a < b {
		t.Errorf("ChangedRange did not clear: [%d,%d)", a, b)
	}
	for id := range 3000 {
		if !tr.Codes[id].Empty() {
			t.Fatalf("buffer %d still shows a page after the scan dropped it", id)
		}
	}
	if tr.Codes[3000].Empty() {
		t.Error("t1's first buffer was emptied")
	}
}

// snapshotCounter is a simulation that counts the buffers each Snapshot copies.
type snapshotCounter struct {
	*sim.Sim
	copies map[int]int
}

func (c *snapshotCounter) Snapshot(dst []sim.BufferView, first int) int {
	n := c.Sim.Snapshot(dst, first)
	for i := range n {
		c.copies[first+i]++
	}
	return n
}

// TestTrackerCopiesAHotBufferOnce: a buffer that many events name between two Syncs (a
// hot page pinned and unpinned over and over) is copied once by the Sync, and named again
// after it, once more by the next.
func TestTrackerCopiesAHotBufferOnce(t *testing.T) {
	s, err := sim.New(sim.Config{NBuffers: 1024, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	c := &snapshotCounter{Sim: s, copies: map[int]int{}}
	var tr Tracker
	tr.Reset(c, 1024, s.Pool.ClockHand())
	hot := make([]sim.Event, 50)
	for i := range hot {
		hot[i] = sim.Event{Kind: sim.EvPin, Buffer: 700}
		if i%2 == 1 {
			hot[i].Kind = sim.EvUnpin
		}
	}
	for round := 1; round <= 2; round++ {
		clear(c.copies)
		tr.Note(hot, nil)
		tr.Note(hot, nil)
		tr.Sync(c, s.Pool.ClockHand(), 1)
		if c.copies[700] != 1 || len(c.copies) != 1 {
			t.Fatalf("round %d: Sync copied %v, want buffer 700 once", round, c.copies)
		}
	}
}
