package drop

import (
	"github.com/bufferscope/bufferscope/sim"
	"github.com/bufferscope/bufferscope/sim/lab"
	simdrop "github.com/bufferscope/bufferscope/sim/labs/drop"
	"github.com/bufferscope/bufferscope/wasm/grid"
	"github.com/bufferscope/bufferscope/wasm/labview"
	"github.com/bufferscope/bufferscope/wasm/playback"
)

// View draws the drop lab's marks as an overlay of translucent fills over the grid's image,
// rebuilt every frame from the watch and the replay's progress, in the colours of the
// legend's marks: "checked" for what looks for a relation's buffers, "burn" for the burst of a
// buffer InvalidateBuffer empties.
//
//   - full scan: the descriptors the scan under way has checked are tinted in probe, those
//     it checked in the last half second more strongly, fading (the trail), and a ring and
//     the ruler markers in ink, as free play marks the clock hand, show the cursor — the
//     next descriptor it checks. Buffers it empties burn in the drop colour (flashes,
//     painted into the cells) and turn empty.
//   - lookup path: each buffer a lookup found is tinted in probe, fading, as the scan's
//     trail is, and an ink ring marks the latest; the buffers burn and turn empty as a
//     scan's do. The lane under the grid records every lookup on a tape, newest at the
//     right: a bar in the relation's colour when the block was in shared buffers, a hollow
//     bar in probe, pulsing, when it was not.
//   - the lane's top track is the scan's progress through the pool.
//
// Under reduced motion nothing fades or pulses: the trail and the flashes are left out, and
// the lookups' tints show at full strength while they last.
type View struct {
	s       *sim.Sim
	nrel    int // relations the experiment drops
	watch   *Watch
	drawn   uint64 // Sum of the overlay the screen shows
	lookups []Lookup
	pips    []grid.Pip
	shades  []grid.Shade
}

// NewView returns the drop lab's view, for the registry (wasm/labs).
func NewView() labview.View { return &View{} }

// missPulseTicks is how long a miss pulses on the tape.
const missPulseTicks = 30

// Options asks for a lane under the grid, no clock hand (the replay does not sweep), runs
// of emptied buffers copied as they come, and the lab's speeds, whose steps are single
// descriptors or lookups.
func (v *View) Options() labview.Options {
	return labview.Options{Below: grid.LaneHeight, HideHand: true, Runs: true, Speeds: playback.LabRange}
}

// Attach follows a freshly built replay.
func (v *View) Attach(run lab.Run, _ lab.Legend, shown func(id int32) int) {
	v.s = run.Sim()
	v.watch = NewWatch(v.s, v.s.Pool.NBuffers)
	v.nrel = v.watch.Relations()
	v.watch.RelOf = func(id int32) int {
		if r := shown(id); r >= 0 {
			return r
		}
		return 1 // a dropped relation's first shade when the grid did not know
	}
	v.drawn = 0
}

// Step runs n units of the replay in the chunks Chunk plans; every chunk's invalidations
// burn, so a scan's drops all show.
func (v *View) Step(_ lab.Run, n int, stop func() bool, note func([]sim.Event, bool)) (int, error) {
	if stop == nil {
		v.watch.RestartClock() // steps by hand: not playback's pace
	}
	return v.watch.Step(v.s, n, stop, func(events []sim.Event) {
		if note != nil {
			note(events, true)
		}
	})
}

// Tick ages the animations and measures the time scale.
func (v *View) Tick(ticks int, wall float64) {
	v.watch.Age(ticks)
	v.watch.Clock(wall, simdrop.ProgressOf(v.s).Result.Time.Seconds())
}

// Flash burns the buffers InvalidateBuffer empties.
func (v *View) Flash(e *sim.Event) (grid.FlashKind, bool) {
	return grid.FlashDrop, e.Kind == sim.EvInvalidate
}

// Stats reports the time scale: modelled seconds per second of watching.
func (v *View) Stats() map[string]any {
	return map[string]any{"timeScale": v.watch.TimeScale()}
}

// Inspect says whether buffer id holds a page of a relation the replay drops, and whether
// the scan under way has already checked its descriptor.
func (v *View) Inspect(id int) []labview.Detail {
	if id < 0 || id >= v.s.Pool.NBuffers {
		return nil
	}
	var bv [1]sim.BufferView
	v.s.Snapshot(bv[:], id)
	p := simdrop.ProgressOf(v.s)
	target := "no"
	if bv[0].State.Has(sim.BM_TAG_VALID) && bv[0].Rel >= 0 && int(bv[0].Rel) < v.nrel {
		target = "yes: its relation is dropped"
	}
	out := []labview.Detail{{Label: "Dropped by the replay", Value: target}}
	if p.Path == sim.PathScan {
		checked := "not yet"
		if id < p.Cursor {
			checked = "yes"
		}
		out = append(out, labview.Detail{Label: "Checked by the full scan", Value: checked})
	}
	return out
}

// Overlay rebuilds the overlay for the replay's progress and reports whether it differs
// from the one the screen shows.
func (v *View) Overlay(o *grid.Overlay, l *grid.Layout, t *grid.Theme, reduced bool) bool {
	o.Reset()
	p := simdrop.ProgressOf(v.s)
	w := v.watch
	probe, _ := t.Mark("checked")
	now := w.Now()
	scanning := p.Path == sim.PathScan && p.Cursor >= 0 && p.Cursor < l.N
	if scanning {
		o.Range(l, 0, p.Cursor, probe, grid.CheckedAlpha)
	}
	if !reduced {
		v.shades = v.shades[:0]
		for _, s := range w.Trail.Segments() {
			v.shades = append(v.shades, grid.Shade{First: s.First, End: s.End, Alpha: grid.TrailAlpha * Fade(s.Born, now, TrailTicks)})
		}
		o.Shades(l, v.shades, probe)
	}
	last := -1
	w.Found.Each(now, func(id int, fade float64) {
		if reduced {
			fade = 1
		}
		o.Range(l, id, id+1, probe, grid.TrailAlpha*fade)
		last = id
	})
	if last >= 0 {
		ring(o, l, last, 2, t.Hand) // the latest lookup that found a buffer
	}
	if scanning {
		ring(o, l, p.Cursor, 2, t.Hand)
		o.Rulers(l, p.Cursor, t.Hand, 1)
	}
	lane := grid.Lane{Scan: -1}
	if scanning {
		lane.Scan = float64(p.Cursor) / float64(l.N)
	}
	v.lookups = w.Tape.Recent(v.lookups[:0], l.LaneCapacity())
	v.pips = v.pips[:0]
	for _, lk := range v.lookups {
		pip := grid.Pip{Miss: lk.Miss, Rel: lk.Rel}
		if lk.Miss && !reduced {
			pip.Pulse = Fade(lk.Born, now, missPulseTicks)
		}
		v.pips = append(v.pips, pip)
	}
	lane.Pips = v.pips
	o.AddLane(l, t, lane, probe)
	sum := o.Sum()
	changed := sum != v.drawn
	v.drawn = sum
	return changed
}

// ring rings buffer id's cell with a border th pixels thick. A pixel that stands for a block
// of buffers gets a ring one pixel away from it, so the pixel itself still shows.
func ring(o *grid.Overlay, l *grid.Layout, id, th int, c grid.RGBA) {
	if !l.Visible(id) {
		return
	}
	x, y, s := l.CellRect(id)
	r := grid.Rect{X0: x, Y0: y, X1: x + s, Y1: y + s}
	if l.Zoom().Block > 1 {
		r = grid.Rect{X0: x - 1, Y0: y - 1, X1: x + s + 1, Y1: y + s + 1}
	}
	o.RingAround(r, th, c, 1)
}
