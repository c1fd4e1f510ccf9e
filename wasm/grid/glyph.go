package grid

// Glyphs are small shapes a lab's view draws inside a buffer's cell (or an inset's item) to
// say what state it is in by shape as well as colour: the reader who cannot tell the colours
// apart still reads them, and the legend shows the same shapes (PaintMark).
//
//   - hourglass: a buffer waiting on something before it can go on (a write that needs a
//     WAL flush first), a bow-tie in the middle of the cell
//   - pointer: the buffer something takes next, a triangle pointing in from the cell's left
//     edge
//   - tick, cross: something done to the buffer's page that stuck, or did not (a hint set, a
//     hint lost), drawn from 7×7 bitmaps scaled by whole pixels
const (
	GlyphHourglass = "hourglass"
	GlyphPointer   = "pointer"
	GlyphTick      = "tick"
	GlyphCross     = "cross"
)

// glyphBitmaps are the glyphs drawn from bitmaps, 7×7, '#' inked.
var glyphBitmaps = map[string][glyphSide]string{
	GlyphTick: {
		"......#",
		".....##",
		"....##.",
		"#..##..",
		"##.##..",
		".###...",
		"..#....",
	},
	GlyphCross: {
		"##...##",
		"###.###",
		".#####.",
		"..###..",
		".#####.",
		"###.###",
		"##...##",
	},
}

// glyphSide is the side of a glyph's bitmap.
const glyphSide = 7

// GlyphMin is the smallest cell, in pixels, a glyph is drawn in.
const GlyphMin = 7

// Glyph adds the fills of glyph shape inside the square cell r in colour c, and reports
// whether it knows the shape and the cell is large enough.
func (o *Overlay) Glyph(r Rect, shape string, c RGBA) bool { return o.glyphIn(r, shape, c, 1) }

// CellGlyph adds glyph shape in colour c over buffer id's cell, when the cell is visible, on a
// halo of the grid's background a pixel wider, so that it reads over any fill; alpha fades
// both. On a cell smaller than GlyphMin the glyph is drawn at GlyphMin, centred, over the
// neighbours' edges. It reports whether shape is a glyph.
func (o *Overlay) CellGlyph(l *Layout, id int, shape string, c RGBA, t *Theme, alpha float64) bool {
	if !isGlyph(shape) {
		return false
	}
	if !l.Visible(id) {
		return true
	}
	x, y, s := l.CellRect(id)
	g := max(s*3/4, GlyphMin)
	r := Rect{x + (s-g)/2, y + (s-g)/2, x + (s-g)/2 + g, y + (s-g)/2 + g}
	var ink Overlay
	ink.glyphIn(r, shape, c, alpha)
	for _, f := range ink.Fills {
		o.Add(Rect{f.X0 - 1, f.Y0 - 1, f.X1 + 1, f.Y1 + 1}, t.Background, alpha)
	}
	o.Fills = append(o.Fills, ink.Fills...)
	return true
}

// isGlyph reports whether shape is one of the glyphs.
func isGlyph(shape string) bool {
	_, bitmap := glyphBitmaps[shape]
	return bitmap || shape == GlyphHourglass || shape == GlyphPointer
}

// glyphIn is Glyph at alpha.
func (o *Overlay) glyphIn(r Rect, shape string, c RGBA, alpha float64) bool {
	s := min(r.X1-r.X0, r.Y1-r.Y0)
	if s < GlyphMin {
		return false
	}
	if g, ok := glyphBitmaps[shape]; ok {
		px := s / glyphSide
		x0, y0 := r.X0+(s-glyphSide*px)/2, r.Y0+(s-glyphSide*px)/2
		for row, line := range g {
			for k := range len(line) {
				if line[k] == '#' {
					o.Add(Rect{x0 + k*px, y0 + row*px, x0 + (k+1)*px, y0 + (row+1)*px}, c, alpha)
				}
			}
		}
		return true
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
			o.Add(Rect{x0 + in, y0 + y, x0 + w - in, y0 + y + 1}, c, alpha)
		}
	case GlyphPointer:
		h := max(s/2, 3) | 1
		y0 := r.Y0 + (s-h)/2
		for y := range h {
			d := min(y, h-1-y) // half the height at the tip
			o.Add(Rect{r.X0, y0 + y, r.X0 + 1 + d, y0 + y + 1}, c, alpha)
		}
	default:
		return false
	}
	return true
}
