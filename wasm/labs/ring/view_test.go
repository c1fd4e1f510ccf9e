package ring

import (
	"testing"

	"github.com/bufferscope/bufferscope/sim"
	simring "github.com/bufferscope/bufferscope/sim/labs/ring"
	"github.com/bufferscope/bufferscope/wasm/grid"
)

// TestViewOutlinesTheRing: through the labview.View interface, every ring buffer is
// outlined in the legend's ring colour, VACUUM's flushes are remembered for the WAL bar, and
// Inspect names a ring buffer's slot.
func TestViewOutlinesTheRing(t *testing.T) {
	l := simring.Lab{}
	vals, problems := l.Params().Parse(map[string]string{"shared_buffers": "1MB", "table": "2MB", "ring": "256kB", "clients": "2"})
	if len(problems) > 0 {
		t.Fatal(problems)
	}
	run, err := l.New(vals)
	if err != nil {
		t.Fatal(err)
	}
	legend := run.Legend()
	v := NewView().(*View)
	v.Attach(run, legend, func(int, int32) int { return -1 })
	if _, err := v.Step(run, 5000, nil, nil); err != nil {
		t.Fatal(err)
	}
	if len(v.flushes) == 0 {
		t.Error("no WAL flush remembered")
	}
	n := run.Sim().Pool.NBuffers
	theme := grid.ThemeFor(&grid.Light, legend)
	layout := grid.FitBelow(n, 600, 400, grid.LaneHeight)
	var o grid.Overlay
	if !v.Overlay(0, &o, &layout, theme, false) {
		t.Error("the first overlay reported no change")
	}
	mark, _ := theme.Mark("ring")
	outlined := 0
	for _, f := range o.Fills {
		if f.Color.R == mark.R && f.Color.G == mark.G && f.Color.B == mark.B {
			outlined++
		}
	}
	ring := run.(interface {
		Ring() *sim.BufferAccessStrategy
	}).Ring()
	if outlined < ring.RingSize() {
		t.Errorf("%d fills in the ring colour for a ring of %d", outlined, ring.RingSize())
	}
	first := ring.Buffers(nil)[0]
	if got := v.Inspect(0, first)["ringSlot"]; got != 0 {
		t.Errorf("buffer %d's ring slot %v, want 0", first, got)
	}
}
