package drop

import (
	"math/rand/v2"
	"testing"

	"github.com/bufferscope/bufferscope/sim"
	"github.com/bufferscope/bufferscope/sim/lab"
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
	v.Attach(run, legend, func(int, int32) int { return -1 })
	if o := v.Options(); o.Below != grid.LaneHeight || !o.HideHand || !o.Runs {
		t.Errorf("options %+v", o)
	}
	burns := 0
	n := run.Sim().Pool.NBuffers
	// The commit records, then about half of the first scan, in a race with PostgreSQL 14's
	// lookups, which take a share of the steps.
	ran, err := v.Step(run, n, nil, func(pane int, events []sim.Event, flash bool) {
		for i := range events {
			if _, ok := v.Flash(&events[i]); ok && pane == 0 {
				burns++
			}
		}
	})
	if err != nil || ran != n {
		t.Fatalf("ran %d of %d: %v", ran, n, err)
	}
	p := simdrop.ProgressOf(run.Sim())
	if p.Path != sim.PathScan || p.Cursor != int(p.Units)-1 || p.Cursor < n/4 || p.Cursor > 3*n/4 {
		t.Fatalf("progress %+v, want the first scan under way, about halfway", p)
	}
	if burns != int(p.Result.Invalidated) || burns == 0 {
		t.Errorf("%d burns, %d buffers invalidated", burns, p.Result.Invalidated)
	}
	theme := grid.ThemeFor(&grid.Light, legend)
	layout := grid.FitBelow(n, 600, 400, grid.LaneHeight)
	var o grid.Overlay
	if !v.Overlay(0, &o, &layout, theme, false) {
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
	if v.Overlay(0, &o, &layout, theme, false) {
		t.Error("an unchanged overlay reported a change")
	}
	if got, _ := labview.Lookup(v.Inspect(0, 0), "Checked by the full scan"); got != "yes" {
		t.Errorf("buffer 0 checked = %v", got)
	}
	if got, _ := labview.Lookup(v.Inspect(0, n-1), "Checked by the full scan"); got != "not yet" {
		t.Errorf("the last buffer checked = %v", got)
	}
	if v.Inspect(0, n) != nil {
		t.Error("a buffer outside the pool was inspected")
	}
	if _, ok := v.Stats()["timeScale"]; !ok {
		t.Error("no time scale in the view's stats")
	}
}

// raceRun builds the drop lab's race at values through the lab's interface.
func raceRun(t *testing.T, values map[string]string) lab.Run {
	t.Helper()
	l := simdrop.Lab{}
	vals, problems := l.Params().Parse(values)
	if len(problems) > 0 {
		t.Fatal(problems)
	}
	run, err := l.New(vals)
	if err != nil {
		t.Fatal(err)
	}
	if len(lab.PanesOf(run)) != 2 {
		t.Fatalf("%v does not race", values)
	}
	return run
}

// TestViewRacesBothPanes: at the lab's defaults the view steps the race frame by frame,
// reports each pane's events under its own index — the lookups on the first pane, the full
// scan's invalidations on the second — draws the scan's checked tint and cursor on the
// second pane only, and inspects each pane's own buffers.
func TestViewRacesBothPanes(t *testing.T) {
	run := raceRun(t, nil)
	panes := lab.PanesOf(run)
	v := NewView()
	v.Attach(run, run.Legend(), func(int, int32) int { return -1 })
	n := run.Sim().Pool.NBuffers
	var lookups, invalidated [2]int
	note := func(pane int, events []sim.Event, _ bool) {
		for _, e := range events {
			switch e.Kind {
			case sim.EvLookup:
				lookups[pane]++
			case sim.EvInvalidate:
				invalidated[pane]++
			}
		}
	}
	// A third of the way through the rival's first scan.
	for simdrop.ProgressOf(panes[1].Run.Sim()).Cursor < n/3 {
		if _, err := v.Step(run, 997, func() bool { return false }, note); err != nil {
			t.Fatal(err)
		}
	}
	own, rival := simdrop.ProgressOf(panes[0].Run.Sim()), simdrop.ProgressOf(panes[1].Run.Sim())
	if own.SoFar != "lookup" || rival.Path != sim.PathScan || rival.SoFar != "scan" {
		t.Fatalf("the race is at %+v and %+v; want lookups beside a scan", own, rival)
	}
	if lookups[0] != int(own.Result.Lookups) || lookups[1] != 0 || invalidated[0] != int(own.Result.Invalidated) ||
		invalidated[1] != int(rival.Result.Invalidated) || invalidated[1] == 0 {
		t.Errorf("events: lookups %v, invalidations %v; the replays made %d lookups, invalidated %d and %d",
			lookups, invalidated, own.Result.Lookups, own.Result.Invalidated, rival.Result.Invalidated)
	}
	theme := grid.ThemeFor(&grid.Light, run.Legend())
	layout := grid.FitBelow(n, 430, 370, grid.LaneHeight)
	probe, _ := theme.Mark("checked")
	checkedTint := func(o *grid.Overlay) bool {
		want := uint8(grid.CheckedAlpha*float64(probe.A) + 0.5)
		for _, f := range o.Fills {
			if f.Color.R == probe.R && f.Color.G == probe.G && f.Color.B == probe.B && f.Color.A == want && f.X1-f.X0 > 20 {
				return true
			}
		}
		return false
	}
	var o0, o1 grid.Overlay
	v.Overlay(0, &o0, &layout, theme, false)
	v.Overlay(1, &o1, &layout, theme, false)
	if checkedTint(&o0) || !checkedTint(&o1) {
		t.Errorf("the scan's checked tint: on the lookups' pane %v, on the scan's %v", checkedTint(&o0), checkedTint(&o1))
	}
	if got, _ := labview.Lookup(v.Inspect(1, 0), "Checked by the full scan"); got != "yes" {
		t.Errorf("the scan's pane, buffer 0: checked = %v", got)
	}
	if got, ok := labview.Lookup(v.Inspect(0, 0), "Checked by the full scan"); ok {
		t.Errorf("the lookups' pane, buffer 0: checked by a full scan = %q; that pane does no scan", got)
	}
	if v.Inspect(2, 0) != nil {
		t.Error("a third pane was inspected")
	}
}

// TestRaceViewStepMatchesNative: however the view cuts a race into chunks and frames, both
// panes end where stepping the race's simulation natively ends, hash for hash.
func TestRaceViewStepMatchesNative(t *testing.T) {
	for _, values := range []map[string]string{
		{"shared_buffers": "1MB", "tables": "6x7", "op": "truncate"},
		{"shared_buffers": "1MB", "tables": "2x30,3x2", "op": "vacuum"},
		{"shared_buffers": "1MB", "tables": "25x2", "transactions": "single", "policy": "pg13"},
	} {
		native := raceRun(t, values)
		for !native.Done() {
			native.Sim().Step(1 << 16)
		}
		units := native.Sim().Stats().Steps
		rng := rand.New(rand.NewPCG(7, 8))
		for _, at := range []uint64{1, units / 3, units - 1, units} {
			want := raceRun(t, values)
			want.Sim().Step(int(at))
			run := raceRun(t, values)
			v := NewView()
			v.Attach(run, run.Legend(), func(int, int32) int { return -1 })
			for left := int(at); left > 0; {
				ran, err := v.Step(run, min(left, 1+rng.IntN(400)), func() bool { return rng.IntN(3) == 0 }, nil)
				if err != nil {
					t.Fatal(err)
				}
				left -= ran
			}
			for i, p := range lab.PanesOf(run) {
				if got, w := p.Run.Sim().Hash(), lab.PanesOf(want)[i].Run.Sim().Hash(); got != w {
					t.Errorf("%v after %d of %d steps: pane %d hash %016x, native %016x", values, at, units, i, got, w)
				}
			}
		}
	}
}
