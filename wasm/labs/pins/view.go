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
func (v *View) Attach(run lab.Run, _ lab.Legend, _ func(int32) int) {
	v.srv, v.recent = nil, map[int32]recent{}
	if r, ok := run.(interface{ Server() *simpins.Server }); ok {
		v.srv = r.Server()
	}
}

// maxItemsShown bounds the bt_page_items rows the inspector lists.
const maxItemsShown = 24

// Inspect describes the leaf page in buffer id: its block, its items (live, dead and not
// marked, LP_DEAD), its splits, whether VACUUM waits for its cleanup lock and the last hint
// a scan set or lost on it, and its first items as bt_page_items shows them, with the state
// of each item's heap tuple.
func (v *View) Inspect(id int) []labview.Detail {
	if v.srv == nil || id < 0 || id >= v.srv.Pool.NBuffers {
		return nil
	}
	d := v.srv.Pool.Desc(id)
	if !d.State.Has(sim.BM_TAG_VALID) {
		return nil
	}
	if !v.srv.IsIndexPage(d.Tag) {
		return nil
	}
	l := v.srv.LeafAt(d.Tag)
	if l == nil {
		return []labview.Detail{{Label: "Index page", Value: "the metapage"}}
	}
	lf := v.leaf(id, l)
	table := [][]string{{"itemoffset", "ctid", "dead", "data", "heap tuple"}}
	for i, it := range l.Items[:min(len(l.Items), maxItemsShown)] {
		tuple := "live"
		if v.srv.Index.State(it.TID) == simpins.Dead {
			tuple = "dead to all"
		}
		table = append(table, []string{fmt.Sprint(i + 1), fmt.Sprintf("(%d,%d)", it.TID/64, it.TID%64+1), fmt.Sprint(it.LPDead), fmt.Sprint(it.Key), tuple})
	}
	items := fmt.Sprintf("%d: %d live, %d dead not yet marked, %d LP_DEAD", len(l.Items), lf.Live, lf.DeadUnmarked, lf.LPDead)
	if len(l.Items) > maxItemsShown {
		items += fmt.Sprintf(" (the first %d below)", maxItemsShown)
	}
	out := []labview.Detail{
		{Label: "Index page", Value: fmt.Sprintf("leaf, block %d", l.Block)},
		{Label: "Items", Value: items, Table: table},
		{Label: "Splits", Value: fmt.Sprint(l.Splits)},
	}
	if lf.VacuumWaiting {
		out = append(out, labview.Detail{Label: "VACUUM", Value: "waiting for its cleanup lock on this leaf"})
	}
	switch lf.RecentHint {
	case "set":
		out = append(out, labview.Detail{Label: "Last hint", Value: "a scan just set LP_DEAD hints here"})
	case "lost":
		out = append(out, labview.Detail{Label: "Last hint", Value: "a scan just lost its hints here"})
	}
	return out
}

// leavesShown is how many of the leftmost leaves Stats describes for the page to draw large.
const leavesShown = 6

// Leaf is one of the leftmost leaves as the page draws it large.
type Leaf struct {
	Buffer int    `json:"buffer"`
	Block  int    `json:"block"`
	LSN    string `json:"lsn"`
	Pins   int    `json:"pins"`
	// States has one letter per item in page order: L live, d dead and not marked, X LP_DEAD.
	States        string `json:"states"`
	Live          int    `json:"live"`
	DeadUnmarked  int    `json:"deadUnmarked"`
	LPDead        int    `json:"lpDead"`
	RecentHint    string `json:"recentHint"` // "set" or "lost" while the leaf's ring shows, else ""
	VacuumWaiting bool   `json:"vacuumWaiting"`
}

// Stats describes the leftmost leaves that are in buffers, in key order, under "leaves".
func (v *View) Stats() map[string]any {
	if v.srv == nil {
		return nil
	}
	leaves := make([]Leaf, 0, leavesShown)
	for _, l := range v.srv.Index.Leaves {
		if len(leaves) == leavesShown {
			break
		}
		if id, ok := v.srv.BufferOf(l.Block); ok {
			leaves = append(leaves, v.leaf(id, l))
		}
	}
	return map[string]any{"leaves": leaves}
}

// leaf describes leaf l in buffer id.
func (v *View) leaf(id int, l *simpins.Leaf) Leaf {
	states := make([]byte, len(l.Items))
	out := Leaf{Buffer: id, Block: int(l.Block), LSN: l.LSN.String(), Pins: v.srv.Pool.Desc(id).State.RefCount(),
		VacuumWaiting: v.srv.WaitingOnBlock == l.Block && l.Block != 0}
	for i, it := range l.Items {
		switch {
		case it.LPDead:
			out.LPDead++
			states[i] = 'X'
		case v.srv.Index.State(it.TID) == simpins.Dead:
			out.DeadUnmarked++
			states[i] = 'd'
		default:
			out.Live++
			states[i] = 'L'
		}
	}
	out.States = string(states)
	if r, ok := v.recent[int32(id)]; ok && v.now-r.at <= markSeconds {
		out.RecentHint = "set"
		if r.lost {
			out.RecentHint = "lost"
		}
	}
	return out
}

// Step runs the steps as the default view does and remembers the buffers whose hints were
// set or lost.
func (v *View) Step(run lab.Run, n int, stop func() bool, note func([]sim.Event, bool)) (int, error) {
	return v.Default.Step(run, n, stop, func(events []sim.Event, flash bool) {
		for i := range events {
			e := &events[i]
			if e.Buffer >= 0 && (e.Kind == simpins.EvHintSet || e.Kind == simpins.EvHintLost) {
				v.recent[e.Buffer] = recent{lost: e.Kind == simpins.EvHintLost, at: v.now}
			}
		}
		if note != nil {
			note(events, flash)
		}
	})
}

// Tick keeps the wall clock the rings fade by.
func (v *View) Tick(_ int, wallSeconds float64) { v.now = wallSeconds }

// Overlay rings the leaves with recent hints and the one VACUUM waits for.
func (v *View) Overlay(o *grid.Overlay, l *grid.Layout, t *grid.Theme, reduced bool) bool {
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
