package grid

// Panes: a canvas may show several pools of the same size side by side (a race of two
// replays of the same WAL). Each pool is drawn in a pane of the canvas as a canvas of its own
// would be — its Layout, Painter and Overlay work in the pane's pixels, origin at its top-left
// corner — and Arrange says where the panes go. The panes of one canvas are all the same
// size, so one Layout serves them all, and zoom and pan move them together.

// Pane geometry on a canvas of several panes.
const (
	// PaneHead is the height in pixels of the band over each pane where the page writes
	// its label.
	PaneHead = 22
	// PaneGap is the space in pixels between two panes.
	PaneGap = 10
)

// Arrange places n panes on a w×h canvas and returns their rectangles in canvas pixels,
// each without the band of PaneHead pixels above it: side by side on a canvas at least as
// wide as it is tall, one above the other on a taller one (a phone's), so that each pane
// keeps the shape of the canvas and its label the width of a pane. One pane takes the whole
// canvas, without a band.
func Arrange(n, w, h int) []Rect {
	w, h = max(w, 1), max(h, 1)
	if n <= 1 {
		return []Rect{{0, 0, w, h}}
	}
	return arrange(n, w, h, h > w)
}

// arrange cuts the canvas into n equal panes in a row, or in a column when stacked.
func arrange(n, w, h int, stacked bool) []Rect {
	out := make([]Rect, n)
	if stacked {
		ph := max((h-(n-1)*PaneGap)/n, PaneHead+1)
		for i := range out {
			y := i * (ph + PaneGap)
			out[i] = Rect{0, y + PaneHead, w, y + ph}
		}
		return out
	}
	pw := max((w-(n-1)*PaneGap)/n, 1)
	for i := range out {
		x := i * (pw + PaneGap)
		out[i] = Rect{x, PaneHead, x + pw, max(h, PaneHead+1)}
	}
	return out
}

// PaneAt returns the pane of panes whose rectangle holds canvas point (x, y) and the point
// in that pane's pixels; false when the point is in none (a band or a gap).
func PaneAt(panes []Rect, x, y int) (pane, px, py int, ok bool) {
	for i, r := range panes {
		if x >= r.X0 && x < r.X1 && y >= r.Y0 && y < r.Y1 {
			return i, x - r.X0, y - r.Y0, true
		}
	}
	return -1, 0, 0, false
}

// Size returns the rectangle's width and height.
func (r Rect) Size() (w, h int) { return r.X1 - r.X0, r.Y1 - r.Y0 }
