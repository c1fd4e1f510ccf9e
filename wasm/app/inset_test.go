package app

import (
	"slices"
	"testing"
	"time"

	"github.com/bufferscope/bufferscope/sim/labs"
	"github.com/bufferscope/bufferscope/wasm/grid"
	"github.com/bufferscope/bufferscope/wasm/labview"
	"github.com/bufferscope/bufferscope/wasm/playback"
)

// magnifier is a lab's view that asks for an inset of four items showing buffers 5, 6, none
// and 7, and for the grid to open close to buffer 16,000.
type magnifier struct{ labview.Default }

func (magnifier) Options() labview.Options {
	return labview.Options{Inset: 4, Close: 8, Focus: func() int { return 16000 }, Speeds: playback.FreePlay}
}

func (magnifier) Overlay(_ int, o *grid.Overlay, l *grid.Layout, t *grid.Theme, _ bool) bool {
	o.Reset()
	o.Inset = append(o.Inset, 5, 6, -1, 7)
	x, y := l.CaptionAt()
	o.Text(t, x, y, "four buffers", t.InkDark)
	return true
}

// magnified returns an app whose first lab has the magnifier for its view, on a w×h canvas.
func magnified(t *testing.T, w, h int, sharedBuffers string) *App {
	t.Helper()
	first := labs.All[0].Info().Name
	a := New(map[string]func() labview.View{first: func() labview.View { return magnifier{} }})
	a.Resize(w, h)
	load(t, a, first, map[string]string{"shared_buffers": sharedBuffers})
	return a
}

// TestInsetShowsAndInspects: a view's inset is laid out under the grid, painted with the
// buffers the view lists, reported by View with its labels, and inspected where it is drawn.
func TestInsetShowsAndInspects(t *testing.T) {
	a := magnified(t, 800, 500, "8MB")
	if _, err := a.Step(2000); err != nil {
		t.Fatal(err)
	}
	a.Tick(time.Now())
	a.Paint()
	a.BuildOverlay()
	a.Paint()
	v := a.ViewDetail()
	if v.Inset == nil || !slices.Equal(v.Inset.Buffers, []int{5, 6, -1, 7}) || v.Inset.Side < 20 {
		t.Fatalf("view's inset %+v", v.Inset)
	}
	if len(v.Labels) != 1 || v.Labels[0].Text != "four buffers" || v.Labels[0].W != grid.TextWidth("four buffers") {
		t.Errorf("view's labels %+v", v.Labels)
	}
	at := func(i int) *BufferInfo {
		x, y := v.Inset.X+i%v.Inset.Cols*v.Inset.Cell+v.Inset.Side/2, v.Inset.Y+i/v.Inset.Cols*v.Inset.Cell+v.Inset.Side/2
		return a.InspectAt(x, y)
	}
	if b := at(1); b == nil || b.Buffer != 6 {
		t.Errorf("inspecting item 1 gives %+v, want buffer 6", b)
	}
	if b := at(2); b != nil {
		t.Errorf("inspecting the empty item gives buffer %d", b.Buffer)
	}
	if x, y := v.Inset.X+v.Inset.Side/2, v.Inset.Y+v.Inset.Side/2; a.Painter().At(x, y).A == 0 {
		t.Error("item 0 is not painted")
	}
	// The grid's PNG has the labels.
	png, err := a.GridPNG()
	if err != nil || len(png) == 0 {
		t.Fatalf("GridPNG: %v", err)
	}
}

// TestOpensCloseWhenCellsAreTooSmall: a pool drawn at 1 px per buffer opens zoomed in to the
// view's Close size about its Focus (buffer 16,000 in the middle); Fit shows the whole pool, and later runs keep it; a pool
// whose cells are larger opens whole.
func TestOpensCloseWhenCellsAreTooSmall(t *testing.T) {
	a := magnified(t, 364, 270, "256MB")
	v := a.View()
	if !v.Zoomed || v.Cell < 8 || v.Block != 1 {
		t.Fatalf("a 256MB pool on a phone opens at %+v, want zoomed to 8 px or more", v)
	}
	l := a.view.layout
	x, y, side := l.CellRect(16000)
	ax, ay, aw, ah := l.Area()
	if cx, cy := x+side/2, y+side/2; cx < ax+aw/2-side || cx > ax+aw/2+side || cy < ay+ah/2-side || cy > ay+ah/2+side {
		t.Errorf("buffer 16000 is at (%d, %d), not in the middle of the area (%d, %d, %d, %d)", cx, cy, ax, ay, aw, ah)
	}
	if f := a.Fit(); f.Zoomed {
		t.Fatalf("Fit: %+v", f)
	}
	first := labs.All[0].Info().Name
	load(t, a, first, map[string]string{"shared_buffers": "256MB", "seed": "9"})
	if v := a.View(); v.Zoomed {
		t.Errorf("after Fit, a new run opens zoomed again: %+v", v)
	}
	if v := magnified(t, 800, 500, "8MB").View(); v.Zoomed {
		t.Errorf("a pool of 8MB on 800×500 opens zoomed: %+v", v)
	}
	// The same pool on a desktop canvas where it is drawn at 2 px per buffer opens whole.
	if v := magnified(t, 880, 440, "256MB").View(); v.Zoomed || v.Cell < 2 {
		t.Errorf("a 256MB pool on 880×440 opens at %+v, want the whole pool at 2 px or more", v)
	}
}
