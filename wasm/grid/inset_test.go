package grid

import "testing"

func TestPlanInset(t *testing.T) {
	for _, tt := range []struct {
		want, w                   int
		cell, cols, rows, n, page int
	}{
		{32, 860, 32, 16, 2, 32, 0},         // a 256kB ring on a desktop: two rows of 16
		{256, 860, 16, 52, 5, 256, 0},       // a 2MB ring: five rows
		{256, 351, 10, 32, 8, 256, 0},       // on a phone: still 8 px or more, a tappable size
		{2048, 860, 8, 107, 12, 1284, 1284}, // a 16MB ring: pages of 12 rows at 8 px
		{0, 860, 0, 0, 0, 0, 0},
		{10, 4, 0, 0, 0, 0, 0}, // no room for one item
	} {
		in := PlanInset(tt.want, tt.w)
		if in.Cell != tt.cell || in.Cols != tt.cols || in.Rows != tt.rows || in.N != tt.n || in.Want != tt.want {
			t.Errorf("PlanInset(%d, %d) = %+v, want cell %d, %d×%d, %d shown", tt.want, tt.w, in, tt.cell, tt.cols, tt.rows, tt.n)
			continue
		}
		if in.N > 0 && (in.Cols*in.Cell > tt.w || in.Rows*in.Cell > InsetMaxItems || in.Cols*in.Rows < in.N) {
			t.Errorf("PlanInset(%d, %d) = %+v does not fit or cannot hold its items", tt.want, tt.w, in)
		}
		if got := in.Page(2000); got != tt.page {
			t.Errorf("PlanInset(%d, %d): item 2000's page starts at %d, want %d", tt.want, tt.w, got, tt.page)
		}
	}
}

// TestFitInset: the band lies between the pool and the lane, overlapping neither; every item
// is found where it is drawn; the pool keeps the rest of the canvas.
func TestFitInset(t *testing.T) {
	l := FitInset(32768, 880, 400, LaneHeight, 256)
	if l.Inset.N != 256 || l.Below != LaneHeight+l.Inset.Height() {
		t.Fatalf("inset %+v, below %d", l.Inset, l.Below)
	}
	ax, ay, aw, ah := l.Area()
	band, lane := l.InsetBand(), l.Lane()
	_, mh := l.MapSize()
	if band.Y0 < l.OY+mh || band.Y0 < ay || lane.Y0 < band.Y1 || lane.Y1 > l.H || band.X0 < ax || band.X1 > ax+aw {
		t.Errorf("pool rows end at %d (area %d+%d), band %+v, lane %+v on a canvas of %d", l.OY+mh, ay, ah, band, lane, l.H)
	}
	for i := range l.Inset.N {
		x, y, side := l.InsetItem(i)
		if side < InsetMinCell-1 {
			t.Fatalf("item %d is %d px", i, side)
		}
		for _, p := range [][2]int{{x, y}, {x + side - 1, y + side - 1}, {x + side/2, y + side/2}} {
			if got, ok := l.InsetAt(p[0], p[1]); !ok || got != i {
				t.Fatalf("InsetAt(%d, %d) = %d, %v; item %d is drawn there", p[0], p[1], got, ok, i)
			}
			if _, ok := l.BufferAt(p[0], p[1]); ok {
				t.Fatalf("item %d at (%d, %d) lies over the pool", i, p[0], p[1])
			}
		}
	}
	if _, ok := l.InsetAt(band.X1+1, band.Y1-1); ok {
		t.Error("an item found right of the band")
	}
	if cx, cy := l.CaptionAt(); cy < band.Y0 || cy+TextH > band.Y0+InsetCaption || cx != band.X0 {
		t.Errorf("caption at (%d, %d), band %+v", cx, cy, band)
	}
	// The layout keeps its inset when it is fitted again, resized or zoomed and resized.
	if r := l.Refit(); r.Inset != l.Inset || r.Below != l.Below {
		t.Errorf("Refit: inset %+v below %d, was %+v %d", r.Inset, r.Below, l.Inset, l.Below)
	}
	narrow := l.Resize(364, 270)
	if narrow.Inset.Want != 256 || narrow.Inset.N != 256 || narrow.Inset.Cell < InsetMinCell || narrow.Below != LaneHeight+narrow.Inset.Height() {
		t.Errorf("resized to a phone: inset %+v, below %d", narrow.Inset, narrow.Below)
	}
	z := l.ZoomCentre(4).Resize(364, 270)
	if !z.Zoomed() || z.Inset != narrow.Inset || z.Below != narrow.Below {
		t.Errorf("zoomed, then resized to a phone: zoomed %v, inset %+v below %d; fitted %+v %d", z.Zoomed(), z.Inset, z.Below, narrow.Inset, narrow.Below)
	}
	// A canvas too short for the pool beside the band keeps no band, and may have one again.
	short := l.Resize(880, 120)
	if short.Inset.N != 0 || short.Inset.Want != 256 || short.Below != LaneHeight || !short.InsetBand().Empty() {
		t.Errorf("a short canvas: inset %+v below %d", short.Inset, short.Below)
	}
	if back := short.Resize(880, 400); back.Inset != l.Inset {
		t.Errorf("tall again: inset %+v, want %+v", back.Inset, l.Inset)
	}
	// Without an inset nothing changes.
	if a, b := FitInset(1000, 500, 400, LaneHeight, 0), FitBelow(1000, 500, 400, LaneHeight); a != b {
		t.Errorf("FitInset without items %+v, FitBelow %+v", a, b)
	}
}

// TestPaintInset: each item is painted exactly as a swatch of its buffer at that size (the
// grid's own cell), an item without a buffer as an empty one; a change repaints only its item;
// the inspected buffer is ringed in the inset too.
func TestPaintInset(t *testing.T) {
	f := &Frame{Layout: FitInset(4096, 600, 400, 0, 8), Codes: make([]Code, 4096), NumRel: 3, Theme: testLight, Hand: -1, Highlight: -1}
	f.Codes[10] = MakeCode(0, 3, true, false)
	f.Codes[20] = MakeCode(1, 1, false, true)
	f.Codes[30] = MakeCode(2, 5, false, false)
	f.Inset = []int32{10, 20, 30, -1}
	var p Painter
	p.Paint(f)
	l := f.Layout
	side := l.InsetSide()
	if side < 20 {
		t.Fatalf("items of %d px", side)
	}
	same := func(i int, code Code) bool {
		sw := PaintSwatch(testLight, 3, Swatch{Code: code}, side+6)
		x0, y0, _ := l.InsetItem(i)
		for y := range side {
			for x := range side {
				o := 4 * ((y+3)*(side+6) + x + 3)
				if (RGBA{sw[o], sw[o+1], sw[o+2], sw[o+3]}) != p.At(x0+x, y0+y) {
					return false
				}
			}
		}
		return true
	}
	for i, code := range []Code{f.Codes[10], f.Codes[20], f.Codes[30], 0} {
		if !same(i, code) {
			t.Errorf("item %d is not painted as its buffer's cell", i)
		}
	}
	if x, y, _ := l.InsetItem(4); p.At(x+side/2, y+side/2).A != 0 {
		t.Error("an item beyond the listed ones is painted")
	}
	p.TakeDamage()
	f.Codes[20] = MakeCode(1, 2, true, false)
	if !p.Update(f) {
		t.Fatal("a changed item was not repainted")
	}
	_, rects := p.TakeDamage()
	x, y, _ := l.InsetItem(1)
	// Buffer 20's cell in the pool, and its item.
	if len(rects) != 2 || rects[1] != (Rect{x - 2, y - 2, x + side + 2, y + side + 2}) || !same(1, f.Codes[20]) {
		t.Errorf("repainted %v for buffer 20 and its item at (%d, %d)", rects, x, y)
	}
	f.Highlight = 30
	p.Update(f)
	x, y, _ = l.InsetItem(2)
	if got := p.At(x-1, y+side/2); got != testLight.Highlight {
		t.Errorf("the inspected buffer's item is not ringed: %v", got)
	}
	f.Inset = f.Inset[:2]
	p.Update(f)
	if p.At(x+side/2, y+side/2).A != 0 {
		t.Error("an item no longer listed is still painted")
	}
}
