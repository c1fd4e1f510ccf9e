package app

import (
	"bytes"
	"image"
	"image/png"
	"testing"

	simdrop "github.com/bufferscope/bufferscope/sim/labs/drop"
	"github.com/bufferscope/bufferscope/wasm/grid"
)

// TestDropRaceShowsTwoPanes: the drop lab at its defaults races two pools, which the app
// draws in two panes of one canvas — side by side on a desktop's canvas, stacked on a
// phone's — with one zoom for both; hovering a pane inspects that pane's pool and says so,
// the highlight rings a buffer of one pane only, and the stats give each pane's counters.
func TestDropRaceShowsTwoPanes(t *testing.T) {
	a := newApp(t)
	a.Resize(876, 394)
	load(t, a, "drop", nil)
	if a.Panes() != 2 {
		t.Fatalf("the drop lab's defaults show %d panes, want 2", a.Panes())
	}
	v := a.View()
	if len(v.Panes) != 2 || v.Panes[0].Key != "pg14" || v.Panes[1].Key != "pg13" || v.Panes[0].Label == "" {
		t.Fatalf("view panes %+v", v.Panes)
	}
	p0, p1 := v.Panes[0], v.Panes[1]
	if p0.Y != p1.Y || p1.X < p0.X+p0.Width || p0.Width != p1.Width || p0.Height != p1.Height || p0.Head != grid.PaneHead {
		t.Errorf("on 876×394 the panes are %+v and %+v; want side by side, the same size", p0, p1)
	}
	st := a.Stats()
	if len(st.Panes) != 2 || st.Panes[0].Key != "pg14" || st.Panes[1].Key != "pg13" || st.Panes[1].Counters == nil {
		t.Fatalf("stats panes %+v", st.Panes)
	}
	// Both pools are filled alike before either replays.
	if h := a.PaneHashes(); len(h) != 2 || h[0] != h[1] {
		t.Errorf("pane hashes %v at step 0: want two copies of one filled pool", h)
	}

	// Inspection says which pane; the same place in each pane is the same buffer.
	cx, cy := p1.X+p1.Width/2, p1.Y+p1.Height/3
	in1 := a.InspectAt(cx, cy)
	in0 := a.InspectAt(cx-p1.X+p0.X, cy)
	if in1 == nil || in1.Pane == nil || in1.Pane.Index != 1 || in1.Pane.Key != "pg13" {
		t.Fatalf("the middle of the second pane inspects as %+v", in1)
	}
	if in0 == nil || in0.Pane == nil || in0.Pane.Index != 0 || in0.Buffer != in1.Buffer {
		t.Errorf("the same place in the first pane inspects as %+v", in0)
	}
	if a.InspectAt(p0.X+p0.Width+grid.PaneGap/2, cy) != nil || a.InspectAt(cx, 2) != nil {
		t.Error("the gap between the panes or the band above them inspects as a buffer")
	}
	if info := a.Inspect(in1.Buffer, 1); info == nil || info.Pane.Index != 1 {
		t.Errorf("Inspect(%d, 1) = %+v", in1.Buffer, info)
	}
	if a.Inspect(0, 2) != nil {
		t.Error("a third pane was inspected")
	}

	// One zoom for both panes: the same place in each still shows the same buffer.
	v = a.Zoom(2, cx, cy, true)
	if z0, z1 := a.InspectAt(cx-p1.X+p0.X, cy), a.InspectAt(cx, cy); !v.Zoomed || z0 == nil || z1 == nil || z0.Buffer != z1.Buffer {
		t.Errorf("after zooming in at the pointer: %+v; the panes show %+v and %+v there", v, z0, z1)
	}
	a.Pan(-30, 10)
	if a.InspectAt(cx, cy).Buffer != a.InspectAt(cx-p1.X+p0.X, cy).Buffer {
		t.Error("panning moved the panes apart")
	}
	if v = a.Fit(); v.Zoomed {
		t.Errorf("fit: %+v", v)
	}

	// The highlight rings a buffer of one pane.
	if got := a.Highlight(in1.Buffer, 1); got != in1.Buffer || a.view.hpane != 1 {
		t.Errorf("highlight in the second pane: %d, pane %d", got, a.view.hpane)
	}
	if a.view.frame(0, -1).Highlight != -1 || a.view.frame(1, -1).Highlight != in1.Buffer {
		t.Error("the highlight is painted in the wrong pane")
	}
	if got := a.Highlight(3, 5); got != -1 {
		t.Errorf("a highlight in a pane that is not there rang %d", got)
	}

	// Both panes are painted, each in its place, and the PNG shows the whole canvas.
	if !a.Paint() {
		t.Fatal("nothing painted")
	}
	for i := range 2 {
		w, h := a.PanePainter(i).Size()
		if r := a.PaneRect(i); w != r.X1-r.X0 || h != r.Y1-r.Y0 {
			t.Errorf("pane %d's painter is %d×%d, its place %v", i, w, h, r)
		}
	}
	b, err := a.GridPNG()
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil || img.Bounds() != image.Rect(0, 0, 876, 394) {
		t.Fatalf("the grid's PNG: %v %v", img.Bounds(), err)
	}
	r := a.PaneRect(1)
	if _, _, _, alpha := img.At((r.X0+r.X1)/2, (r.Y0+r.Y1)/3).RGBA(); alpha == 0 {
		t.Error("the PNG has nothing where the second pane is")
	}

	// On a phone's tall canvas the panes stack, each as wide as the canvas.
	a.Resize(388, 544)
	v = a.View()
	if p0, p1 = v.Panes[0], v.Panes[1]; p0.X != p1.X || p1.Y <= p0.Y+p0.Height || p0.Width < 380 {
		t.Errorf("on 388×544 the panes are %+v and %+v; want them stacked", p0, p1)
	}
	if info := a.InspectAt(p1.X+p1.Width/2, p1.Y+p1.Height/3); info == nil || info.Pane.Index != 1 {
		t.Errorf("a tap on the lower pane inspects as %+v", info)
	}
}

// TestDropRaceOverlayInPanes: the lab view's overlay of each pane is drawn in that pane's
// place: a full scan under way on the second pane tints its checked cells there, and not in
// the first pane, whose lookups take no scan.
func TestDropRaceOverlayInPanes(t *testing.T) {
	a := newApp(t)
	a.Resize(876, 394)
	load(t, a, "drop", nil)
	n := a.Stats().NBuffers
	for a.Stats().Panes[1].Counters.(*simdrop.Counters).Cursor < n/3 {
		if _, err := a.Step(1000); err != nil {
			t.Fatal(err)
		}
	}
	a.Paint()
	if !a.BuildOverlay() {
		t.Fatal("no overlay")
	}
	probe, _ := a.Theme().Mark("checked")
	wide := [2]int{}
	for _, f := range a.Overlay().Fills {
		if f.Color.R != probe.R || f.Color.G != probe.G || f.Color.B != probe.B || f.X1-f.X0 < 40 {
			continue
		}
		for i := range 2 {
			if r := a.PaneRect(i); f.X0 >= r.X0 && f.X1 <= r.X1 && f.Y0 >= r.Y0 && f.Y1 <= r.Y1 {
				wide[i]++
			}
		}
	}
	if wide[0] != 0 || wide[1] == 0 {
		t.Errorf("wide fills in the probe colour: %d in the lookups' pane, %d in the scan's", wide[0], wide[1])
	}
	if a.BuildOverlay() {
		t.Error("an unchanged overlay reported a change")
	}
}
