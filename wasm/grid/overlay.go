package grid

// Fill is a rectangle of colour drawn over the painted pixels and blended by its alpha. A
// lab's marks — a scan's cursor and trail, lookups' rings, a lane of recent lookups under
// the grid — move every frame and are translucent, so the app draws them as fills on top of
// the grid's image instead of repainting the cells under them.
type Fill struct {
	Rect
	Color RGBA // not premultiplied; A is the opacity
}

// Overlay is a list of fills, drawn in order, then the labels over them (text.go). Its
// methods clip nothing but empty rectangles; the app draws the lists over the canvas, so
// fills may reach into the margins.
type Overlay struct {
	Fills  []Fill
	Labels []Label
	// Inset lists the buffers the layout's inset shows, item by item, -1 for an empty item
	// (inset.go); the app paints them with the grid's next frame.
	Inset []int32
	taken [][2]int // scratch for Shades
}

// Reset empties the overlay, keeping its memory.
func (o *Overlay) Reset() { o.Fills, o.Labels, o.Inset = o.Fills[:0], o.Labels[:0], o.Inset[:0] }

// Add adds a fill of colour c at opacity alpha (0 to 1); invisible and empty fills are
// skipped.
func (o *Overlay) Add(r Rect, c RGBA, alpha float64) {
	a := uint8(min(max(alpha, 0), 1)*float64(c.A) + 0.5)
	if r.Empty() || a == 0 {
		return
	}
	c.A = a
	o.Fills = append(o.Fills, Fill{r, c})
}

// Range adds fills over the cells of buffers [first, end), clipped to the area.
func (o *Overlay) Range(l *Layout, first, end int, c RGBA, alpha float64) {
	var buf [5]Rect
	ax, ay, aw, ah := l.Area()
	for _, r := range l.RangeRects(first, end, buf[:0]) {
		o.Add(Rect{max(r.X0, ax), max(r.Y0, ay), min(r.X1, ax+aw), min(r.Y1, ay+ah)}, c, alpha)
	}
}

// Shade is a range of buffers [First, End) to tint at opacity Alpha.
type Shade struct {
	First, End int
	Alpha      float64
}

// Shades adds tints over ranges of buffers given oldest first, clipped to the area. Where a
// pixel stands for a block of buffers, neighbouring ranges share rows of pixels; there each
// range is drawn as whole rows, and a row shared with a newer range is left to it, so that
// tints do not pile up into dark lines.
func (o *Overlay) Shades(l *Layout, shades []Shade, c RGBA) {
	b := l.Zoom().Block
	if b <= 1 {
		for _, s := range shades {
			o.Range(l, s.First, s.End, c, s.Alpha)
		}
		return
	}
	ax, ay, aw, ah := l.Area()
	mw, _ := l.MapSize()
	x0, x1 := max(l.OX, ax), min(l.OX+mw, ax+aw)
	rowsPerPixel := l.Cols * b
	taken := o.taken[:0] // pixel rows drawn, newest range first
	for i := len(shades) - 1; i >= 0; i-- {
		s := shades[i]
		first, end := max(s.First, 0), min(s.End, l.N)
		if first >= end {
			continue
		}
		d0, d1 := first/rowsPerPixel, (end-1)/rowsPerPixel+1
		// Leave out the rows newer ranges took; ranges within a scan are ordered, so
		// what is left is one interval or two.
		for _, t := range taken {
			switch {
			case t[0] <= d0 && t[1] >= d1:
				d0 = d1
			case t[0] <= d0 && t[1] > d0:
				d0 = t[1]
			case t[0] < d1 && t[1] >= d1:
				d1 = t[0]
			}
		}
		if d0 >= d1 {
			continue
		}
		taken = append(taken, [2]int{d0, d1})
		o.Add(Rect{x0, max(l.OY+d0, ay), x1, min(l.OY+d1, ay+ah)}, c, s.Alpha)
	}
	o.taken = taken
}

// Ring adds a ring of thickness t just outside buffer id's cell, when the cell is visible.
func (o *Overlay) Ring(l *Layout, id, t int, c RGBA, alpha float64) {
	if !l.Visible(id) {
		return
	}
	x, y, s := l.CellRect(id)
	o.RingAround(Rect{x, y, x + s, y + s}, t, c, alpha)
}

// Rulers adds the markers the painter draws for the clock hand, pointing at buffer id's row
// in the left ruler and its column in the top ruler.
func (o *Overlay) Rulers(l *Layout, id int, c RGBA, alpha float64) {
	if !l.Visible(id) {
		return
	}
	x, y, s := l.CellRect(id)
	cx, cy := x+s/2, y+s/2
	ax, ay, aw, ah := l.Area()
	const half = 4
	if cy >= ay && cy < ay+ah {
		for d := -half; d <= half; d++ {
			w := half + 1 - abs(d)
			o.Add(Rect{Ruler - 1 - w, cy + d, Ruler - 1, cy + d + 1}, c, alpha)
		}
	}
	if cx >= ax && cx < ax+aw {
		for d := -half; d <= half; d++ {
			h := half + 1 - abs(d)
			o.Add(Rect{cx + d, Ruler - 1 - h, cx + d + 1, Ruler - 1}, c, alpha)
		}
	}
}

// Sum returns a hash of the fills, so the app can tell whether the overlay changed.
func (o *Overlay) Sum() uint64 {
	h := uint64(14695981039346656037)
	mix := func(v int) {
		h ^= uint64(v)
		h *= 1099511628211
	}
	mix(len(o.Fills))
	for _, f := range o.Fills {
		mix(f.X0)
		mix(f.Y0)
		mix(f.X1)
		mix(f.Y1)
		mix(int(f.Color.pixel()))
	}
	mix(len(o.Labels))
	for _, l := range o.Labels {
		mix(l.X)
		mix(l.Y)
		mix(int(l.Color.pixel()))
		for i := 0; i < len(l.Text); i++ {
			mix(int(l.Text[i]))
		}
	}
	return h
}

// RangeRects appends to dst the canvas rectangles that cover the cells of buffers
// [first, end), without overlapping: at most two for the first row of cells (or pixels, when
// a pixel stands for a block of buffers), one for the rows in between and two for the last.
// Rectangles are not clipped to the area.
func (l Layout) RangeRects(first, end int, dst []Rect) []Rect {
	first, end = max(first, 0), min(end, l.N)
	if first >= end || l.Cols <= 0 {
		return dst
	}
	z := l.Zoom()
	b, cell, gap := z.Block, z.Cell, l.Gap()
	ra, rb := first/l.Cols, (end-1)/l.Cols   // first and last row of buffers
	ca, cb := first%l.Cols, (end-1)%l.Cols+1 // the range starts at column ca of row ra and ends before cb of row rb
	// span adds display row dr's buffer columns [c0, c1) (a display row is one row of
	// cells, or one row of pixels standing for b rows of buffers); rows dr..dr2 when the
	// span is the same for several.
	span := func(dr, dr2, c0, c1 int) {
		if c0 >= c1 {
			return
		}
		x0 := l.OX + c0/b*cell
		x1 := l.OX + ((c1-1)/b+1)*cell - gap
		dst = append(dst, Rect{x0, l.OY + dr*cell, x1, l.OY + (dr2+1)*cell - gap})
	}
	// row adds display row dr, whose buffer rows between ra and rb are r0..r1.
	row := func(dr int) {
		r0, r1 := max(dr*b, ra), min(dr*b+b-1, rb)
		switch {
		case max(r0, ra+1) <= min(r1, rb-1): // a whole row of buffers in between
			span(dr, dr, 0, l.Cols)
		case r0 == r1 && ra == rb:
			span(dr, dr, ca, cb)
		case r0 == r1 && r0 == ra:
			span(dr, dr, ca, l.Cols)
		case r0 == r1:
			span(dr, dr, 0, cb)
		case ca <= cb: // rows ra and rb = ra+1 together cover every column
			span(dr, dr, 0, l.Cols)
		default:
			span(dr, dr, 0, cb)
			span(dr, dr, ca, l.Cols)
		}
	}
	da, db := ra/b, rb/b
	row(da)
	if db > da+1 {
		span(da+1, db-1, 0, l.Cols)
	}
	if db > da {
		row(db)
	}
	return dst
}

// Lane geometry: a lab's view that asks for a lane keeps LaneHeight pixels under the grid
// (Layout.Below) for a bar of a scan's progress over a tape of recent lookups.
const (
	LaneHeight = 28
	laneGap    = 7 // between the grid and the lane
	laneMinW   = 160
	pipW       = 4 // a lookup on the tape
	pipStep    = 6
	pipH       = 10
	scanH      = 3
	tapeTop    = scanH + 6
)

// Lane returns the rectangle of the lane under the grid: as wide as the visible part of the
// pool (at least laneMinW when the area allows), just below its last row, or below the
// inset when there is one. It is empty when the layout keeps no room below.
func (l Layout) Lane() Rect {
	below := l.laneBelow()
	if below <= laneGap {
		return Rect{}
	}
	ax, ay, aw, ah := l.Area()
	mw, mh := l.MapSize()
	x0, x1 := max(l.OX, ax), min(l.OX+mw, ax+aw)
	if w := min(laneMinW, aw); x1-x0 < w {
		mid := (x0 + x1) / 2
		x0 = min(max(mid-w/2, ax), ax+aw-w)
		x1 = x0 + w
	}
	y0 := min(l.OY+mh, ay+ah) + l.Inset.Height() + laneGap
	return Rect{x0, y0, x1, y0 + below - laneGap}
}

// Lane is what a lane under the grid shows: a scan's progress and a tape of lookups.
type Lane struct {
	// Scan is the share of the pool the scan under way has checked, 0 to 1, or negative
	// when no scan is under way.
	Scan float64
	// Pips are the most recent lookups, oldest first; the lane shows as many of the last
	// as fit (LaneCapacity).
	Pips []Pip
}

// Pip is one lookup on the lane's tape.
type Pip struct {
	Miss  bool    // the block was not in shared buffers
	Rel   int     // role of the relation whose buffer was found
	Pulse float64 // 1 for a miss just made, fading to 0; 0 under reduced motion
}

// LaneCapacity returns how many lookups the lane's tape shows.
func (l Layout) LaneCapacity() int { return max(l.Lane().X1-l.Lane().X0, 0) / pipStep }

// AddLane adds the lane's fills: a track with the scan's progress and its head, and below
// it the tape, newest lookup at the right. A lookup that found a buffer is a bar in its
// role's colour; a miss is a hollow bar in probe (the colour of what looks for buffers),
// which pulses when new; the scan's progress is drawn in probe too.
func (o *Overlay) AddLane(l *Layout, t *Theme, lane Lane, probe RGBA) {
	r := l.Lane()
	if r.Empty() {
		return
	}
	ink := t.Hand
	o.Add(Rect{r.X0, r.Y0, r.X1, r.Y0 + scanH}, ink, 0.12)
	if lane.Scan >= 0 {
		x := r.X0 + int(float64(r.X1-r.X0)*min(lane.Scan, 1)+0.5)
		o.Add(Rect{r.X0, r.Y0, x, r.Y0 + scanH}, probe, 0.85)
		o.Add(Rect{x - 1, r.Y0 - 2, x + 1, r.Y0 + scanH + 2}, probe, 1)
	}
	ty := r.Y0 + tapeTop
	o.Add(Rect{r.X0, ty + pipH, r.X1, ty + pipH + 1}, ink, 0.15)
	n := min(len(lane.Pips), (r.X1-r.X0)/pipStep)
	for i, p := range lane.Pips[len(lane.Pips)-n:] {
		x := r.X1 - (n-i)*pipStep + (pipStep - pipW)
		if !p.Miss {
			o.Add(Rect{x, ty, x + pipW, ty + pipH}, t.Rel(p.Rel), 1)
			continue
		}
		if p.Pulse > 0 {
			o.Add(Rect{x, ty - 3, x + pipW, ty + pipH + 3}, probe, 0.45*p.Pulse)
		}
		o.frame(Rect{x, ty, x + pipW, ty + pipH}, probe, 1)
	}
}

// frame adds a one-pixel border just inside r.
func (o *Overlay) frame(r Rect, c RGBA, alpha float64) {
	o.Add(Rect{r.X0, r.Y0, r.X1, r.Y0 + 1}, c, alpha)
	o.Add(Rect{r.X0, r.Y1 - 1, r.X1, r.Y1}, c, alpha)
	o.Add(Rect{r.X0, r.Y0 + 1, r.X0 + 1, r.Y1 - 1}, c, alpha)
	o.Add(Rect{r.X1 - 1, r.Y0 + 1, r.X1, r.Y1 - 1}, c, alpha)
}

// Opacities of tints over cells, shared by the labs' overlays and the legend's swatches.
const (
	CheckedAlpha = 0.10 // over the descriptors the scan under way has checked
	TrailAlpha   = 0.5  // over those it checked in the last frames, fading
)

// Blend draws fill f over the painted pixels ("source over", straight alpha), clipped to
// the canvas, as the app's overlay draws it over the grid's image.
func (p *Painter) Blend(f Fill) {
	r := p.clipRect(f.Rect)
	a := float64(f.Color.A) / 255
	for y := r.Y0; y < r.Y1; y++ {
		for x := r.X0; x < r.X1; x++ {
			d := unpack(p.px[y*p.w+x])
			da := float64(d.A) / 255
			oa := a + da*(1-a)
			if oa <= 0 {
				continue
			}
			ch := func(s, d uint8) uint8 {
				return uint8((float64(s)*a+float64(d)*da*(1-a))/oa + 0.5)
			}
			p.px[y*p.w+x] = RGBA{ch(f.Color.R, d.R), ch(f.Color.G, d.G), ch(f.Color.B, d.B), uint8(oa*255 + 0.5)}.pixel()
		}
	}
}

// MarkShapes are the shapes PaintMark draws a legend's mark in.
var MarkShapes = []string{"checked", "trail", "cursor", "found", "burn", "bar", "hollow", GlyphHourglass, GlyphPointer, GlyphTick, GlyphCross}

// PaintMark paints a legend's mark in colour c, in one of MarkShapes, on a transparent square
// of side pixels, as the grid shows it on a cell of side−6 pixels, and returns its RGBA bytes;
// false for an unknown shape. The shapes are those the labs' overlays draw:
//
//   - checked: a full cell tinted lightly in c, as a scan's checked descriptors are
//   - trail: a full cell tinted strongly in c, as those checked in the last half second
//   - cursor: a full cell ringed in ink, as a scan's cursor or the clock hand
//   - found: an emptied cell half burnt, tinted in c, as a buffer a lookup found and dropped
//   - burn: an empty cell burning in c, as a buffer just emptied unwritten
//   - bar, hollow: a bar filled with c, or framed in c, as the lookups on a lane's tape
//   - hourglass, pointer, tick, cross: a full cell with that glyph (glyph.go) in c
func PaintMark(t *Theme, shape string, c RGBA, side int) ([]byte, bool) {
	side = min(max(side, 8), 128)
	var p Painter
	p.resize(side, side)
	p.pal.build(t, max(len(t.Roles), 1))
	p.x0, p.y0, p.x1, p.y1 = 0, 0, side, side
	cell := Rect{3, 3, side - 3, side - 3}
	var o Overlay
	switch shape {
	case "checked", "trail", "cursor":
		p.cell(3, 3, side-6, MakeCode(0, 1, false, false), cellFlash{})
		switch shape {
		case "checked":
			o.Add(cell, c, CheckedAlpha)
		case "trail":
			o.Add(cell, c, TrailAlpha)
		default:
			o.RingAround(cell, 2, t.Hand, 1)
		}
	case "found":
		p.cell(3, 3, side-6, 0, cellFlash{drop: 0.5})
		o.Add(cell, c, TrailAlpha)
	case "burn":
		p.pal.drop = c
		p.cell(3, 3, side-6, 0, cellFlash{drop: 1})
	case GlyphHourglass, GlyphPointer, GlyphTick, GlyphCross:
		p.cell(3, 3, side-6, MakeCode(0, 1, false, false), cellFlash{})
		o.Glyph(cell, shape, c)
	case "bar", "hollow":
		w := max(side/4, 2)
		bar := Rect{(side - w) / 2, side / 6, (side + w) / 2, side - side/6}
		if shape == "bar" {
			o.Add(bar, c, 1)
		} else {
			o.frame(bar, c, 1)
		}
	default:
		return nil, false
	}
	for _, f := range o.Fills {
		p.Blend(f)
	}
	return p.Bytes(), true
}

// RingAround adds a border of thickness th just outside r.
func (o *Overlay) RingAround(r Rect, th int, c RGBA, alpha float64) {
	o.Add(Rect{r.X0 - th, r.Y0 - th, r.X1 + th, r.Y0}, c, alpha)
	o.Add(Rect{r.X0 - th, r.Y1, r.X1 + th, r.Y1 + th}, c, alpha)
	o.Add(Rect{r.X0 - th, r.Y0, r.X0, r.Y1}, c, alpha)
	o.Add(Rect{r.X1, r.Y0, r.X1 + th, r.Y1}, c, alpha)
}
