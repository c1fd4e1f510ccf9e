package grid

// Inset is a magnifier: a band under the pool, above the lane, where a lab's view shows
// buffers of its choosing large and in an order of its own — a ring's slots, a relation's
// blocks — each painted as the grid paints that buffer, at a size that shows its marks and
// can be tapped, however small the pool's own cells are. A caption line above the items is
// the view's to write (CaptionAt). Any view may ask for one (labview.Options.Inset); the app
// lists the items' buffers in each Frame (Frame.Inset, from Overlay.Inset), and hovering or
// tapping an item inspects its buffer (Layout.InsetAt).
//
// A Layout fitted with FitInset holds its Inset; Want items were asked for, N of them are shown
// at once: all, or a page when the band cannot hold them (the view picks which page, as
// Page says).
type Inset struct {
	Want       int // items the view asked room for; 0 for no inset
	N          int // items shown at once, at most Want; 0 when the canvas has no room
	Cell       int // pixels per item, its gap included
	Cols, Rows int
}

// Inset geometry, in pixels.
const (
	insetGap      = 7         // between the pool and the band, as between the pool and a lane
	InsetCaption  = TextH + 4 // the caption line above the items
	InsetMaxItems = 96        // the items' height at most: the pool keeps the rest
	insetMinPool  = 40        // the pool's least height for an inset to be kept
	InsetMinCell  = 8         // the smallest item: a tappable target on a phone
	insetMaxCell  = 32        // the largest
	insetCellStep = 2         // the sizes tried between, largest first
)

// PlanInset returns the largest items that fit want of them in rows of at most w pixels and
// InsetMaxItems pixels of height, spread evenly over the rows; at InsetMinCell, when even
// those do not fit, a page of as many as fit.
func PlanInset(want, w int) Inset {
	in := Inset{Want: max(want, 0)}
	if in.Want == 0 || w < InsetMinCell {
		return in
	}
	for c := insetMaxCell; c >= InsetMinCell; c -= insetCellStep {
		cols := w / c
		rows := (in.Want + cols - 1) / cols
		if cols >= 1 && rows*c <= InsetMaxItems {
			in.Cell, in.Rows = c, rows
			in.Cols = (in.Want + rows - 1) / rows
			in.N = in.Want
			return in
		}
	}
	in.Cell, in.Cols, in.Rows = InsetMinCell, w/InsetMinCell, InsetMaxItems/InsetMinCell
	in.N = min(in.Cols*in.Rows, in.Want)
	return in
}

// Height returns the pixels the band takes under the pool: 0 without items.
func (in Inset) Height() int {
	if in.N == 0 {
		return 0
	}
	return insetGap + InsetCaption + in.Rows*in.Cell
}

// Page returns the first of the N items shown when item focus must be among them: 0 when all
// are shown, else the start of focus's page.
func (in Inset) Page(focus int) int {
	if in.N == 0 || in.N >= in.Want || focus < 0 {
		return 0
	}
	return min(focus, in.Want-1) / in.N * in.N
}

// FitInset is FitBelow with an inset of want items between the pool and a lane of below
// pixels. The inset is planned for the area's width; on a canvas too short to keep
// insetMinPool pixels for the pool beside it, the layout has none (its Inset.N is 0).
func FitInset(n, w, h, below, want int) Layout {
	if want <= 0 {
		return FitBelow(n, w, h, below)
	}
	in := planFor(w, h, below, want)
	l := FitBelow(n, w, h, below+in.Height())
	l.Inset = in
	return l
}

// planFor plans an inset of want items for a w×h canvas with a lane of below pixels.
func planFor(w, h, below, want int) Inset {
	_, _, aw, _ := Layout{W: max(w, 1), H: max(h, 1)}.Area()
	in := PlanInset(want, aw)
	if max(h, 1)-Ruler-Pad-below-in.Height() < insetMinPool {
		in = Inset{Want: in.Want}
	}
	return in
}

// laneBelow returns the height of the lab's lane: what Below keeps besides the inset.
func (l Layout) laneBelow() int { return l.Below - l.Inset.Height() }

// poolBottom returns the canvas row under the pool's last visible row.
func (l Layout) poolBottom() int {
	_, ay, _, ah := l.Area()
	_, mh := l.MapSize()
	return min(l.OY+mh, ay+ah)
}

// InsetBand returns the band's rectangle, caption included; empty without an inset.
func (l Layout) InsetBand() Rect {
	in := l.Inset
	if in.N == 0 {
		return Rect{}
	}
	x0, y0 := l.insetOrigin()
	return Rect{x0, y0 - InsetCaption, x0 + in.Cols*in.Cell, y0 + in.Rows*in.Cell}
}

// insetOrigin returns the top-left corner of the first item: the items centred across the
// area, the caption above them.
func (l Layout) insetOrigin() (x, y int) {
	ax, _, aw, _ := l.Area()
	return ax + (aw-l.Inset.Cols*l.Inset.Cell)/2, l.poolBottom() + insetGap + InsetCaption
}

// CaptionAt returns where the inset's caption starts: the top-left corner of a line of text
// over the items, flush with the first.
func (l Layout) CaptionAt() (x, y int) {
	x, y = l.insetOrigin()
	return x, y - InsetCaption + 1
}

// InsetSide returns the side of an item's square, without its gap.
func (l Layout) InsetSide() int {
	if l.Inset.Cell >= MinGapCell {
		return l.Inset.Cell - 1
	}
	return l.Inset.Cell
}

// InsetItem returns the square of the inset's item i (0 to N−1): its top-left corner and side.
func (l Layout) InsetItem(i int) (x, y, side int) {
	in := l.Inset
	x0, y0 := l.insetOrigin()
	return x0 + i%max(in.Cols, 1)*in.Cell, y0 + i/max(in.Cols, 1)*in.Cell, l.InsetSide()
}

// InsetAt returns the item of the inset under canvas point (x, y), gaps included, and whether
// there is one.
func (l Layout) InsetAt(x, y int) (int, bool) {
	in := l.Inset
	if in.N == 0 {
		return -1, false
	}
	x0, y0 := l.insetOrigin()
	if x < x0 || y < y0 {
		return -1, false
	}
	col, row := (x-x0)/in.Cell, (y-y0)/in.Cell
	if col >= in.Cols || row >= in.Rows {
		return -1, false
	}
	if i := row*in.Cols + col; i < in.N {
		return i, true
	}
	return -1, false
}

// insetShown is what the painter last painted in the inset: each item's buffer, code and
// flash, and the item ringed as the one inspected.
type insetShown struct {
	ids    []int32
	codes  []Code
	flash  []uint16
	hilite int // the item ringed, or -1
}

// insetItems returns the frame's inset items the layout shows.
func (f *Frame) insetItems() []int32 {
	if f.Layout.Inset.N == 0 {
		return nil
	}
	return f.Inset[:min(len(f.Inset), f.Layout.Inset.N)]
}

// insetCell returns the code of buffer id and its flash countdown, as its pool cell has them;
// an item without a buffer is an empty one.
func (f *Frame) insetCell(id int32) (Code, uint16) {
	if id < 0 || int(id) >= len(f.Codes) {
		return 0, 0
	}
	var left uint16
	if fl := f.flashes(); fl != nil {
		left = fl.left[id]
	}
	return f.Codes[id], left
}

// insetHilite returns the item that shows the highlighted buffer, or -1.
func (f *Frame) insetHilite() int {
	if f.Highlight < 0 {
		return -1
	}
	for i, id := range f.insetItems() {
		if int(id) == f.Highlight {
			return i
		}
	}
	return -1
}

// paintInset paints the inset's items that lie in r, each as the pool paints its buffer, and
// rings the one highlighted.
func (p *Painter) paintInset(f *Frame, r Rect) {
	l := &f.Layout
	band := l.InsetBand()
	if band.Empty() {
		return
	}
	p.x0, p.y0, p.x1, p.y1 = max(r.X0, band.X0-2), max(r.Y0, band.Y0), min(r.X1, band.X1+2), min(r.Y1, band.Y1+2)
	if p.x0 >= p.x1 || p.y0 >= p.y1 {
		return
	}
	for i, id := range f.insetItems() {
		x, y, side := l.InsetItem(i)
		if x >= p.x1 || y >= p.y1 || x+side <= p.x0 || y+side <= p.y0 {
			continue
		}
		code, left := f.insetCell(id)
		var fl cellFlash
		if left != 0 {
			fl = cellFlash{flashLevel(left, FlashRead), flashLevel(left, FlashWrite), flashLevel(left, FlashDrop)}
		}
		p.cell(x, y, side, code, fl)
	}
	if i := f.insetHilite(); i >= 0 {
		x, y, side := l.InsetItem(i)
		p.ring(x, y, side, 2, p.pal.hilite)
	}
}

// insetRegion returns the pixels item i owns, with room for a ring around it.
func (p *Painter) insetRegion(l *Layout, i int) Rect {
	x, y, s := l.InsetItem(i)
	return Rect{x - 2, y - 2, x + s + 2, y + s + 2}
}

// rememberInset records what a full paint of f showed in the inset.
func (p *Painter) rememberInset(f *Frame) {
	items := f.insetItems()
	in := &p.inset
	in.ids, in.codes, in.flash = in.ids[:0], in.codes[:0], in.flash[:0]
	for _, id := range items {
		code, left := f.insetCell(id)
		in.ids, in.codes, in.flash = append(in.ids, id), append(in.codes, code), append(in.flash, flashKey(left))
	}
	in.hilite = f.insetHilite()
}

// UpdateInset repaints the inset's items whose buffer, code or flash changed since they were
// painted, and the rings of the highlight where it moved; Update does it, and the app calls it
// when it repaints a large pool band by band instead.
func (p *Painter) UpdateInset(f *Frame) {
	p.prepare(f)
	if !p.valid {
		return
	}
	l := &f.Layout
	items := f.insetItems()
	in := &p.inset
	if len(items) != len(in.ids) {
		if band := l.InsetBand(); !band.Empty() {
			p.paintRegion(f, Rect{band.X0 - 2, band.Y0, band.X1 + 2, band.Y1 + 2})
		}
		p.rememberInset(f)
		return
	}
	for i, id := range items {
		code, left := f.insetCell(id)
		if id == in.ids[i] && code == in.codes[i] && flashKey(left) == in.flash[i] {
			continue
		}
		in.ids[i], in.codes[i], in.flash[i] = id, code, flashKey(left)
		p.paintRegion(f, p.insetRegion(l, i))
	}
	if h := f.insetHilite(); h != in.hilite {
		for _, i := range [2]int{in.hilite, h} {
			if i >= 0 && i < len(items) {
				p.paintRegion(f, p.insetRegion(l, i))
			}
		}
		in.hilite = h
	}
}
