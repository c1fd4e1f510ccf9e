// Package pins is the pins lab's view in the browser app: the grid as every lab draws it,
// without the clock hand (the whole index fits in the pool, nothing is swept), and, for a
// leaf page under the pointer, its items as pageinspect's bt_page_items lists them, its LSN
// and whether VACUUM waits for it. Over the grid it rings a leaf where hints were just set
// (thin ring) or lost (thick ring), and the leaf VACUUM waits for (the thickest ring, with
// markers in the rulers). The page draws the leftmost leaves large with their items from
// what Stats and Inspect report (site/js/labs/pins/leaves.js).
package pins

import (
	"fmt"
	"strings"

	"github.com/bufferscope/bufferscope/sim"
	"github.com/bufferscope/bufferscope/sim/lab"
	simpins "github.com/bufferscope/bufferscope/sim/labs/pins"
	"github.com/bufferscope/bufferscope/wasm/grid"
	"github.com/bufferscope/bufferscope/wasm/labview"
	"github.com/bufferscope/bufferscope/wasm/playback"
)

// View is the pins lab's view of one run.
type View struct {
	labview.Default
	srv    *simpins.Server
	now    float64          // wall seconds, from Tick
	recent map[int32]recent // buffer → its latest hint event
	drawn  uint64           // the overlay's sum last reported
}

// recent is a buffer's latest hint event and when it was noted.
type recent struct {
	lost bool
	at   float64
}

// markSeconds is how long a hint's ring stays.
const markSeconds = 0.6

// NewView returns a view for one run, for the registry.
func NewView() labview.View { return &View{} }

// Options hides the clock hand and plays at free play's speeds.
func (v *View) Options() labview.Options {
	return labview.Options{HideHand: true, Speeds: playback.FreePlay}
}

// Attach finds the run's server.
func (v *View) Attach(run lab.Run, _ lab.Legend, _ func(int, int32) int) {
	v.srv, v.recent = nil, map[int32]recent{}
	if r, ok := run.(interface{ Server() *simpins.Server }); ok {
		v.srv = r.Server()
	}
}

// maxItemsShown bounds the bt_page_items rows the inspector lists.
const maxItemsShown = 24

// Inspect describes the leaf page in buffer id: its block, LSN, items live, dead and
// LP_DEAD, whether VACUUM waits for it, and its first items as bt_page_items shows them.
func (v *View) Inspect(_, id int) map[string]any {
	if v.srv == nil || id < 0 || id >= v.srv.Pool.NBuffers {
		return nil
	}
	d := v.srv.Pool.Desc(id)
	if !d.State.Has(sim.BM_TAG_VALID) {
		return nil
	}
	l := v.srv.Index.LeafByBlock(d.Tag.Block)
	if l == nil {
		return map[string]any{"page": "metapage"}
	}
	live, dead, lp := 0, 0, 0
	var rows []string
	states := make([]byte, len(l.Items))
	for i, it := range l.Items {
		switch {
		case it.LPDead:
			lp++
			states[i] = 'X'
		case v.srv.Index.State(it.TID) == simpins.Dead:
			dead++
			states[i] = 'd'
		default:
			live++
			states[i] = 'L'
		}
		if i < maxItemsShown {
			rows = append(rows, fmt.Sprintf("%d | (%d,%d) | %t | %d", i+1, it.TID/64, it.TID%64+1, it.LPDead, it.Key))
		}
	}
	hint := ""
	if r, ok := v.recent[int32(id)]; ok && v.now-r.at <= markSeconds {
		hint = "set"
		if r.lost {
			hint = "lost"
		}
	}
	return map[string]any{
		"page": "leaf", "block": int(l.Block), "lsn": l.LSN.String(), "items": len(l.Items),
		"live": live, "deadUnmarked": dead, "lpDead": lp, "splits": l.Splits,
		"vacuumWaiting": v.srv.WaitingOnBlock == l.Block && l.Block != 0,
		"btPageItems":   "itemoffset | ctid | dead | data\n" + strings.Join(rows, "\n"),
		// itemStates has one letter per item in page order: L live, d dead and not
		// marked, X LP_DEAD; recentHint is "set" or "lost" while the leaf's ring shows.
		"itemStates": string(states), "recentHint": hint,
	}
}

// leavesShown is how many of the leftmost leaves Stats names for the page to draw large.
const leavesShown = 6

// Stats names the buffers of the leftmost leaves, the hottest under Zipfian keys, in key
// order ("leafBuffers": "12,40,7"; a leaf not in a buffer yet is left out).
func (v *View) Stats() map[string]any {
	if v.srv == nil {
		return nil
	}
	var ids []string
	for _, l := range v.srv.Index.Leaves {
		if len(ids) == leavesShown {
			break
		}
		if id, ok := v.srv.BufferOf(l.Block); ok {
			ids = append(ids, fmt.Sprint(id))
		}
	}
	return map[string]any{"leafBuffers": strings.Join(ids, ",")}
}

// Step runs the steps as the default view does and remembers the buffers whose hints were
// set or lost.
func (v *View) Step(run lab.Run, n int, stop func() bool, note func(int, []sim.Event, bool)) (int, error) {
	return v.Default.Step(run, n, stop, func(pane int, events []sim.Event, flash bool) {
		for i := range events {
			e := &events[i]
			if e.Buffer >= 0 && (e.Kind == simpins.EvHintSet || e.Kind == simpins.EvHintLost) {
				v.recent[e.Buffer] = recent{lost: e.Kind == simpins.EvHintLost, at: v.now}
			}
		}
		if note != nil {
			note(pane, events, flash)
		}
	})
}

// Tick keeps the wall clock the rings fade by.
func (v *View) Tick(_ int, wallSeconds float64) { v.now = wallSeconds }

// Overlay rings the leaves with recent hints and the one VACUUM waits for.
func (v *View) Overlay(_ int, o *grid.Overlay, l *grid.Layout, t *grid.Theme, reduced bool) bool {
	o.Reset()
	set, _ := t.Mark("hintset")
	lost, _ := t.Mark("hintlost")
	wait, _ := t.Mark("vacuumwait")
	for id, r := range v.recent {
		age := v.now - r.at
		if age > markSeconds {
			delete(v.recent, id)
			continue
		}
		alpha := 1.0
		if !reduced {
			alpha = 1 - age/markSeconds
		}
		if r.lost {
			o.Ring(l, int(id), 2, lost, alpha)
		} else {
			o.Ring(l, int(id), 1, set, alpha)
		}
	}
	if v.srv != nil && v.srv.WaitingOnBlock != 0 {
		if id, ok := v.srv.BufferOf(v.srv.WaitingOnBlock); ok {
			o.Ring(l, id, 3, wait, 1)
			o.Rulers(l, id, wait, 1)
		}
	}
	sum := o.Sum()
	changed := sum != v.drawn
	v.drawn = sum
	return changed
}
