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

// Arrange places n panes, each showing a pool of nbuffers buffers with below pixels under its
// area kept for a lane (Layout.Below), on a w×h canvas, and returns their rectangles in canvas
// pixels, each without the band of PaneHead pixels above it. The panes go side by side or
// one above the other, whichever gives the larger cells when each shows its whole pool; on
// a tie, side by side on a canvas at least as wide as it is tall, stacked on a taller one.
// One pane takes the whole canvas, without a band.
func Arrange(n, w, h, nbuffers, below int) []Rect {
	w, h = max(w, 1), max(h, 1)
	if n <= 1 {
		return []Rect{{0, 0, w, h}}
	}
	side := arrange(n, w, h, false)
	stacked := arrange(n, w, h, true)
	level := func(rs []Rect) int {
		r := rs[0]
		return FitBelow(nbuffers, r.X1-r.X0, r.Y1-r.Y0, below).Level
	}
	ls, lt := level(side), level(stacked)
	if lt > ls || lt == ls && h > w {
		return stacked
	}
	return side
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
