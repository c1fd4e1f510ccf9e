package grid

import "testing"

// glyphPixels draws glyph shape in a cell of side s and returns its inked pixels as a set.
func glyphPixels(t *testing.T, shape string, s int) map[[2]int]bool {
	t.Helper()
	var o Overlay
	if !o.Glyph(Rect{0, 0, s, s}, shape, RGBA{0, 0, 0, 255}) {
		t.Fatalf("%s in %d px: not drawn", shape, s)
	}
	px := map[[2]int]bool{}
	for _, f := range o.Fills {
		for y := f.Y0; y < f.Y1; y++ {
			for x := f.X0; x < f.X1; x++ {
				if x < 0 || y < 0 || x >= s || y >= s {
					t.Fatalf("%s in %d px inks (%d, %d), outside the cell", shape, s, x, y)
				}
				px[[2]int{x, y}] = true
			}
		}
	}
	return px
}

func TestGlyphs(t *testing.T) {
	for _, s := range []int{9, 15, 23} {
		// The hourglass: wide at both ends, one pixel at the waist, mirrored top to bottom.
		hg := glyphPixels(t, GlyphHourglass, s)
		w0, y0, y1 := 0, s, -1
		rows := map[int]int{}
		for p := range hg {
			rows[p[1]]++
			y0, y1 = min(y0, p[1]), max(y1, p[1])
		}
		w0 = rows[y0]
		if w0 < 5 || rows[y1] != w0 || rows[(y0+y1)/2] > 2 {
			t.Errorf("hourglass in %d px: rows %v", s, rows)
		}
		for p := range hg {
			if !hg[[2]int{p[0], y0 + y1 - p[1]}] {
				t.Errorf("hourglass in %d px is not mirrored at %v", s, p)
				break
			}
		}
		// The pointer: from the left edge, widest in the middle.
		pt := glyphPixels(t, GlyphPointer, s)
		left, widest := 0, 0
		for p := range pt {
			if p[0] == 0 {
				left++
			}
			widest = max(widest, p[0]+1)
		}
		if left < 3 || widest < 2 || widest > s/2 {
			t.Errorf("pointer in %d px: %d pixels on the left edge, %d wide", s, left, widest)
		}
	}
	var o Overlay
	if o.Glyph(Rect{0, 0, GlyphMin - 1, GlyphMin - 1}, GlyphHourglass, RGBA{}) || o.Glyph(Rect{0, 0, 20, 20}, "nonsense", RGBA{}) || len(o.Fills) != 0 {
		t.Error("a glyph drawn in a cell too small, or an unknown one")
	}
}
