package sim

import "fmt"

// ExtendBufferedRelTo mirrors how recovery extends a fork to reach a block a WAL record
// names: XLogReadBufferExtended with RBM_ZERO_ON_ERROR for a block past the end of the file
// (the free space map and visibility map pages a VACUUM's records touch first). It creates
// the fork's file when the fork has no blocks (smgrcreate: an open with O_CREAT, one FileOp),
// then adds zeroed blocks up to and including blk, each in a buffer of its own that is valid
// at once, as a new page needs no read. Before PostgreSQL 16 each block is its own smgrextend
// (ReadBufferWithoutRelcache with P_NEW in a loop: one Write per block); from 16
// ExtendBufferedRelTo zero-extends the file in one call (smgrzeroextend: one FileZero or
// FileFallocate, one Write). The block's buffer comes back pinned by b, like ReadBuffer's.
//
// Reference: src/backend/access/transam/xlogutils.c, XLogReadBufferExtended;
// src/backend/storage/buffer/bufmgr.c, ExtendBufferedRelTo (31966b151e, 16);
// src/backend/storage/smgr/md.c, mdcreate, mdextend, mdzeroextend.
func (p *Pool) ExtendBufferedRelTo(b *Backend, rel *Relation, f ForkNumber, blk BlockNumber) (int, error) {
	ri := p.cat.lookup(rel.Locator)
	if ri < 0 {
		return -1, fmt.Errorf("relation %d does not exist", rel.Locator.RelNumber)
	}
	if f > MaxForkNum {
		return -1, fmt.Errorf("fork %d does not exist", f)
	}
	if blk < rel.NBlocks[f] {
		return p.readBuffer(b, BufferTag{Locator: rel.Locator, Fork: f, Block: blk}, ri)
	}
	if rel.NBlocks[f] == 0 {
		p.charge(p.Cost.FileOp) // mdcreate
	}
	oneCall := p.Version.Resolve() >= 16
	if oneCall {
		p.charge(p.Cost.Write) // smgrzeroextend
	}
	id := -1
	for rel.NBlocks[f] <= blk {
		if id >= 0 {
			if err := p.ReleaseBuffer(b, id); err != nil {
				return -1, err
			}
		}
		if !oneCall {
			p.charge(p.Cost.Write) // mdextend of one zeroed block
		}
		tag := BufferTag{Locator: rel.Locator, Fork: f, Block: rel.NBlocks[f]}
		rel.NBlocks[f]++
		key := packTag(tag)
		hash := key.hash()
		p.Stats.Accesses++
		p.lockPartition(hash) // BufferAlloc looks the new block up first, and finds nothing
		p.Stats.Lookups++
		p.charge(p.Cost.Lookup)
		var err error
		if id, err = p.bufferAlloc(b, tag, key, hash, ri); err != nil {
			return -1, err
		}
		p.desc[id].State |= BM_VALID
	}
	return id, nil
}
