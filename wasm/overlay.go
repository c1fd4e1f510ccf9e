//go:build js

package main

import (
	"image"
	"image/color"

	"github.com/bufferscope/bufferscope/wasm/grid"
	"github.com/hajimehoshi/ebiten/v2"
)

// overlayDrawer draws a lab view's overlay in two DrawTriangles calls however many marks it
// has: every fill a quad sampling one white pixel, every character of every label a quad
// sampling its glyph in an atlas, each quad tinted by its vertices' colour. The ring lab's
// overlay at 1GB holds over three thousand fills, and its labels carry LSNs that change
// every frame; drawn as one DrawImage per fill and one new image per text, its Draw took
// about 15 ms of Go time a frame in the browser.
type overlayDrawer struct {
	ink    *ebiten.Image // white pixels at (0,0)-(3,3); glyph slots from y = 3
	slots  map[rune]int  // the atlas slot of each character drawn so far
	blank  []bool        // by slot: the glyph has no ink (a space)
	fills  quads
	glyphs quads
	opts   ebiten.DrawTrianglesOptions
}

// The glyph atlas: glyphSlots characters of grid.GlyphW×grid.TextH in one row under the
// white pixels. Labels are written in ASCII, so about a hundred are ever used; if a page
// brings more, the atlas starts again.
const (
	glyphSlots = 256
	glyphTop   = 3
)

func (d *overlayDrawer) draw(screen *ebiten.Image, o *grid.Overlay) {
	if len(o.Fills) == 0 && len(o.Labels) == 0 {
		return
	}
	if d.ink == nil {
		d.ink = ebiten.NewImage(glyphSlots*grid.GlyphW, glyphTop+grid.TextH)
		d.ink.SubImage(image.Rect(0, 0, 3, 3)).(*ebiten.Image).Fill(color.White)
	}
	d.fills.reset()
	for _, f := range o.Fills {
		d.fills.add(f.Rect, image.Rect(1, 1, 2, 2), f.Color)
	}
	d.glyphs.reset()
	for _, l := range o.Labels {
		x := l.X
		for _, r := range l.Text {
			if k := d.slot(r); !d.blank[k] {
				src := image.Rect(k*grid.GlyphW, glyphTop, (k+1)*grid.GlyphW, glyphTop+grid.TextH)
				d.glyphs.add(grid.Rect{X0: x, Y0: l.Y, X1: x + grid.GlyphW, Y1: l.Y + grid.TextH}, src, l.Color)
			}
			x += grid.GlyphW
		}
	}
	d.fills.drawTo(screen, d.ink, &d.opts) // the labels' plates are fills: fills go first
	d.glyphs.drawTo(screen, d.ink, &d.opts)
}

// slot returns the atlas slot of r, drawing its glyph there on its first use.
func (d *overlayDrawer) slot(r rune) int {
	if k, ok := d.slots[r]; ok {
		return k
	}
	if d.slots == nil || len(d.slots) == glyphSlots {
		d.slots, d.blank = map[rune]int{}, d.blank[:0]
	}
	k := len(d.slots)
	d.slots[r] = k
	w, h, mask := grid.TextMask(string(r))
	px := make([]byte, 4*w*h)
	blank := true
	for i, a := range mask {
		px[4*i], px[4*i+1], px[4*i+2], px[4*i+3] = a, a, a, a // premultiplied white
		blank = blank && a == 0
	}
	d.blank = append(d.blank, blank)
	if w == grid.GlyphW && h == grid.TextH {
		d.ink.SubImage(image.Rect(k*grid.GlyphW, glyphTop, (k+1)*grid.GlyphW, glyphTop+h)).(*ebiten.Image).WritePixels(px)
	}
	return k
}

// quads collects tinted rectangles for DrawTriangles, in calls of at most maxQuads, which
// 16-bit indices can address.
type quads struct {
	v   []ebiten.Vertex
	idx []uint16
}

const maxQuads = 1 << 14

func (q *quads) reset() { q.v, q.idx = q.v[:0], q.idx[:0] }

// add adds a quad drawing src of the source image over dst, tinted with c (straight alpha).
func (q *quads) add(dst grid.Rect, src image.Rectangle, c grid.RGBA) {
	if dst.X1 <= dst.X0 || dst.Y1 <= dst.Y0 || c.A == 0 {
		return
	}
	r, g, b, a := float32(c.R)/255, float32(c.G)/255, float32(c.B)/255, float32(c.A)/255
	n := uint16(len(q.v) % (4 * maxQuads))
	for _, p := range [4][4]int{
		{dst.X0, dst.Y0, src.Min.X, src.Min.Y}, {dst.X1, dst.Y0, src.Max.X, src.Min.Y},
		{dst.X0, dst.Y1, src.Min.X, src.Max.Y}, {dst.X1, dst.Y1, src.Max.X, src.Max.Y},
	} {
		q.v = append(q.v, ebiten.Vertex{DstX: float32(p[0]), DstY: float32(p[1]), SrcX: float32(p[2]), SrcY: float32(p[3]),
			ColorR: r, ColorG: g, ColorB: b, ColorA: a})
	}
	q.idx = append(q.idx, n, n+1, n+2, n+1, n+3, n+2)
}

// drawTo draws the quads over screen in order, maxQuads at a time.
func (q *quads) drawTo(screen, src *ebiten.Image, opts *ebiten.DrawTrianglesOptions) {
	for i := 0; i < len(q.idx); i += 6 * maxQuads {
		j := min(i+6*maxQuads, len(q.idx))
		v := i / 6 * 4
		screen.DrawTriangles(q.v[v:v+(j-i)/6*4], q.idx[i:j], src, opts)
	}
}
