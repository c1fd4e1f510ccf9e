package drop

import (
	"testing"

	"github.com/bufferscope/bufferscope/sim"
	simdrop "github.com/bufferscope/bufferscope/sim/labs/drop"
	"github.com/bufferscope/bufferscope/wasm/grid"
	"github.com/bufferscope/bufferscope/wasm/labview"
)

// TestViewDrawsAScan: through the labview.View interface, a scan under way is drawn as a
// tint up to its cursor in the legend's probe colour, the cursor is ringed, the buffers the
// scan empties burn, and Inspect tells checked descriptors from those still to check.
func TestViewDrawsAScan(t *testing.T) {
	l := simdrop.Lab{}
	vals, _ := l.Params().Parse(map[string]string{"shared_buffers": "1MB", "tables": "2x20", "policy": "pg13"})
	run, err := l.New(vals)
	if err != nil {
		t.Fatal(err)
	}
	legend := run.Legend()
	v := NewView()
	v.Attach(run, legend, func(int32) int { return -1 })
	if o := v.Options(); o.Below != grid.LaneHeight || !o.HideHand || !o.Runs {
		t.Errorf("options %+v", o)
	}
	burns := 0
	n := run.Sim().Pool.NBuffers
	// One commit record, then half of the first scan.
	ran, err := v.Step(run, 1+n/2, nil, func(events []sim.Event, flash bool) {
		for i := range events {
			if _, ok := v.Flash(&events[i]); ok {
				burns++
			}
		}
	})
	if err != nil || ran != 1+n/2 {
		t.Fatalf("ran %d of %d: %v", ran, 1+n/2, err)
	}
	p := simdrop.ProgressOf(run.Sim())
	if p.Path != sim.PathScan || p.Cursor != n/2 {
		t.Fatalf("progress %+v, want a scan at %d", p, n/2)
	}
	if burns != int(p.Result.Invalidated) || burns == 0 {
		t.Errorf("%d burns, %d buffers invalidated", burns, p.Result.Invalidated)
	}
	theme := grid.ThemeFor(&grid.Light, legend)
	layout := grid.FitBelow(n, 600, 400, grid.LaneHeight)
	var o grid.Overlay
	if !v.Overlay(&o, &layout, theme, false) {
		t.Error("the first overlay reported no change")
	}
	probe, _ := theme.Mark("checked")
	tinted := false
	for _, f := range o.Fills {
		if f.Color.R == probe.R && f.Color.G == probe.G && f.Color.B == probe.B {
			tinted = true
		}
	}
	if !tinted {
		t.Error("no fill in the legend's probe colour")
	}
	if v.Overlay(&o, &layout, theme, false) {
		t.Error("an unchanged overlay reported a change")
	}
	if got, _ := labview.Lookup(v.Inspect(0), "Checked by the full scan"); got != "yes" {
		t.Errorf("buffer 0 checked = %v", got)
	}
	if got, _ := labview.Lookup(v.Inspect(n-1), "Checked by the full scan"); got != "not yet" {
		t.Errorf("the last buffer checked = %v", got)
	}
	if v.Inspect(n) != nil {
		t.Error("a buffer outside the pool was inspected")
	}
	if _, ok := v.Stats()["timeScale"]; !ok {
		t.Error("no time scale in the view's stats")
	}
}
