// Package ring is the ring lab's view in the browser app: VACUUM's ring outlined in the grid,
// the ring buffer VACUUM used last ringed thickly with ruler markers, and under the grid a WAL
// bar of inserted against flushed WAL on which every flush leaves a tick whose height says
// who flushed: VACUUM forced to, a commit, or the WAL writer.
package ring

import (
	"github.com/bufferscope/bufferscope/sim"
	"github.com/bufferscope/bufferscope/sim/lab"
	"github.com/bufferscope/bufferscope/wasm/grid"
	"github.com/bufferscope/bufferscope/wasm/labview"
	"github.com/bufferscope/bufferscope/wasm/playback"
)

// ringRun is what the view needs of the ring lab's run beyond lab.Run.
type ringRun interface {
	Ring() *sim.BufferAccessStrategy
}

// View is the ring lab's view.
type View struct {
	labview.Default
	s       *sim.Sim
	run     ringRun
	slots   []int
	flushes []flush // the latest flushes, oldest first
	drawn   uint64
}

// flush is one WAL flush on the bar: where it flushed to and who made it.
type flush struct {
	lsn   sim.LSN
	cause sim.Cause
}

// maxFlushes bounds the flushes the view remembers.
const maxFlushes = 256

// walWindow is how much WAL the bar spans, ending at the insert position: 1MB, the WAL
// writer's wal_writer_flush_after.
const walWindow = 1 << 20

// NewView returns the ring lab's view, for the registry (wasm/labs).
func NewView() labview.View { return &View{} }

// Options asks for a lane under the grid for the WAL bar and shows the clock hand, which
// the clients' misses and the ring's replacements move.
func (v *View) Options() labview.Options {
	return labview.Options{Below: grid.LaneHeight, Speeds: playback.LabRange}
}

// Attach follows a freshly built run.
func (v *View) Attach(run lab.Run, _ lab.Legend, _ func(int, int32) int) {
	v.s = run.Sim()
	v.run, _ = run.(ringRun)
	v.flushes = v.flushes[:0]
	v.drawn = 0
}

// Step runs n steps as the default view does, remembering every WAL flush.
func (v *View) Step(run lab.Run, n int, stop func() bool, note func(int, []sim.Event, bool)) (int, error) {
	return v.Default.Step(run, n, stop, func(pane int, events []sim.Event, flash bool) {
		for i := range events {
			if e := &events[i]; e.Kind == sim.EvWALFlush {
				if len(v.flushes) == maxFlushes {
					v.flushes = append(v.flushes[:0], v.flushes[1:]...)
				}
				v.flushes = append(v.flushes, flush{lsn: e.Flushed, cause: e.Cause})
			}
		}
		if note != nil {
			note(pane, events, flash)
		}
	})
}

// Inspect says whether buffer id is in VACUUM's ring, and in which slot.
func (v *View) Inspect(_, id int) map[string]any {
	if v.s == nil || id < 0 || id >= v.s.Pool.NBuffers {
		return nil
	}
	slot := -1
	if v.run != nil {
		for i, b := range v.run.Ring().Buffers(v.slots[:0]) {
			if b == id {
				slot = i
			}
		}
	}
	return map[string]any{"ringSlot": slot}
}

// Overlay outlines the ring's buffers, rings VACUUM's slot and draws the WAL bar.
func (v *View) Overlay(_ int, o *grid.Overlay, l *grid.Layout, t *grid.Theme, _ bool) bool {
	o.Reset()
	mark, _ := t.Mark("ring")
	if v.run != nil {
		r := v.run.Ring()
		v.slots = r.Buffers(v.slots[:0])
		for _, id := range v.slots {
			if id >= 0 && id < l.N {
				o.Ring(l, id, 1, mark, 0.9)
			}
		}
		if len(v.slots) > 0 {
			if cur := v.slots[r.Current()]; cur >= 0 && cur < l.N {
				o.Ring(l, cur, 2, t.Hand, 1)
				o.Rulers(l, cur, t.Hand, 1)
			}
		}
	}
	v.walBar(o, l, t, mark)
	sum := o.Sum()
	changed := sum != v.drawn
	v.drawn = sum
	return changed
}

// walBar draws the last walWindow bytes of WAL: filled to the flushed position, a frame
// beyond it to the insert position, and a tick per flush, its height telling who flushed.
func (v *View) walBar(o *grid.Overlay, l *grid.Layout, t *grid.Theme, c grid.RGBA) {
	r := l.Lane()
	if r.Empty() || v.s == nil {
		return
	}
	w := v.s.Pool.WAL
	lo := w.Insert - min(w.Insert, walWindow)
	x := func(lsn sim.LSN) int {
		if lsn <= lo {
			return r.X0
		}
		return r.X0 + int(float64(r.X1-r.X0)*float64(lsn-lo)/float64(w.Insert-lo))
	}
	top, bot := r.Y0+2, r.Y1-2
	mid := (top + bot) / 2
	o.Add(grid.Rect{X0: r.X0, Y0: top, X1: x(w.Flushed), Y1: bot}, c, 0.35)
	fx := x(w.Flushed)
	o.Add(grid.Rect{X0: fx, Y0: top, X1: r.X1, Y1: top + 1}, c, 0.9)
	o.Add(grid.Rect{X0: fx, Y0: bot - 1, X1: r.X1, Y1: bot}, c, 0.9)
	o.Add(grid.Rect{X0: r.X1 - 1, Y0: top, X1: r.X1, Y1: bot}, c, 0.9)
	for _, f := range v.flushes {
		if f.lsn <= lo {
			continue
		}
		fx := x(f.lsn)
		switch f.cause {
		case sim.ByStrategy, sim.ByBackend: // forced by a victim: full height, thick
			o.Add(grid.Rect{X0: fx - 1, Y0: r.Y0, X1: fx + 1, Y1: r.Y1}, t.Hand, 1)
		case sim.ByCommit:
			o.Add(grid.Rect{X0: fx, Y0: top, X1: fx + 1, Y1: mid}, t.Hand, 0.8)
		default:
			o.Add(grid.Rect{X0: fx, Y0: mid, X1: fx + 1, Y1: bot}, t.Hand, 0.8)
		}
	}
}
