package grid

import (
	"image"
	"unicode/utf8"

	"golang.org/x/image/font"
	"golang.org/x/image/font/basicfont"
	"golang.org/x/image/math/fixed"
)

// Text on the canvas: a lab's view names its marks where they are (a bar's ends, a box's
// caption) with Labels in its Overlay. There is one face, the 7×13 pixel bitmap font of the
// Go project's golang.org/x/image (basicfont.Face7x13): crisp at CSS pixel resolution, which
// is what the app paints at, and the same in the browser, in GridPNG and in tests. It draws
// printable ASCII; other characters show as a box, so labels are written in ASCII.
const (
	GlyphW = 7  // the advance of every character, in pixels
	TextH  = 13 // the height of a line of text, in pixels
)

// Label is a line of text the app draws over the grid, after the fills: its top-left corner
// and its colour (A is its opacity).
type Label struct {
	X, Y  int
	Text  string
	Color RGBA
}

// Rect returns the pixels the label covers.
func (l Label) Rect() Rect { return Rect{l.X, l.Y, l.X + TextWidth(l.Text), l.Y + TextH} }

// TextWidth returns the width of s in pixels.
func TextWidth(s string) int { return utf8.RuneCountInString(s) * GlyphW }

// TextMask returns s drawn as coverage, one byte per pixel (0 none, 255 full), row by row,
// TextWidth(s)×TextH pixels, for the app to tint in a label's colour.
func TextMask(s string) (w, h int, alpha []byte) {
	w, h = TextWidth(s), TextH
	if w == 0 {
		return 0, 0, nil
	}
	dst := image.NewAlpha(image.Rect(0, 0, w, h))
	d := font.Drawer{Dst: dst, Src: image.Opaque, Face: basicfont.Face7x13, Dot: fixed.P(0, basicfont.Face7x13.Ascent)}
	d.DrawString(s)
	return w, h, dst.Pix
}

// Text adds a label of s at (x, y) in colour c over a plate of the theme's background, so
// it reads over cells of any colour, and returns the rectangle it covers, plate included.
func (o *Overlay) Text(t *Theme, x, y int, s string, c RGBA) Rect {
	r := Label{X: x, Y: y, Text: s}.Rect()
	plate := Rect{r.X0 - 2, r.Y0 - 1, r.X1 + 2, r.Y1 + 1}
	o.Add(plate, t.Background, 0.85)
	o.Labels = append(o.Labels, Label{X: x, Y: y, Text: s, Color: c})
	return plate
}

// TextFits reports whether a label of s fits between x0 and x1 with its plate.
func TextFits(s string, x0, x1 int) bool { return TextWidth(s)+4 <= x1-x0 }

// BlendLabel draws label l over the painted pixels, as the app draws it over the grid's
// image, clipped to the canvas.
func (p *Painter) BlendLabel(l Label) {
	w, h, mask := TextMask(l.Text)
	for y := range h {
		for x := range w {
			if a := mask[y*w+x]; a != 0 {
				c := l.Color
				c.A = uint8(int(c.A) * int(a) / 255)
				p.Blend(Fill{Rect{l.X + x, l.Y + y, l.X + x + 1, l.Y + y + 1}, c})
			}
		}
	}
}
