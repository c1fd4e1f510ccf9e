package sim

import (
	"math/rand/v2"
	"testing"
)

// TestPrivatePinsAgainstMap checks a backend's private pin counts against a Go map under
// random pins and unpins, taking the inlined common cases first as PinBuffer and
// ReleaseBuffer do. A few buffers are pinned often and sometimes more than
// refCountArrayEntries at once, so the entry used last, the array search and the overflow
// hash are all exercised.
func TestPrivatePinsAgainstMap(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	var b Backend
	ref := map[int]int32{}
	for step := range 300_000 {
		// Now and then hold many buffers at once; otherwise one or two, as a client does.
		spread := 3
		if step/10_000%3 == 2 {
			spread = 3 * refCountArrayEntries
		}
		id := r.IntN(spread)
		if r.IntN(2) == 0 {
			n := b.tryAddPin(id)
			if n == 0 {
				n = b.addPin(id)
			}
			ref[id]++
			if n != ref[id] {
				t.Fatalf("step %d: pin of buffer %d gave count %d, the map has %d", step, id, n, ref[id])
			}
		} else {
			n, ok := b.tryDropPin(id)
			if !ok {
				n = b.dropPin(id)
			}
			want, pinned := ref[id]
			switch {
			case !pinned && n != -1:
				t.Fatalf("step %d: unpin of unpinned buffer %d gave %d, want -1", step, id, n)
			case pinned && n != want-1:
				t.Fatalf("step %d: unpin of buffer %d gave count %d, the map has %d", step, id, n, want-1)
			case pinned && want == 1:
				delete(ref, id)
			case pinned:
				ref[id]--
			}
		}
		used := 0
		for _, e := range b.refs {
			if e.buf != 0 {
				used++
			}
		}
		if int(b.inUse) != used {
			t.Fatalf("step %d: inUse %d, but %d entries hold a buffer", step, b.inUse, used)
		}
		for id := range 3 * refCountArrayEntries {
			if got := b.PinCount(id); got != int(ref[id]) {
				t.Fatalf("step %d: PinCount(%d) = %d, the map has %d", step, id, got, ref[id])
			}
		}
	}
}
