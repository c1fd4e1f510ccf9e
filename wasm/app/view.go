package app

import (
	"github.com/bufferscope/bufferscope/sim"
	"github.com/bufferscope/bufferscope/sim/lab"
	"github.com/bufferscope/bufferscope/wasm/grid"
	"github.com/bufferscope/bufferscope/wasm/labview"
)

// view is what the grid shows and how: the codes kept in step with the simulation, the
// flashes of recent events, zoom and pan, theme and motion, the painted pixels, and the
// overlay the lab's view draws over them.
type view struct {
	tracker grid.Tracker
	flashes grid.Flashes
	layout  grid.Layout
	painter grid.Painter
	overlay grid.Overlay
	base    *grid.Theme // the base theme the reader chose
	theme   *grid.Theme // what the grid is drawn with: base in the run's legend's colours
	legend  lab.Legend
	opts    labview.Options
	reduced bool // the reader asked for reduced motion: no flashes
	nrel    int  // the theme's roles: the palette's size
	nrels   int  // relations in the catalog when the legend was taken
	hilite  int  // buffer being inspected, or -1
	w, h    int  // canvas size in CSS pixels

	// The opening zoom (labview.Options.Close): opening is set when a run is attached and
	// cleared once the canvas has its size and the grid has opened; wholePool is set when
	// the reader asked for the whole pool (Fit), which later runs keep.
	opening, wholePool bool

	// Banded repainting of views larger than the paint budget.
	band int // next canvas row to repaint
	owed int // canvas rows still to repaint before the bands have caught up
}

// Budgets that keep a frame short however large the pool: how many buffers a frame may
// copy out of the simulation during a full refresh, and how many it may paint.
const (
	refreshBudget = 1 << 17
	paintBudget   = 1 << 19
	rowsBudget    = 1 << 21 // the repaint of the rows a lab that changes runs of buffers changed
)

func (v *view) init() {
	v.base, v.theme = &grid.Light, &grid.Light
	v.hilite = -1
}

// attach points the view at a freshly built simulation, drawn in legend's colours as the
// lab's view asks (opts).
func (v *view) attach(s *sim.Sim, legend lab.Legend, opts labview.Options) {
	n := s.Pool.NBuffers
	v.opts = opts
	v.tracker.MaxTouched = 0
	if opts.Runs {
		// Buffers emptied in runs are copied run by run, which is faster than a full
		// refresh of a large pool.
		v.tracker.MaxTouched = n
	}
	v.setLegend(legend, len(s.Relations()))
	v.tracker.Reset(s, n, s.Pool.ClockHand())
	v.flashes.Reset(n)
	v.overlay.Reset()
	v.hilite = -1
	v.layout = grid.FitInset(n, max(v.w, 1), max(v.h, 1), opts.Below, opts.Inset)
	v.opening = opts.Close > 0 && !v.wholePool
	v.open()
}

// open zooms in as the lab's view asks (labview.Options.Close) once the canvas has its size:
// when the whole pool is drawn at 1 pixel per buffer or less, to cells of Close pixels with
// the buffer Focus names in the middle of the area.
func (v *view) open() {
	if !v.opening || v.w <= 1 || v.h <= 1 {
		return
	}
	v.opening = false
	l := v.layout
	if z := l.Zoom(); z.Block == 1 && z.Cell > 1 {
		return
	}
	level := len(grid.Zooms) - 1
	for i, z := range grid.Zooms {
		if z.Block == 1 && z.Cell >= v.opts.Close {
			level = i
			break
		}
	}
	id := -1
	if v.opts.Focus != nil {
		id = v.opts.Focus()
	}
	id = min(max(id, 0), l.N-1)
	l = l.ZoomCentre(level - l.Level)
	x, y, side := l.CellRect(id)
	ax, ay, aw, ah := l.Area()
	v.layout = l.PanBy(ax+aw/2-(x+side/2), ay+ah/2-(y+side/2))
}

// setLegend takes the run's legend for a catalog of nrels relations: the map from relations
// to roles and the theme's colours.
func (v *view) setLegend(legend lab.Legend, nrels int) {
	v.legend, v.nrels = legend, nrels
	v.tracker.SetRelMap(grid.RelMap(legend, nrels))
	v.setTheme(v.base)
}

// release lets go of everything sized for the pool, before a large one is built.
func (v *view) release() {
	v.tracker.Codes = nil
	v.flashes.Reset(0)
	v.overlay.Reset()
	v.painter = grid.Painter{}
}

// shown returns the role the grid last showed in buffer id, -1 for an empty buffer or one
// it does not know, for a lab's view that needs it before the grid learns of a change.
func (v *view) shown(id int32) int {
	if id >= 0 && int(id) < len(v.tracker.Codes) {
		if c := v.tracker.Codes[id]; !c.Empty() {
			return c.Rel()
		}
	}
	return -1
}

// note takes the events of one command; flash says whether its reads and writes flash,
// and the lab's view whether any other event flashes (a buffer emptied burns).
func (v *view) note(events []sim.Event, flash bool, lv labview.View) {
	var f *grid.Flashes
	if flash && !v.reduced {
		f = &v.flashes
	}
	v.tracker.Note(events, f)
	if f != nil && f.Enabled() {
		for i := range events {
			if kind, ok := lv.Flash(&events[i]); ok {
				f.Note(kind, int(events[i].Buffer))
			}
		}
	}
}

// tick ages the flashes by ticks (the wall time since the last tick, in 60ths of a second)
// and brings the codes up to date; it runs once per Ebiten tick.
func (v *view) tick(s *sim.Sim, ticks int) {
	v.flashes.Age(ticks)
	v.tracker.Sync(s, s.Pool.ClockHand(), refreshBudget)
}

// resize takes the canvas size in CSS pixels.
func (v *view) resize(w, h int) {
	if w == v.w && h == v.h {
		return
	}
	v.w, v.h = w, h
	v.layout = v.layout.Resize(w, h)
	v.open()
}

// setLayout changes zoom or pan: the reader's, so the grid no longer opens zoomed by itself.
func (v *view) setLayout(l grid.Layout) {
	v.layout = l
	v.opening = false
}

// setTheme draws the grid in base theme t, coloured by the run's legend.
func (v *view) setTheme(t *grid.Theme) {
	v.base = t.Base()
	v.theme = grid.ThemeFor(v.base, v.legend)
	v.nrel = max(len(v.theme.Roles), 1)
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

// frame collects what the painter needs, with the clock hand at hand, unless the lab's
// view leaves it out.
func (v *view) frame(hand int) grid.Frame {
	if v.opts.HideHand {
		hand = -1
	}
	f := grid.Frame{Layout: v.layout, Codes: v.tracker.Codes, NumRel: v.nrel, Theme: v.theme, Hand: hand, Highlight: v.hilite, Inset: v.overlay.Inset}
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
	if changed && v.opts.Runs && from < to {
		// A lab that changes the pool in runs changes it where its scenario is: repaint
		// those rows now, when they are few enough, instead of the whole picture band by
		// band.
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
	v.painter.UpdateInset(&f)
	return true
}
