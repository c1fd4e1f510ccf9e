package drop

import (
	"testing"

	"github.com/bufferscope/bufferscope/sim"
)

// TestTableGroupSyntax reads and writes groups with indexes and TOAST.
func TestTableGroupSyntax(t *testing.T) {
	for in, want := range map[string]string{
		"1000x1+2i+t": "1000x1+2i+t", "10x5+t+i": "10x5+1i+t", "1xNB/32+3i": "1xNB/32+3i", "4x2": "4x2",
	} {
		gs, err := ParseTableGroups(in)
		if err != nil || len(gs) != 1 || gs[0].String() != want {
			t.Errorf("%q: %v %v, want %s", in, gs, err, want)
		}
	}
	for _, bad := range []string{"1x1+", "1x1+0i", "1x1+17i", "1x1+t+t", "1x1+2i+3i", "1x1+x", "40000x1+2i"} {
		if _, err := ParseTableGroups(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// TestIndexesAndToastTravelTogether drops tables with their indexes and TOAST: DROP TABLE
// and TRUNCATE hand the heap, the indexes, the TOAST table and its index to one
// DropRelationsAllBuffers call, whose threshold test sums all their blocks; VACUUM
// truncates only the heap and leaves the indexes' pages in the pool.
// Reference: src/backend/catalog/storage.c, smgrDoPendingDeletes; src/backend/access/transam/twophase.c and xact.c, xact_redo_commit (DropRelationFiles); src/backend/storage/buffer/bufmgr.c, DropRelationsAllBuffers
func TestIndexesAndToastTravelTogether(t *testing.T) {
	nb := 16384 // threshold 512
	g := TableGroup{Count: 3, Blocks: 120, Indexes: 2, Toast: true}
	// One table: 120 heap blocks, two indexes of 81, the TOAST index's metapage: 283 < 512.
	if got := g.TableBlocks(nb); got != 283 {
		t.Fatalf("TableBlocks %d, want 283", got)
	}
	for _, op := range []Operation{OpDrop, OpTruncate} {
		res, err := RunExperiment(Experiment{NBuffers: nb, Tables: []TableGroup{g}, Op: op, InRecovery: true}, sim.DropPG14)
		if err != nil {
			t.Fatal(err)
		}
		r := res[0]
		if r.Drops != 3 || r.Path != "lookup" || r.Invalidated != 3*283 || r.Lookups != 3*283 {
			t.Errorf("%s: %+v, want 3 drops by lookup of 283 blocks each", op, r)
		}
		// Heap, indexes and TOAST together pass the threshold though the heap alone would not.
		big := TableGroup{Count: 1, Blocks: 320, Indexes: 1}
		res, err = RunExperiment(Experiment{NBuffers: nb, Tables: []TableGroup{big}, Op: op, InRecovery: true}, sim.DropPG14)
		if err != nil {
			t.Fatal(err)
		}
		if res[0].Path != "scan" {
			t.Errorf("%s of 320 heap + %d index blocks: path %s, want scan", op, IndexBlocks(320), res[0].Path)
		}
	}
	res, err := RunExperiment(Experiment{NBuffers: nb, Tables: []TableGroup{g}, Op: OpVacuum, InRecovery: true}, sim.DropPG14)
	if err != nil {
		t.Fatal(err)
	}
	// Each heap of 120 blocks: main 120, FSM from block 2 of 3, VM 1.
	if r := res[0]; r.Drops != 3 || r.Path != "lookup" || r.Invalidated != 3*(120+1+1) {
		t.Errorf("vacuum: %+v, want only the heaps' forks dropped", r)
	}
}
