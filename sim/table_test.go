package sim

import (
	"math/rand/v2"
	"testing"
)

// TestBufTableAgainstMap checks the open-addressing table against a Go map under random
// inserts, lookups and deletes, with keys crowded into few relations and blocks so probe runs
// collide and backward-shift deletion is exercised.
func TestBufTableAgainstMap(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	const capacity = 500
	tab := newBufTable(capacity)
	ref := map[BufferTag]int{}
	key := func() BufferTag {
		return BufferTag{
			Locator: RelFileLocator{SpcOid: 1663, DbOid: Oid(r.IntN(2)), RelNumber: Oid(16384 + r.IntN(3))},
			Fork:    ForkNumber(r.IntN(4)),
			Block:   BlockNumber(r.IntN(100)),
		}
	}
	for i := range 200_000 {
		k := key()
		h := BufTableHashCode(k)
		want, present := ref[k]
		switch op := r.IntN(3); {
		case op == 0 && len(ref) < capacity:
			got := tab.insert(k, h, i%capacity)
			if present && got != want || !present && got != -1 {
				t.Fatalf("insert %v: got %d, map has %d (%v)", k, got, want, present)
			}
			if !present {
				ref[k] = i % capacity
			}
		case op == 1:
			if got := tab.delete(k, h); got != present {
				t.Fatalf("delete %v: got %v, map has it: %v", k, got, present)
			}
			delete(ref, k)
		default:
			got := tab.lookup(k, h)
			if !present {
				want = -1
			}
			if got != want {
				t.Fatalf("lookup %v: got %d, want %d", k, got, want)
			}
		}
		if tab.count != len(ref) {
			t.Fatalf("count %d, map has %d", tab.count, len(ref))
		}
	}
	for k, want := range ref {
		if got := tab.lookup(k, BufTableHashCode(k)); got != want {
			t.Fatalf("final lookup %v: got %d, want %d", k, got, want)
		}
	}
}

// TestPartitionsSpread checks that one relation's consecutive blocks spread over all 128
// partitions, as hashing the whole tag does in PostgreSQL.
func TestPartitionsSpread(t *testing.T) {
	var seen [NumBufferPartitions]int
	for b := range 128 * 64 {
		tag := BufferTag{Locator: RelFileLocator{1663, 16384, 16384}, Block: BlockNumber(b)}
		seen[BufTablePartition(BufTableHashCode(tag))]++
	}
	for p, n := range seen {
		if n < 32 || n > 96 {
			t.Fatalf("partition %d got %d of 8192 blocks; want about 64", p, n)
		}
	}
}
