//go:build js

package main

import (
	"github.com/bufferscope/bufferscope/sim"
	"github.com/bufferscope/bufferscope/sim/labs/drop"
)

// bufferInfo is what hovering over a cell tells the reader about one buffer.
type bufferInfo struct {
	Buffer   int
	Empty    bool
	Tag      string // "pgbench_accounts/main/12"; empty for an empty buffer
	Relation string
	Fork     string
	Block    uint32
	Flags    []string
	Usage    int
	Pins     int
	PinnedBy []string
	LSN      string
	Dirty    bool
	Valid    bool
	Group    *groupInfo // set when the cell stands for a block of buffers
	Drop     *dropInfo  // set in the drop lab
}

// dropInfo is what the drop lab adds about a buffer.
type dropInfo struct {
	Target  bool // it holds a page of a relation the experiment drops
	Checked bool // the scan under way has already checked its descriptor
}

// groupInfo summarises the Side×Side block of buffers one pixel stands for.
type groupInfo struct {
	First, Side, Count    int
	Empty, Dirty, Pinned  int
	Relation              string // the relation most of the block's buffers hold, or ""
	RelationCount, Usage0 int    // how many buffers hold it; how many have usage count 0
}

// inspect describes buffer id, or reports false when there is no such buffer.
func (a *App) inspect(id int) (bufferInfo, bool) {
	s := a.sim
	if id < 0 || id >= s.Pool.NBuffers {
		return bufferInfo{}, false
	}
	var v [1]sim.BufferView
	s.Snapshot(v[:], id)
	bv := v[0]
	st := bv.State
	info := bufferInfo{
		Buffer:   id,
		Empty:    !st.Has(sim.BM_TAG_VALID),
		Flags:    st.FlagNames(),
		Usage:    st.UsageCount(),
		Pins:     st.RefCount(),
		PinnedBy: s.PinnedBy(id),
		LSN:      bv.LSN.String(),
		Dirty:    st.Has(sim.BM_DIRTY),
		Valid:    st.Has(sim.BM_VALID),
	}
	if !info.Empty {
		info.Tag = s.TagName(bv.Tag)
		info.Fork = bv.Tag.Fork.String()
		info.Block = uint32(bv.Tag.Block)
		if rels := s.Relations(); bv.Rel >= 0 && int(bv.Rel) < len(rels) {
			info.Relation = rels[bv.Rel].Name
		}
	}
	if a.watch != nil {
		p := drop.ProgressOf(s)
		info.Drop = &dropInfo{
			Target:  !info.Empty && bv.Rel >= 0 && int(bv.Rel) < a.watch.Relations(),
			Checked: p.Path == sim.PathScan && id < p.Cursor,
		}
	}
	return info, true
}

// inspectAt describes the buffer under canvas point (x, y), with a summary of its block
// when a pixel stands for many buffers.
func (a *App) inspectAt(x, y int) (bufferInfo, bool) {
	l := a.view.layout
	col, row, side, ok := l.BlockAt(x, y)
	if !ok {
		return bufferInfo{}, false
	}
	info, ok := a.inspect(row*l.Cols + col)
	if !ok || side <= 1 {
		return info, ok
	}
	g := &groupInfo{First: info.Buffer, Side: side}
	counts := map[int]int{}
	// Read the buffers themselves: the grid's codes may be a frame behind, and in the drop
	// lab they hold colours, not relations.
	views := make([]sim.BufferView, side)
	for r := row; r < min(row+side, l.Rows); r++ {
		first := r*l.Cols + col
		n := a.sim.Snapshot(views[:max(min(side, l.Cols-col), 0)], first)
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
	if rels := a.sim.Relations(); best >= 0 && best < len(rels) {
		g.Relation = rels[best].Name
	}
	info.Group = g
	return info, true
}
