package grid

import (
	"math"
	"math/rand/v2"
	"testing"
)

// probe is a mark's colour for the overlay tests.
var probe = hex("#2463eb")

// cellPixels returns, for each canvas pixel inside a cell, the buffers whose cells cover it:
// one per pixel at one pixel per buffer or closer, a block of them when pixels stand for
// blocks. It is the slow, obvious picture RangeRects is checked against.
func cellPixels(l Layout) map[[2]int][]int {
	m := map[[2]int][]int{}
	for id := range l.N {
		x, y, s := l.CellRect(id)
		for dy := range s {
			for dx := range s {
				p := [2]int{x + dx, y + dy}
				m[p] = append(m[p], id)
			}
		}
	}
	return m
}

func TestRangeRectsCoverExactlyTheRange(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	layouts := []Layout{
		Fit(100, 200, 150),   // large cells with gaps
		Fit(1000, 300, 200),  // small cells
		Fit(5000, 60, 60),    // blocks of buffers per pixel
		Fit(16384, 120, 100), // bigger blocks
		Fit(37, 500, 40),     // one long row
		Fit(16384, 900, 700), // 5 px cells
	}
	// A zoomed-in, panned layout too.
	layouts = append(layouts, Fit(3000, 200, 200).ZoomCentre(4).PanBy(-30, -20))
	for _, l := range layouts {
		pix := cellPixels(l)
		for range 60 {
			first := rng.IntN(l.N)
			end := first + 1 + rng.IntN(l.N-first)
			if rng.IntN(4) == 0 {
				end = min(first+1+rng.IntN(3), l.N)
			}
			rects := l.RangeRects(first, end, nil)
			if len(rects) > 5 {
				t.Errorf("%v [%d,%d): %d rects", l.Zoom(), first, end, len(rects))
			}
			covered := map[[2]int]int{}
			for _, r := range rects {
				for y := r.Y0; y < r.Y1; y++ {
					for x := r.X0; x < r.X1; x++ {
						covered[[2]int{x, y}]++
					}
				}
			}
			for p, ids := range pix {
				in := false
				for _, id := range ids {
					in = in || id >= first && id < end
				}
				if n := covered[p]; in && n != 1 || !in && n != 0 {
					t.Fatalf("%v cols %d, range [%d,%d): pixel %v (buffers %v) covered %d times; rects %v",
						l.Zoom(), l.Cols, first, end, p, ids[:min(len(ids), 4)], n, rects)
				}
			}
		}
	}
}

func TestRangeRectsClampsAndSkipsEmpty(t *testing.T) {
	l := Fit(100, 200, 150)
	if r := l.RangeRects(5, 5, nil); len(r) != 0 {
		t.Errorf("empty range gave %v", r)
	}
	if a, b := l.RangeRects(-10, 1000, nil), l.RangeRects(0, 100, nil); len(a) != len(b) || a[0] != b[0] {
		t.Errorf("out-of-range bounds gave %v, want %v", a, b)
	}
}

func TestLaneSitsUnderTheGridOnTheCanvas(t *testing.T) {
	for _, c := range []struct{ n, w, h int }{{16384, 874, 668}, {16, 874, 668}, {13107200, 874, 668}, {131072, 300, 200}, {100, 90, 80}} {
		l := FitBelow(c.n, c.w, c.h, LaneHeight)
		r := l.Lane()
		_, ay, _, ah := l.Area()
		_, mh := l.MapSize()
		if r.Empty() || r.X0 < 0 || r.X1 > c.w || r.Y1 > c.h-Pad+1 || r.Y0 < min(l.OY+mh, ay+ah) {
			t.Errorf("%d buffers on %d×%d: lane %v, map bottom %d, area bottom %d", c.n, c.w, c.h, r, l.OY+mh, ay+ah)
		}
		var o Overlay
		pips := make([]Pip, 1000)
		for i := range pips {
			pips[i] = Pip{Miss: i%3 == 0, Rel: i % 5, Pulse: 1}
		}
		o.AddLane(&l, dropLight, Lane{Scan: 0.5, Pips: pips}, probe)
		for _, f := range o.Fills {
			if f.X0 < 0 || f.Y0 < 0 || f.X1 > c.w || f.Y1 > c.h {
				t.Errorf("%d buffers on %d×%d: lane fill %v off the canvas", c.n, c.w, c.h, f.Rect)
			}
		}
		if l.LaneCapacity() < 10 {
			t.Errorf("%d buffers on %d×%d: the tape shows only %d lookups", c.n, c.w, c.h, l.LaneCapacity())
		}
	}
	if r := Fit(100, 200, 150).Lane(); !r.Empty() {
		t.Errorf("a layout without room below has lane %v", r)
	}
}

func TestLaneShowsHitsAndMisses(t *testing.T) {
	l := FitBelow(1000, 400, 300, LaneHeight)
	var o Overlay
	o.AddLane(&l, dropLight, Lane{Scan: -1, Pips: []Pip{{Rel: 2}, {Miss: true}}}, probe)
	hit, miss := 0, 0
	for _, f := range o.Fills {
		switch f.Color {
		case dropLight.Rel(2):
			hit++
		case probe:
			miss++
		}
	}
	if hit != 1 || miss != 4 { // the miss's edges; it is not pulsing
		t.Errorf("a hit and a miss gave %d hit bars and %d miss edges; fills %v", hit, miss, o.Fills)
	}
}

func TestOverlaySum(t *testing.T) {
	l := Fit(1000, 400, 300)
	var a, b Overlay
	a.Ring(&l, 10, 2, probe, 1)
	b.Ring(&l, 10, 2, probe, 1)
	if a.Sum() != b.Sum() {
		t.Error("equal overlays have different sums")
	}
	b.Reset()
	b.Ring(&l, 11, 2, probe, 1)
	if a.Sum() == b.Sum() {
		t.Error("a moved ring did not change the sum")
	}
	b.Reset()
	b.Add(Rect{0, 0, 5, 5}, probe, 0)
	if len(b.Fills) != 0 {
		t.Error("an invisible fill was kept")
	}
}

// deltaE returns the CIE76 colour difference of two colours: about 2.3 is just noticeable,
// past 50 the colours are of different kinds.
func deltaE(a, b RGBA) float64 {
	lab := func(c RGBA) [3]float64 {
		lin := func(v uint8) float64 {
			x := float64(v) / 255
			if x <= 0.04045 {
				return x / 12.92
			}
			return math.Pow((x+0.055)/1.055, 2.4)
		}
		r, g, bl := lin(c.R), lin(c.G), lin(c.B)
		x := (0.4124*r + 0.3576*g + 0.1805*bl) / 0.95047
		y := 0.2126*r + 0.7152*g + 0.0722*bl
		z := (0.0193*r + 0.1192*g + 0.9505*bl) / 1.08883
		f := func(t float64) float64 {
			if t > 0.008856 {
				return math.Cbrt(t)
			}
			return 7.787*t + 16.0/116
		}
		return [3]float64{116*f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))}
	}
	p, q := lab(a), lab(b)
	return math.Sqrt((p[0]-q[0])*(p[0]-q[0]) + (p[1]-q[1])*(p[1]-q[1]) + (p[2]-q[2])*(p[2]-q[2]))
}

// TestDropThemes: in the drop lab's legend the dropped relations stand apart from others,
// others from empty buffers, and neighbouring dropped relations from each other.
func TestDropThemes(t *testing.T) {
	for _, d := range []*Theme{dropLight, dropDark} {
		others := d.Fill(0, 1)
		shades := len(d.Roles) - 1
		for i := 1; i <= shades; i++ {
			if e := deltaE(d.Fill(i, 1), others); e < 45 {
				t.Errorf("%s: dropped shade %d is too close to others (ΔE %.1f)", d.Name, i, e)
			}
			if e := deltaE(d.Fill(i, 1), d.Fill(i%shades+1, 1)); e < 10 {
				t.Errorf("%s: dropped shades %d and %d are too close (ΔE %.1f)", d.Name, i, i%shades+1, e)
			}
		}
		if e := deltaE(others, d.Empty); e < 15 {
			t.Errorf("%s: others too close to empty (ΔE %.1f)", d.Name, e)
		}
	}
}

func TestBlend(t *testing.T) {
	var p Painter
	p.resize(4, 1)
	p.px[1] = testLight.Empty.pixel()
	p.Blend(Fill{Rect{0, 0, 4, 1}, RGBA{255, 0, 0, 128}})
	if got := p.At(0, 0); got != (RGBA{255, 0, 0, 128}) {
		t.Errorf("over transparent: %v", got)
	}
	if got, want := p.At(1, 0), Mix(testLight.Empty, RGBA{255, 0, 0, 255}, 128.0/255); got != want {
		t.Errorf("over opaque: %v, want %v", got, want)
	}
}

func TestPaintMark(t *testing.T) {
	for _, theme := range []*Theme{dropLight, dropDark} {
		probe, _ := theme.Mark("checked")
		for _, m := range MarkShapes {
			px, ok := PaintMark(theme, m, probe, 24)
			if !ok || len(px) != 24*24*4 {
				t.Errorf("%s %s: %v, %d bytes", theme.Name, m, ok, len(px))
			}
		}
		if _, ok := PaintMark(theme, "nonsense", probe, 24); ok {
			t.Error("an unknown mark was painted")
		}
		// The cursor's ring is ink just outside the cell, as the clock hand's is.
		px, _ := PaintMark(theme, "cursor", probe, 24)
		if c := (RGBA{px[(2*24+12)*4], px[(2*24+12)*4+1], px[(2*24+12)*4+2], px[(2*24+12)*4+3]}); c != theme.Hand {
			t.Errorf("%s: cursor ring %v, want %v", theme.Name, c, theme.Hand)
		}
	}
}

// TestShadesDoNotPileUp: where pixels stand for blocks of buffers, consecutive ranges that
// share a row of pixels tint it once, with the newer range's opacity.
func TestShadesDoNotPileUp(t *testing.T) {
	l := Fit(16384, 120, 100)
	if l.Zoom().Block <= 1 {
		t.Fatalf("zoom %v; the test needs blocks", l.Zoom())
	}
	per := l.Cols * l.Zoom().Block // buffers per row of pixels
	shades := []Shade{{0, per + per/2, 0.2}, {per + per/2, 3 * per, 0.6}, {3*per + 5, 3*per + 6, 0.9}}
	var o Overlay
	o.Shades(&l, shades, probe)
	rows := map[int]uint8{}
	for _, f := range o.Fills {
		for y := f.Y0; y < f.Y1; y++ {
			if _, dup := rows[y]; dup {
				t.Fatalf("row %d tinted twice: %v", y, o.Fills)
			}
			rows[y] = f.Color.A
		}
	}
	oy := l.OY
	want := map[int]uint8{oy: 51, oy + 1: 153, oy + 2: 153, oy + 3: 230}
	for y, a := range want {
		if rows[y] != a {
			t.Errorf("row %d: alpha %d, want %d (rows %v)", y-oy, rows[y], a, rows)
		}
	}
	// One pixel per buffer or closer: ranges are drawn exactly.
	c := Fit(1000, 300, 200)
	o.Reset()
	o.Shades(&c, []Shade{{0, 10, 0.5}}, probe)
	if len(o.Fills) != 1 {
		t.Errorf("a range within a row gave %v", o.Fills)
	}
}

// TestGlyphsDifferByShape: the tick, the cross and the hourglass cover different pixels of a
// cell, each on a halo of the background, centred on the cell; an unknown shape or a buffer
// out of view draws nothing.
func TestGlyphsDifferByShape(t *testing.T) {
	l := Fit(64, 200, 200) // cells far larger than a glyph
	x, y, s := l.CellRect(9)
	covered := map[string]map[[2]int]bool{}
	for _, shape := range []string{"tick", "cross", "hourglass"} {
		var o Overlay
		if !o.CellGlyph(&l, 9, shape, probe, testLight, 1) {
			t.Fatalf("%s is not a glyph", shape)
		}
		var p Painter
		p.resize(l.W, l.H)
		for _, f := range o.Fills {
			p.Blend(f)
		}
		covered[shape] = map[[2]int]bool{}
		for py := y; py < y+s; py++ {
			for px := x; px < x+s; px++ {
				switch p.At(px, py) {
				case probe:
					covered[shape][[2]int{px - x, py - y}] = true
				case testLight.Background, RGBA{}:
				default:
					t.Fatalf("%s: pixel (%d,%d) is %v, neither the glyph nor its halo", shape, px, py, p.At(px, py))
				}
			}
		}
		if p.At(x, y) != (RGBA{}) || p.At(x+s-1, y+s-1) != (RGBA{}) {
			t.Errorf("%s is not centred: the cell's corners are covered", shape)
		}
	}
	same := func(a, b map[[2]int]bool) bool {
		if len(a) != len(b) {
			return false
		}
		for k := range a {
			if !b[k] {
				return false
			}
		}
		return true
	}
	if same(covered["tick"], covered["cross"]) || same(covered["cross"], covered["hourglass"]) || same(covered["tick"], covered["hourglass"]) {
		t.Error("two glyphs cover the same pixels")
	}
	var o Overlay
	if o.CellGlyph(&l, 9, "nonsense", probe, testLight, 1) || len(o.Fills) != 0 {
		t.Error("an unknown glyph was drawn")
	}
	if o.CellGlyph(&l, 64, "tick", probe, testLight, 1); len(o.Fills) != 0 {
		t.Error("a glyph was drawn for a buffer beyond the pool")
	}
}
