package grid

import "testing"

var poolSizes = []int{16, 128, 1024, 16384, 131072, 2621440, 13107200}

var canvases = [][2]int{{1100, 720}, {900, 640}, {390, 320}, {1600, 1000}, {120, 90}}

func TestFitShowsTheWholePool(t *testing.T) {
	for _, n := range poolSizes {
		for _, c := range canvases {
			l := Fit(n, c[0], c[1])
			if l.Cols*l.Rows < n || (l.Rows-1)*l.Cols >= n {
				t.Errorf("n=%d %v: %d cols × %d rows do not hold exactly the pool", n, c, l.Cols, l.Rows)
			}
			_, _, aw, ah := l.Area()
			mw, mh := l.MapSize()
			if l.Level > 0 && (mw > aw || mh > ah) {
				t.Errorf("n=%d %v: map %d×%d overflows area %d×%d at %v", n, c, mw, mh, aw, ah, l.Zoom())
			}
			if l.Zoomed() {
				t.Errorf("n=%d %v: a fitted layout says it is zoomed", n, c)
			}
			// One step closer must not fit, or Fit left room unused.
			if l.Level+1 < len(Zooms) {
				z := Zooms[l.Level+1]
				cols := aw / z.Cell * z.Block
				if cols >= 1 {
					rows := (n + cols - 1) / cols
					if extent(rows, z) <= ah {
						t.Errorf("n=%d %v: %v was chosen but %v fits too", n, c, l.Zoom(), z)
					}
				}
			}
		}
	}
}

func TestFitGivesEachBufferItsOwnCellUpTo1GB(t *testing.T) {
	for _, n := range []int{16384, 131072} {
		l := Fit(n, 900, 640)
		if z := l.Zoom(); z.Block != 1 {
			t.Errorf("n=%d on 900×640: %v, want one cell per buffer", n, z)
		}
	}
	if z := Fit(16384, 900, 640).Zoom(); z.Cell < 4 {
		t.Errorf("16384 buffers on 900×640: %v, want cells of 4 px or more", z)
	}
	if z := Fit(13107200, 900, 640).Zoom(); z.Block < 2 {
		t.Errorf("100GB on 900×640: %v, want several buffers per pixel", z)
	}
}

func TestFitCentresASmallPool(t *testing.T) {
	l := Fit(16, 900, 640)
	if l.Cols != 8 || l.Rows != 2 {
		t.Errorf("16 buffers: %d×%d, want 8 cols × 2 rows", l.Cols, l.Rows)
	}
	ax, ay, aw, ah := l.Area()
	mw, mh := l.MapSize()
	if dx := (l.OX - ax) - (ax + aw - l.OX - mw); dx < -1 || dx > 1 {
		t.Errorf("not centred horizontally: OX=%d map %d area %d+%d", l.OX, mw, ax, aw)
	}
	if dy := (l.OY - ay) - (ay + ah - l.OY - mh); dy < -1 || dy > 1 {
		t.Errorf("not centred vertically: OY=%d map %d area %d+%d", l.OY, mh, ay, ah)
	}
}

func TestBufferAtFindsEveryCell(t *testing.T) {
	for _, n := range poolSizes {
		for _, c := range canvases[:3] {
			l := Fit(n, c[0], c[1])
			for _, zoom := range []int{0, 3} {
				l := l.ZoomCentre(zoom)
				z := l.Zoom()
				step := max(n/997, 1)
				for id := 0; id < n; id += step {
					x, y, s := l.CellRect(id)
					ax, ay, aw, ah := l.Area()
					if cx, cy := x+s/2, y+s/2; cx < ax || cy < ay || cx >= ax+aw || cy >= ay+ah {
						continue // the cell's centre is panned out of view
					}
					got, ok := l.BufferAt(x+s/2, y+s/2)
					col, row := id%l.Cols, id/l.Cols
					want := row/z.Block*z.Block*l.Cols + col/z.Block*z.Block
					if !ok || got != want {
						t.Fatalf("n=%d %v %v: BufferAt(centre of %d) = %d, %v; want %d", n, c, z, id, got, ok, want)
					}
				}
			}
		}
	}
}

func TestBufferAtOutsideThePool(t *testing.T) {
	l := Fit(100, 400, 300) // 100 buffers do not fill their last row
	ax, ay, _, _ := l.Area()
	for _, p := range [][2]int{{0, 0}, {ax - 1, ay + 50}, {ax + 50, ay - 1}, {l.W - 1, l.H - 1}, {-5, 10}} {
		if id, ok := l.BufferAt(p[0], p[1]); ok {
			t.Errorf("BufferAt%v = %d, want nothing", p, id)
		}
	}
	if l.Cols*l.Rows > 100 {
		x, y, s := l.CellRect(l.Cols*l.Rows - 1) // a slot past the last buffer
		if id, ok := l.BufferAt(x+s/2, y+s/2); ok {
			t.Errorf("slot past the last buffer answers %d", id)
		}
	}
	if x, y, s := l.CellRect(99); true {
		if id, ok := l.BufferAt(x+s-1, y+s-1); !ok || id != 99 {
			t.Errorf("corner of the last cell = %d, %v", id, ok)
		}
	}
}

func TestZoomKeepsThePointUnderTheCursor(t *testing.T) {
	l := Fit(131072, 1100, 720)
	ax, ay, aw, ah := l.Area()
	// Points away from the pool's edges, where clamping could move the pool.
	for _, p := range [][2]int{{ax + aw/2, ay + ah/2}, {ax + aw/3, ay + ah/2}, {ax + 2*aw/3, ay + ah/2}} {
		id, _ := l.BufferAt(p[0], p[1])
		x, y, s := l.CellRect(id)
		cx, cy := x+s/2, y+s/2
		zl := l
		for range 5 {
			zl = zl.ZoomAt(1, cx, cy)
			got, ok := zl.BufferAt(cx, cy)
			if !ok || got != id {
				t.Errorf("zooming in to %v at buffer %d's centre shows %d", zl.Zoom(), id, got)
				break
			}
		}
	}
	// Zooming in on a 100 GB pool, pixel by pixel blocks become single buffers.
	big := Fit(13107200, 900, 640)
	x, y := ax+200, ay+150
	first, _ := big.BufferAt(x, y)
	zl := big
	for zl.Zoom().Block > 1 {
		zl = zl.ZoomAt(1, x, y)
	}
	got, _ := zl.BufferAt(x, y)
	if got/big.Cols != first/big.Cols && abs(got/big.Cols-first/big.Cols) > big.Zoom().Block {
		t.Errorf("zooming into a block at row %d ended at row %d", first/big.Cols, got/big.Cols)
	}
}

func TestZoomOutStopsAtFitAndCentres(t *testing.T) {
	l := Fit(16384, 900, 640)
	fit := l
	l = l.ZoomAt(4, 100, 100).PanBy(-300, -200)
	if !l.Zoomed() {
		t.Fatal("ZoomAt(4) did not zoom")
	}
	l = l.ZoomAt(-10, 500, 500)
	if l.Level != fit.Level || l.OX != fit.OX || l.OY != fit.OY {
		t.Errorf("zoomed out to level %d at (%d,%d), want the fit: level %d at (%d,%d)", l.Level, l.OX, l.OY, fit.Level, fit.OX, fit.OY)
	}
	if z := l.ZoomAt(100, 0, 0).Zoom(); z != Zooms[len(Zooms)-1] {
		t.Errorf("zooming in far gives %v, want the closest zoom", z)
	}
}

func TestPanStaysOnThePool(t *testing.T) {
	l := Fit(16384, 900, 640).ZoomCentre(3)
	ax, ay, aw, ah := l.Area()
	for _, d := range [][2]int{{10000, 10000}, {-10000, -10000}, {5, -7}} {
		p := l.PanBy(d[0], d[1])
		mw, mh := p.MapSize()
		if p.OX > ax || p.OY > ay || p.OX+mw < ax+aw || p.OY+mh < ay+ah {
			t.Errorf("PanBy%v leaves empty space: origin (%d,%d) map %d×%d area (%d,%d) %d×%d", d, p.OX, p.OY, mw, mh, ax, ay, aw, ah)
		}
	}
	// At the fit the pool is centred and panning does nothing.
	f := Fit(16384, 900, 640)
	if p := f.PanBy(50, 50); p.OX != f.OX || p.OY != f.OY {
		t.Errorf("panning a fitted pool moved it")
	}
}

func TestResize(t *testing.T) {
	l := Fit(16384, 900, 640)
	if r := l.Resize(400, 300); r != Fit(16384, 400, 300) {
		t.Errorf("resizing a fitted layout does not fit afresh")
	}
	z := l.ZoomCentre(3)
	_, _, aw, ah := z.Area()
	mid, _ := z.BufferAt(Ruler+aw/2, Ruler+ah/2)
	r := z.Resize(1000, 700)
	if r.Cols != z.Cols || r.Level != z.Level {
		t.Errorf("resizing a zoomed layout changed its arrangement or zoom")
	}
	_, _, aw, ah = r.Area()
	if got, _ := r.BufferAt(Ruler+aw/2, Ruler+ah/2); got/r.Cols != mid/r.Cols && got != mid {
		t.Errorf("buffer in the middle moved from %d to %d", mid, got)
	}
}

func TestVisibleBuffers(t *testing.T) {
	l := Fit(131072, 900, 640)
	if a, b := l.VisibleBuffers(); a != 0 || b != 131072 {
		t.Errorf("fit shows [%d, %d), want the whole pool", a, b)
	}
	z := l.ZoomCentre(4)
	a, b := z.VisibleBuffers()
	if a <= 0 || b >= 131072 || a >= b {
		t.Errorf("zoomed in shows [%d, %d)", a, b)
	}
	for id := 0; id < 131072; id += 97 {
		if z.Visible(id) && (id < a || id >= b) {
			t.Fatalf("buffer %d is visible but outside [%d, %d)", id, a, b)
		}
	}
}

func TestZoomString(t *testing.T) {
	for z, want := range map[Zoom]string{{1, 1}: "1 px per buffer", {5, 1}: "5 px per buffer", {1, 6}: "36 buffers per pixel"} {
		if got := z.String(); got != want {
			t.Errorf("%#v: %q, want %q", z, got, want)
		}
	}
}

func TestRowSpan(t *testing.T) {
	for _, l := range []Layout{Fit(1000, 300, 200), Fit(16384, 120, 100), Fit(13107200, 874, 668)} {
		for _, r := range [][2]int{{0, 1}, {5, l.Cols * 3}, {l.N - 1, l.N}} {
			y0, y1 := l.RowSpan(r[0], r[1])
			for _, id := range []int{r[0], r[1] - 1} {
				_, y, s := l.CellRect(id)
				if y < y0 || y+s > y1 {
					t.Errorf("%v: buffer %d's cell at rows [%d,%d) is outside the span [%d,%d) of [%d,%d)", l.Zoom(), id, y, y+s, y0, y1, r[0], r[1])
				}
			}
		}
	}
}
