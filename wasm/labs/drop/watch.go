package drop

import (
	"github.com/bufferscope/bufferscope/sim"
	simdrop "github.com/bufferscope/bufferscope/sim/labs/drop"
)

// Watch follows one drop lab: the counters the simulation does not keep, and what the picture
// animates. Ages are counted in ticks, 60 to the second, as Ebiten's are.
type Watch struct {
	Trail Trail // descriptors the scan checked, frame by frame
	Tape  Tape  // outcomes of recent lookups
	Found Found // buffers recent lookups found

	// RelOf, if not nil, returns the role of the relation a lookup found, for the tape's
	// colours; it is called with the buffer before the grid learns that the buffer was
	// emptied.
	RelOf func(buffer int32) int

	nbuffers int
	nrel     int // relations the experiment drops
	tick     uint32
	scale    ScaleMeter
}

// Lab is the part of *sim.Sim a Watch reads when it starts.
type Lab interface {
	Relations() []*sim.Relation
}

// NewWatch returns a watch of the drop lab s, whose pool has nbuffers buffers.
func NewWatch(s Lab, nbuffers int) *Watch {
	// The lab's catalog holds the experiment's relations, then the one relation (others)
	// that fills the rest of the pool.
	return &Watch{nbuffers: nbuffers, nrel: max(len(s.Relations())-1, 1)}
}

// Relations returns how many relations the experiment drops.
func (w *Watch) Relations() int { return w.nrel }

// observe takes one chunk: its events and the progress before and after it.
func (w *Watch) observe(events []sim.Event, before, after simdrop.Progress) {
	misses := after.Result.LookupMisses - before.Result.LookupMisses
	w.noteLookups(events, misses, after.Result.Lookups-before.Result.Lookups)
	w.noteChecked(before, after)
}

// noteLookups puts the chunk's lookups on the tape and its found buffers in Found. misses
// is the chunk's share of the replay's own count (Result.LookupMisses). Should the events
// have overflowed (Chunk sizes chunks so that they do not), the tape gets the lost lookups
// in bulk, as many misses among them as the count says.
func (w *Watch) noteLookups(events []sim.Event, misses, lookups uint64) {
	if lookups == 0 {
		return
	}
	var seen uint64
	for i := range events {
		e := &events[i]
		if e.Kind != sim.EvLookup {
			continue
		}
		seen++
		if e.Buffer < 0 {
			w.Tape.push(Lookup{Miss: true, Born: w.tick})
			continue
		}
		rel := 0
		if w.RelOf != nil {
			rel = w.RelOf(e.Buffer)
		}
		w.Tape.push(Lookup{Rel: rel, Born: w.tick})
		w.Found.push(e.Buffer, w.tick)
	}
	if seen >= lookups {
		return
	}
	// Only the last TapeLen can show; push at most that many.
	lost := lookups - seen
	lostMisses := misses - min(misses, countMisses(events))
	for i := uint64(0); i < min(lost, TapeLen); i++ {
		w.Tape.push(Lookup{Miss: i < lostMisses, Born: w.tick})
	}
}

func countMisses(events []sim.Event) uint64 {
	var n uint64
	for i := range events {
		if events[i].Kind == sim.EvLookup && events[i].Buffer < 0 {
			n++
		}
	}
	return n
}

// noteChecked adds the descriptors the chunk checked to the trail. Chunk lets a chunk that
// starts in a scan run at most to that scan's end; a chunk that does not may start a scan,
// and in a tiny pool finish several.
func (w *Watch) noteChecked(before, after simdrop.Progress) {
	d := after.Result.DescriptorsChecked - before.Result.DescriptorsChecked
	if d == 0 {
		return
	}
	n := w.nbuffers
	startScan := before.Path == sim.PathScan && before.Cursor >= 0
	endScan := after.Path == sim.PathScan && after.Cursor >= 0
	a, c := before.Cursor, after.Cursor
	if startScan && endScan && c >= a && uint64(c-a) == d {
		w.Trail.add(a, c, w.tick) // the same scan, further on
		return
	}
	rest := d
	if startScan {
		w.Trail.add(a, n, w.tick)
		rest -= min(rest, uint64(n-a))
	}
	if endScan {
		rest -= min(rest, uint64(c))
	}
	if rest > 0 {
		w.Trail.add(0, n, w.tick) // whole scans in between
	}
	if endScan {
		w.Trail.add(0, c, w.tick)
	}
}

// Age moves the animations on by ticks.
func (w *Watch) Age(ticks int) {
	if ticks <= 0 {
		return
	}
	w.tick += uint32(ticks)
	w.Trail.age(w.tick)
}

// Now returns the tick the watch is at; what it notes now is born at this tick.
func (w *Watch) Now() uint32 { return w.tick }

// Clock takes the wall time in seconds and the modelled time in seconds once per frame, for
// TimeScale.
func (w *Watch) Clock(wall, modelled float64) { w.scale.Observe(wall, modelled) }

// RestartClock leaves the modelled time that passes before the next Clock out of TimeScale,
// for steps run by hand rather than by playback.
func (w *Watch) RestartClock() { w.scale.Restart() }

// TimeScale returns the modelled seconds that passed per second of wall time over about the
// last second: 0.0004 means one second of watching shows 0.4 ms of the replay.
func (w *Watch) TimeScale() float64 { return w.scale.Scale() }
