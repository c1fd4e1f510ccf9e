package app

import (
	"cmp"
	"fmt"
	"strings"

	"github.com/bufferscope/bufferscope/sim/lab"
	"github.com/bufferscope/bufferscope/sim/param"
	"github.com/bufferscope/bufferscope/wasm/grid"
)

// Resize takes the canvas size in CSS pixels.
func (a *App) Resize(w, h int) { a.view.resize(w, h) }

// CanvasSize returns the canvas size in CSS pixels Resize last gave.
func (a *App) CanvasSize() (w, h int) { return a.view.w, a.view.h }

// Paint repaints what changed since the last frame and reports whether any pixel changed;
// the pixels and what changed are the panes' Painters'.
func (a *App) Paint() bool { return a.view.paint() }

// Panes returns how many pools the canvas shows side by side: the run's panes (lab.Paned),
// 1 for most labs.
func (a *App) Panes() int { return len(a.view.panes) }

// PaneRect returns where pane i is on the canvas, in CSS pixels; its painter's pixels are
// drawn there.
func (a *App) PaneRect(i int) grid.Rect { return a.view.rects[i] }

// PanePainter returns the painter that holds pane i's pixels.
func (a *App) PanePainter(i int) *grid.Painter { return &a.view.panes[i].painter }

// Painter returns the painter of the first pane, the only one for most labs.
func (a *App) Painter() *grid.Painter { return a.PanePainter(0) }

// BuildOverlay has the lab's view rebuild the overlay drawn over the grid's pixels, every
// pane's moved to its place, and reports whether it changed.
func (a *App) BuildOverlay() bool { return a.view.buildOverlay(a.lv) }

// Overlay returns the fills the lab's view draws over the grid, in canvas pixels; none for
// most labs.
func (a *App) Overlay() *grid.Overlay { return &a.view.overlay }

// ViewInfo describes zoom and pan for the page's zoom buttons and gestures, and the panes.
type ViewInfo struct {
	Zoomed     bool   `json:"zoomed"`
	Label      string `json:"label"`
	Cell       int    `json:"cell"`
	Block      int    `json:"block"`
	CanZoomIn  bool   `json:"canZoomIn"`
	CanZoomOut bool   `json:"canZoomOut"`
	Width      int    `json:"width"`
	Height     int    `json:"height"`
	Cols       int    `json:"cols"`
	Rows       int    `json:"rows"`
	// Panes are where the pools are on the canvas when it shows several (a race); absent
	// for one.
	Panes []PaneInfo `json:"panes,omitempty"`
}

// ViewDetail is ViewInfo with what the lab's view draws on the canvas besides the pool.
type ViewDetail struct {
	ViewInfo
	// Inset is where the lab's view shows buffers magnified (grid.Inset), nil without one.
	Inset *InsetInfo `json:"inset"`
	// Labels are the texts the lab's view writes on the canvas, where it writes them.
	Labels []LabelInfo `json:"labels"`
}

// InsetInfo says where the inset's items are drawn and which buffers they show.
type InsetInfo struct {
	X       int   `json:"x"` // the first item's top-left corner, canvas pixels
	Y       int   `json:"y"`
	Cell    int   `json:"cell"` // pixels per item, its gap included
	Side    int   `json:"side"` // an item's square, without the gap
	Cols    int   `json:"cols"` // items per row: item i is at column i % cols, row i / cols
	Rows    int   `json:"rows"`
	Buffers []int `json:"buffers"` // the buffer each item shows, -1 for an empty item
}

// LabelInfo is one text on the canvas and the rectangle it covers, in canvas pixels.
type LabelInfo struct {
	Text string `json:"text"`
	X    int    `json:"x"`
	Y    int    `json:"y"`
	W    int    `json:"w"`
	H    int    `json:"h"`
}

// PaneInfo is one pane: what it shows and where.
type PaneInfo struct {
	Index int    `json:"index"`
	Key   string `json:"key"`   // "pg13"
	Label string `json:"label"` // "PostgreSQL 13"
	Doc   string `json:"doc"`
	// X, Y, Width and Height are the pane's rectangle on the canvas, in CSS pixels, without
	// the band of Head pixels above it for its label.
	X      int `json:"x"`
	Y      int `json:"y"`
	Width  int `json:"width"`
	Height int `json:"height"`
	Head   int `json:"head"`
}

// View describes zoom and pan, and the panes.
func (a *App) View() ViewInfo {
	l := a.view.layout
	z := l.Zoom()
	vi := ViewInfo{
		Zoomed: l.Zoomed(), Label: z.String(), Cell: z.Cell, Block: z.Block,
		CanZoomIn: l.Level < len(grid.Zooms)-1, CanZoomOut: l.Zoomed(),
		Width: a.view.w, Height: a.view.h, Cols: l.Cols, Rows: l.Rows,
	}
	if len(a.view.panes) > 1 {
		for i, pv := range a.view.panes {
			r := a.view.rects[i]
			w, h := r.Size()
			vi.Panes = append(vi.Panes, PaneInfo{Index: i, Key: pv.info.Key, Label: pv.info.Label, Doc: pv.info.Doc,
				X: r.X0, Y: r.Y0, Width: w, Height: h, Head: grid.PaneHead})
		}
	}
	return vi
}

// ViewDetail describes zoom and pan, the lab's inset and its labels.
func (a *App) ViewDetail() ViewDetail {
	l := a.view.layout
	info := ViewDetail{ViewInfo: a.View(), Labels: []LabelInfo{}}
	if l.Inset.N > 0 {
		x, y, side := l.InsetItem(0)
		in := &InsetInfo{X: x, Y: y, Cell: l.Inset.Cell, Side: side, Cols: l.Inset.Cols, Rows: l.Inset.Rows, Buffers: []int{}}
		for _, id := range a.view.overlay.Inset[:min(len(a.view.overlay.Inset), l.Inset.N)] {
			in.Buffers = append(in.Buffers, int(id))
		}
		info.Inset = in
	}
	for _, lb := range a.view.overlay.Labels {
		r := lb.Rect()
		info.Labels = append(info.Labels, LabelInfo{Text: lb.Text, X: r.X0, Y: r.Y0, W: r.X1 - r.X0, H: r.Y1 - r.Y0})
	}
	return info
}

// Zoom zooms every pane in by steps (out when negative), about canvas point (x, y) when at
// is true and the point is in a pane (the same point of every pane stays put), else about
// the centre.
func (a *App) Zoom(steps int, x, y int, at bool) ViewInfo {
	steps = min(max(steps, -100), 100)
	v := &a.view
	if _, px, py, in := grid.PaneAt(v.rects, x, y); at && in {
		v.setLayout(v.layout.ZoomAt(steps, px, py))
	} else {
		v.setLayout(v.layout.ZoomCentre(steps))
	}
	return a.View()
}

// Pan moves every pane's view by dx, dy canvas pixels.
func (a *App) Pan(dx, dy int) ViewInfo {
	clampPx := func(d int) int { return min(max(d, -1_000_000), 1_000_000) }
	a.view.setLayout(a.view.layout.PanBy(clampPx(dx), clampPx(dy)))
	return a.View()
}

// Fit shows the whole pool in every pane again, and keeps showing it when the next run would
// open zoomed in (labview.Options.Close).
func (a *App) Fit() ViewInfo {
	v := &a.view
	v.setLayout(v.fit(v.layout.N))
	v.wholePool = true
	return a.View()
}

// FitHeight returns the canvas height, at most h, that shows the whole pool on a canvas w
// pixels wide at the largest cells a w×h canvas allows, with nothing to spare: the rulers, the
// rows and the lane below, and the band over panes side by side. The page sizes the grid's
// box with it, so no part of the box stays blank under a pool that fills its width first.
// Panes stacked one above the other (a canvas taller than wide) keep the whole height.
func (a *App) FitHeight(w, h int) int {
	w, h = min(max(w, 1), 1<<15), min(max(h, 1), 1<<15)
	rects := grid.Arrange(max(len(a.view.panes), 1), w, h)
	if len(rects) > 1 && rects[0].X0 == rects[1].X0 {
		return h
	}
	pw, ph := rects[0].Size()
	l := a.view.layout.RefitTo(pw, ph)
	_, mh := l.MapSize()
	return min(h, rects[0].Y0+grid.Ruler+mh+grid.Pad+l.Below)
}

// Highlight rings buffer id of pane, as the inspector does, or none for an id outside the
// pool or a pane that is not there; it returns the buffer ringed, or -1.
func (a *App) Highlight(id, pane int) int {
	a.view.setHighlight(pane, id)
	return a.view.hilite
}

// SetTheme draws the grid on base theme name ("light" or "dark"); any other name gives
// light and an error. It returns the theme's name.
func (a *App) SetTheme(name string) (string, error) {
	t, ok := grid.ThemeByName(name)
	a.view.setTheme(t)
	if !ok {
		return t.Name, fmt.Errorf("theme %s is not light or dark; using light", param.Quote(name))
	}
	return t.Name, nil
}

// Theme returns the theme the grid is drawn in.
func (a *App) Theme() *grid.Theme { return a.view.theme }

// SetReducedMotion turns flashes and fading marks off for readers who asked for reduced
// motion, or on again.
func (a *App) SetReducedMotion(reduced bool) { a.view.setReduced(reduced) }

// SwatchSpec is one legend swatch: a cell as the grid draws it, or one of the legend's marks.
type SwatchSpec struct {
	// Mark is the key of a legend mark (lab.Legend.Marks); empty for a cell.
	Mark string
	// Shape overrides the mark's shape (lab.Swatch.Shape): one of grid.MarkShapes or of the
	// grid's own marks.
	Shape string
	// Role is the cell's role, an index in the legend's roles, or -1 for an empty buffer;
	// RoleKey, when not empty, names it instead.
	Role    int
	RoleKey string
	Usage   int // 0 to 5
	Dirty   bool
	Pinned  bool
	Hand    bool    // ringed as the clock hand
	Read    float64 // how far into a read flash, 0 to 1
	Write   float64 // a write flash
	Burn    float64 // a burn (drop flash)
	Size    int     // side in pixels, 8 to 128
}

// Swatch paints one legend swatch with the grid's own painter, in the current theme, so the
// legend matches the grid, and returns its RGBA bytes and side.
func (a *App) Swatch(sp SwatchSpec) ([]byte, int, error) {
	t := a.view.theme
	size := min(max(sp.Size, 8), 128)
	if sp.Mark != "" {
		var mark *lab.Swatch
		keys := []string{}
		for i, m := range a.view.legend.Marks {
			keys = append(keys, m.Key)
			if m.Key == sp.Mark {
				mark = &a.view.legend.Marks[i]
			}
		}
		if mark == nil {
			if len(keys) == 0 {
				return nil, 0, fmt.Errorf("mark %s: this lab's legend has no marks", param.Quote(sp.Mark))
			}
			return nil, 0, fmt.Errorf("mark %s is not one of %s", param.Quote(sp.Mark), strings.Join(keys, ", "))
		}
		shape := cmp.Or(sp.Shape, mark.Shape, mark.Key)
		// The grid's own marks are painted as a cell of the first role would be.
		cell := map[string]grid.Swatch{
			"empty":  {Code: grid.MakeCode(-1, 0, false, false)},
			"usage":  {Code: grid.MakeCode(0, 3, false, false)},
			"dirty":  {Code: grid.MakeCode(0, 3, true, false)},
			"pinned": {Code: grid.MakeCode(0, 3, false, true)},
			"hand":   {Code: grid.MakeCode(0, 2, false, false), Hand: true},
			"read":   {Code: grid.MakeCode(0, 1, false, false), Read: 0.8},
			"write":  {Code: grid.MakeCode(0, 1, false, false), Write: 1},
		}
		if sw, ok := cell[shape]; ok {
			return grid.PaintSwatch(t, a.view.nrel, sw, size), size, nil
		}
		c, _ := t.Mark(mark.Key)
		px, ok := grid.PaintMark(t, shape, c, size)
		if !ok {
			return nil, 0, fmt.Errorf("mark %s has shape %s, not one of %s", param.Quote(sp.Mark), param.Quote(shape), strings.Join(grid.MarkShapes, ", "))
		}
		return px, size, nil
	}
	role := sp.Role
	if sp.RoleKey != "" {
		role = -2
		for i, r := range a.view.legend.Roles {
			if r.Key == sp.RoleKey {
				role = i
			}
		}
		if role == -2 {
			return nil, 0, fmt.Errorf("role %s is not in this lab's legend", param.Quote(sp.RoleKey))
		}
	}
	role = min(max(role, -1), grid.MaxRelCode-1)
	clamp01 := func(x float64) float64 {
		if !(x >= 0) { // NaN too
			return 0
		}
		return min(x, 1)
	}
	sw := grid.Swatch{
		Code:  grid.MakeCode(role, min(max(sp.Usage, 0), 5), sp.Dirty, sp.Pinned),
		Read:  clamp01(sp.Read),
		Write: clamp01(sp.Write),
		Burn:  clamp01(sp.Burn),
		Hand:  sp.Hand,
	}
	return grid.PaintSwatch(t, a.view.nrel, sw, size), size, nil
}
