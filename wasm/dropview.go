//go:build js

package main

import (
	"github.com/bufferscope/bufferscope/sim"
	"github.com/bufferscope/bufferscope/sim/labs/drop"
	"github.com/bufferscope/bufferscope/wasm/droplab"
	"github.com/bufferscope/bufferscope/wasm/grid"
)

// dropView draws the drop lab's marks as an overlay of translucent fills over the grid's
// image, rebuilt every frame from the watch and the replay's progress:
//
//   - full scan: the descriptors the scan under way has checked are tinted in Probe, those
//     it checked in the last half second more strongly, fading (the trail), and a ring and
//     the ruler markers in ink, as free play marks the clock hand, show the cursor — the
//     next descriptor it checks. Buffers it empties
//     burn in Theme.Drop (flashes, painted into the cells) and turn empty.
//   - lookup path: each buffer a lookup found is tinted in Probe, fading, as the scan's trail
//     is, and an ink ring marks the latest; the buffers burn in Theme.Drop and turn empty as
//     a scan's do. The lane under the grid records every lookup on a tape, newest at the
//     right: a bar in the relation's colour when the block was in shared buffers, a hollow
//     bar in Probe, pulsing, when it was not.
//   - the lane's top track is the scan's progress through the pool.
//
// Under reduced motion nothing fades or pulses: the trail and the flashes are left out, and
// the lookups' tints show at full strength while they last.
type dropView struct {
	watch   *droplab.Watch
	overlay grid.Overlay
	drawn   uint64 // Sum of the overlay the screen shows
	lookups []droplab.Lookup
	pips    []grid.Pip
	shades  []grid.Shade
}

// missPulseTicks is how long a miss pulses on the tape.
const missPulseTicks = 30

func (d *dropView) attach(w *droplab.Watch) {
	d.watch = w
	d.overlay.Reset()
	d.drawn = 0
}

func (d *dropView) on() bool { return d.watch != nil }

// buildOverlay rebuilds the overlay for the replay's progress and reports whether it differs
// from the one the screen shows.
func (v *view) buildOverlay(p drop.Progress) bool {
	d := &v.drop
	o := &d.overlay
	o.Reset()
	if !d.on() || len(v.tracker.Codes) == 0 {
		return false
	}
	l, t, w := &v.layout, v.theme, d.watch
	now := w.Now()
	scanning := p.Path == sim.PathScan && p.Cursor >= 0 && p.Cursor < l.N
	if scanning {
		o.Range(l, 0, p.Cursor, t.Probe, grid.CheckedAlpha)
	}
	if !v.reduced {
		d.shades = d.shades[:0]
		for _, s := range w.Trail.Segments() {
			d.shades = append(d.shades, grid.Shade{First: s.First, End: s.End, Alpha: grid.TrailAlpha * droplab.Fade(s.Born, now, droplab.TrailTicks)})
		}
		o.Shades(l, d.shades, t.Probe)
	}
	last := -1
	w.Found.Each(now, func(id int, fade float64) {
		if v.reduced {
			fade = 1
		}
		o.Range(l, id, id+1, t.Probe, grid.TrailAlpha*fade)
		last = id
	})
	if last >= 0 {
		v.ring(last, 2, t.Hand, 1) // the latest lookup that found a buffer
	}
	if scanning {
		v.ring(p.Cursor, 2, t.Hand, 1)
		o.Rulers(l, p.Cursor, t.Hand, 1)
	}
	lane := grid.Lane{Scan: -1}
	if scanning {
		lane.Scan = float64(p.Cursor) / float64(l.N)
	}
	d.lookups = w.Tape.Recent(d.lookups[:0], l.LaneCapacity())
	d.pips = d.pips[:0]
	for _, lk := range d.lookups {
		pip := grid.Pip{Miss: lk.Miss, Rel: lk.Rel}
		if lk.Miss && !v.reduced {
			pip.Pulse = droplab.Fade(lk.Born, now, missPulseTicks)
		}
		d.pips = append(d.pips, pip)
	}
	lane.Pips = d.pips
	o.AddLane(l, t, lane)
	sum := o.Sum()
	changed := sum != d.drawn
	d.drawn = sum
	return changed
}

// ring rings buffer id's cell with a border th pixels thick. A pixel that stands for a block
// of buffers gets a ring one pixel away from it, so the pixel itself still shows.
func (v *view) ring(id, th int, c grid.RGBA, alpha float64) {
	l := &v.layout
	if !l.Visible(id) {
		return
	}
	x, y, s := l.CellRect(id)
	r := grid.Rect{X0: x, Y0: y, X1: x + s, Y1: y + s}
	if l.Zoom().Block > 1 {
		r = grid.Rect{X0: x - 1, Y0: y - 1, X1: x + s + 1, Y1: y + s + 1}
	}
	v.drop.overlay.RingAround(r, th, c, alpha)
}
