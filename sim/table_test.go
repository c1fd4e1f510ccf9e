package sim

import (
	"math/rand/v2"
	"testing"
)

// TestBufTableAgainstMap checks the open-addressing table against a Go map under random
// inserts, lookups and deletes, with keys crowded into few relations and blocks so probe runs
// collide and backward-shift deletion is exercised. After every operation each slot's stored
// hash bits must be those of its key, and every key must stay reachable from its home slot.
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
		tag := key()
		k := packTag(tag)
		h := BufTableHashCode(tag)
		want, present := ref[tag]
		switch op := r.IntN(3); {
		case op == 0 && len(ref) < capacity:
			got := tab.insert(k, h, i%capacity)
			if present && got != want || !present && got != -1 {
				t.Fatalf("insert %v: got %d, map has %d (%v)", tag, got, want, present)
			}
			if !present {
				ref[tag] = i % capacity
			}
		case op == 1:
			if got := tab.delete(k, h); got != present {
				t.Fatalf("delete %v: got %v, map has it: %v", tag, got, present)
			}
			delete(ref, tag)
		default:
			got := tab.lookup(k, h)
			if !present {
				want = -1
			}
			if got != want {
				t.Fatalf("lookup %v: got %d, want %d", tag, got, want)
			}
		}
		if tab.count != len(ref) {
			t.Fatalf("count %d, map has %d", tab.count, len(ref))
		}
		if i%1000 == 0 {
			checkSlots(t, tab)
		}
	}
	checkSlots(t, tab)
	for tag, want := range ref {
		if got := tab.lookup(packTag(tag), BufTableHashCode(tag)); got != want {
			t.Fatalf("final lookup %v: got %d, want %d", tag, got, want)
		}
	}
}

// checkSlots checks that every used slot keeps its key's hash bits, and that no empty slot
// lies between an entry and its home, where it would cut the entry's probe run.
func checkSlots(t *testing.T, tab *bufTable) {
	t.Helper()
	mask := len(tab.slots) - 1
	for i := range tab.slots {
		s := &tab.slots[i]
		if s.val == 0 {
			continue
		}
		h := s.key().hash()
		if s.hash != uint32(h>>32) {
			t.Fatalf("slot %d keeps hash bits %#x, its key hashes to %#x", i, s.hash, h)
		}
		for j := tab.home(h); j != i; j = (j + 1) & mask {
			if tab.slots[j].val == 0 {
				t.Fatalf("slot %d: empty slot %d between it and its home %d", i, j, tab.home(h))
			}
		}
	}
}

// TestBufTableFullRange checks that the packing keeps every field: the largest OIDs, block
// numbers, forks and buffer ids come back unchanged.
func TestBufTableFullRange(t *testing.T) {
	tab := newBufTable(MaxNBuffers / 1024)
	tags := []BufferTag{
		{Locator: RelFileLocator{SpcOid: 1<<32 - 1, DbOid: 1<<32 - 1, RelNumber: 1<<32 - 1}, Fork: MaxForkNum, Block: InvalidBlockNumber - 1},
		{Locator: RelFileLocator{SpcOid: 1<<32 - 1, DbOid: 1<<32 - 1, RelNumber: 1<<32 - 1}, Fork: MainForkNum, Block: InvalidBlockNumber - 1},
		{},
	}
	ids := []int{MaxNBuffers - 1, 0, MaxNBuffers / 2}
	for i, tag := range tags {
		if got := tab.insert(packTag(tag), BufTableHashCode(tag), ids[i]); got != -1 {
			t.Fatalf("insert %v: found %d", tag, got)
		}
	}
	for i, tag := range tags {
		if got := tab.lookup(packTag(tag), BufTableHashCode(tag)); got != ids[i] {
			t.Fatalf("lookup %v: got %d, want %d", tag, got, ids[i])
		}
	}
	checkSlots(t, tab)
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
