package grid

import "unsafe"

// Frame is everything one picture of the pool depends on.
type Frame struct {
	Layout    Layout
	Codes     []Code   // one per buffer, at least Layout.N
	NumRel    int      // relations in the catalog, so the palette covers them all
	Theme     *Theme   // nil means Light
	Hand      int      // buffer the clock hand points at, or -1
	Highlight int      // buffer being inspected, or -1
	Flashes   *Flashes // flashes to draw; nil draws none (reduced motion)
	// Inset lists the buffers the layout's inset shows, item by item (-1 for an empty
	// item); nil or empty paints no items (inset.go).
	Inset []int32
}

// Painter paints frames into one reused RGBA pixel buffer the size of the canvas. It keeps
// what it painted, so Update repaints only the cells whose buffers changed, and it records
// the rectangles it repainted (Damage) so only those need uploading. After the buffers are
// sized, painting does not allocate.
type Painter struct {
	w, h int
	px   []uint32
	pal  palette
	// clip is the rectangle primitives draw into: [x0, x1) × [y0, y1).
	x0, y0, x1, y1 int

	// What the pixels show, for Update.
	sig        signature
	shown      []Code   // codes painted for buffers shownFirst, shownFirst+1, …
	shownFlash []uint16 // their flash countdowns
	shownFirst int
	hand       int  // clock hand painted
	highlight  int  // highlighted buffer painted
	valid      bool // shown describes the pixels

	damage []Rect
	full   bool // the whole canvas was repainted since the last TakeDamage

	inset insetShown // what the inset's items show
}

// Rect is a rectangle of canvas pixels, [X0, X1) × [Y0, Y1).
type Rect struct{ X0, Y0, X1, Y1 int }

// Empty reports whether the rectangle has no pixels.
func (r Rect) Empty() bool { return r.X0 >= r.X1 || r.Y0 >= r.Y1 }

// signature is what a frame's every pixel depends on; when it changes, Update paints all.
type signature struct {
	layout  Layout
	theme   *Theme
	nrel    int
	flashes bool
}

// Size returns the size of the pixel buffer.
func (p *Painter) Size() (w, h int) { return p.w, p.h }

// Bytes returns the pixels as RGBA bytes, row by row, for Image.WritePixels. The slice
// shares the painter's memory and changes with the next Paint.
func (p *Painter) Bytes() []byte {
	if len(p.px) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(p.px))), len(p.px)*4)
}

// RectBytes copies the pixels of r into dst, reallocating it if it is too small, and returns
// them, for WritePixels on a sub-image.
func (p *Painter) RectBytes(r Rect, dst []byte) []byte {
	r = p.clipRect(r)
	if r.Empty() {
		return dst[:0]
	}
	n := (r.X1 - r.X0) * (r.Y1 - r.Y0) * 4
	if cap(dst) < n {
		dst = make([]byte, n)
	}
	dst = dst[:n]
	all := p.Bytes()
	row := (r.X1 - r.X0) * 4
	for y := r.Y0; y < r.Y1; y++ {
		copy(dst[(y-r.Y0)*row:], all[(y*p.w+r.X0)*4:(y*p.w+r.X1)*4])
	}
	return dst
}

// TakeDamage returns what was repainted since the last call: everything, or the listed
// rectangles (which may overlap), and forgets it.
func (p *Painter) TakeDamage() (full bool, rects []Rect) {
	full, rects = p.full, p.damage
	p.full, p.damage = false, p.damage[:0]
	return full, rects
}

// At returns the colour of pixel (x, y), or transparent outside the buffer.
func (p *Painter) At(x, y int) RGBA {
	if x < 0 || y < 0 || x >= p.w || y >= p.h {
		return RGBA{}
	}
	return unpack(p.px[y*p.w+x])
}

func (p *Painter) clipRect(r Rect) Rect {
	return Rect{max(r.X0, 0), max(r.Y0, 0), min(r.X1, p.w), min(r.Y1, p.h)}
}

// prepare sizes the buffer and the palette for f.
func (p *Painter) prepare(f *Frame) *Theme {
	p.resize(f.Layout.W, f.Layout.H)
	theme := f.Theme
	if theme == nil {
		theme = &Light
	}
	if p.pal.theme != theme || p.pal.nrel != max(f.NumRel, 1) {
		p.pal.build(theme, f.NumRel)
	}
	return theme
}

func (f *Frame) signature(theme *Theme) signature {
	return signature{f.Layout, theme, max(f.NumRel, 1), f.flashes() != nil}
}

func (f *Frame) flashes() *Flashes {
	if f.Flashes != nil && f.Flashes.Enabled() {
		return f.Flashes
	}
	return nil
}

// Paint paints the whole frame.
func (p *Painter) Paint(f *Frame) {
	theme := p.prepare(f)
	p.paint(f, Rect{0, 0, p.w, p.h})
	p.full, p.damage = true, p.damage[:0]
	p.remember(f, theme)
}

// Begin takes up f's geometry, theme and marks as Paint does, but paints no pixel: a view
// too large to paint in one frame starts with it and paints it in bands (PaintRows), frame
// by frame. Until the bands reach them the pixels show what they showed, or nothing when
// the size changed.
func (p *Painter) Begin(f *Frame) {
	resized := p.w != f.Layout.W || p.h != f.Layout.H
	theme := p.prepare(f)
	if resized {
		clear(p.px)
		p.full, p.damage = true, p.damage[:0]
	}
	// Not its cells: copying 100GB's codes takes longer than a frame, and only Update,
	// for views small enough to paint at once, compares with them.
	p.rememberFrame(f, theme)
}

// PaintRows repaints canvas rows [y0, y1) and leaves the others as they are, so a large pool
// can be repainted a band at a time.
func (p *Painter) PaintRows(f *Frame, y0, y1 int) {
	p.PaintRect(f, Rect{0, y0, f.Layout.W, y1})
}

// PaintRect repaints the pixels of r and leaves the others as they are.
func (p *Painter) PaintRect(f *Frame, r Rect) {
	p.prepare(f)
	if r = p.clipRect(r); !r.Empty() {
		p.paint(f, r)
		p.damage = append(p.damage, r)
	}
}

// paint repaints rectangle r, which lies within the canvas.
func (p *Painter) paint(f *Frame, r Rect) {
	l := &f.Layout
	for y := r.Y0; y < r.Y1; y++ {
		clear(p.px[y*p.w+r.X0 : y*p.w+r.X1])
	}
	ax, ay, aw, ah := l.Area()
	p.x0, p.x1 = max(ax, r.X0), min(ax+aw, r.X1)
	p.y0, p.y1 = max(ay, r.Y0), min(ay+ah, r.Y1)
	if p.x0 < p.x1 && p.y0 < p.y1 {
		if l.Zoom().Block > 1 {
			p.paintBlocks(f)
		} else {
			p.paintCells(f)
		}
	}
	p.paintInset(f, r)
	// Rings may reach into the margins; the rulers live there.
	p.x0, p.y0, p.x1, p.y1 = r.X0, r.Y0, r.X1, r.Y1
	if l.Visible(f.Highlight) {
		x, y, s := l.CellRect(f.Highlight)
		p.ring(x, y, s, 2, p.pal.hilite)
	}
	if l.Visible(f.Hand) {
		x, y, s := l.CellRect(f.Hand)
		p.ring(x, y, s, 2, p.pal.hand)
		p.rulers(l, x+s/2, y+s/2)
	}
}

// remember records what a full paint of f showed.
func (p *Painter) remember(f *Frame, theme *Theme) {
	p.rememberFrame(f, theme)
	first, end := f.Layout.VisibleBuffers()
	end = min(end, len(f.Codes))
	first = min(first, end)
	n := end - first
	if cap(p.shown) < n {
		p.shown = make([]Code, n)
		p.shownFlash = make([]uint16, n)
	}
	p.shown, p.shownFlash, p.shownFirst = p.shown[:n], p.shownFlash[:n], first
	copy(p.shown, f.Codes[first:end])
	if fl := f.flashes(); fl != nil {
		for i, v := range fl.left[first:end] {
			p.shownFlash[i] = flashKey(v)
		}
	} else {
		clear(p.shownFlash)
	}
}

// rememberFrame records the geometry, theme and marks a paint of f showed, but not its
// cells: Update, finding none, paints all of them.
func (p *Painter) rememberFrame(f *Frame, theme *Theme) {
	p.sig = f.signature(theme)
	p.hand, p.highlight = f.Hand, f.Highlight
	p.shown, p.shownFlash, p.shownFirst = p.shown[:0], p.shownFlash[:0], -1
	p.rememberInset(f)
	p.valid = true
}

// MaxUpdateCells is how many changed cells Update repaints one by one; beyond it, or beyond
// an eighth of the visible pool, one full paint is cheaper.
const MaxUpdateCells = 4096

// Update brings the pixels up to date with f, repainting only what changed since the last
// Paint or Update: the cells whose codes or flashes changed, and the old and new places of
// the clock hand and the highlight. A change of size, zoom, pan or theme paints everything.
// It reports whether any pixel was repainted.
func (p *Painter) Update(f *Frame) bool {
	theme := p.prepare(f)
	first, end := f.Layout.VisibleBuffers()
	end = min(end, len(f.Codes))
	first = min(first, end)
	if !p.valid || p.sig != f.signature(theme) || p.shownFirst != first || len(p.shown) != end-first {
		p.Paint(f)
		return true
	}
	limit := min(MaxUpdateCells, max((end-first)/8, 64))
	var left []uint16
	if fl := f.flashes(); fl != nil {
		left = fl.left[first:end]
	}
	codes := f.Codes[first:end]
	damaged := len(p.damage)
	for i, c := range codes {
		var fv uint16
		if left != nil && left[i] != 0 { // most cells have no flash, whose key is 0
			fv = flashKey(left[i])
		}
		if c == p.shown[i] && fv == p.shownFlash[i] {
			continue
		}
		p.shown[i], p.shownFlash[i] = c, fv
		if len(p.damage)-damaged >= limit {
			p.Paint(f)
			return true
		}
		p.paintRegion(f, p.cellRegion(&f.Layout, first+i))
	}
	p.PaintMarks(f)
	p.UpdateInset(f)
	return len(p.damage) > damaged
}

// Fresh reports whether the pixels were painted for f's size, zoom, pan and theme, so
// that repainting part of them gives the same picture as a full paint.
func (p *Painter) Fresh(f *Frame) bool {
	theme := f.Theme
	if theme == nil {
		theme = &Light
	}
	return p.valid && p.sig == f.signature(theme) && p.w == f.Layout.W && p.h == f.Layout.H
}

// MarksMoved reports whether the clock hand or the highlight moved since they were painted.
func (p *Painter) MarksMoved(f *Frame) bool { return f.Hand != p.hand || f.Highlight != p.highlight }

// PaintMarks repaints the clock hand's marks and the highlight ring where they moved:
// where they were last painted and where they are now.
func (p *Painter) PaintMarks(f *Frame) {
	p.prepare(f)
	if f.Hand != p.hand {
		for _, id := range [2]int{p.hand, f.Hand} {
			for _, r := range p.handRegions(&f.Layout, id) {
				p.paintRegion(f, r)
			}
		}
		p.hand = f.Hand
	}
	if f.Highlight != p.highlight {
		for _, id := range [2]int{p.highlight, f.Highlight} {
			p.paintRegion(f, p.handRegions(&f.Layout, id)[0])
		}
		p.highlight = f.Highlight
	}
}

func (p *Painter) paintRegion(f *Frame, r Rect) {
	if r = p.clipRect(r); !r.Empty() {
		p.paint(f, r)
		p.damage = append(p.damage, r)
	}
}

// cellRegion returns the pixels buffer id's cell owns: its square and the gap after it.
func (p *Painter) cellRegion(l *Layout, id int) Rect {
	x, y, s := l.CellRect(id)
	s += l.Gap()
	return Rect{x, y, x + s, y + s}
}

// handRegions returns the pixels the clock hand's marks cover when it points at id: the
// ring around the cell (which is also where a highlight ring goes) and the markers in both
// rulers.
func (p *Painter) handRegions(l *Layout, id int) [3]Rect {
	if id < 0 || id >= l.N {
		return [3]Rect{}
	}
	x, y, s := l.CellRect(id)
	cx, cy := x+s/2, y+s/2
	return [3]Rect{
		{x - 2, y - 2, x + s + 2, y + s + 2},
		{0, cy - 5, Ruler, cy + 6},
		{cx - 5, 0, cx + 6, Ruler},
	}
}

func (p *Painter) resize(w, h int) {
	if p.w == w && p.h == h && len(p.px) == w*h {
		return
	}
	p.w, p.h = w, h
	if cap(p.px) >= w*h {
		p.px = p.px[:w*h]
	} else {
		p.px = make([]uint32, w*h)
	}
}

// paintCells paints one cell per buffer, for zooms of one pixel per buffer or closer.
func (p *Painter) paintCells(f *Frame) {
	l := &f.Layout
	cell := l.Zoom().Cell
	side := cell - l.Gap()
	r0 := max((p.y0-l.OY)/cell, 0)
	r1 := min((p.y1-l.OY+cell-1)/cell, l.Rows)
	c0 := max((p.x0-l.OX)/cell, 0)
	c1 := min((p.x1-l.OX+cell-1)/cell, l.Cols)
	var flashes *Flashes
	if f.Flashes != nil && f.Flashes.Enabled() {
		flashes = f.Flashes
	}
	codes := f.Codes[:min(len(f.Codes), l.N)]
	for r := r0; r < r1; r++ {
		first := r*l.Cols + c0
		if first >= len(codes) {
			break
		}
		y := l.OY + r*cell
		x := l.OX + c0*cell
		// Small cells whose every pixel is inside the clip take the fast path: one
		// table lookup per cell, no marks.
		fast := side <= 2 && y >= p.y0 && y+side <= p.y1
		for id, code := range codes[first:min(r*l.Cols+c1, len(codes))] {
			id += first
			var flash uint16
			if flashes != nil {
				flash = flashes.left[id]
			}
			if fast && flash == 0 && x >= p.x0 && x+side <= p.x1 {
				c := p.pal.small[code&smallMask]
				o := y*p.w + x
				p.px[o] = c
				if side == 2 {
					p.px[o+1], p.px[o+p.w], p.px[o+p.w+1] = c, c, c
				}
			} else {
				var fl cellFlash
				if flash != 0 {
					fl = cellFlash{flashLevel(flash, FlashRead), flashLevel(flash, FlashWrite), flashLevel(flash, FlashDrop)}
				}
				p.cell(x, y, side, code, fl)
			}
			x += cell
		}
	}
}

// cellFlash is how far into its fade each kind of flash on a cell is, 0 to 1.
type cellFlash struct{ read, write, drop float64 }

// cell paints one buffer's cell of side pixels at (x, y): its fill, then the marks that fit.
//
//   - empty: Empty, with an outline in EmptyEdge when the cell is 10 px or more
//   - fill: the relation's colour, faded towards the background for low usage counts
//   - pattern: the role's pattern (Pattern) in the top-left corner (9 px or more), so
//     roles differ by more than colour
//   - dirty: a triangle in the top-right corner (cells of 3 px or more); smaller cells
//     darken towards the ink instead
//   - pinned: a bar down the left side (4 px or more)
//   - usage count: up to five ticks along the bottom (11 px or more)
//   - read flash: the fill glows towards Theme.Flash; write flash: a ring of ink
//   - drop flash: the cell, emptied, burns in Theme.Burn and fades to Empty
func (p *Painter) cell(x, y, side int, code Code, fl cellFlash) {
	readF, writeF := fl.read, fl.write
	if code.Empty() {
		empty, edge := p.pal.empty, p.pal.edge
		if fl.drop > 0 {
			empty = Mix(unpack(empty), p.pal.drop, dropStrength*fl.drop).pixel()
			edge = Mix(unpack(edge), p.pal.drop, dropStrength*fl.drop).pixel()
		}
		if side >= 10 {
			p.rect(x, y, side, side, edge)
			p.rect(x+1, y+1, side-2, side-2, empty)
		} else {
			p.rect(x, y, side, side, empty)
		}
		return
	}
	dirty := 0
	if code.Dirty() && side < 3 {
		dirty = dirtyLevels - 1
	}
	rel := p.pal.relIndex(code.Rel())
	i := p.pal.index(rel, min(code.Usage(), maxUsage), dirty)
	fill, ink := p.pal.fill[i], p.pal.ink[i]
	if readF > 0 {
		fill = Mix(unpack(fill), p.pal.flash, flashStrength*readF).pixel()
	}
	if writeF > 0 && side < 3 {
		fill = Mix(unpack(fill), p.pal.fg, 0.8*writeF).pixel()
	}
	if fl.drop > 0 {
		fill = Mix(unpack(fill), p.pal.drop, dropStrength*fl.drop).pixel()
	}
	p.rect(x, y, side, side, fill)
	if side < 3 {
		return
	}
	bar := max(1, (side+2)/5) // two pixels from 8 px cells, so a pin reads at a glance
	if side >= patternMin {
		p.pattern(x+bar+max(1, side/10), y+max(1, side/10), max(3, side/4), p.pal.role(rel), Mix(unpack(fill), unpack(ink), 0.75).pixel())
	}
	if code.Dirty() {
		t := max(2, (side*2+2)/5)
		for i := range t {
			p.rect(x+side-(t-i), y+i, t-i, 1, ink)
		}
	}
	if side >= 4 && code.Pinned() {
		p.rect(x, y, bar, side, ink)
	}
	if side >= 11 {
		slot := (side - bar - 3) / 5
		th := max(1, side/10)
		tx, ty := x+bar+2, y+side-1-th
		for u := range min(code.Usage(), maxUsage) {
			p.rect(tx+u*slot, ty, max(slot-1, 1), th, ink)
		}
	}
	if writeF > 0 {
		w := Mix(unpack(fill), unpack(ink), writeF).pixel()
		p.frame(x, y, side, 1, w)
	}
}

// patternMin is the smallest cell, in pixels, that shows its role's pattern.
const patternMin = 9

// Patterns are the shapes that tell roles apart without colour, in role order; the roles
// repeat them after the last, as they repeat colours.
var Patterns = [...]string{"plain", "square", "dash", "bar", "backslash", "box", "plus", "slash"}

// Pattern returns the name of role's pattern ("plain" for an empty buffer or role 0).
func Pattern(role int) string {
	if role < 0 {
		return Patterns[0]
	}
	return Patterns[role%len(Patterns)]
}

// pattern draws role's pattern in ink in the g×g square at (x, y).
func (p *Painter) pattern(x, y, g, role int, ink uint32) {
	t := max(1, g/5) // stroke
	m := (g - t) / 2 // where a centred stroke starts
	switch role % len(Patterns) {
	case 1: // square
		p.rect(x, y, g, g, ink)
	case 2: // dash
		p.rect(x, y+m, g, t, ink)
	case 3: // bar
		p.rect(x+m, y, t, g, ink)
	case 4: // backslash
		for i := range g - t + 1 {
			p.rect(x+i, y+i, t, t, ink)
		}
	case 5: // box
		p.frame(x, y, g, t, ink)
	case 6: // plus
		p.rect(x, y+m, g, t, ink)
		p.rect(x+m, y, t, g, ink)
	case 7: // slash
		for i := range g - t + 1 {
			p.rect(x+g-t-i, y+i, t, t, ink)
		}
	}
}

// paintBlocks paints one pixel per Block×Block square of buffers: the colour of the
// relation most of them hold (or empty), faded by their mean usage count and darkened by
// the share that is dirty; any pinned buffer turns the pixel to ink.
func (p *Painter) paintBlocks(f *Frame) {
	l := &f.Layout
	b := l.Zoom().Block
	last := min(p.pal.nrel, 15) // buckets: 0 for empty, then relations; later ones share the last
	var flashes *Flashes
	if f.Flashes != nil && f.Flashes.Enabled() {
		flashes = f.Flashes
	}
	codes := f.Codes[:min(len(f.Codes), l.N)]
	for y := p.y0; y < p.y1; y++ {
		r0 := (y - l.OY) * b
		if r0 < 0 {
			continue
		}
		if r0 >= l.Rows {
			break
		}
		r1 := min(r0+b, l.Rows)
		row := p.px[y*p.w : (y+1)*p.w]
		for x := max(p.x0, l.OX); x < p.x1; x++ {
			c0 := (x - l.OX) * b
			if c0 >= l.Cols || r0*l.Cols+c0 >= len(codes) {
				break
			}
			c1 := min(c0+b, l.Cols)
			var counts [16]int32
			var acc uint64 // usage, dirty and pinned counts, packed as blockSums
			total := 0
			var flash, drop uint16
			for r := r0; r < r1; r++ {
				lo := r*l.Cols + c0
				if lo >= len(codes) {
					break
				}
				hi := min(r*l.Cols+c1, len(codes))
				for _, code := range codes[lo:hi] {
					counts[min(int(code&codeRelMask), last)]++
					acc += blockSums[code>>codeUsageShift&0x1F]
				}
				if flashes != nil {
					for _, v := range flashes.left[lo:hi] {
						if v != 0 {
							flash = max(flash, flashStep(flashTicks(v, FlashRead)))
							drop = max(drop, flashStep(flashTicks(v, FlashDrop)))
						}
					}
				}
				total += hi - lo
			}
			usage, dirty, pinned := int(acc&sumMask), int(acc>>20&sumMask), int(acc>>40)
			best := 0
			for k := 1; k <= last; k++ {
				if counts[k] > counts[best] {
					best = k
				}
			}
			var px uint32
			if best == 0 {
				px = p.pal.empty
			} else {
				valid := total - int(counts[0])
				u := min((usage+valid/2)/valid, maxUsage)
				d := min((dirty*(dirtyLevels-1)+valid/2)/valid, dirtyLevels-1)
				i := p.pal.index(best-1, u, d)
				px = p.pal.fill[i]
				if pinned > 0 {
					px = p.pal.ink[i]
				}
			}
			if flash > 0 {
				px = Mix(unpack(px), p.pal.flash, flashStrength*float64(flash)/FlashSteps).pixel()
			}
			if drop > 0 {
				px = Mix(unpack(px), p.pal.drop, dropStrength*float64(drop)/FlashSteps).pixel()
			}
			row[x] = px
		}
	}
}

// blockSums adds a buffer's usage count, dirty bit and pinned bit into one word, 20 bits
// each, indexed by the Code's bits above the relation. 2^20 is far more than the 1,024
// buffers of the largest block times the usage count's maximum of 7.
var blockSums = func() (t [32]uint64) {
	for i := range t {
		t[i] = uint64(i&7) | uint64(i>>3&1)<<20 | uint64(i>>4&1)<<40
	}
	return t
}()

const sumMask = 1<<20 - 1

// rect fills a rectangle, clipped to the painter's clip rectangle.
func (p *Painter) rect(x, y, w, h int, c uint32) {
	xa, xb := max(x, p.x0), min(x+w, p.x1)
	ya, yb := max(y, p.y0), min(y+h, p.y1)
	if xa >= xb {
		return
	}
	for yy := ya; yy < yb; yy++ {
		row := p.px[yy*p.w+xa : yy*p.w+xb]
		for i := range row {
			row[i] = c
		}
	}
}

// frame draws a border of thickness t just inside the square at (x, y) of side s.
func (p *Painter) frame(x, y, s, t int, c uint32) {
	p.rect(x, y, s, t, c)
	p.rect(x, y+s-t, s, t, c)
	p.rect(x, y+t, t, s-2*t, c)
	p.rect(x+s-t, y+t, t, s-2*t, c)
}

// ring draws a border of thickness t just outside the square at (x, y) of side s.
func (p *Painter) ring(x, y, s, t int, c uint32) { p.frame(x-t, y-t, s+2*t, t, c) }

// rulers draws the clock hand's markers in the margins: a triangle in the left ruler
// pointing at row centre cy, and one in the top ruler pointing at column centre cx.
func (p *Painter) rulers(l *Layout, cx, cy int) {
	ax, ay, aw, ah := l.Area()
	const half = 4
	if cy >= ay && cy < ay+ah {
		for d := -half; d <= half; d++ {
			w := half + 1 - abs(d)
			p.rect(Ruler-1-w, cy+d, w, 1, p.pal.hand)
		}
	}
	if cx >= ax && cx < ax+aw {
		for d := -half; d <= half; d++ {
			h := half + 1 - abs(d)
			p.rect(cx+d, Ruler-1-h, 1, h, p.pal.hand)
		}
	}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func unpack(v uint32) RGBA { return RGBA{uint8(v), uint8(v >> 8), uint8(v >> 16), uint8(v >> 24)} }

// Swatch describes one cell for the legend: a buffer's code, how far into a read or write
// flash it is, and whether the clock hand points at it.
type Swatch struct {
	Code              Code
	Read, Write, Burn float64 // how far into a read, write or drop (burn) flash, 0 to 1
	Hand              bool
}

// PaintSwatch paints one legend cell with the grid's own code, on a transparent square of
// side pixels (the cell is side−6, leaving room for the hand's ring), and returns its RGBA
// bytes.
func PaintSwatch(t *Theme, nrel int, s Swatch, side int) []byte {
	side = min(max(side, 8), 128)
	var p Painter
	p.resize(side, side)
	p.pal.build(t, max(nrel, s.Code.Rel()+1))
	p.x0, p.y0, p.x1, p.y1 = 0, 0, side, side
	p.cell(3, 3, side-6, s.Code, cellFlash{s.Read, s.Write, s.Burn})
	if s.Hand {
		p.ring(3, 3, side-6, 2, p.pal.hand)
	}
	return p.Bytes()
}
