package droplab

import (
	"github.com/bufferscope/bufferscope/sim"
	"github.com/bufferscope/bufferscope/sim/labs/drop"
	"github.com/bufferscope/bufferscope/wasm/grid"
)

// Chunk sizes. A sim.Step call keeps at most grid.EventCap events; the chunks are sized so
// that every event is kept: the grid learns of every buffer a drop empties, and every
// lookup is counted.
const (
	// ScanChunk is the most descriptors one chunk of a full scan checks. A scan's events
	// are its invalidations, at most one per descriptor, so they all fit. It is a few tens
	// of microseconds of work, so a frame's deadline is honoured in a 100 GB pool too.
	ScanChunk = grid.EventCap - 1
	// OtherChunk is the most units of a chunk that does not start inside a scan. The unit
	// with the most events is one heap page of VACUUM: two records whose redo reads four
	// pages, each read reporting at most seven events (a WAL flush, a write, an eviction, a
	// read, a pin, a dirty, an unpin). 512 × 28 = 14,336 events stay under grid.EventCap.
	OtherChunk = 512
)

// Chunk returns the units to run next: at most left, and within a scan no further than the
// scan's end, so that a chunk never holds a scan's descriptors together with another drop's
// lookups unless it is short enough (OtherChunk) for every event to be kept.
func Chunk(p drop.Progress, nbuffers, left int) int {
	if left <= 0 {
		return 0
	}
	if p.Path == sim.PathScan && p.Cursor >= 0 && p.Cursor < nbuffers {
		return min(left, nbuffers-p.Cursor, ScanChunk)
	}
	return min(left, OtherChunk)
}

// Misses returns how many of the lookups made between before and after found no buffer, and
// whether the figure is exact. events are the events of the sim.Step call that ran them.
//
// While the events were all kept (fewer than grid.EventCap), a miss is an EvLookup whose
// Buffer is -1, and they are counted one by one. When the events overflowed, a chunk that
// checked no descriptor made only lookups, and in a drop lab every lookup that finds a
// buffer invalidates it (the tag recheck cannot fail, as no other process runs, and a
// pinned buffer stops the replay with an error before the lookup's invalidation is
// counted), so misses = lookups − invalidations, exactly. Chunk never lets the events of a
// chunk that mixes both paths overflow; should it happen, the lookups whose events were lost
// are counted as misses only as far as the invalidations cannot account for them, and the
// figure is reported inexact.
func Misses(events []sim.Event, before, after drop.Result) (uint64, bool) {
	lookups := after.Lookups - before.Lookups
	if lookups == 0 {
		return 0, true
	}
	var seenHits, seenMisses, seenInvalidations uint64
	for i := range events {
		switch e := &events[i]; e.Kind {
		case sim.EvLookup:
			if e.Buffer < 0 {
				seenMisses++
			} else {
				seenHits++
			}
		case sim.EvInvalidate:
			seenInvalidations++
		}
	}
	if len(events) < grid.EventCap {
		return seenMisses, true
	}
	invalidated := after.Invalidated - before.Invalidated
	if after.DescriptorsChecked == before.DescriptorsChecked {
		return lookups - min(invalidated, lookups), true
	}
	// Lost lookups: at most the invalidations not seen can have been hits.
	lost := lookups - min(seenHits+seenMisses, lookups)
	unseenInvalidations := invalidated - min(seenInvalidations, invalidated)
	return seenMisses + lost - min(unseenInvalidations, lost), false
}

// Finished reports whether a drop lab's replay has nothing left to do: it is done, or it has
// dropped the buffers of all nrel relations and will notice it is done at its next step,
// which then runs no unit.
func Finished(p drop.Progress, nrel int) bool {
	return p.Done || p.Path == sim.PathNone && p.Relation >= nrel
}

// Step runs up to n units of the drop lab s in chunks planned by Chunk and observes each
// chunk. After each chunk, note (if not nil) receives the chunk's events, and stop (if not
// nil) may end the run early, as a frame's deadline does. It returns the units it went
// through, which is n unless stop ended the run or the replay finished; then DropProgress
// reports Done. A sim error ends the run and is returned.
func (w *Watch) Step(s *sim.Sim, n int, stop func() bool, note func(events []sim.Event)) (int, error) {
	done := 0
	before := drop.ProgressOf(s)
	for done < n {
		if Finished(before, w.nrel) {
			break
		}
		c := Chunk(before, w.nbuffers, n-done)
		err := s.Step(c)
		after := drop.ProgressOf(s)
		w.observe(s.Events(), before, after)
		if note != nil {
			note(s.Events())
		}
		if err != nil {
			return done, err
		}
		done += c
		before = after
		if stop != nil && stop() {
			break
		}
	}
	if Finished(before, w.nrel) && !before.Done {
		// The replay finishes at its next step without running a unit: let it, so that
		// Done and Result.Path are set now rather than a frame later. Its events (none) would
		// replace the last chunk's, which note has already seen.
		if err := s.Step(1); err != nil {
			return done, err
		}
	}
	return done, nil
}
