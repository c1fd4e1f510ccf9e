package sim

import "testing"

// TestExtendBufferedRelTo: a free space map made by recovery for its leaf (block 2) is created
// (one FileOp) and extended block by block before PostgreSQL 16, in one zero-extension from
// 16; every new block is in a valid buffer, the one asked for pinned, none read from disk.
//
// Reference: src/backend/access/transam/xlogutils.c, XLogReadBufferExtended;
// src/backend/storage/buffer/bufmgr.c, ExtendBufferedRelTo (31966b151e, 16).
func TestExtendBufferedRelTo(t *testing.T) {
	for _, c := range []struct {
		version Version
		writes  Duration
	}{{14, 3}, {15, 3}, {16, 1}, {18, 1}} {
		p, err := NewPool(64, c.version, CostModel{})
		if err != nil {
			t.Fatal(err)
		}
		rel := &Relation{Name: "t", Permanent: true, Locator: RelFileLocator{SpcOid: DefaultTablespaceOid, DbOid: DefaultDatabaseOid, RelNumber: FirstRelNumber}}
		rel.NBlocks[MainForkNum] = 1
		if _, err := p.AddRelation(rel); err != nil {
			t.Fatal(err)
		}
		b := &Backend{ID: 1}
		before := p.Elapsed()
		id, err := p.ExtendBufferedRelTo(b, rel, FSMForkNum, 2)
		if err != nil {
			t.Fatal(err)
		}
		spent := p.Elapsed() - before
		// Each new block's buffer: BufferAlloc's lookup, and a descriptor taken off the freelist.
		want := p.Cost.FileOp + c.writes*p.Cost.Write + 3*(p.Cost.Lookup+p.Cost.DescriptorCheck)
		if spent != want {
			t.Errorf("%v: extending the FSM to 3 blocks cost %v, want %v (a create, %d writes, 3 buffers)", c.version, spent, want, c.writes)
		}
		if rel.NBlocks[FSMForkNum] != 3 || p.Desc(id).Tag.Block != 2 || b.Buffers() != 1 {
			t.Errorf("%v: FSM of %d blocks, buffer for block %d, %d pins", c.version, rel.NBlocks[FSMForkNum], p.Desc(id).Tag.Block, b.Buffers())
		}
		for blk := range BlockNumber(3) {
			got := p.Lookup(BufferTag{Locator: rel.Locator, Fork: FSMForkNum, Block: blk})
			if got < 0 || !p.Desc(got).State.Has(BM_VALID) {
				t.Errorf("%v: FSM block %d in buffer %d, not valid", c.version, blk, got)
			}
		}
		if p.Stats.ReadsDisk+p.Stats.ReadsOSCache != 0 {
			t.Errorf("%v: new blocks were read", c.version)
		}
		// Asked again, the block exists: a hit, no file work.
		before = p.Elapsed()
		if err := p.ReleaseBuffer(b, id); err != nil {
			t.Fatal(err)
		}
		again, err := p.ExtendBufferedRelTo(b, rel, FSMForkNum, 2)
		if err != nil || again != id || p.Elapsed()-before != p.Cost.Lookup {
			t.Errorf("%v: block 2 again: buffer %d (%v), cost %v", c.version, again, err, p.Elapsed()-before)
		}
		if err := p.ReleaseBuffer(b, again); err != nil {
			t.Fatal(err)
		}
		if n := p.Desc(id).State.RefCount(); n != 0 || b.Buffers() != 0 {
			t.Errorf("%v: refcount %d, %d pins left", c.version, n, b.Buffers())
		}
	}
}
