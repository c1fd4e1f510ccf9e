package ring

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/bufferscope/bufferscope/sim"
	"github.com/bufferscope/bufferscope/sim/lab"
	simring "github.com/bufferscope/bufferscope/sim/labs/ring"
	"github.com/bufferscope/bufferscope/wasm/grid"
	"github.com/bufferscope/bufferscope/wasm/labview"
)

// attached builds a ring lab run of params and the view attached to it.
func attached(t *testing.T, params map[string]string) (lab.Run, *View) {
	t.Helper()
	l := simring.Lab{}
	vals, problems := l.Params().Parse(params)
	if len(problems) > 0 {
		t.Fatal(problems)
	}
	run, err := l.New(vals)
	if err != nil {
		t.Fatal(err)
	}
	v := NewView().(*View)
	v.Attach(run, run.Legend(), func(int, int32) int { return -1 })
	return run, v
}

// layoutFor lays the view's grid out on a w×h canvas as the app does.
func layoutFor(run lab.Run, v *View, w, h int) grid.Layout {
	o := v.Options()
	return grid.FitInset(run.Sim().Pool.NBuffers, w, h, o.Below, o.Inset)
}

func ringOf(run lab.Run) *sim.BufferAccessStrategy {
	return run.(interface {
		Ring() *sim.BufferAccessStrategy
	}).Ring()
}

func labels(o *grid.Overlay) []string {
	var out []string
	for _, l := range o.Labels {
		out = append(out, l.Text)
	}
	return out
}

// TestViewOutlinesTheRing: through the labview.View interface, every ring buffer is
// outlined in the legend's ring colour, VACUUM's flushes are remembered for the WAL bar, and
// Inspect names a ring buffer's slot.
func TestViewOutlinesTheRing(t *testing.T) {
	run, v := attached(t, map[string]string{"shared_buffers": "1MB", "table": "2MB", "ring": "256kB", "clients": "2"})
	if _, err := v.Step(run, 5000, nil, nil); err != nil {
		t.Fatal(err)
	}
	if len(v.flushes) == 0 {
		t.Error("no WAL flush remembered")
	}
	theme := grid.ThemeFor(&grid.Light, run.Legend())
	layout := layoutFor(run, v, 600, 400)
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
	ring := ringOf(run)
	if outlined < ring.RingSize() {
		t.Errorf("%d fills in the ring colour for a ring of %d", outlined, ring.RingSize())
	}
	first := ring.Buffers(nil)[0]
	if got, _ := labview.Lookup(v.Inspect(0, first), "VACUUM's ring"); got != fmt.Sprintf("slot 1 of %d", ring.RingSize()) {
		t.Errorf("buffer %d's ring slot %q, want the first of %d", first, got, ring.RingSize())
	}
}

// TestViewMagnifiesTheRing: the view asks for an inset as long as the ring and lists the
// ring's buffers in it slot by slot, rings VACUUM's slot there, points at the slot reused
// next, puts an hourglass on each page whose WAL is not flushed past its LSN, captions it,
// and labels the WAL bar; on a phone it asks to open close enough to tap, around the ring.
func TestViewMagnifiesTheRing(t *testing.T) {
	run, v := attached(t, map[string]string{"shared_buffers": "256MB", "table": "80MB", "version": "16", "clients": "0", "flush_latency": "8.3ms"})
	if _, err := v.Step(run, 1000, nil, nil); err != nil {
		t.Fatal(err)
	}
	ring := ringOf(run)
	opts := v.Options()
	if opts.Inset != ring.RingSize() || opts.Inset != 32 || opts.Close < 8 || opts.Focus == nil {
		t.Fatalf("options %+v for a ring of %d", opts, ring.RingSize())
	}
	if id := opts.Focus(); id != ring.Buffers(nil)[ring.Current()] {
		t.Errorf("the grid opens around buffer %d, not VACUUM's slot", id)
	}
	theme := grid.ThemeFor(&grid.Light, run.Legend())
	l := layoutFor(run, v, 880, 420)
	if l.Inset.N != 32 || l.InsetSide() < 16 {
		t.Fatalf("inset %+v: the ring is not magnified", l.Inset)
	}
	var o grid.Overlay
	v.Overlay(0, &o, &l, theme, false)
	slots := ring.Buffers(nil)
	var want []int32
	for _, id := range slots {
		want = append(want, int32(id))
	}
	if !slices.Equal(o.Inset, want) {
		t.Fatalf("inset lists %v, the ring is %v", o.Inset, slots)
	}
	// Which fills are in which item: the marks.
	inked := func(i int, in func(x, y int) bool) bool {
		x, y, side := l.InsetItem(i)
		for _, f := range o.Fills {
			if f.Color.R == theme.Hand.R && f.Color.G == theme.Hand.G && f.Color.B == theme.Hand.B && f.X0 < x+side && f.X1 > x && f.Y0 < y+side && f.Y1 > y && in(f.X0-x, f.Y0-y) {
				return true
			}
		}
		return false
	}
	cur := ring.Current()
	next := (cur + 1) % len(slots)
	x0, y0, side := l.InsetItem(cur)
	ringed := 0
	for _, f := range o.Fills {
		if f.Color == theme.Hand && (f == grid.Fill{Rect: grid.Rect{X0: x0 - 2, Y0: y0 - 2, X1: x0 + side + 2, Y1: y0}, Color: theme.Hand}) {
			ringed++
		}
	}
	if ringed != 1 {
		t.Errorf("VACUUM's slot %d is not ringed in the inset", cur)
	}
	if !inked(next, func(x, y int) bool { return x == 0 && y > 0 }) {
		t.Errorf("the slot reused next (%d) has no pointer", next)
	}
	w := run.(interface{ WALNow() simring.WALNow }).WALNow()
	waiting := 0
	for i, id := range slots {
		d := run.Sim().Pool.Desc(id)
		hourglass := inked(i, func(x, y int) bool { return x > 0 && y > 0 && x < side/2 })
		needs := d.State.Has(sim.BM_DIRTY) && d.LSN > w.Durable || i == cur && w.VacuumWaitsFor > 0
		if needs {
			waiting++
		}
		if hourglass != needs {
			t.Errorf("slot %d (dirty %v, LSN %v, durable %v): hourglass %v", i, d.State.Has(sim.BM_DIRTY), d.LSN, w.Durable, hourglass)
		}
	}
	if waiting == 0 {
		t.Error("no page of the ring waits for a WAL flush: the setting shows nothing")
	}
	got := strings.Join(labels(&o), " | ")
	for _, s := range []string{"VACUUM's ring, magnified: 32 buffers", "inserted ", "flushed "} {
		if !strings.Contains(got, s) {
			t.Errorf("labels %q lack %q", got, s)
		}
	}
	// Inspect says what VACUUM does with its slots.
	if got, _ := labview.Lookup(v.Inspect(0, slots[next]), "VACUUM"); got != "reuses this buffer for its next page" {
		t.Errorf("the next slot's buffer: %q", got)
	}
}

// TestViewLabelsVacuumWaiting: while VACUUM waits for a WAL flush, the bar says so with its
// position, in the space a phone's bar has.
func TestViewLabelsVacuumWaiting(t *testing.T) {
	run, v := attached(t, map[string]string{"shared_buffers": "256MB", "table": "80MB", "version": "16", "clients": "0", "flush_latency": "8.3ms"})
	wal := run.(interface{ WALNow() simring.WALNow })
	for range 2000 {
		if _, err := v.Step(run, 1, nil, nil); err != nil {
			t.Fatal(err)
		}
		if wal.WALNow().VacuumWaitsFor > 0 {
			break
		}
	}
	if wal.WALNow().VacuumWaitsFor == 0 {
		t.Fatal("VACUUM never waited")
	}
	theme := grid.ThemeFor(&grid.Light, run.Legend())
	for _, size := range [][2]int{{880, 420}, {364, 270}} {
		l := layoutFor(run, v, size[0], size[1])
		var o grid.Overlay
		v.Overlay(0, &o, &l, theme, false)
		got := labels(&o)
		lane := l.Lane()
		found := 0
		for i, s := range got {
			if !strings.HasPrefix(s, "VACUUM waiting") && !strings.HasPrefix(s, "inserted") && !strings.HasPrefix(s, "flushed") {
				continue
			}
			found++
			r := o.Labels[i].Rect()
			if r.X0 < lane.X0 || r.X1 > lane.X1 || r.Y1 > lane.Y1+1 {
				t.Errorf("%d×%d: label %q at %+v outside the lane %+v", size[0], size[1], s, r, lane)
			}
			for _, other := range o.Labels[:i] {
				if q := other.Rect(); q.X0 < r.X1 && r.X0 < q.X1 && q.Y0 < r.Y1 && r.Y0 < q.Y1 {
					t.Errorf("%d×%d: %q overlaps %q", size[0], size[1], s, other.Text)
				}
			}
		}
		if found != 3 {
			t.Errorf("%d×%d: the bar's labels are %q, want inserted, flushed and VACUUM waiting", size[0], size[1], got)
		}
	}
}
