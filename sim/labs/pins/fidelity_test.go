package pins

import (
	"testing"

	"github.com/bufferscope/bufferscope/sim"
)

// The counts the project's harness measured on real PostgreSQL 13 to 18 (docs/fidelity.md,
// experiment 6), reproduced by the model: a table of 100 rows whose index fits one leaf,
// every row deleted, then index scans, or a cursor that reads the leaf, with or without a
// concurrent insert into the leaf between its fetches, and VACUUM's cleanup lock against
// the cursor's pin.
// Reference: src/backend/access/nbtree/nbtutils.c, _bt_killitems;
// src/backend/access/nbtree/nbtsearch.c, _bt_drop_lock_and_maybe_pin;
// src/backend/storage/buffer/bufmgr.c, LockBufferForCleanup.
func TestFidelityExperiment6(t *testing.T) {
	deleted := func(logged bool) *Index {
		ix := NewIndex(100, true, logged, false)
		for k := int32(1); k <= 100; k++ {
			ix.DeleteRow(k)
		}
		return ix
	}
	// Index scans over the 100 deleted rows, one per key: 100 dead items.
	ix := deleted(true)
	for k := int32(1); k <= 100; k++ {
		scanKey(ix, k, DropPin, nil)
	}
	if n := ix.Leaves[0].LPDeadCount(); n != 100 {
		t.Errorf("index scans: %d dead items, want 100", n)
	}
	// A cursor reading the leaf, fetching row by row, then closed (_bt_killitems at the end).
	cursor := func(logged, insert bool) int {
		ix := deleted(logged)
		sc := ix.ReadRange(1, 100)
		sc.Pinned = !DropPin.DropsPin(true, logged, false)
		for i := range sc.TIDs {
			if ix.State(sc.TIDs[i]) == Dead {
				sc.Killed = append(sc.Killed, sc.TIDs[i])
			}
			if insert && i == 50 {
				ix.Insert(101) // another session inserts into the leaf between two fetches
			}
		}
		ix.KillItems(sc)
		return ix.Leaves[0].LPDeadCount()
	}
	for _, c := range []struct {
		name           string
		logged, insert bool
		want           int
	}{
		{"cursor, nothing concurrent", true, false, 100},
		{"cursor, concurrent insert, logged index", true, true, 0},
		{"cursor, concurrent insert, unlogged index", false, true, 100},
	} {
		if got := cursor(c.logged, c.insert); got != c.want {
			t.Errorf("%s: %d dead items, want %d", c.name, got, c.want)
		}
	}
	// VACUUM against an open cursor's pin: it waits (wait event BufferPin) for an
	// index-only scan's cursor and for an unlogged index's, not for a logged plain index
	// scan's, whose pin was dropped.
	for _, c := range []struct {
		name              string
		logged, indexOnly bool
		waits             bool
	}{
		{"index-only scan cursor", true, true, true},
		{"unlogged index cursor", false, false, true},
		{"logged plain index scan cursor", true, false, false},
	} {
		p, rel := leafPool(t, c.logged)
		cur, vac := &sim.Backend{ID: 1}, &sim.Backend{ID: 2}
		tag := sim.BufferTag{Locator: rel.Locator, Block: 1}
		id, _ := p.ReadBuffer(cur, tag)
		if DropPin.DropsPin(true, c.logged, c.indexOnly) {
			p.ReleaseBuffer(cur, id) // _bt_drop_lock_and_maybe_pin
		}
		vid, _ := p.ReadBuffer(vac, tag)
		got, err := p.LockBufferForCleanup(vac, vid)
		if err != nil {
			t.Fatal(err)
		}
		if waits := !got; waits != c.waits {
			t.Errorf("%s: VACUUM waits %v, want %v", c.name, waits, c.waits)
		}
	}
}

// VACUUM's cleanup lock waits while another backend pins the leaf, with
// BM_PIN_COUNT_WAITER set, and is granted once that backend unpins.
// Reference: src/backend/storage/buffer/bufmgr.c, LockBufferForCleanup, UnpinBuffer.
func TestCleanupLockWaitsForPin(t *testing.T) {
	p, rel := leafPool(t, true)
	scan, vac := &sim.Backend{ID: 1}, &sim.Backend{ID: 2}
	tag := sim.BufferTag{Locator: rel.Locator, Block: 1}
	id, _ := p.ReadBuffer(scan, tag)
	vid, _ := p.ReadBuffer(vac, tag)
	if ok, _ := p.LockBufferForCleanup(vac, vid); ok {
		t.Fatal("cleanup lock granted while a scan pins the leaf")
	}
	if !p.Desc(id).State.Has(sim.BM_PIN_COUNT_WAITER) {
		t.Fatal("no BM_PIN_COUNT_WAITER while VACUUM waits")
	}
	third := &sim.Backend{ID: 3}
	tid, _ := p.ReadBuffer(third, tag)
	if _, err := p.LockBufferForCleanup(third, tid); err == nil {
		t.Fatal("a second waiter was allowed: PostgreSQL raises an error")
	}
	p.ReleaseBuffer(third, tid)
	p.ReleaseBuffer(scan, id)
	if ok, _ := p.LockBufferForCleanup(vac, vid); !ok || p.RefCount(vid) != 1 {
		t.Fatal("cleanup lock not granted after the unpin")
	}
	if p.Desc(id).State.Has(sim.BM_PIN_COUNT_WAITER) {
		t.Fatal("BM_PIN_COUNT_WAITER still set after the grant")
	}
}

// leafPool returns a small pool and an index relation of two blocks (metapage and leaf).
func leafPool(t *testing.T, logged bool) (*sim.Pool, *sim.Relation) {
	t.Helper()
	p, err := sim.NewPool(sim.MinNBuffers, 17, sim.CostModel{})
	if err != nil {
		t.Fatal(err)
	}
	rel := &sim.Relation{Name: "t_pkey", Locator: sim.RelFileLocator{SpcOid: 1663, DbOid: 16384, RelNumber: 16385}, Permanent: logged}
	rel.NBlocks[sim.MainForkNum] = 2
	if _, err := p.AddRelation(rel); err != nil {
		t.Fatal(err)
	}
	return p, rel
}
