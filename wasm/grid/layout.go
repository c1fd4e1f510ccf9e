package grid

import "fmt"

// Zoom is one step of the zoom ladder: each buffer a Cell×Cell pixel square when Block is 1,
// or each pixel a Block×Block square of buffers when Cell is 1.
type Zoom struct{ Cell, Block int }

// String describes the zoom in words: "5 px per buffer" or "36 buffers per pixel".
func (z Zoom) String() string {
	if z.Block > 1 {
		return fmt.Sprintf("%d buffers per pixel", z.Block*z.Block)
	}
	if z.Cell == 1 {
		return "1 px per buffer"
	}
	return fmt.Sprintf("%d px per buffer", z.Cell)
}

// Zooms is the zoom ladder, from furthest out to closest in.
var Zooms = []Zoom{
	{1, 32}, {1, 24}, {1, 16}, {1, 12}, {1, 10}, {1, 8}, {1, 6}, {1, 5}, {1, 4}, {1, 3}, {1, 2},
	{1, 1}, {2, 1}, {3, 1}, {4, 1}, {5, 1}, {6, 1}, {8, 1}, {10, 1}, {12, 1}, {16, 1},
	{20, 1}, {24, 1}, {32, 1}, {40, 1}, {48, 1}, {64, 1},
}

// Margins of the canvas around the pool: the left and top rulers carry the clock hand's
// markers; the right and bottom keep the outermost cells' rings on the canvas.
const (
	Ruler = 10
	Pad   = 3
)

// MinGapCell is the smallest cell that gets a one-pixel gap around it.
const MinGapCell = 5

// Layout places a pool of N buffers on a W×H canvas. The pool is arranged row by row, Cols
// buffers to a row, so buffer id sits at column id%Cols of row id/Cols. The arrangement is
// chosen by Fit for the canvas and kept while the user zooms (Level) and pans (OX, OY).
type Layout struct {
	N          int // buffers
	Cols, Rows int // arrangement: buffer id = row*Cols + col
	W, H       int // canvas size in pixels
	Level      int // index into Zooms
	FitLevel   int // the level at which the whole pool fits; zooming out stops there
	OX, OY     int // canvas position of the top-left corner of buffer 0
	// Below is the height in pixels kept free under the area for a lane of marks a lab's
	// view draws, and the inset above it; 0 keeps none.
	Below int
	// Inset is the magnifier band between the pool and the lane (inset.go), part of Below;
	// the zero Inset is none.
	Inset Inset
}

// Area returns the part of the canvas cells may occupy: x, y, width and height.
func (l Layout) Area() (x, y, w, h int) {
	return Ruler, Ruler, max(l.W-Ruler-Pad, 1), max(l.H-Ruler-Pad-l.Below, 1)
}

// Zoom returns the current step of the zoom ladder.
func (l Layout) Zoom() Zoom { return Zooms[l.Level] }

// Gap returns the gap between cells in pixels: 1 for cells of MinGapCell pixels or more.
func (l Layout) Gap() int {
	if z := l.Zoom(); z.Block == 1 && z.Cell >= MinGapCell {
		return 1
	}
	return 0
}

// extent returns the number of pixels n buffers take along one side at zoom z.
func extent(n int, z Zoom) int {
	if z.Block > 1 {
		return (n + z.Block - 1) / z.Block
	}
	return n * z.Cell
}

// MapSize returns the pool's size in pixels at the current zoom.
func (l Layout) MapSize() (w, h int) {
	z := l.Zoom()
	return extent(l.Cols, z), extent(l.Rows, z)
}

// Fit arranges n buffers on a w×h canvas with the largest cells that show the whole pool,
// centred. A canvas too small for even the furthest zoom gets that zoom, and can be panned.
func Fit(n, w, h int) Layout { return FitBelow(n, w, h, 0) }

// FitBelow is Fit with below pixels kept free under the area (Layout.Below).
func FitBelow(n, w, h, below int) Layout {
	n = max(n, 1)
	l := Layout{N: n, W: max(w, 1), H: max(h, 1), Below: max(below, 0)}
	_, _, aw, ah := l.Area()
	l.Level, l.Cols = 0, n
	for i := len(Zooms) - 1; i >= 0; i-- {
		z := Zooms[i]
		cols := aw / z.Cell * z.Block
		if cols < 1 {
			continue
		}
		rows := (n + cols - 1) / cols
		if extent(rows, z) <= ah {
			// Keep the rows this zoom needs, but spread the buffers evenly over them so
			// a small pool is not one long row and a stub.
			l.Level, l.Cols = i, (n+rows-1)/rows
			break
		}
		if i == 0 {
			l.Cols = max(cols, 1)
		}
	}
	l.Rows = (n + l.Cols - 1) / l.Cols
	l.FitLevel = l.Level
	l.centre()
	return l
}

// centre places the pool in the middle of the area.
func (l *Layout) centre() {
	ax, ay, aw, ah := l.Area()
	mw, mh := l.MapSize()
	l.OX, l.OY = ax+(aw-mw)/2, ay+(ah-mh)/2
	l.clamp()
}

// clamp keeps the pool on the canvas: centred along a side it does not fill, and otherwise
// with no empty space between its edge and the area's.
func (l *Layout) clamp() {
	ax, ay, aw, ah := l.Area()
	mw, mh := l.MapSize()
	clampAxis := func(o, a, size, m int) int {
		if m <= size {
			return a + (size-m)/2
		}
		return min(max(o, a+size-m), a)
	}
	l.OX = clampAxis(l.OX, ax, aw, mw)
	l.OY = clampAxis(l.OY, ay, ah, mh)
}

// Refit returns the layout that shows the whole pool on the same canvas, keeping the lane and
// the inset.
func (l Layout) Refit() Layout { return l.RefitTo(l.W, l.H) }

// RefitTo returns the layout that shows the whole pool on a w×h canvas, keeping the lane and
// the inset.
func (l Layout) RefitTo(w, h int) Layout { return FitInset(l.N, w, h, l.laneBelow(), l.Inset.Want) }

// Zoomed reports whether the view is closer than the one that shows the whole pool.
func (l Layout) Zoomed() bool { return l.Level > l.FitLevel }

// ZoomAt moves steps along the zoom ladder (positive is closer), keeping the point of the
// pool under canvas point (x, y) where it is. It stops at the ladder's end and at the
// fitting zoom, where the pool is centred again.
func (l Layout) ZoomAt(steps, x, y int) Layout {
	level := min(max(l.Level+steps, l.FitLevel), len(Zooms)-1)
	if level == l.Level {
		return l
	}
	from, to := Zooms[l.Level], Zooms[level]
	// Pool coordinates under (x, y), in buffers, then back to the canvas at the new zoom.
	mx := float64(x-l.OX) * float64(from.Block) / float64(from.Cell)
	my := float64(y-l.OY) * float64(from.Block) / float64(from.Cell)
	l.Level = level
	if level == l.FitLevel {
		l.centre()
		return l
	}
	l.OX = x - int(mx*float64(to.Cell)/float64(to.Block))
	l.OY = y - int(my*float64(to.Cell)/float64(to.Block))
	l.clamp()
	return l
}

// ZoomCentre is ZoomAt about the middle of the area.
func (l Layout) ZoomCentre(steps int) Layout {
	ax, ay, aw, ah := l.Area()
	return l.ZoomAt(steps, ax+aw/2, ay+ah/2)
}

// PanBy moves the pool by dx, dy pixels, as far as clamping allows.
func (l Layout) PanBy(dx, dy int) Layout {
	l.OX += dx
	l.OY += dy
	l.clamp()
	return l
}

// Resize fits the layout to a new canvas size. At the fitting zoom it fits afresh; a user's
// closer zoom is kept, with the pool point at the middle of the area staying there.
func (l Layout) Resize(w, h int) Layout {
	if l.W == w && l.H == h {
		return l
	}
	if !l.Zoomed() {
		return l.RefitTo(w, h)
	}
	ax, ay, aw, ah := l.Area()
	cx, cy := ax+aw/2, ay+ah/2
	z := l.Zoom()
	mx := float64(cx-l.OX) * float64(z.Block) / float64(z.Cell)
	my := float64(cy-l.OY) * float64(z.Block) / float64(z.Cell)
	lane := l.laneBelow()
	l.W, l.H = max(w, 1), max(h, 1)
	if l.Inset.Want > 0 {
		l.Inset = planFor(l.W, l.H, lane, l.Inset.Want)
		l.Below = lane + l.Inset.Height()
	}
	// The level at which the kept arrangement fits the new canvas.
	_, _, aw, ah = l.Area()
	l.FitLevel = 0
	for i := len(Zooms) - 1; i >= 0; i-- {
		if extent(l.Cols, Zooms[i]) <= aw && extent(l.Rows, Zooms[i]) <= ah {
			l.FitLevel = i
			break
		}
	}
	if l.Level <= l.FitLevel {
		l.Level = l.FitLevel
		l.centre()
		return l
	}
	ax, ay, aw, ah = l.Area()
	l.OX = ax + aw/2 - int(mx*float64(z.Cell)/float64(z.Block))
	l.OY = ay + ah/2 - int(my*float64(z.Cell)/float64(z.Block))
	l.clamp()
	return l
}

// BufferAt returns the buffer whose cell covers canvas point (x, y). When a pixel stands for
// a block of buffers it returns the block's first (top-left) buffer. Points in the margins,
// beyond the pool or past its last buffer give false.
func (l Layout) BufferAt(x, y int) (int, bool) {
	col, row, ok := l.cellAt(x, y)
	if !ok {
		return -1, false
	}
	return row*l.Cols + col, true
}

// BlockAt returns the buffers a pixel stands for at (x, y): the first buffer's column and
// row, and the side of the square (1 when each buffer has its own cell).
func (l Layout) BlockAt(x, y int) (col, row, side int, ok bool) {
	col, row, ok = l.cellAt(x, y)
	return col, row, l.Zoom().Block, ok
}

func (l Layout) cellAt(x, y int) (col, row int, ok bool) {
	ax, ay, aw, ah := l.Area()
	if x < ax || y < ay || x >= ax+aw || y >= ay+ah || x < l.OX || y < l.OY {
		return 0, 0, false
	}
	z := l.Zoom()
	col = (x - l.OX) / z.Cell * z.Block
	row = (y - l.OY) / z.Cell * z.Block
	if col >= l.Cols || row >= l.Rows || row*l.Cols+col >= l.N {
		return 0, 0, false
	}
	return col, row, true
}

// CellRect returns the canvas rectangle of buffer id's cell, without the gap: its top-left
// corner and side. When pixels stand for blocks it is the one-pixel cell of id's block.
func (l Layout) CellRect(id int) (x, y, side int) {
	z := l.Zoom()
	col, row := id%l.Cols, id/l.Cols
	if z.Block > 1 {
		return l.OX + col/z.Block, l.OY + row/z.Block, 1
	}
	return l.OX + col*z.Cell, l.OY + row*z.Cell, z.Cell - l.Gap()
}

// Visible reports whether any of buffer id's cell lies in the area.
func (l Layout) Visible(id int) bool {
	if id < 0 || id >= l.N {
		return false
	}
	x, y, s := l.CellRect(id)
	ax, ay, aw, ah := l.Area()
	return x+s > ax && y+s > ay && x < ax+aw && y < ay+ah
}

// RowSpan returns the canvas rows [y0, y1) that the cells of buffers [first, end) lie in
// (whole rows of cells, or of pixels standing for blocks), not clipped to the canvas.
func (l Layout) RowSpan(first, end int) (y0, y1 int) {
	first, end = max(first, 0), min(end, l.N)
	if first >= end || l.Cols <= 0 {
		return 0, 0
	}
	z := l.Zoom()
	return l.OY + first/l.Cols/z.Block*z.Cell, l.OY + ((end-1)/l.Cols/z.Block+1)*z.Cell
}

// VisibleRows returns the rows of the arrangement that show in the area, [from, to).
func (l Layout) VisibleRows() (from, to int) {
	_, ay, _, ah := l.Area()
	z := l.Zoom()
	from = max((ay-l.OY)/z.Cell*z.Block, 0)
	to = min(((ay+ah-l.OY)+z.Cell-1)/z.Cell*z.Block, l.Rows)
	return from, max(to, from)
}

// VisibleBuffers returns the range of buffer ids [first, end) that contains every visible
// cell: whole rows, so it also holds cells panned out of view to the sides.
func (l Layout) VisibleBuffers() (first, end int) {
	from, to := l.VisibleRows()
	return min(from*l.Cols, l.N), min(to*l.Cols, l.N)
}
