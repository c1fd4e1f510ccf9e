package sim

import "fmt"

// RestoredRelation names a relation whose pages rows of pg_buffercache show: its locator as
// the rows give it (reltablespace, reldatabase, relfilenode) and its name, as the server's
// catalog gives it (pg_class joined on pg_relation_filenode).
type RestoredRelation struct {
	Locator RelFileLocator
	Name    string
}

// RestoreBufferCache builds a simulation whose pool holds what rows of a real server's
// pg_buffercache show, for drawing and inspecting the real pool as the simulated one is
// drawn. It is the inverse of Pool.BufferCacheRow: each valid row's buffer gets the row's
// tag, BM_TAG_VALID|BM_VALID, BM_DIRTY when isdirty, the usage count and pinning_backends
// as its refcount (pg_buffercache_pages reads the same fields of the same descriptor), and
// an entry in the mapping table; buffers without a row or with an invalid one stay empty
// and, where the version has a freelist, on it in buffer order.
//
// A relation of rels is named as given; a locator the rows use without one of rels is named
// "relfilenode N". A relation's fork sizes are one past the highest block the rows show,
// as that is all rows of the buffer cache know of it. Pages count as permanent (BM_PERMANENT)
// unless their relation is unlogged, which the rows do not say: the picture is the same.
//
// The pool's pins belong to the real server's backends, not to any of the simulation's, so
// the result is for reading, never for stepping.
func RestoreBufferCache(nbuffers int, v Version, rels []RestoredRelation, rows []BufferCacheRow) (*Sim, error) {
	p, err := NewPool(nbuffers, v, CostModel{})
	if err != nil {
		return nil, err
	}
	for _, r := range rels {
		if _, err := p.AddRelation(&Relation{Name: r.Name, Locator: r.Locator, Permanent: true}); err != nil {
			return nil, err
		}
	}
	for _, row := range rows {
		id := row.BufferID - 1
		if id < 0 || id >= nbuffers {
			return nil, fmt.Errorf("pg_buffercache row for buffer %d: the pool has buffers 1 to %d", row.BufferID, nbuffers)
		}
		if !row.Valid {
			continue
		}
		if row.RelForkNumber > MaxForkNum || row.RelBlockNumber == InvalidBlockNumber {
			return nil, fmt.Errorf("pg_buffercache row for buffer %d: fork %d, block %d is no page", row.BufferID, row.RelForkNumber, row.RelBlockNumber)
		}
		if row.UsageCount < 0 || row.UsageCount > BMMaxUsageCount || row.PinningBackends < 0 || row.PinningBackends > int(BufRefcountMask) {
			return nil, fmt.Errorf("pg_buffercache row for buffer %d: usage count %d, %d pins are out of range", row.BufferID, row.UsageCount, row.PinningBackends)
		}
		loc := RelFileLocator{SpcOid: row.RelTablespace, DbOid: row.RelDatabase, RelNumber: row.RelFileNode}
		ri := p.cat.lookup(loc)
		if ri < 0 {
			if ri, err = p.AddRelation(&Relation{Name: fmt.Sprintf("relfilenode %d", row.RelFileNode), Locator: loc, Permanent: true}); err != nil {
				return nil, err
			}
		}
		rel := p.cat.rels[ri]
		rel.NBlocks[row.RelForkNumber] = max(rel.NBlocks[row.RelForkNumber], row.RelBlockNumber+1)
		tag := BufferTag{Locator: loc, Fork: row.RelForkNumber, Block: row.RelBlockNumber}
		k := packTag(tag)
		if other := p.table.insert(k, k.hash(), id); other >= 0 {
			return nil, fmt.Errorf("pg_buffercache rows for buffers %d and %d hold the same page %s", other+1, row.BufferID, tag)
		}
		if p.desc[id].State.Has(BM_TAG_VALID) {
			return nil, fmt.Errorf("pg_buffercache has two rows for buffer %d", row.BufferID)
		}
		p.setTag(id, tag, ri)
		st := BM_TAG_VALID | BM_VALID | BufferState(row.UsageCount)<<BufUsagecountShift | BufferState(row.PinningBackends)
		if row.IsDirty {
			st |= BM_DIRTY
		}
		if rel.Permanent && row.RelForkNumber != InitForkNum {
			st |= BM_PERMANENT
		}
		p.desc[id].State = st
	}
	p.relinkFreelist()
	return NewScenario(p, Config{}, nil), nil
}

// relinkFreelist puts every empty buffer on the freelist in buffer order and takes the
// others off it, where the version has one.
func (p *Pool) relinkFreelist() {
	if !p.Version.HasFreelist() {
		return
	}
	p.firstFree, p.lastFree = freeNextEndOfList, freeNextEndOfList
	for id := p.NBuffers - 1; id >= 0; id-- {
		d := &p.desc[id]
		if d.State.Has(BM_TAG_VALID) {
			d.freeNext = freeNextNotInList
			continue
		}
		d.freeNext = p.firstFree
		if p.firstFree < 0 {
			p.lastFree = int32(id)
		}
		p.firstFree = int32(id)
	}
}
