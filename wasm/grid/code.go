package grid

import "github.com/bufferscope/bufferscope/sim"

// Code is what the painter needs to know about one buffer, packed into 16 bits so that the
// largest pool (13,107,200 buffers) costs 26 MB: the relation (0 for an empty buffer,
// otherwise the index in Sim.Relations plus one, saturating at 255), the usage count, and
// whether the buffer is dirty or pinned. The zero Code is an empty buffer.
type Code uint16

const (
	codeRelMask    Code = 0xFF
	codeUsageShift      = 8
	codeUsageMask  Code = 7 << codeUsageShift
	codeDirty      Code = 1 << 11
	codePinned     Code = 1 << 12
)

// MaxRelCode is the largest relation a Code can tell apart; later relations share it.
const MaxRelCode = 254

// Encode packs a buffer's view into a Code.
func Encode(v sim.BufferView) Code {
	if v.Rel < 0 || !v.State.Has(sim.BM_TAG_VALID) {
		if v.State.RefCount() > 0 {
			return codePinned
		}
		return 0
	}
	c := Code(min(int(v.Rel), MaxRelCode) + 1)
	c |= Code(min(v.State.UsageCount(), 7)) << codeUsageShift
	if v.State.Has(sim.BM_DIRTY) {
		c |= codeDirty
	}
	if v.State.RefCount() > 0 {
		c |= codePinned
	}
	return c
}

// MakeCode builds a Code from its parts: rel is a relation index or -1 for an empty buffer.
func MakeCode(rel, usage int, dirty, pinned bool) Code {
	var c Code
	if rel >= 0 {
		c = Code(min(rel, MaxRelCode)+1) | Code(min(max(usage, 0), 7))<<codeUsageShift
		if dirty {
			c |= codeDirty
		}
	}
	if pinned {
		c |= codePinned
	}
	return c
}

// Rel returns the relation index, or -1 for an empty buffer.
func (c Code) Rel() int { return int(c&codeRelMask) - 1 }

// Empty reports whether the buffer holds no page.
func (c Code) Empty() bool { return c&codeRelMask == 0 }

// Usage returns the usage count, 0 to 5.
func (c Code) Usage() int { return int(c&codeUsageMask) >> codeUsageShift }

// Dirty reports whether the page must be written before the buffer is reused.
func (c Code) Dirty() bool { return c&codeDirty != 0 }

// Pinned reports whether any backend pins the buffer.
func (c Code) Pinned() bool { return c&codePinned != 0 }

// Snapshotter is the part of *sim.Sim a Refresher reads.
type Snapshotter interface {
	Snapshot(dst []sim.BufferView, first int) int
}

// Refresher copies buffer views out of a simulation into Codes through one reused chunk,
// so refreshing never allocates after the first call.
type Refresher struct {
	views []sim.BufferView
	// RelMap, if not nil, replaces each relation index (BufferView.Rel) before it is encoded:
	// a lab whose legend colours relations by role maps them to roles (RelMap). Indices
	// beyond it are kept.
	RelMap []int32
}

// encode packs a view into a Code through RelMap.
func (r *Refresher) encode(v sim.BufferView) Code {
	if v.Rel >= 0 && int(v.Rel) < len(r.RelMap) {
		v.Rel = r.RelMap[v.Rel]
	}
	return Encode(v)
}

// refreshChunk is how many views one Snapshot call fills.
const refreshChunk = 4096

// Refresh re-encodes codes[first:first+n] from s, clipped to the pool.
func (r *Refresher) Refresh(s Snapshotter, codes []Code, first, n int) {
	if r.views == nil {
		r.views = make([]sim.BufferView, refreshChunk)
	}
	first = max(first, 0)
	end := min(first+n, len(codes))
	for i := first; i < end; {
		got := s.Snapshot(r.views[:min(refreshChunk, end-i)], i)
		if got == 0 {
			return
		}
		if r.RelMap == nil {
			for j, v := range r.views[:got] {
				codes[i+j] = Encode(v)
			}
		} else {
			for j, v := range r.views[:got] {
				codes[i+j] = r.encode(v)
			}
		}
		i += got
	}
}

// RefreshAll re-encodes every code.
func (r *Refresher) RefreshAll(s Snapshotter, codes []Code) { r.Refresh(s, codes, 0, len(codes)) }

// RefreshOne re-encodes the code of buffer id.
func (r *Refresher) RefreshOne(s Snapshotter, codes []Code, id int) {
	if id < 0 || id >= len(codes) {
		return
	}
	if r.views == nil {
		r.views = make([]sim.BufferView, refreshChunk)
	}
	if s.Snapshot(r.views[:1], id) == 1 {
		codes[id] = r.encode(r.views[0])
	}
}
