// Package pins is the pins lab's view in the browser app: the grid as every lab draws it, its
// cells the index's pages and the table's, without the clock hand (the table and index fit
// the lab's pool, so the sweep rarely moves). For a leaf page under the pointer it lists its
// items as pageinspect's bt_page_items does, its LSN and whether VACUUM waits for it; for a
// heap page, its tuples and its visibility map bit. Over the grid it marks a leaf where hints
// were just set (a tick) or lost (a cross), and the leaf VACUUM waits for (an hourglass, with
// markers in the rulers). The grid's own bar marks every pinned page. The page draws the
// leftmost leaves large with their items from what Stats and Inspect report
// (site/js/labs/pins/leaves.js).
package pins

import (
	"cmp"
	"fmt"
	"slices"
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
	srv *simpins.Server
	// now is the seconds the run has played: the wall clock, advanced only when the run
	// steps, by the wall time since it last stepped (at most maxStepGap), so that a mark
	// stays while the reader pauses to look at it and a slow frame does not age it at once.
	now      float64
	wall     float64          // wall seconds at the last tick
	stepWall float64          // wall seconds when the run last stepped, -1 before it has
	recent   map[int32]recent // buffer → its latest hint event
	drawn    uint64           // the overlay's sum last reported
	reduced  bool             // the last overlay was drawn without motion
}

// recent is a buffer's latest hint event and when it was noted.
type recent struct {
	lost bool
	at   float64
}

// markSeconds is how long, in seconds of play, a hint's mark stays: at full strength for
// its first half, then fading (unless the reader asks for reduced motion).
const markSeconds = 1.0

// maxStepGap bounds how far one stepping moves the marks' clock: the wall time since the
// last one, up to a sixth of a second (ten ticks).
const maxStepGap = 1.0 / 6

// NewView returns a view for one run, for the registry.
func NewView() labview.View { return &View{} }

// Options hides the clock hand and plays at free play's speeds.
func (v *View) Options() labview.Options {
	return labview.Options{HideHand: true, Speeds: playback.FreePlay}
}

// Attach finds the run's server.
func (v *View) Attach(run lab.Run, _ lab.Legend, _ func(int, int32) int) {
	v.srv, v.recent, v.now, v.stepWall = nil, map[int32]recent{}, 0, -1
	if r, ok := run.(interface{ Server() *simpins.Server }); ok {
		v.srv = r.Server()
	}
}

// maxItemsShown bounds the bt_page_items rows the inspector lists.
const maxItemsShown = 24

// Inspect describes the page in buffer id. For a leaf: its block, its items (live, dead and
// not marked, LP_DEAD), its splits, whether VACUUM waits for its cleanup lock and the last
// hint a scan set or lost on it, and its first items as bt_page_items shows them, with the
// state of each item's heap tuple. For a heap page: its tuples, the dead versions pruning
// would free, and its visibility map bit.
func (v *View) Inspect(_, id int) []labview.Detail {
	if v.srv == nil || id < 0 || id >= v.srv.Pool.NBuffers {
		return nil
	}
	d := v.srv.Pool.Desc(id)
	if !d.State.Has(sim.BM_TAG_VALID) {
		return nil
	}
	if hp, ok := v.srv.HeapPageAt(d.Tag); ok {
		vm := "not all-visible: changed since VACUUM last looked"
		if hp.AllVisible {
			vm = "all-visible: VACUUM's heap pass may skip it"
		}
		return []labview.Detail{
			{Label: "Heap page", Value: fmt.Sprintf("block %s of %s", count(int(hp.Block)), simpins.HeapRelation)},
			{Label: "Tuples", Value: fmt.Sprintf("%s of %d: %s not yet pruned", count(hp.Tuples), simpins.HeapTuplesPerPage, plural(hp.Dead, "dead version", "dead versions"))},
			{Label: "Visibility map", Value: vm},
		}
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
	items := fmt.Sprintf("%s: %s live, %s dead not yet marked, %s LP_DEAD", count(len(l.Items)), count(lf.Live), count(lf.DeadUnmarked), count(lf.LPDead))
	if len(l.Items) > maxItemsShown {
		items += fmt.Sprintf(" (the first %d below)", maxItemsShown)
	}
	out := []labview.Detail{
		{Label: "Index page", Value: fmt.Sprintf("leaf, block %s", count(int(l.Block)))},
		{Label: "Items", Value: items, Table: table},
		{Label: "Splits", Value: count(l.Splits)},
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

// count writes n with digit groups, as the page's format.js count does: 1,234.
func count(n int) string { return playback.Group(int64(n)) }

// plural writes n with the word that fits it, as format.js plural does.
func plural(n int, one, many string) string {
	if n == 1 {
		return count(n) + " " + one
	}
	return count(n) + " " + many
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

// Mark is a mark the overlay draws on a buffer: the legend's key of the mark (hintset,
// hintlost, vacuumwait), the buffer, and the opacity it is drawn at (1 until it fades).
type Mark struct {
	Mark     string  `json:"mark"`
	Buffer   int     `json:"buffer"`
	Strength float64 `json:"strength"`
}

// Stats describes the leftmost leaves that are in buffers, in key order, under "leaves",
// and the marks the overlay draws now, under "marks".
func (v *View) Stats() map[string]any {
	if v.srv == nil {
		return nil
	}
	leaves := make([]Leaf, 0, leavesShown)
	for _, l := range v.srv.Index.Leaves {
		if len(leaves) == leavesShown {
			break
		}
		if id, ok := v.bufferOf(l); ok {
			leaves = append(leaves, v.leaf(id, l))
		}
	}
	return map[string]any{"leaves": leaves, "marks": v.marks()}
}

// bufferOf returns the buffer holding leaf l, if it is in the pool.
func (v *View) bufferOf(l *simpins.Leaf) (int, bool) {
	id, ok := v.srv.BufferOf(l.Block)
	if !ok || v.srv.LeafAt(v.srv.Pool.Desc(id).Tag) != l {
		return -1, false
	}
	return id, true
}

// marks lists the marks the overlay draws now, in buffer order, each with its strength.
func (v *View) marks() []Mark {
	out := []Mark{}
	for id, r := range v.recent {
		if v.now-r.at <= markSeconds {
			k := "hintset"
			if r.lost {
				k = "hintlost"
			}
			out = append(out, Mark{Mark: k, Buffer: int(id), Strength: v.strength(r)})
		}
	}
	if id, ok := v.waiting(); ok {
		out = append(out, Mark{Mark: "vacuumwait", Buffer: id, Strength: 1})
	}
	slices.SortFunc(out, func(a, b Mark) int { return cmp.Or(a.Buffer-b.Buffer, strings.Compare(a.Mark, b.Mark)) })
	return out
}

// strength is the opacity of hint r's mark: full for the first half of its time, then fading,
// unless the reader asks for reduced motion.
func (v *View) strength(r recent) float64 {
	if v.reduced {
		return 1
	}
	return min(1, max(0, 2-2*(v.now-r.at)/markSeconds))
}

// waiting returns the buffer of the leaf VACUUM waits for, if it waits.
func (v *View) waiting() (int, bool) {
	if v.srv == nil || v.srv.WaitingOnBlock == 0 {
		return -1, false
	}
	return v.srv.BufferOf(v.srv.WaitingOnBlock)
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
func (v *View) Step(run lab.Run, n int, stop func() bool, note func(int, []sim.Event, bool)) (int, error) {
	return v.Default.Step(run, n, stop, func(pane int, events []sim.Event, flash bool) {
		if v.stepWall >= 0 {
			v.now += min(max(v.wall-v.stepWall, 0), maxStepGap)
		}
		v.stepWall = v.wall
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

// Tick notes the wall clock; the marks' clock moves on only when the run steps (Step), so
// while the reader pauses the marks stay as they are.
func (v *View) Tick(_ int, wallSeconds float64) { v.wall = wallSeconds }

// Overlay marks the leaves with recent hints, a tick where they were set and a cross where
// they were lost, and the one VACUUM waits for with an hourglass and ruler markers.
func (v *View) Overlay(_ int, o *grid.Overlay, l *grid.Layout, t *grid.Theme, reduced bool) bool {
	o.Reset()
	v.reduced = reduced
	set, _ := t.Mark("hintset")
	lost, _ := t.Mark("hintlost")
	wait, _ := t.Mark("vacuumwait")
	for id, r := range v.recent {
		age := v.now - r.at
		if age > markSeconds {
			delete(v.recent, id)
			continue
		}
		alpha := v.strength(r)
		if r.lost {
			o.CellGlyph(l, int(id), grid.GlyphCross, lost, t, alpha)
		} else {
			o.CellGlyph(l, int(id), grid.GlyphTick, set, t, alpha)
		}
	}
	if id, ok := v.waiting(); ok {
		o.CellGlyph(l, id, grid.GlyphHourglass, wait, t, 1)
		o.Rulers(l, id, wait, 1)
	}
	sum := o.Sum()
	changed := sum != v.drawn
	v.drawn = sum
	return changed
}
