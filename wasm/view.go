//go:build js

package main

import (
	"math"

	"github.com/bufferscope/bufferscope/sim"
	"github.com/bufferscope/bufferscope/wasm/grid"
)

// view is what the grid shows and how: the codes kept in step with the simulation, the
// flashes of recent events, zoom and pan, theme and motion, and the painted pixels.
type view struct {
	tracker grid.Tracker
	flashes grid.Flashes
	layout  grid.Layout
	painter grid.Painter
	theme   *grid.Theme
	reduced bool // the reader asked for reduced motion: no flashes
	nrel    int  // relations in the catalog
	hilite  int  // buffer being inspected, or -1
	w, h    int  // canvas size in CSS pixels

	// Banded repainting of views larger than the paint budget.
	band int // next canvas row to repaint
	owed int // canvas rows still to repaint before the bands have caught up
}

// Budgets that keep a frame short however large the pool: how many buffers a frame may
// copy out of the simulation during a full refresh, and how many it may paint.
const (
	refreshBudget = 1 << 17
	paintBudget   = 1 << 19
)

func (v *view) init() {
	v.theme = &grid.Light
	v.hilite = -1
}

// attach points the view at a freshly built simulation.
func (v *view) attach(s *sim.Sim) {
	n := s.Pool.NBuffers
	v.tracker.Reset(s, n, s.Pool.ClockHand())
	v.flashes.Reset(n)
	v.nrel = len(s.Relations())
	v.hilite = -1
	v.layout = grid.Fit(n, max(v.w, 1), max(v.h, 1))
}

// note takes the events of one command; flash says whether its reads and writes flash.
func (v *view) note(events []sim.Event, flash bool) {
	var f *grid.Flashes
	if flash && !v.reduced {
		f = &v.flashes
	}
	v.tracker.Note(events, f)
}

// tick ages the flashes by the wall time since the last tick and brings the codes up to
// date; it runs once per Ebiten tick.
func (v *view) tick(s *sim.Sim, elapsed float64) {
	v.flashes.Age(max(1, int(math.Round(elapsed*ticksPerSecond))))
	v.nrel = len(s.Relations())
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

func (v *view) setTheme(t *grid.Theme) { v.theme = t }

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

// frame collects what the painter needs, with the clock hand at hand.
func (v *view) frame(hand int) grid.Frame {
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
	if first, end := v.layout.VisibleBuffers(); end-first <= paintBudget {
		return v.painter.Update(&f)
	}
	if !v.painter.Fresh(&f) {
		v.painter.Paint(&f)
		v.band, v.owed = 0, 0
		return true
	}
	if changed {
		v.owed = v.h
	}
	if v.owed <= 0 && !v.painter.MarksMoved(&f) {
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
