package grid

// Glyphs are small shapes a lab's view draws inside a buffer's cell (or an inset's item) to
// say what state it is in by shape as well as colour: the reader who cannot tell the colours
// apart still reads them, and the legend shows the same shapes (PaintMark).
//
//   - hourglass: a buffer waiting on something before it can go on (a write that needs a
//     WAL flush first), a bow-tie in the middle of the cell
//   - pointer: the buffer something takes next, a triangle pointing in from the cell's left
//     edge
const (
	GlyphHourglass = "hourglass"
	GlyphPointer   = "pointer"
)

// GlyphMin is the smallest cell, in pixels, a glyph is drawn in.
const GlyphMin = 7

// Glyph adds the fills of glyph shape inside the square cell r in colour c, and reports
// whether it knows the shape and the cell is large enough.
func (o *Overlay) Glyph(r Rect, shape string, c RGBA) bool {
	s := min(r.X1-r.X0, r.Y1-r.Y0)
	if s < GlyphMin {
		return false
	}
	switch shape {
	case GlyphHourglass:
		w := max(s*5/8, 5) | 1    // odd, so the waist is one pixel
		h := max(s*5/8+2, 7) &^ 1 // even, so both halves are alike
		h = min(h, s-2)
		x0, y0 := r.X0+(s-w)/2, r.Y0+(s-h)/2
		half := h / 2
		for y := range h {
			k := min(y, h-1-y)                                // rows from the nearer end
			in := (k*((w-1)/2) + (half-1)/2) / max(half-1, 1) // the waist is one pixel
			o.Add(Rect{x0 + in, y0 + y, x0 + w - in, y0 + y + 1}, c, 1)
		}
	case GlyphPointer:
		h := max(s/2, 3) | 1
		y0 := r.Y0 + (s-h)/2
		for y := range h {
			d := min(y, h-1-y) // half the height at the tip
			o.Add(Rect{r.X0, y0 + y, r.X0 + 1 + d, y0 + y + 1}, c, 1)
		}
	default:
		return false
	}
	return true
}
