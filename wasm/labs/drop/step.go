package drop

import (
	"github.com/bufferscope/bufferscope/sim"
	simdrop "github.com/bufferscope/bufferscope/sim/labs/drop"
	"github.com/bufferscope/bufferscope/wasm/grid"
)

// Chunk sizes. A sim.Step call keeps at most grid.EventCap events; the chunks are sized so
// that every event is kept: the grid learns of every buffer a drop empties, and every
// lookup reaches the tape.
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
func Chunk(p simdrop.Progress, nbuffers, left int) int {
	if left <= 0 {
		return 0
	}
	if p.Path == sim.PathScan && p.Cursor >= 0 && p.Cursor < nbuffers {
		return min(left, nbuffers-p.Cursor, ScanChunk)
	}
	return min(left, OtherChunk)
}

// Finished reports whether a drop lab's replay has nothing left to do: it is done, or it has
// dropped the buffers of all nrel relations and will notice it is done at its next step,
// which then runs no unit.
func Finished(p simdrop.Progress, nrel int) bool {
	return p.Done || p.Path == sim.PathNone && p.Relation >= nrel
}

// Step runs up to n units of the drop lab s in chunks planned by Chunk and observes each
// chunk. After each chunk, note (if not nil) receives the chunk's events, and stop (if not
// nil) may end the run early, as a frame's deadline does. It returns the units it went
// through, which is n unless stop ended the run or the replay finished; then ProgressOf
// reports Done. A sim error ends the run and is returned.
func (w *Watch) Step(s *sim.Sim, n int, stop func() bool, note func(events []sim.Event)) (int, error) {
	done := 0
	before := simdrop.ProgressOf(s)
	for done < n {
		if Finished(before, w.nrel) {
			break
		}
		c := Chunk(before, w.nbuffers, n-done)
		steps := s.Stats().Steps
		err := s.Step(c)
		ran := int(s.Stats().Steps - steps) // fewer than c when the replay ended within the chunk
		after := simdrop.ProgressOf(s)
		w.observe(s.Events(), before, after)
		if note != nil {
			note(s.Events())
		}
		done += ran
		if err != nil {
			return done, err
		}
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
