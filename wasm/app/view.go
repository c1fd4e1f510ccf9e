package app

import (
	"github.com/bufferscope/bufferscope/sim"
	"github.com/bufferscope/bufferscope/sim/lab"
	"github.com/bufferscope/bufferscope/wasm/grid"
	"github.com/bufferscope/bufferscope/wasm/labview"
)

// view is what the grid shows and how: for each pane of the run (lab.PanesOf: one for most
// labs) the codes kept in step with its simulation, the flashes of recent events, the
// painted pixels and the overlay the lab's view draws over them; and for all panes the
// arrangement on the canvas, one layout (zoom and pan, in a pane's pixels), theme and
// motion.
type view struct {
	panes   []paneView
	rects   []grid.Rect  // each pane's place on the canvas (grid.Arrange)
	layout  grid.Layout  // every pane's layout, in the pane's own pixels
	overlay grid.Overlay // every pane's overlay, in canvas pixels
	moved   bool         // the panes moved on the canvas since the overlay was last built
	base    *grid.Theme  // the base theme the reader chose
	theme   *grid.Theme  // what the grid is drawn with: base in the run's legend's colours
	legend  lab.Legend
	opts    labview.Options
	reduced bool // the reader asked for reduced motion: no flashes
	nrel    int  // the theme's roles: the palette's size
	nrels   int  // relations in the catalog when the legend was taken
	hilite  int  // buffer being inspected, or -1
	hpane   int  // the pane of the buffer being inspected
	w, h    int  // canvas size in CSS pixels

	// The opening zoom (labview.Options.Close): opening is set when a run is attached and
	// cleared once the canvas has its size and the grid has opened; wholePool is set when
	// the reader asked for the whole pool (Fit), which later runs keep.
	opening, wholePool bool
}

// paneView is what one pane shows: the pool of one simulation.
type paneView struct {
	sim     *sim.Sim
	info    lab.Pane
	tracker grid.Tracker
	flashes grid.Flashes
	painter grid.Painter
	overlay grid.Overlay // in the pane's pixels

	// Banded repainting of views larger than the paint budget.
	band int // next canvas row to repaint
	owed int // canvas rows still to repaint before the bands have caught up

	// filling: the codes of a freshly built large pool are being refreshed a fillBudget at
	// a time (Tracker.Start); the pane shows what it showed until they are all in.
	filling bool

	// A pane of a pool other than the run's (a real server's, drawn beside it) maps its
	// relations to the legend's roles through relMap instead of the legend's own map, and
	// may have no clock hand to show.
	relMap   []int32
	hideHand bool
}

// Budgets that keep a frame short however large the pool: how many buffers a frame may
// copy out of the simulation during a full refresh, and how many it may paint. Several
// panes share them.
const (
	refreshBudget = 1 << 17
	paintBudget   = 1 << 19
	rowsBudget    = 1 << 21 // the repaint of the rows a lab that changes runs of buffers changed
	// fillBudget is a frame's share of the first refresh of a pool larger than it, which
	// attach leaves to the frames that follow: 100GB is in within 25 frames.
	fillBudget = 1 << 19
)

func (v *view) init() {
	v.base, v.theme = &grid.Light, &grid.Light
	v.hilite = -1
}

// attach points the view at a freshly built run, its panes drawn in legend's colours as the
// lab's view asks (opts).
func (v *view) attach(run lab.Run, legend lab.Legend, opts labview.Options) {
	panes := lab.PanesOf(run)
	if len(v.panes) > len(panes) {
		clear(v.panes[len(panes):]) // let the memory of panes no longer shown go
	}
	if cap(v.panes) < len(panes) {
		v.panes = append(v.panes[:cap(v.panes)], make([]paneView, len(panes)-cap(v.panes))...)
	}
	v.panes = v.panes[:len(panes)]
	v.opts = opts
	n := run.Sim().Pool.NBuffers
	for i, p := range panes {
		pv := &v.panes[i]
		pv.sim, pv.info = p.Run.Sim(), p
		pv.tracker.MaxTouched = 0
		if opts.Runs {
			// Buffers emptied in runs are copied run by run, which is faster than a full
			// refresh of a large pool.
			pv.tracker.MaxTouched = n
		}
		pv.flashes.Reset(n)
		pv.overlay.Reset()
		pv.band, pv.owed = 0, 0
		pv.relMap, pv.hideHand = nil, false
	}
	v.setLegend(legend, len(run.Sim().Relations()))
	for i := range v.panes {
		pv := &v.panes[i]
		if pv.filling = n*len(v.panes) > fillBudget; pv.filling {
			pv.tracker.Start(pv.sim, n, pv.sim.Pool.ClockHand())
		} else {
			pv.tracker.Reset(pv.sim, n, pv.sim.Pool.ClockHand())
		}
	}
	v.overlay.Reset()
	v.hilite, v.hpane = -1, 0
	v.arrange()
	v.layout = v.fit(n)
	v.opening = opts.Close > 0 && !v.wholePool
	v.open()
}

// arrange places the panes on the canvas.
func (v *view) arrange() {
	v.rects = grid.Arrange(len(v.panes), max(v.w, 1), max(v.h, 1))
	v.moved = true
}

// paneSize returns the size of a pane in pixels.
func (v *view) paneSize() (w, h int) { return v.rects[0].Size() }

// fit returns the layout that shows a whole pool of n buffers in a pane, with the lab's inset.
func (v *view) fit(n int) grid.Layout {
	w, h := v.paneSize()
	return grid.FitInset(n, w, h, v.opts.Below, v.opts.Inset)
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
// to roles and the theme's colours. Every pane's catalog is the run's.
func (v *view) setLegend(legend lab.Legend, nrels int) {
	v.legend, v.nrels = legend, nrels
	m := grid.RelMap(legend, nrels)
	for i := range v.panes {
		if pm := v.panes[i].relMap; pm != nil {
			v.panes[i].tracker.SetRelMap(pm)
		} else {
			v.panes[i].tracker.SetRelMap(m)
		}
	}
	v.setTheme(v.base)
}

// setPaneRoles makes pane i map its relations to the legend's roles through m, and draw no
// clock hand when hideHand, for a pane whose pool is not the run's; its codes are read
// again.
func (v *view) setPaneRoles(i int, m []int32, hideHand bool) {
	pv := &v.panes[i]
	pv.relMap, pv.hideHand = m, hideHand
	pv.tracker.SetRelMap(m)
	pv.tracker.Reset(pv.sim, pv.sim.Pool.NBuffers, pv.sim.Pool.ClockHand())
}

// release lets go of everything sized for the pool, before a large one is built.
func (v *view) release() {
	for i := range v.panes {
		pv := &v.panes[i]
		pv.tracker.Codes = nil
		pv.flashes.Reset(0)
		pv.overlay.Reset()
		pv.painter = grid.Painter{}
		pv.sim = nil
	}
	v.panes = v.panes[:0]
	v.overlay.Reset()
}

// shown returns the role the grid last showed in buffer id of a pane, -1 for an empty buffer
// or one it does not know, for a lab's view that needs it before the grid learns of a
// change.
func (v *view) shown(pane int, id int32) int {
	if pane < 0 || pane >= len(v.panes) {
		return -1
	}
	codes := v.panes[pane].tracker.Codes
	if id >= 0 && int(id) < len(codes) {
		if c := codes[id]; !c.Empty() {
			return c.Rel()
		}
	}
	return -1
}

// note takes the events of one command in a pane; flash says whether its reads and writes
// flash, and the lab's view whether any other event flashes (a buffer emptied burns).
func (v *view) note(pane int, events []sim.Event, flash bool, lv labview.View) {
	if pane < 0 || pane >= len(v.panes) {
		return
	}
	pv := &v.panes[pane]
	var f *grid.Flashes
	if flash && !v.reduced {
		f = &pv.flashes
	}
	pv.tracker.Note(events, f)
	if f != nil && f.Enabled() {
		for i := range events {
			if kind, ok := lv.Flash(&events[i]); ok {
				f.Note(kind, int(events[i].Buffer))
			}
		}
	}
}

// invalidate makes every pane's codes refresh in full, for changes that came without
// events.
func (v *view) invalidate() {
	for i := range v.panes {
		v.panes[i].tracker.Invalidate()
	}
}

// tick ages the flashes by ticks (the wall time since the last tick, in 60ths of a second)
// and brings the codes up to date; it runs once per Ebiten tick. The panes share the budget
// of a frame's refresh.
func (v *view) tick(ticks int) {
	budget := refreshBudget / max(len(v.panes), 1)
	for i := range v.panes {
		pv := &v.panes[i]
		pv.flashes.Age(ticks)
		b := budget
		if pv.filling {
			b = fillBudget / len(v.panes)
		}
		pv.tracker.Sync(pv.sim, pv.sim.Pool.ClockHand(), b)
	}
}

// resize takes the canvas size in CSS pixels. The panes are arranged again; at the fitting
// zoom the pools are fitted afresh, and a reader's closer zoom is kept.
func (v *view) resize(w, h int) {
	if w == v.w && h == v.h {
		return
	}
	v.w, v.h = w, h
	if len(v.panes) == 0 {
		return
	}
	v.arrange()
	v.layout = v.layout.Resize(v.paneSize())
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
		for i := range v.panes {
			v.panes[i].flashes.Clear()
		}
	}
}

// setHighlight rings buffer id of a pane, or none for an id outside the pool or a pane that
// is not there.
func (v *view) setHighlight(pane, id int) {
	if id < 0 || id >= v.layout.N || pane < 0 || pane >= len(v.panes) {
		id, pane = -1, 0
	}
	v.hilite, v.hpane = id, pane
}

// frame collects what the painter needs for a pane, with the clock hand at hand, unless the
// lab's view leaves it out.
func (v *view) frame(pane, hand int) grid.Frame {
	pv := &v.panes[pane]
	if v.opts.HideHand || pv.hideHand {
		hand = -1
	}
	hilite := v.hilite
	if pane != v.hpane {
		hilite = -1
	}
	f := grid.Frame{Layout: v.layout, Codes: pv.tracker.Codes, NumRel: v.nrel, Theme: v.theme, Hand: hand, Highlight: hilite, Inset: pv.overlay.Inset}
	if !v.reduced {
		f.Flashes = &pv.flashes
	}
	return f
}

// paint repaints what changed in every pane since the last frame and reports whether any
// pixel changed. The panes share the frame's paint budget.
func (v *view) paint() bool {
	if v.w <= 0 || v.h <= 0 || len(v.panes) == 0 {
		return false
	}
	painted := false
	for i := range v.panes {
		if v.paintPane(i, len(v.panes)) {
			painted = true
		}
	}
	return painted
}

// paintPane repaints what changed in pane i of n since the last frame and reports whether
// any pixel changed. While the visible part of the pool fits the pane's share of the paint
// budget, the painter repaints just the cells that changed. A larger view — a 20 or 100 GB
// pool seen whole — is painted a band of rows per frame: from the top when it first appears
// (a freshly built one once its codes are all in), then while the pool changes, plus the
// rows the clock hand left and entered.
func (v *view) paintPane(i, n int) bool {
	pv := &v.panes[i]
	if len(pv.tracker.Codes) == 0 {
		return false
	}
	if pv.filling {
		if pv.tracker.Pending() {
			return false
		}
		// All in: the frames that follow paint the pane afresh, a band at a time.
		pv.filling = false
	}
	pBudget, rBudget := paintBudget/n, rowsBudget/n
	f := v.frame(i, pv.sim.Pool.ClockHand())
	changed := pv.tracker.Changed()
	from, to := pv.tracker.ChangedRange()
	if first, end := v.layout.VisibleBuffers(); end-first <= pBudget {
		return pv.painter.Update(&f)
	}
	_, h := v.paneSize()
	if !pv.painter.Fresh(&f) {
		// Too large to paint in one frame (100GB takes a third of a second): the bands
		// below paint it afresh from the top, over what the pane showed.
		pv.painter.Begin(&f)
		pv.band, pv.owed, changed = 0, h, false
	}
	painted := false
	if changed && v.opts.Runs && from < to {
		// A lab that changes the pool in runs changes it where its scenario is: repaint
		// those rows now, when they are few enough, instead of the whole picture band by
		// band.
		y0, y1 := v.layout.RowSpan(from, to)
		y0, y1 = max(y0, 0), min(y1, h)
		if z := v.layout.Zoom(); (y1-y0)/z.Cell*z.Block*v.layout.Cols <= rBudget {
			if y0 < y1 {
				pv.painter.PaintRows(&f, y0, y1)
				painted = true
			}
			changed = false
		}
	}
	if changed {
		pv.owed = h
	}
	if pv.owed <= 0 && !painted && !pv.painter.MarksMoved(&f) {
		return false
	}
	if pv.owed > 0 {
		rows := max(1, pBudget/max(v.layout.Cols*v.layout.Zoom().Block, 1))
		pv.painter.PaintRows(&f, pv.band, pv.band+rows)
		pv.owed -= rows
		if pv.band += rows; pv.band >= h {
			pv.band = 0
		}
	}
	pv.painter.PaintMarks(&f)
	pv.painter.UpdateInset(&f)
	return true
}

// buildOverlay has the lab's view rebuild each pane's overlay and gathers them, moved to the
// panes' places, into the canvas's; it reports whether that changed.
func (v *view) buildOverlay(lv labview.View) bool {
	if len(v.panes) == 0 || len(v.panes[0].tracker.Codes) == 0 {
		return false
	}
	changed := v.moved
	v.moved = false
	for i := range v.panes {
		if lv.Overlay(i, &v.panes[i].overlay, &v.layout, v.theme, v.reduced) {
			changed = true
		}
	}
	if !changed {
		return false
	}
	v.overlay.Reset()
	for i := range v.panes {
		r := v.rects[i]
		for _, f := range v.panes[i].overlay.Fills {
			f.X0, f.X1, f.Y0, f.Y1 = f.X0+r.X0, f.X1+r.X0, f.Y0+r.Y0, f.Y1+r.Y0
			v.overlay.Fills = append(v.overlay.Fills, f)
		}
		for _, l := range v.panes[i].overlay.Labels {
			l.X, l.Y = l.X+r.X0, l.Y+r.Y0
			v.overlay.Labels = append(v.overlay.Labels, l)
		}
	}
	// The inset is the first pane's: a lab that shows several pools has none.
	v.overlay.Inset = append(v.overlay.Inset, v.panes[0].overlay.Inset...)
	return true
}
