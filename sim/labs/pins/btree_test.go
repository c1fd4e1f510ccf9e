package pins

import (
	"testing"

	"github.com/bufferscope/bufferscope/sim"
)

// scanKey runs one equality index scan of key to its end under policy p on a logged or
// unlogged index: _bt_readpage, the heap visits, then _bt_killitems when the scan ends.
// between runs after the page is read and before the kill, as another backend would.
func scanKey(ix *Index, key int32, p Policy, between func()) (set, lost int) {
	sc := ix.ReadPage(key, true)
	sc.Pinned = !p.DropsPin(true, ix.Logged, false)
	ix.FetchHeap(sc)
	if between != nil {
		between()
	}
	return ix.KillItems(sc)
}

// A scan that dropped its pin and finds the page LSN changed sets no hint.
// Reference: src/backend/access/nbtree/nbtutils.c, _bt_killitems ("if the page LSN
// changed, we cannot be sure the items are the ones we saw: give up").
func TestDroppedPinScanWithMovedLSNSetsNoHint(t *testing.T) {
	ix := NewIndex(100, true, true, false)
	ix.DeleteRow(7)
	lsn := ix.Leaves[0].LSN
	set, lost := scanKey(ix, 7, DropPin, func() { ix.Insert(50) }) // a concurrent insert
	if set != 0 || lost != 1 || ix.Leaves[0].LPDeadCount() != 0 {
		t.Fatalf("set %d lost %d LP_DEAD %d; want 0, 1, 0", set, lost, ix.Leaves[0].LPDeadCount())
	}
	if ix.Leaves[0].LSN == lsn {
		t.Fatal("the insert did not move the page LSN")
	}
}

// A scan that kept its pin sets the hint, however the LSN moved, and setting it does not
// move the LSN.
// Reference: src/backend/access/nbtree/nbtutils.c, _bt_killitems (BTScanPosIsPinned);
// src/backend/storage/buffer/bufmgr.c, MarkBufferDirtyHint.
func TestKeptPinScanSetsHint(t *testing.T) {
	ix := NewIndex(100, true, true, false)
	ix.DeleteRow(7)
	var after sim.LSN
	set, _ := scanKey(ix, 7, KeepPin, func() { ix.Insert(50); after = ix.Leaves[0].LSN })
	if set != 1 || ix.Leaves[0].LPDeadCount() != 1 {
		t.Fatalf("set %d, LP_DEAD %d; want 1, 1", set, ix.Leaves[0].LPDeadCount())
	}
	if ix.Leaves[0].LSN != after {
		t.Fatal("setting a hint moved the page LSN")
	}
	// With nothing concurrent, a dropped-pin scan sets it too.
	ix.DeleteRow(8)
	if set, _ := scanKey(ix, 8, DropPin, nil); set != 1 {
		t.Fatalf("dropped-pin scan with an unchanged LSN set %d hints, want 1", set)
	}
}

// A split moves the upper half of a leaf to a new page: a kept-pin scan's kills of moved
// items are not found on its page, and the split rewrites both halves without LP_DEAD.
// Reference: src/backend/access/nbtree/nbtutils.c, _bt_killitems (matching by heap TID);
// src/backend/access/nbtree/nbtinsert.c, _bt_split (_bt_pgaddtup).
func TestSplitLosesHints(t *testing.T) {
	ix := NewIndex(LeafCapacity, false, true, false) // one full leaf
	if len(ix.Leaves) != 2 {
		t.Fatalf("%d leaves", len(ix.Leaves))
	}
	l := ix.Leaves[1]
	hi := l.Items[len(l.Items)-1].Key
	ix.DeleteRow(hi)
	ix.DeleteRow(l.Items[0].Key)
	sc := ix.ReadRange(l.Items[0].Key, hi)
	ix.FetchHeap(sc)
	l.Items[1].LPDead = true // an earlier hint on the page
	r := ix.Split(l)
	if r == nil {
		t.Fatal("no split")
	}
	if l.LPDeadCount() != 0 || r.LPDeadCount() != 0 || ix.HintsLostSplit != 1 {
		t.Fatalf("LP_DEAD after the split: left %d right %d, lost %d", l.LPDeadCount(), r.LPDeadCount(), ix.HintsLostSplit)
	}
	set, lost := ix.KillItems(sc)
	if set != 1 || lost != 1 {
		t.Fatalf("after the split the kept-pin scan set %d and lost %d; want 1 set (still on its page) and 1 lost (moved)", set, lost)
	}
}

// Simple deletion removes the LP_DEAD items of a full leaf instead of splitting it.
// Reference: src/backend/access/nbtree/nbtinsert.c, _bt_delete_or_dedup_one_page;
// nbtpage.c, _bt_delitems_delete.
func TestSimpleDeletionBeforeSplit(t *testing.T) {
	ix := NewIndex(LeafCapacity*LeafFillfactor/100, false, true, false)
	l := ix.Leaves[0]
	for len(l.Items) < LeafCapacity {
		ix.Insert(5)
	}
	l.Items[0].LPDead = true
	l.Items[1].LPDead = true
	_, deleted, split := ix.Insert(9)
	if !deleted || split || ix.SimpleDeleted != 2 || len(ix.Leaves) != 1 {
		t.Fatalf("deleted %v split %v removed %d leaves %d", deleted, split, ix.SimpleDeleted, len(ix.Leaves))
	}
	_, _, split = ix.Insert(9)
	_, _, split2 := ix.Insert(9)
	if !split && !split2 {
		t.Fatal("a full leaf with nothing to delete did not split")
	}
}

// The pin rule of each version.
// Reference: src/backend/access/nbtree/nbtsearch.c, _bt_drop_lock_and_maybe_pin;
// nbtree.c, btrescan (so->dropPin, PostgreSQL 18).
func TestDropsPin(t *testing.T) {
	for _, c := range []struct {
		p                       Policy
		mvcc, logged, indexOnly bool
		want                    bool
	}{
		{KeepPin, true, true, false, false},
		{DropPin, true, true, false, true},
		{DropPin, false, true, false, false},
		{DropPin, true, false, false, false},
		{DropPin, true, true, true, false},
		{DropPin19, true, false, false, true},
		{DropPin19, true, false, true, false},
	} {
		if got := c.p.DropsPin(c.mvcc, c.logged, c.indexOnly); got != c.want {
			t.Errorf("%s mvcc=%v logged=%v indexOnly=%v: drops %v, want %v", c.p, c.mvcc, c.logged, c.indexOnly, got, c.want)
		}
	}
}

// A fetch through an item whose tuple is dead counts as a dead fetch; it is hintable only
// when the tuple is dead to everyone, which a snapshot older than the deletion prevents.
// Reference: src/backend/access/heap/heapam.c, heap_hot_search_buffer (all_dead is set only
// when every chain member is HEAPTUPLE_DEAD under GlobalVis/RecentGlobalXmin).
func TestDeadFetchesAreHintableOnlyBelowTheHorizon(t *testing.T) {
	ix := NewIndex(100, true, true, false)
	horizon := uint64(0)
	ix.Horizon = func() uint64 { return horizon }
	ix.DeleteRow(7)
	scanKey(ix, 7, KeepPin, nil)
	if ix.DeadFetches != 1 || ix.HintableFetches != 0 || ix.Leaves[0].LPDeadCount() != 0 {
		t.Fatalf("recently dead: dead fetches %d, hintable %d, LP_DEAD %d; want 1, 0, 0", ix.DeadFetches, ix.HintableFetches, ix.Leaves[0].LPDeadCount())
	}
	horizon = ix.Commits()
	scanKey(ix, 7, KeepPin, nil)
	if ix.DeadFetches != 2 || ix.HintableFetches != 1 || ix.Leaves[0].LPDeadCount() != 1 {
		t.Fatalf("dead to all: dead fetches %d, hintable %d, LP_DEAD %d; want 2, 1, 1", ix.DeadFetches, ix.HintableFetches, ix.Leaves[0].LPDeadCount())
	}
}

// A fetch costs one heap visit for the item and a HOT member's cost for each further chain
// version: walking a HOT chain stays on the page the fetch holds locked.
// Reference: src/backend/access/heap/heapam.c, heap_hot_search_buffer.
func TestFetchCostChargesChainMembersLess(t *testing.T) {
	s := &Server{cfg: Config{Cost: DefaultCost()}}
	c := DefaultCost()
	if got, want := s.fetchCost(2, 5), 2*c.HeapVisit+3*c.HOTMember; got != want {
		t.Fatalf("fetchCost(2, 5) = %v, want %v", got, want)
	}
	if c.HOTMember >= c.HeapVisit {
		t.Fatalf("a HOT member (%v) should cost less than a heap fetch (%v)", c.HOTMember, c.HeapVisit)
	}
}
