package sim

import (
	"maps"
	"slices"
)

// Prewarm loads the pages of one fork into free buffers, as pg_prewarm's buffer mode does,
// until the fork or the freelist runs out. The pages are clean, at usage count 1.
func (p *Pool) Prewarm(r *Relation, f ForkNumber) { p.PrewarmUsage(r, f, 1) }

// PrewarmUsage is Prewarm leaving each page at usage count usage (1 to BM_MAX_USAGE_COUNT):
// pages that were pinned that many times while they were loaded, as replay pins a page for
// each record it redoes (the inserts that filled a table's pages).
func (p *Pool) PrewarmUsage(r *Relation, f ForkNumber, usage int) {
	usage = min(max(usage, 1), BMMaxUsageCount)
	ri := p.cat.lookup(r.Locator)
	stage := "Loading " + r.Name + "'s pages (pg_prewarm)"
	total := int(min(r.NBlocks[f], BlockNumber(p.NBuffers)))
	var keys [prewarmBatch]tableKey
	var hashes [prewarmBatch]uint64
	for start := BlockNumber(0); start < r.NBlocks[f] && p.firstFree >= 0; start += prewarmBatch {
		n := int(min(r.NBlocks[f]-start, prewarmBatch))
		for i := range n {
			keys[i] = packTag(BufferTag{Locator: r.Locator, Fork: f, Block: start + BlockNumber(i)})
			hashes[i] = keys[i].hash()
		}
		p.table.touch(hashes[:n])
		for i := 0; i < n && p.firstFree >= 0; i++ {
			blk := start + BlockNumber(i)
			if PaceDue(int(blk)) {
				Pace(stage, int(blk), total)
			}
			id := int(p.firstFree)
			d := &p.desc[id]
			p.firstFree = d.freeNext
			d.freeNext = freeNextNotInList
			p.table.insert(keys[i], hashes[i], id)
			p.setTag(id, BufferTag{Locator: r.Locator, Fork: f, Block: blk}, ri)
			d.State = BM_TAG_VALID | BM_VALID | BufferState(usage)*BufUsagecountOne
			if r.Permanent {
				d.State |= BM_PERMANENT
			}
		}
	}
	if p.firstFree < 0 {
		p.lastFree = freeNextEndOfList
	}
}

// prewarmBatch is how many blocks Prewarm hashes ahead of inserting them.
const prewarmBatch = 16

// Clone returns a deep copy of the pool and of the given relations, which must be the
// pool's; the copy's catalog holds the copies.
func (p *Pool) Clone(rels []*Relation) (*Pool, []*Relation) {
	c := *p
	c.desc = pacedClone(p.desc, "Copying the buffer descriptors")
	c.relNums = slices.Clone(p.relNums)
	t := *p.table
	t.slots = pacedClone(p.table.slots, "Copying the mapping table")
	c.table = &t
	c.events = nil
	c.cleanupWaiter = maps.Clone(p.cleanupWaiter)
	c.cat = catalog{index: maps.Clone(p.cat.index), byName: maps.Clone(p.cat.byName)}
	copies := make(map[*Relation]*Relation, len(p.cat.rels))
	for _, r := range p.cat.rels {
		rc := *r
		for f, chunks := range r.diskLSN {
			rc.diskLSN[f] = make([]*[lsnChunk]LSN, len(chunks))
			for i, c := range chunks {
				if c != nil {
					cc := *c
					rc.diskLSN[f][i] = &cc
				}
			}
		}
		copies[r] = &rc
		c.cat.rels = append(c.cat.rels, &rc)
	}
	out := make([]*Relation, len(rels))
	for i, r := range rels {
		out[i] = copies[r]
	}
	return &c, out
}

// pacedClone copies s a slice of paceEvery elements at a time, telling the pacer (Pace) as
// it goes: a pool's descriptors and table are hundreds of megabytes at 100GB.
func pacedClone[T any](s []T, stage string) []T {
	out := make([]T, len(s))
	for i := 0; i < len(s); i += paceEvery {
		Pace(stage, i, len(s))
		copy(out[i:], s[i:min(i+paceEvery, len(s))])
	}
	return out
}
