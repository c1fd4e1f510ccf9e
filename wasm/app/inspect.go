package app

import (
	"github.com/bufferscope/bufferscope/sim"
	"github.com/bufferscope/bufferscope/wasm/grid"
	"github.com/bufferscope/bufferscope/wasm/labview"
)

// BufferInfo is what hovering over a cell tells the reader about one buffer.
type BufferInfo struct {
	Buffer   int      `json:"buffer"`
	Empty    bool     `json:"empty"`
	Tag      *string  `json:"tag"`      // "pgbench_accounts/main/12"; nil for an empty buffer
	Relation *string  `json:"relation"` // nil for an empty buffer, as Fork and Block
	Fork     *string  `json:"fork"`
	Block    *uint32  `json:"block"`
	Flags    []string `json:"flags"`
	Usage    int      `json:"usage"`
	Pins     int      `json:"pins"`
	PinnedBy []string `json:"pinnedBy"`
	LSN      string   `json:"lsn"`
	Dirty    bool     `json:"dirty"`
	Valid    bool     `json:"valid"`
	// Group is set when the cell stands for a block of buffers.
	Group *GroupInfo `json:"group,omitempty"`
	// Lab is what the lab's view adds (labview.View.Inspect), in order, or nil.
	Lab []labview.Detail `json:"lab,omitempty"`
	// Pane says which pool the buffer is in when the canvas shows several (a race); nil
	// for one.
	Pane *PaneRef `json:"pane,omitempty"`
}

// PaneRef names the pane a buffer is in.
type PaneRef struct {
	Index int    `json:"index"`
	Key   string `json:"key"`
	Label string `json:"label"`
}

// GroupInfo summarises the Side×Side block of buffers one pixel stands for.
type GroupInfo struct {
	First         int    `json:"first"`
	Side          int    `json:"side"`
	Count         int    `json:"count"`
	Empty         int    `json:"empty"`
	Dirty         int    `json:"dirty"`
	Pinned        int    `json:"pinned"`
	Relation      string `json:"relation"`      // the relation most of the block's buffers hold, or ""
	RelationCount int    `json:"relationCount"` // how many buffers hold it
	Usage0        int    `json:"usage0"`        // how many have usage count 0
}

// Inspect describes buffer id of pane (0 for the run's own pool), or returns nil when there
// is no such buffer or pane.
func (a *App) Inspect(id, pane int) *BufferInfo {
	if pane < 0 || pane >= len(a.view.panes) {
		return nil
	}
	s := a.view.panes[pane].sim
	if id < 0 || id >= s.Pool.NBuffers {
		return nil
	}
	var v [1]sim.BufferView
	s.Snapshot(v[:], id)
	bv := v[0]
	st := bv.State
	info := &BufferInfo{
		Buffer:   id,
		Empty:    !st.Has(sim.BM_TAG_VALID),
		Flags:    st.FlagNames(),
		Usage:    st.UsageCount(),
		Pins:     st.RefCount(),
		PinnedBy: s.PinnedBy(id),
		LSN:      bv.LSN.String(),
		Dirty:    st.Has(sim.BM_DIRTY),
		Valid:    st.Has(sim.BM_VALID),
		Lab:      a.lv.Inspect(pane, id),
	}
	if len(a.view.panes) > 1 {
		p := a.view.panes[pane].info
		info.Pane = &PaneRef{Index: pane, Key: p.Key, Label: p.Label}
	}
	if info.Flags == nil {
		info.Flags = []string{}
	}
	if info.PinnedBy == nil {
		info.PinnedBy = []string{}
	}
	if !info.Empty {
		tag, fork, block := s.TagName(bv.Tag), bv.Tag.Fork.String(), uint32(bv.Tag.Block)
		info.Tag, info.Fork, info.Block = &tag, &fork, &block
		rel := ""
		if rels := s.Relations(); bv.Rel >= 0 && int(bv.Rel) < len(rels) {
			rel = rels[bv.Rel].Name
		}
		info.Relation = &rel
	}
	return info
}

// InspectAt describes the buffer under canvas point (x, y) — in whichever pane it lies, with a
// summary of its block when a pixel stands for many buffers, or in the lab's inset — or
// returns nil when there is no buffer there.
func (a *App) InspectAt(x, y int) *BufferInfo {
	pane, px, py, ok := grid.PaneAt(a.view.rects, x, y)
	if ok {
		if i, in := a.view.layout.InsetAt(px, py); in {
			if ids := a.view.panes[pane].overlay.Inset; i < len(ids) {
				return a.Inspect(int(ids[i]), pane) // nil for an empty item
			}
			return nil
		}
	}
	if !ok {
		return nil
	}
	l := a.view.layout
	col, row, side, ok := l.BlockAt(px, py)
	if !ok {
		return nil
	}
	info := a.Inspect(row*l.Cols+col, pane)
	if info == nil || side <= 1 {
		return info
	}
	g := &GroupInfo{First: info.Buffer, Side: side}
	counts := map[int]int{}
	s := a.view.panes[pane].sim
	// Read the buffers themselves: the grid's codes may be a frame behind, and they hold
	// roles, not relations.
	views := make([]sim.BufferView, side)
	for r := row; r < min(row+side, l.Rows); r++ {
		first := r*l.Cols + col
		n := s.Snapshot(views[:max(min(side, l.Cols-col), 0)], first)
		for _, bv := range views[:n] {
			st := bv.State
			g.Count++
			if !st.Has(sim.BM_TAG_VALID) || bv.Rel < 0 {
				g.Empty++
			} else {
				counts[int(bv.Rel)]++
				if st.UsageCount() == 0 {
					g.Usage0++
				}
			}
			if st.Has(sim.BM_DIRTY) {
				g.Dirty++
			}
			if st.RefCount() > 0 {
				g.Pinned++
			}
		}
	}
	best := -1
	for rel, n := range counts {
		if n > g.RelationCount || n == g.RelationCount && rel < best {
			best, g.RelationCount = rel, n
		}
	}
	if rels := s.Relations(); best >= 0 && best < len(rels) {
		g.Relation = rels[best].Name
	}
	info.Group = g
	return info
}
