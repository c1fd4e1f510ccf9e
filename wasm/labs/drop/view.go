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
//
// When the lab races (simdrop.Racing), the run has two panes, its own replay and the
// rival's, stepped together by the race; each pane has its own watch and overlay, and
// inspection says which pane's buffer it describes.
type View struct {
	panes []side
	nrel  int // relations the experiment drops
}

// side is one pane: its simulation, what it animates and what its overlay last drew.
type side struct {
	s       *sim.Sim
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

// Attach follows a freshly built replay, or race.
func (v *View) Attach(run lab.Run, _ lab.Legend, shown func(pane int, id int32) int) {
	panes := lab.PanesOf(run)
	v.panes = make([]side, len(panes))
	for i, p := range panes {
		s := p.Run.Sim()
		w := NewWatch(s, s.Pool.NBuffers)
		w.RelOf = func(id int32) int {
			if r := shown(i, id); r >= 0 {
				return r
			}
			return 1 // a dropped relation's first shade when the grid did not know
		}
		v.panes[i] = side{s: s, watch: w}
	}
	v.nrel = v.panes[0].watch.Relations()
}

// Step runs n units of the replay, or of the race, in the chunks Chunk plans; every chunk's
// invalidations burn, so a scan's drops all show.
func (v *View) Step(_ lab.Run, n int, stop func() bool, note func(int, []sim.Event, bool)) (int, error) {
	if stop == nil {
		v.panes[0].watch.RestartClock() // steps by hand: not playback's pace
	}
	if len(v.panes) == 1 {
		return v.panes[0].watch.Step(v.panes[0].s, n, stop, func(events []sim.Event) {
			if note != nil {
				note(0, events, true)
			}
		})
	}
	return v.stepRace(n, stop, note)
}

// stepRace runs up to n units of the race in chunks that Chunk allows for every pane still
// running, since a chunk's units may fall to either: each pane's events are then all kept,
// and a scan's chunk ends at its scan's end. After each chunk each pane's watch observes
// its events, which go to note.
func (v *View) stepRace(n int, stop func() bool, note func(int, []sim.Event, bool)) (int, error) {
	own := v.panes[0].s
	var before, after [2]simdrop.Progress
	for i := range v.panes {
		before[i] = simdrop.ProgressOf(v.panes[i].s)
	}
	done := 0
	for done < n && !own.Done() {
		c := n - done
		for i := range v.panes {
			if !before[i].Done {
				c = Chunk(before[i], v.panes[i].s.Pool.NBuffers, c)
			}
		}
		steps := own.Stats().Steps
		err := own.Step(c)
		done += int(own.Stats().Steps - steps)
		for i := range v.panes {
			events := own.Events()
			if i > 0 {
				events = simdrop.RivalEvents(own)
			}
			after[i] = simdrop.ProgressOf(v.panes[i].s)
			v.panes[i].watch.observe(events, before[i], after[i])
			if note != nil {
				note(i, events, true)
			}
		}
		if err != nil {
			return done, err
		}
		before = after
		if stop != nil && stop() {
			break
		}
	}
	return done, nil
}

// Tick ages the animations and measures the time scale, by the clock of the side furthest
// on: in a race both sides share it until one is done.
func (v *View) Tick(ticks int, wall float64) {
	var modelled float64
	for i := range v.panes {
		v.panes[i].watch.Age(ticks)
		modelled = max(modelled, simdrop.ProgressOf(v.panes[i].s).Result.Time.Seconds())
	}
	v.panes[0].watch.Clock(wall, modelled)
}

// Flash burns the buffers InvalidateBuffer empties.
func (v *View) Flash(e *sim.Event) (grid.FlashKind, bool) {
	return grid.FlashDrop, e.Kind == sim.EvInvalidate
}

// Stats reports the time scale: modelled seconds per second of watching.
func (v *View) Stats() map[string]any {
	return map[string]any{"timeScale": v.panes[0].watch.TimeScale()}
}

// Inspect says whether buffer id of a pane holds a page of a relation the replay drops, and
// whether the pane's scan under way has already checked its descriptor.
func (v *View) Inspect(pane, id int) []labview.Detail {
	if pane < 0 || pane >= len(v.panes) {
		return nil
	}
	s := v.panes[pane].s
	if id < 0 || id >= s.Pool.NBuffers {
		return nil
	}
	var bv [1]sim.BufferView
	s.Snapshot(bv[:], id)
	p := simdrop.ProgressOf(s)
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

// Overlay rebuilds a pane's overlay for its replay's progress and reports whether it differs
// from the one the screen shows.
func (v *View) Overlay(pane int, o *grid.Overlay, l *grid.Layout, t *grid.Theme, reduced bool) bool {
	o.Reset()
	if pane < 0 || pane >= len(v.panes) {
		return false
	}
	sd := &v.panes[pane]
	p := simdrop.ProgressOf(sd.s)
	w := sd.watch
	probe, _ := t.Mark("checked")
	now := w.Now()
	scanning := p.Path == sim.PathScan && p.Cursor >= 0 && p.Cursor < l.N
	if scanning {
		o.Range(l, 0, p.Cursor, probe, grid.CheckedAlpha)
	}
	if !reduced {
		sd.shades = sd.shades[:0]
		for _, s := range w.Trail.Segments() {
			sd.shades = append(sd.shades, grid.Shade{First: s.First, End: s.End, Alpha: grid.TrailAlpha * Fade(s.Born, now, TrailTicks)})
		}
		o.Shades(l, sd.shades, probe)
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
	sd.lookups = w.Tape.Recent(sd.lookups[:0], l.LaneCapacity())
	sd.pips = sd.pips[:0]
	for _, lk := range sd.lookups {
		pip := grid.Pip{Miss: lk.Miss, Rel: lk.Rel}
		if lk.Miss && !reduced {
			pip.Pulse = Fade(lk.Born, now, missPulseTicks)
		}
		sd.pips = append(sd.pips, pip)
	}
	lane.Pips = sd.pips
	o.AddLane(l, t, lane, probe)
	sum := o.Sum()
	changed := sum != sd.drawn
	sd.drawn = sum
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
