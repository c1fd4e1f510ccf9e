package grid

import "testing"

// TestArrangeOnePaneIsTheCanvas: a canvas of one pool is one pane, without a band, as
// before panes existed.
func TestArrangeOnePaneIsTheCanvas(t *testing.T) {
	if got := Arrange(1, 876, 394); len(got) != 1 || got[0] != (Rect{0, 0, 876, 394}) {
		t.Errorf("one pane: %v", got)
	}
}

// TestArrangeTwoPanes: two pools go side by side on a desktop's canvas and one above the
// other on a phone's; the panes are the same size, lie on the canvas under their bands, do
// not overlap, and each shows its whole pool with cells of a few pixels at the page's sizes.
func TestArrangeTwoPanes(t *testing.T) {
	for _, c := range []struct {
		name       string
		w, h, n    int
		stacked    bool
		minCellPix int
	}{
		{"desktop 1280×800", 876, 394, 16384, false, 2},
		{"desktop 1440×900", 1040, 520, 16384, false, 3},
		{"wide and low", 1600, 300, 16384, false, 2},
		{"phone 390×844", 388, 497, 16384, true, 2},
		{"narrow and tall", 300, 900, 16384, true, 2},
		{"20GB", 876, 394, 2621440, false, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			panes := Arrange(2, c.w, c.h)
			if len(panes) != 2 {
				t.Fatalf("%d panes", len(panes))
			}
			a, b := panes[0], panes[1]
			if stacked := a.X0 == b.X0 && b.Y0 > a.Y1; stacked != c.stacked {
				t.Errorf("panes %v and %v: stacked %v, want %v", a, b, stacked, c.stacked)
			}
			aw, ah := a.Size()
			if bw, bh := b.Size(); aw != bw || ah != bh || aw <= 0 || ah <= 0 {
				t.Errorf("panes of %d×%d and %d×%d", aw, ah, bw, bh)
			}
			for i, r := range panes {
				if r.X0 < 0 || r.Y0 < PaneHead || r.X1 > c.w || r.Y1 > c.h {
					t.Errorf("pane %d %v leaves the %d×%d canvas or its band", i, r, c.w, c.h)
				}
			}
			if a.X1+PaneGap > b.X0 && a.Y1+PaneGap+PaneHead > b.Y0 {
				t.Errorf("panes %v and %v overlap or touch", a, b)
			}
			l := FitBelow(c.n, aw, ah, LaneHeight)
			if l.Cols*l.Rows < c.n || l.Zoom().Cell < c.minCellPix && l.Zoom().Block == 1 {
				t.Errorf("each pane shows %d×%d at %v", l.Cols, l.Rows, l.Zoom())
			}
		})
	}
}

// TestPaneAt finds the pane under a canvas point and the point in the pane's pixels; bands
// and gaps are in no pane.
func TestPaneAt(t *testing.T) {
	panes := Arrange(2, 876, 394)
	b := panes[1]
	if i, x, y, ok := PaneAt(panes, b.X0+5, b.Y0+7); !ok || i != 1 || x != 5 || y != 7 {
		t.Errorf("a point in the second pane: %d (%d, %d) %v", i, x, y, ok)
	}
	if i, x, y, ok := PaneAt(panes, 3, PaneHead); !ok || i != 0 || x != 3 || y != 0 {
		t.Errorf("a point in the first pane: %d (%d, %d) %v", i, x, y, ok)
	}
	for _, p := range [][2]int{{10, PaneHead - 1}, {panes[0].X1 + 1, 200}, {-1, 200}, {876, 200}} {
		if i, _, _, ok := PaneAt(panes, p[0], p[1]); ok {
			t.Errorf("point %v is in pane %d", p, i)
		}
	}
}
