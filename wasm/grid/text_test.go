package grid

import "testing"

func TestTextMask(t *testing.T) {
	if TextWidth("flushed") != 7*GlyphW || TextWidth("") != 0 {
		t.Fatalf("widths %d, %d", TextWidth("flushed"), TextWidth(""))
	}
	w, h, a := TextMask("WAL")
	if w != 3*GlyphW || h != TextH || len(a) != w*h {
		t.Fatalf("mask %d×%d of %d bytes", w, h, len(a))
	}
	ink := func(a []byte, x0, x1 int) int {
		n := 0
		for y := range h {
			for x := x0; x < x1; x++ {
				if a[y*w+x] > 127 {
					n++
				}
			}
		}
		return n
	}
	for i := range 3 {
		if n := ink(a, i*GlyphW, (i+1)*GlyphW); n < 8 {
			t.Errorf("character %d of WAL has %d inked pixels", i, n)
		}
	}
	_, _, l := TextMask("L")
	_, _, one := TextMask("1")
	same := true
	for i := range l {
		same = same && l[i] == one[i]
	}
	if same {
		t.Error("L and 1 are drawn alike")
	}
	_, _, sp := TextMask(" ")
	for _, v := range sp {
		if v != 0 {
			t.Fatal("a space has ink")
		}
	}
}

func TestOverlayText(t *testing.T) {
	var o Overlay
	r := o.Text(&Light, 10, 20, "inserted", Light.InkDark)
	if len(o.Labels) != 1 || len(o.Fills) != 1 || o.Labels[0].Rect() != (Rect{10, 20, 10 + 8*GlyphW, 20 + TextH}) {
		t.Fatalf("labels %+v, fills %+v", o.Labels, o.Fills)
	}
	if lr := o.Labels[0].Rect(); r.X0 >= lr.X0 || r.X1 <= lr.X1 || r.Y0 >= lr.Y0 || r.Y1 <= lr.Y1 {
		t.Errorf("the plate %+v does not surround the text %+v", r, lr)
	}
	sum := o.Sum()
	o.Labels[0].Text = "flushed!"
	if o.Sum() == sum {
		t.Error("a label's new text leaves the overlay's sum as it was")
	}
	o.Reset()
	if len(o.Labels) != 0 || len(o.Fills) != 0 {
		t.Error("Reset kept labels or fills")
	}
	if !TextFits("abc", 0, 3*GlyphW+4) || TextFits("abc", 0, 3*GlyphW+3) {
		t.Error("TextFits")
	}
}

func TestBlendLabel(t *testing.T) {
	var p Painter
	p.resize(40, 20)
	p.BlendLabel(Label{X: 2, Y: 3, Text: "W", Color: RGBA{0, 0, 0, 255}})
	n := 0
	for y := range 20 {
		for x := range 40 {
			if c := p.At(x, y); c.A > 127 {
				n++
				if x < 2 || x >= 2+GlyphW || y < 3 || y >= 3+TextH {
					t.Fatalf("ink at (%d, %d), outside the label", x, y)
				}
			}
		}
	}
	if n < 8 {
		t.Errorf("W blended as %d pixels", n)
	}
}
