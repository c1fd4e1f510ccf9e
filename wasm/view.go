//go:build js

package main

import (
	"github.com/bufferscope/bufferscope/sim"
	"github.com/bufferscope/bufferscope/wasm/droplab"
	"github.com/bufferscope/bufferscope/wasm/grid"
)

// view is what the grid shows and how: the codes kept in step with the simulation, the
// flashes of recent events, zoom and pan, theme and motion, and the painted pixels. In the
// drop lab it also draws the overlay of the replay's marks (dropview.go).
type view struct {
	tracker grid.Tracker
	flashes grid.Flashes
	layout  grid.Layout
	painter grid.Painter
	base    *grid.Theme // the theme the reader chose
	theme   *grid.Theme // what the grid is drawn with: base, or its drop-lab variant
	reduced bool        // the reader asked for reduced motion: no flashes
	nrel    int         // palette entries: relations in the catalog, or the drop lab's colours
	hilite  int         // buffer being inspected, or -1
	w, h    int         // canvas size in CSS pixels

	drop dropView // the drop lab's marks; off in free play

	// Banded repainting of views larger than the paint budget.
	band int // next canvas row to repaint
	owed int // canvas rows still to repaint before the bands have caught up
}

// Budgets that keep a frame short however large the pool: how many buffers a frame may
// copy out of the simulation during a full refresh, and how many it may paint.
const (
	refreshBudget = 1 << 17
	paintBudget   = 1 << 19
	rowsBudget    = 1 << 21 // the drop lab's repaint of the rows its replay changed
)

func (v *view) init() {
	v.base, v.theme = &grid.Light, &grid.Light
	v.hilite = -1
}

// attach points the view at a freshly built simulation; watch is the drop lab's, or nil for
// free play.
func (v *view) attach(s *sim.Sim, watch *droplab.Watch) {
	n := s.Pool.NBuffers
	v.drop.attach(watch)
	below := 0
	v.tracker.SetRelMap(nil)
	v.tracker.MaxTouched = 0
	if v.drop.on() {
		// Colours by role, a lane under the grid, and the buffers a scan empties copied
		// in runs, which is faster than a full refresh of a large pool.
		v.tracker.SetRelMap(grid.DropRelMap(watch.Relations()))
		v.tracker.MaxTouched = n
		below = grid.LaneHeight
	}
	v.tracker.Reset(s, n, s.Pool.ClockHand())
	v.flashes.Reset(n)
	v.nrel = len(s.Relations())
	v.setTheme(v.base) // in the drop lab, also the palette's size
	v.hilite = -1
	v.layout = grid.FitBelow(n, max(v.w, 1), max(v.h, 1), below)
}

// release lets go of everything sized for the pool, before a large one is built.
func (v *view) release() {
	v.tracker.Codes = nil
	v.flashes.Reset(0)
	v.drop.attach(nil)
	v.painter = grid.Painter{}
}

// relOf returns the palette index of the relation buffer id holds as the grid last saw it,
// for the drop lab's tape; a dropped relation's first shade when it is not known.
func (v *view) relOf(id int32) int {
	if id >= 0 && int(id) < len(v.tracker.Codes) {
		if c := v.tracker.Codes[id]; !c.Empty() {
			return c.Rel()
		}
	}
	return 1
}

// note takes the events of one command; flash says whether its reads and writes flash. In
// the drop lab, buffers InvalidateBuffer emptied burn as well.
func (v *view) note(events []sim.Event, flash bool) {
	var f *grid.Flashes
	if flash && !v.reduced {
		f = &v.flashes
	}
	v.tracker.Note(events, f)
	if f != nil && v.drop.on() && f.Enabled() {
		for i := range events {
			if e := &events[i]; e.Kind == sim.EvInvalidate {
				f.Note(grid.FlashDrop, int(e.Buffer))
			}
		}
	}
}

// tick ages the flashes by ticks (the wall time since the last tick, in 60ths of a second)
// and brings the codes up to date; it runs once per Ebiten tick.
func (v *view) tick(s *sim.Sim, ticks int) {
	v.flashes.Age(ticks)
	if v.drop.on() {
		v.nrel = len(v.theme.Relations)
	} else {
		v.nrel = len(s.Relations())
	}
	v.tracker.Sync(s, s.Pool.ClockHand(), refreshBudget)
}

// resize takes the canvas size in CSS pixels.
func (v *view) resize(w, h int) {
	if w == v.w && h == v.h {
		return
	}
	v.w, v.h = w, h
	v.layout = v.layout.Resize(w, h)
}

// setLayout changes zoom or pan.
func (v *view) setLayout(l grid.Layout) { v.layout = l }

// setTheme draws the grid in t, or in its drop-lab variant in the drop lab.
func (v *view) setTheme(t *grid.Theme) {
	v.base, v.theme = t, t
	if v.drop.on() {
		v.theme = t.DropLab()
		v.nrel = len(v.theme.Relations)
	}
}

// relColor returns the colour relation rel (an index in Sim.Relations) is drawn in.
func (v *view) relColor(rel int) grid.RGBA {
	return v.theme.Rel(v.relIndex(rel))
}

// relIndex returns the palette index of relation rel: rel itself in free play, its role's
// colour in the drop lab.
func (v *view) relIndex(rel int) int {
	if v.drop.on() {
		return grid.DropRelIndex(rel, v.drop.watch.Relations())
	}
	return rel
}

// setReduced turns flashes off for readers who asked for reduced motion, or on again.
func (v *view) setReduced(reduced bool) {
	v.reduced = reduced
	if reduced {
		v.flashes.Clear()
	}
}

// setHighlight rings buffer id, or none for an id outside the pool.
func (v *view) setHighlight(id int) {
	if id < 0 || id >= v.layout.N {
		id = -1
	}
	v.hilite = id
}

// frame collects what the painter needs, with the clock hand at hand. The drop lab has no
// workload and marks its scan's cursor instead, in the overlay.
func (v *view) frame(hand int) grid.Frame {
	if v.drop.on() {
		hand = -1
	}
	f := grid.Frame{Layout: v.layout, Codes: v.tracker.Codes, NumRel: v.nrel, Theme: v.theme, Hand: hand, Highlight: v.hilite}
	if !v.reduced {
		f.Flashes = &v.flashes
	}
	return f
}

// paint repaints what changed since the last frame and reports whether any pixel changed.
// While the visible part of the pool fits the paint budget, the painter repaints just the
// cells that changed. A larger view — a 20 or 100 GB pool seen whole — is repainted in
// full when it first appears, then a band of rows per frame while the pool changes, plus
// the rows the clock hand left and entered.
func (v *view) paint(hand int) bool {
	if v.w <= 0 || v.h <= 0 || len(v.tracker.Codes) == 0 {
		return false
	}
	f := v.frame(hand)
	changed := v.tracker.Changed()
	from, to := v.tracker.ChangedRange()
	if first, end := v.layout.VisibleBuffers(); end-first <= paintBudget {
		return v.painter.Update(&f)
	}
	if !v.painter.Fresh(&f) {
		v.painter.Paint(&f)
		v.band, v.owed = 0, 0
		return true
	}
	painted := false
	if changed && v.drop.on() && from < to {
		// The drop lab changes the pool where its replay is: repaint those rows now, when
		// they are few enough, instead of the whole picture band by band.
		y0, y1 := v.layout.RowSpan(from, to)
		y0, y1 = max(y0, 0), min(y1, v.h)
		if z := v.layout.Zoom(); (y1-y0)/z.Cell*z.Block*v.layout.Cols <= rowsBudget {
			if y0 < y1 {
				v.painter.PaintRows(&f, y0, y1)
				painted = true
			}
			changed = false
		}
	}
	if changed {
		v.owed = v.h
	}
	if v.owed <= 0 && !painted && !v.painter.MarksMoved(&f) {
		return false
	}
	if v.owed > 0 {
		rows := max(1, paintBudget/max(v.layout.Cols*v.layout.Zoom().Block, 1))
		v.painter.PaintRows(&f, v.band, v.band+rows)
		v.owed -= rows
		if v.band += rows; v.band >= v.h {
			v.band = 0
		}
	}
	v.painter.PaintMarks(&f)
	return true
}
