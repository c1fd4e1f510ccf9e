package grid

import "github.com/bufferscope/bufferscope/sim"

// EventCap is how many events sim keeps for one command (its maxEvents). A command that
// reports this many may have dropped some, so the Tracker stops trusting events until it has
// refreshed every buffer.
const EventCap = 1 << 14

// Tracked is the part of *sim.Sim a Tracker reads.
type Tracked interface {
	Snapshotter
	Stats() sim.Stats
}

// Tracker keeps one Code per buffer in step with a simulation without copying the whole pool
// every frame. After each command the app passes the command's events to Note; Sync then
// re-encodes only the buffers those events name and the buffers the clock hand swept past
// (the sweep lowers usage counts without events). When events may be missing, or so many
// buffers changed that a full copy is cheaper, it refreshes the whole pool instead — in slices
// of a budget per Sync, so a 100 GB pool never stalls a frame.
type Tracker struct {
	Codes []Code
	// MaxTouched, when not zero, replaces the default number of named buffers past which
	// Note gives up on them and refreshes the whole pool. A lab that changes runs of buffers
	// raises it (labview.Options.Runs): a scan names its invalidations in order, mostly in
	// runs, which Sync copies run by run.
	MaxTouched int

	r       Refresher
	touched []int32
	named   []uint64 // a bit per buffer: in touched already (a hot buffer is named by many events)
	hand    int      // clock hand at the last Sync
	passes  uint64   // Stats.SweepPasses at the last Sync
	stale   bool     // a full refresh is in progress
	cursor  int      // where the full refresh continues
	changed bool     // some code may have changed since Changed was last called
	lo, hi  int      // the range of buffers refreshed since ChangedRange was last called; lo ≥ hi for none
}

// SetRelMap makes the tracker encode relations through m (Refresher.RelMap) from the next
// Reset on; nil encodes them as they are.
func (t *Tracker) SetRelMap(m []int32) { t.r.RelMap = m }

// Reset sizes the codes for the simulation and refreshes all of them.
func (t *Tracker) Reset(s Tracked, nbuffers, hand int) {
	t.Start(s, nbuffers, hand)
	t.r.RefreshAll(s, t.Codes)
	t.stale, t.cursor, t.changed = false, 0, true
	t.lo, t.hi = 0, nbuffers
}

// Start sizes the codes for the simulation, as Reset does, but leaves their refresh to the
// Syncs that follow, a budget at a time (Pending until it is done): refreshing a 100 GB
// pool at once holds the page for half a second.
func (t *Tracker) Start(s Tracked, nbuffers, hand int) {
	if cap(t.Codes) >= nbuffers {
		t.Codes = t.Codes[:nbuffers]
		clear(t.Codes)
	} else {
		t.Codes = make([]Code, nbuffers)
	}
	if words := (nbuffers + 63) / 64; cap(t.named) >= words {
		t.named = t.named[:words]
		clear(t.named)
	} else {
		t.named = make([]uint64, words)
	}
	t.touched = t.touched[:0]
	t.hand, t.passes = hand, s.Stats().SweepPasses
	t.stale, t.cursor, t.changed = true, 0, false
	t.lo, t.hi = 0, 0
}

// maxTouched is how many named buffers Sync copies one by one; past it, a full refresh
// in budgeted slices is cheaper: a quarter of the pool, at least 1,024 and at most 65,536.
func (t *Tracker) maxTouched() int {
	if t.MaxTouched > 0 {
		return t.MaxTouched
	}
	return min(max(len(t.Codes)/4, 1024), 1<<16)
}

// Note records the buffers a command's events name, and starts flashes for reads and writes
// when flashes is not nil.
func (t *Tracker) Note(events []sim.Event, flashes *Flashes) {
	if len(events) >= EventCap {
		t.stale = true
	}
	for i := range events {
		e := &events[i]
		if e.Buffer < 0 {
			continue
		}
		if id := e.Buffer; !t.stale && int(id) < len(t.Codes) && t.named[id>>6]&(1<<(id&63)) == 0 {
			t.named[id>>6] |= 1 << (id & 63)
			t.touched = append(t.touched, id)
		}
		if flashes != nil {
			switch e.Kind {
			case sim.EvRead:
				flashes.Note(FlashRead, int(e.Buffer))
			case sim.EvWrite:
				flashes.Note(FlashWrite, int(e.Buffer))
			}
		}
	}
	if len(t.touched) > t.maxTouched() {
		t.stale = true
	}
	if t.stale {
		t.forget()
	}
}

// Invalidate makes the next Syncs refresh every buffer, for changes that come without
// events.
func (t *Tracker) Invalidate() {
	t.stale = true
	t.forget()
}

// forget empties touched, and the bits that say what it holds.
func (t *Tracker) forget() {
	for _, id := range t.touched {
		t.named[id>>6] &^= 1 << (id & 63)
	}
	t.touched = t.touched[:0]
}

// Sync brings the codes up to date with s, whose clock hand is now at hand. It copies at
// most budget buffers of a full refresh per call; the buffers that events and the sweep
// name are always copied.
func (t *Tracker) Sync(s Tracked, hand, budget int) {
	n := len(t.Codes)
	if n == 0 {
		return
	}
	passes := s.Stats().SweepPasses
	swept := passes - t.passes
	switch {
	case swept == 0 && hand >= t.hand:
		t.refresh(s, t.hand, hand-t.hand)
	case swept == 1 && hand < t.hand:
		t.refresh(s, t.hand, n-t.hand)
		t.refresh(s, 0, hand)
	default:
		t.stale = true // the hand went all the way round
	}
	t.hand, t.passes = hand, passes
	// Copy the named buffers run by run: consecutive ids in one Refresh.
	for i := 0; i < len(t.touched); {
		first := int(t.touched[i])
		j := i + 1
		for j < len(t.touched) && int(t.touched[j]) == first+(j-i) {
			j++
		}
		if j-i == 1 {
			t.r.RefreshOne(s, t.Codes, first)
			t.widen(first, first+1)
		} else {
			t.refreshRange(s, first, j-i)
		}
		i = j
	}
	if len(t.touched) > 0 {
		t.changed = true
	}
	t.forget()
	if t.stale {
		k := min(max(budget, 1), n-t.cursor)
		t.refreshRange(s, t.cursor, k)
		t.cursor += k
		if t.cursor >= n {
			t.stale, t.cursor = false, 0
		}
	}
}

func (t *Tracker) refresh(s Tracked, first, k int) {
	if k <= 0 {
		return
	}
	if k > t.maxTouched() {
		t.stale = true
		return
	}
	t.refreshRange(s, first, k)
}

// refreshRange copies buffers [first, first+k) and notes that they may have changed.
func (t *Tracker) refreshRange(s Tracked, first, k int) {
	t.r.Refresh(s, t.Codes, first, k)
	t.changed = true
	t.widen(first, first+k)
}

// widen adds [first, end) to the range ChangedRange reports.
func (t *Tracker) widen(first, end int) {
	if t.lo >= t.hi {
		t.lo, t.hi = first, end
		return
	}
	t.lo, t.hi = min(t.lo, first), max(t.hi, end)
}

// ChangedRange returns the smallest range of buffers [first, end) that holds every code
// refreshed since the last call, empty (first ≥ end) when none was, and clears it. A
// painter of a large pool repaints just that part.
func (t *Tracker) ChangedRange() (first, end int) {
	first, end = t.lo, t.hi
	t.lo, t.hi = 0, 0
	return first, end
}

// Pending reports whether a full refresh is still under way.
func (t *Tracker) Pending() bool { return t.stale }

// Changed reports whether any code may have changed since the last call, and clears the
// report.
func (t *Tracker) Changed() bool {
	c := t.changed
	t.changed = false
	return c
}
