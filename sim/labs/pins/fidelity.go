package pins

import (
	"fmt"

	"github.com/bufferscope/bufferscope/sim"
)

// FidelityRows is the number of rows of the fidelity harness's table (one leaf), all deleted
// before the scans (docs/fidelity.md, experiment 6).
const FidelityRows = 100

// FidelityExperiment6 runs the scenarios of the fidelity harness's experiment 6 in the model
// (the same logic as TestFidelityExperiment6) and returns its figures keyed by the harness's
// case names (fidelity.Row.Case): dead items on the leaf after
//
//	"plain index scan, logged", "cursor, logged",
//	"cursor + insert into the leaf, logged", "cursor + insert into the leaf, unlogged"
//
// and 1 when VACUUM waits for the cleanup lock (0 when not) in
//
//	"VACUUM vs a cursor, logged, index scan", "VACUUM vs a cursor, logged, index-only scan",
//	"VACUUM vs a cursor, unlogged, index scan".
//
// version is the pool's PostgreSQL version for the VACUUM cases; the leaf's pin and LP_DEAD
// rules (DropPin) are those of 13 to 18.
// Reference: src/backend/access/nbtree/nbtutils.c, _bt_killitems;
// src/backend/access/nbtree/nbtsearch.c, _bt_drop_lock_and_maybe_pin;
// src/backend/storage/buffer/bufmgr.c, LockBufferForCleanup.
func FidelityExperiment6(version sim.Version) (map[string]int, error) {
	out := map[string]int{}
	deleted := func(logged bool) *Index {
		ix := NewIndex(FidelityRows, true, logged, false)
		for k := int32(1); k <= FidelityRows; k++ {
			ix.DeleteRow(k)
		}
		return ix
	}
	// Index scans over the deleted rows, one per key, each killing its item at its end.
	ix := deleted(true)
	for k := int32(1); k <= FidelityRows; k++ {
		sc := ix.ReadPage(k, true)
		sc.Pinned = !DropPin.DropsPin(true, ix.Logged, false)
		ix.FetchHeap(sc)
		ix.KillItems(sc)
	}
	out["plain index scan, logged"] = ix.Leaves[0].LPDeadCount()
	// A cursor reading the leaf, fetching row by row, then closed (_bt_killitems at the end).
	cursor := func(logged, insert bool) int {
		ix := deleted(logged)
		sc := ix.ReadRange(1, FidelityRows)
		sc.Pinned = !DropPin.DropsPin(true, logged, false)
		for i := range sc.TIDs {
			if ix.State(sc.TIDs[i]) == Dead {
				sc.Killed = append(sc.Killed, sc.TIDs[i])
			}
			if insert && i == FidelityRows/2 {
				ix.Insert(FidelityRows + 1) // another session inserts into the leaf between two fetches
			}
		}
		ix.KillItems(sc)
		return ix.Leaves[0].LPDeadCount()
	}
	out["cursor, logged"] = cursor(true, false)
	out["cursor + insert into the leaf, logged"] = cursor(true, true)
	out["cursor + insert into the leaf, unlogged"] = cursor(false, true)
	// VACUUM against an open cursor's pin on the leaf.
	for _, c := range []struct {
		name              string
		logged, indexOnly bool
	}{
		{"logged, index scan", true, false},
		{"logged, index-only scan", true, true},
		{"unlogged, index scan", false, false},
	} {
		p, err := sim.NewPool(sim.MinNBuffers, version, sim.CostModel{})
		if err != nil {
			return nil, err
		}
		rel := &sim.Relation{Name: "t_pkey", Locator: sim.RelFileLocator{SpcOid: 1663, DbOid: 16384, RelNumber: 16385}, Permanent: c.logged}
		rel.NBlocks[sim.MainForkNum] = 2 // metapage and leaf
		if _, err := p.AddRelation(rel); err != nil {
			return nil, err
		}
		cur, vac := &sim.Backend{ID: 1}, &sim.Backend{ID: 2}
		tag := sim.BufferTag{Locator: rel.Locator, Block: 1}
		id, err := p.ReadBuffer(cur, tag)
		if err != nil {
			return nil, err
		}
		if DropPin.DropsPin(true, c.logged, c.indexOnly) {
			if err := p.ReleaseBuffer(cur, id); err != nil { // _bt_drop_lock_and_maybe_pin
				return nil, err
			}
		}
		vid, err := p.ReadBuffer(vac, tag)
		if err != nil {
			return nil, err
		}
		got, err := p.LockBufferForCleanup(vac, vid)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", c.name, err)
		}
		out["VACUUM vs a cursor, "+c.name] = 0
		if !got {
			out["VACUUM vs a cursor, "+c.name] = 1
		}
	}
	return out, nil
}
