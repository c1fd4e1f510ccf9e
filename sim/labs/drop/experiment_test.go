package drop

import "testing"

// TestDropBlocks: a DROP TABLE or TRUNCATE call weighs a table with its indexes and TOAST,
// a single transaction all its tables at once, and VACUUM's truncation the heap alone.
// Reference: src/backend/storage/buffer/bufmgr.c, DropRelationsAllBuffers (the blocks of
// every relation of the call are summed against BUF_DROP_FULL_SCAN_THRESHOLD)
func TestDropBlocks(t *testing.T) {
	gs, err := ParseTableGroups("2x10+1i+t,1x100")
	if err != nil {
		t.Fatal(err)
	}
	table := 10 + IndexBlocks(10) + 1 // heap, one index, the TOAST index's metapage
	for _, c := range []struct {
		op                       Operation
		single                   bool
		smallest, largest, total int
	}{
		{OpDrop, false, table, 100, 2*table + 100},
		{OpTruncate, true, 2*table + 100, 2*table + 100, 2*table + 100},
		{OpVacuum, true, 10, 100, 120},
	} {
		e := Experiment{NBuffers: 16384, Tables: gs, Op: c.op, SingleXact: c.single}
		if s, l, n := e.DropBlocks(); s != c.smallest || l != c.largest || n != c.total {
			t.Errorf("%v, single %v: DropBlocks = %d, %d, %d; want %d, %d, %d", c.op, c.single, s, l, n, c.smallest, c.largest, c.total)
		}
	}
}
