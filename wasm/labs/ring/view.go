// Package ring is the ring lab's view in the browser app: VACUUM's ring outlined in the grid,
// the ring buffer VACUUM used last ringed thickly with ruler markers, the whole ring magnified
// slot by slot in the grid's inset, and under it a labelled WAL bar of inserted against flushed
// WAL, on which every flush leaves a tick whose height says who flushed: VACUUM itself, a
// commit, or the WAL writer.
//
// Every state is drawn as a shape, so none is told by colour alone: the slot VACUUM read its
// page into has a thick ring, the slot it reuses next a pointer, a page whose WAL is not yet
// flushed past its LSN an hourglass (the grid's corner triangle already marks it dirty).
//
// On a screen where the whole pool is drawn at 1 px per buffer (a phone) the grid opens zoomed
// in around the ring to cells that can be tapped; Fit shows the whole pool.
package ring

import (
	"fmt"

	"github.com/bufferscope/bufferscope/sim"
	"github.com/bufferscope/bufferscope/sim/lab"
	simring "github.com/bufferscope/bufferscope/sim/labs/ring"
	"github.com/bufferscope/bufferscope/wasm/grid"
	"github.com/bufferscope/bufferscope/wasm/labview"
	"github.com/bufferscope/bufferscope/wasm/playback"
)

// ringRun is what the view needs of the ring lab's run beyond lab.Run.
type ringRun interface {
	Ring() *sim.BufferAccessStrategy
	WALNow() simring.WALNow
	PinnedAhead() []int
}

// View is the ring lab's view.
type View struct {
	labview.Default
	s       *sim.Sim
	run     ringRun
	slots   []int
	flushes []flush // the latest flushes, oldest first
	drawn   uint64
}

// flush is one WAL flush on the bar: where it flushed to and who made it.
type flush struct {
	lsn   sim.LSN
	cause sim.Cause
}

// maxFlushes bounds the flushes the view remembers.
const maxFlushes = 256

// walWindow is how much WAL the bar spans, ending at the insert position: 1MB, the WAL
// writer's wal_writer_flush_after.
const walWindow = 1 << 20

// The WAL lane: the bar, then a row of labels under it.
const (
	barH     = 17                               // the bar's height
	labelTop = barH + 4                         // the labels' row, from the lane's top
	walLane  = grid.LaneHeight + grid.TextH + 3 // the lane, the gap above it included
)

// closeCell is the size of the cells the grid opens at where the whole pool would be drawn
// at 1 px per buffer: 8 CSS px, a target a finger can tap.
const closeCell = 8

// NewView returns the ring lab's view, for the registry (wasm/labs).
func NewView() labview.View { return &View{} }

// Options asks for a lane under the grid for the WAL bar, an inset as long as the ring, and
// cells large enough to tap around the ring where the pool would be drawn at 1 px per
// buffer; it shows the clock hand, which the clients' misses and the ring's replacements move.
func (v *View) Options() labview.Options {
	o := labview.Options{Below: walLane, Speeds: playback.LabRange, Close: closeCell, Focus: v.focus}
	if v.run != nil {
		o.Inset = v.run.Ring().RingSize()
	}
	return o
}

// Attach follows a freshly built run.
func (v *View) Attach(run lab.Run, _ lab.Legend, _ func(int, int32) int) {
	v.s = run.Sim()
	v.run, _ = run.(ringRun)
	v.flushes = v.flushes[:0]
	v.drawn = 0
}

// focus returns the buffer the grid opens around: VACUUM's slot, or before VACUUM has read a
// page, the buffer it will take first (the freelist's head, else the clock hand's).
func (v *View) focus() int {
	if v.s == nil {
		return -1
	}
	if v.run != nil {
		r := v.run.Ring()
		if slots := r.Buffers(nil); len(slots) > 0 {
			if id := slots[r.Current()]; id >= 0 {
				return id
			}
		}
	}
	if free := v.s.Pool.Freelist(); len(free) > 0 {
		return free[0]
	}
	return v.s.Pool.ClockHand()
}

// Step runs n steps as the default view does, remembering every WAL flush.
func (v *View) Step(run lab.Run, n int, stop func() bool, note func(int, []sim.Event, bool)) (int, error) {
	return v.Default.Step(run, n, stop, func(pane int, events []sim.Event, flash bool) {
		for i := range events {
			if e := &events[i]; e.Kind == sim.EvWALFlush {
				if len(v.flushes) == maxFlushes {
					v.flushes = append(v.flushes[:0], v.flushes[1:]...)
				}
				v.flushes = append(v.flushes, flush{lsn: e.Flushed, cause: e.Cause})
			}
		}
		if note != nil {
			note(pane, events, flash)
		}
	})
}

// slotState is what the view marks on a ring buffer.
type slotState struct {
	vacuum bool // VACUUM's slot: the buffer it read its latest page into
	next   bool // the slot VACUUM reuses next
	waits  bool // dirtied, its WAL not yet flushed past its LSN: a write must wait for a flush
}

// stateOf returns the marks of ring slot i, buffer id, of a ring whose current slot is cur, with
// WAL as w.
func (v *View) stateOf(i, id, cur int, w simring.WALNow) slotState {
	n := len(v.slots)
	st := slotState{vacuum: i == cur, next: n > 1 && i == (cur+1)%n}
	if id >= 0 && id < v.s.Pool.NBuffers {
		d := v.s.Pool.Desc(id)
		st.waits = d.State.Has(sim.BM_DIRTY) && d.State.Has(sim.BM_PERMANENT) && d.LSN > w.Durable
	}
	if st.vacuum && w.VacuumWaitsFor > 0 {
		st.waits = true // VACUUM waits for the flush that lets it write this slot's page
	}
	return st
}

// Inspect says whether buffer id is in VACUUM's ring, in which slot, what VACUUM does with it
// and whether its page waits for a WAL flush before it can be written.
func (v *View) Inspect(_, id int) []labview.Detail {
	if v.s == nil || id < 0 || id >= v.s.Pool.NBuffers || v.run == nil {
		return nil
	}
	r := v.run.Ring()
	ring := r.Buffers(v.slots[:0])
	v.slots = ring
	for i, b := range ring {
		if b != id {
			continue
		}
		out := []labview.Detail{{Label: "VACUUM's ring", Value: fmt.Sprintf("slot %d of %d", i+1, len(ring))}}
		w := v.run.WALNow()
		st := v.stateOf(i, id, r.Current(), w)
		switch {
		case st.vacuum && w.VacuumWaitsFor > 0:
			out = append(out, labview.Detail{Label: "VACUUM", Value: fmt.Sprintf("is waiting for WAL to be flushed to %v before it can go on", w.VacuumWaitsFor)})
		case st.vacuum:
			out = append(out, labview.Detail{Label: "VACUUM", Value: "read its latest page into this buffer"})
		case st.next:
			out = append(out, labview.Detail{Label: "VACUUM", Value: "reuses this buffer for its next page"})
		}
		for k, a := range v.run.PinnedAhead() {
			if a == id {
				ahead := "the next page VACUUM works on"
				if k > 0 {
					ahead = fmt.Sprintf("%d pages after the one VACUUM works on", k+1)
				}
				out = append(out, labview.Detail{Label: "Read stream", Value: "read this page ahead, pinned until VACUUM reaches it: " + ahead})
			}
		}
		d := v.s.Pool.Desc(id)
		switch {
		case !d.State.Has(sim.BM_DIRTY):
			out = append(out, labview.Detail{Label: "Its page", Value: "clean: it can be reused without a write"})
		case st.waits:
			out = append(out, labview.Detail{Label: "Its page", Value: fmt.Sprintf("dirty, LSN %v past the WAL flushed to %v: writing it must wait for a flush", d.LSN, w.Durable)})
		default:
			out = append(out, labview.Detail{Label: "Its page", Value: fmt.Sprintf("dirty, WAL flushed past its LSN %v: it can be written at once", d.LSN)})
		}
		return out
	}
	return []labview.Detail{{Label: "VACUUM's ring", Value: "not in the ring"}}
}

// Overlay outlines the ring's buffers in the pool and rings VACUUM's slot, shows the ring in
// the inset slot by slot with the marks of each, and draws the WAL bar.
func (v *View) Overlay(_ int, o *grid.Overlay, l *grid.Layout, t *grid.Theme, _ bool) bool {
	o.Reset()
	mark, _ := t.Mark("ring")
	var w simring.WALNow
	if v.run != nil {
		w = v.run.WALNow()
		r := v.run.Ring()
		v.slots = r.Buffers(v.slots[:0])
		cur := r.Current()
		glyphs := l.Zoom().Block == 1 && l.Zoom().Cell-l.Gap() >= grid.GlyphMin
		for i, id := range v.slots {
			if id < 0 || id >= l.N {
				continue
			}
			o.Ring(l, id, 1, mark, 0.9)
			if glyphs && l.Visible(id) {
				x, y, side := l.CellRect(id)
				v.marks(o, t, grid.Rect{X0: x, Y0: y, X1: x + side, Y1: y + side}, v.stateOf(i, id, cur, w), false)
			}
		}
		if len(v.slots) > 0 {
			if id := v.slots[cur]; id >= 0 && id < l.N {
				o.Ring(l, id, 2, t.Hand, 1)
				o.Rulers(l, id, t.Hand, 1)
			}
			v.inset(o, l, t, cur, w)
		}
	}
	v.walBar(o, l, t, mark, w)
	sum := o.Sum()
	changed := sum != v.drawn
	v.drawn = sum
	return changed
}

// marks draws a slot's marks in cell r: a pointer into the slot reused next, an hourglass on
// a page whose write waits for a WAL flush, and, in the inset, a thick ring around VACUUM's
// slot (in the pool the caller rings it, with the rulers).
func (v *View) marks(o *grid.Overlay, t *grid.Theme, r grid.Rect, st slotState, inset bool) {
	if st.next {
		o.Glyph(r, grid.GlyphPointer, t.Hand)
	}
	if st.waits {
		o.Glyph(r, grid.GlyphHourglass, t.Hand)
	}
	if st.vacuum && inset {
		o.RingAround(r, 2, t.Hand, 1)
	}
}

// inset lists the ring's buffers in slot order for the grid's inset (the page of slots VACUUM
// is in, when the ring is longer than the inset holds), marks each item and writes the caption.
func (v *View) inset(o *grid.Overlay, l *grid.Layout, t *grid.Theme, cur int, w simring.WALNow) {
	in := l.Inset
	if in.N == 0 {
		return
	}
	first := in.Page(cur)
	end := min(first+in.N, len(v.slots))
	for i := first; i < end; i++ {
		id := v.slots[i]
		o.Inset = append(o.Inset, int32(id))
		x, y, side := l.InsetItem(i - first)
		v.marks(o, t, grid.Rect{X0: x, Y0: y, X1: x + side, Y1: y + side}, v.stateOf(i, id, cur, w), true)
	}
	n := len(v.slots)
	slots := fmt.Sprintf("%d buffers", n)
	if end-first < n {
		slots = fmt.Sprintf("slots %d-%d of %d", first+1, end, n)
	}
	x, y := l.CaptionAt()
	ax, _, aw, _ := l.Area()
	captions := []string{
		fmt.Sprintf("VACUUM's ring, magnified: %s, VACUUM at slot %d", slots, cur+1),
		fmt.Sprintf("VACUUM's ring: %s, at slot %d", slots, cur+1),
		fmt.Sprintf("Ring: slot %d of %d", cur+1, n),
	}
	for i, s := range captions {
		if grid.TextFits(s, x, ax+aw) || i == len(captions)-1 {
			o.Text(t, x+2, y, s, t.Hand)
			break
		}
	}
}

// walBar draws the last walWindow bytes of WAL: filled to what is flushed, striped where a
// flush is under way, framed beyond it to the insert position, a tick per flush whose height
// tells who flushed, an hourglass where VACUUM waits to see WAL flushed, and under the bar
// the labels "flushed", "inserted" and "VACUUM waiting", each with a leader to its place.
func (v *View) walBar(o *grid.Overlay, l *grid.Layout, t *grid.Theme, c grid.RGBA, w simring.WALNow) {
	r := l.Lane()
	if r.Empty() || v.s == nil {
		return
	}
	lo := w.Inserted - min(w.Inserted, walWindow)
	x := func(lsn sim.LSN) int {
		if lsn <= lo || w.Inserted <= lo {
			return r.X0
		}
		return r.X0 + int(float64(r.X1-r.X0)*float64(min(lsn, w.Inserted)-lo)/float64(w.Inserted-lo))
	}
	top, bot := r.Y0+2, r.Y0+barH
	mid := (top + bot) / 2
	fx, sx := x(w.Durable), x(w.Flushing)
	o.Add(grid.Rect{X0: r.X0, Y0: top, X1: fx, Y1: bot}, c, 0.35)
	for s := fx; s < sx; s += 3 { // a flush under way: stripes
		o.Add(grid.Rect{X0: s, Y0: top, X1: min(s+2, sx), Y1: bot}, c, 0.6)
	}
	o.Add(grid.Rect{X0: fx, Y0: top, X1: r.X1, Y1: top + 1}, c, 0.9)
	o.Add(grid.Rect{X0: fx, Y0: bot - 1, X1: r.X1, Y1: bot}, c, 0.9)
	o.Add(grid.Rect{X0: r.X1 - 1, Y0: top, X1: r.X1, Y1: bot}, c, 0.9)
	for _, f := range v.flushes {
		if f.lsn <= lo {
			continue
		}
		fx := x(f.lsn)
		switch f.cause {
		case sim.ByStrategy, sim.ByBackend: // forced by a victim: full height, thick
			o.Add(grid.Rect{X0: fx - 1, Y0: r.Y0, X1: fx + 1, Y1: bot + 2}, t.Hand, 1)
		case sim.ByCommit:
			o.Add(grid.Rect{X0: fx, Y0: top, X1: fx + 1, Y1: mid}, t.Hand, 0.8)
		default:
			o.Add(grid.Rect{X0: fx, Y0: mid, X1: fx + 1, Y1: bot}, t.Hand, 0.8)
		}
	}
	wx := -1
	if w.VacuumWaitsFor > 0 {
		wx = x(w.VacuumWaitsFor)
		s := bot - top + 2
		o.Add(grid.Rect{X0: wx - s/2, Y0: top - 1, X1: wx - s/2 + s, Y1: top - 1 + s}, t.Background, 0.85)
		o.Glyph(grid.Rect{X0: wx - s/2, Y0: top - 1, X1: wx - s/2 + s, Y1: top - 1 + s}, grid.GlyphHourglass, t.Hand)
	}
	v.walLabels(o, t, r, fx, wx, w)
}

// walLabel is one label under the WAL bar: its texts, longest first, and where it points.
type walLabel struct {
	texts []string
	at    int
}

// walLabels writes the labels under the bar right to left — "inserted" at the right end,
// "flushed" at the flushed position, "VACUUM waiting" where VACUUM waits — each as near its
// place as the ones to its right allow, with a leader from the bar to it, then what the bar
// is at its left when there is room. On a narrow bar they drop their LSNs, then the least
// needed goes.
func (v *View) walLabels(o *grid.Overlay, t *grid.Theme, r grid.Rect, fx, wx int, w simring.WALNow) {
	labels := []walLabel{
		{texts: []string{"inserted " + w.Inserted.String(), "inserted"}, at: r.X1 - 1},
		{texts: []string{"flushed " + w.Durable.String(), "flushed"}, at: fx},
	}
	if wx >= 0 {
		labels = append(labels, walLabel{texts: []string{"VACUUM waiting for " + w.VacuumWaitsFor.String(), "VACUUM waiting"}, at: wx})
	}
	const gap = 8
	y := r.Y0 + labelTop
	for long := 0; long < 2; long++ {
		total := 0
		for _, lb := range labels {
			total += grid.TextWidth(lb.texts[long]) + gap
		}
		if total <= r.X1-r.X0 || long == 1 {
			right := r.X1
			for _, lb := range labels {
				s := lb.texts[long]
				x1 := min(lb.at+grid.GlyphW/2+1, right)
				x0 := x1 - grid.TextWidth(s)
				if x0 < r.X0 {
					break // no room left for this label and those after it
				}
				o.Add(grid.Rect{X0: lb.at, Y0: r.Y0 + barH, X1: lb.at + 1, Y1: y - 1}, t.Hand, 0.7)
				if lb.at >= x1 {
					o.Add(grid.Rect{X0: x1, Y0: y - 2, X1: lb.at + 1, Y1: y - 1}, t.Hand, 0.7)
				}
				o.Text(t, x0, y, s, t.Hand)
				right = x0 - gap
			}
			// What the bar is, at its left, where the labels leave room.
			for _, s := range []string{"WAL, the last 1MB:", "WAL"} {
				if r.X0+grid.TextWidth(s) <= right {
					o.Text(t, r.X0, y, s, t.Hand)
					break
				}
			}
			return
		}
	}
}
