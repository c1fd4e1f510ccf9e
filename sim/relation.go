package sim

import "fmt"

// Relation is one relation whose pages the simulation can load: its physical locator, its
// size per fork and what its pages' LSNs were when last written (the simulated disk).
type Relation struct {
	Name    string
	Locator RelFileLocator
	// Permanent reports whether the relation is WAL-logged (BM_PERMANENT); unlogged and
	// temporary relations are not.
	Permanent bool
	// NBlocks is the size of each fork in blocks (smgrnblocks).
	NBlocks [MaxForkNum + 1]BlockNumber
	// SizeCached mirrors smgr_cached_nblocks being valid for each fork: set once the
	// startup process has asked for the fork's size (smgrnblocks, smgrextend, smgrtruncate)
	// during recovery. smgrnblocks_cached uses it only while InRecovery.
	SizeCached [MaxForkNum + 1]bool
	diskLSN    [MaxForkNum + 1][]*[lsnChunk]LSN
}

// Exists mirrors smgrexists: the main fork always exists, the others once they have blocks.
func (r *Relation) Exists(f ForkNumber) bool { return f == MainForkNum || r.NBlocks[f] > 0 }

// Default OIDs of the simulated cluster: pg_default, the first user database, and the first
// relfilenumber a new cluster hands out (FirstNormalObjectId).
const (
	DefaultTablespaceOid Oid = 1663
	DefaultDatabaseOid   Oid = 16384
	FirstRelNumber       Oid = 16384
)

// catalog holds the relations known to a pool and finds them by locator.
type catalog struct {
	rels   []*Relation
	index  map[RelFileLocator]int32
	byName map[string]int32
}

// add registers r and returns its index, or an error if its locator or name is taken.
func (c *catalog) add(r *Relation) (int, error) {
	if c.index == nil {
		c.index, c.byName = make(map[RelFileLocator]int32), make(map[string]int32)
	}
	if _, ok := c.index[r.Locator]; ok {
		return 0, fmt.Errorf("relation %d already exists", r.Locator.RelNumber)
	}
	if _, ok := c.byName[r.Name]; ok {
		return 0, fmt.Errorf("relation %q already exists", r.Name)
	}
	c.rels = append(c.rels, r)
	c.index[r.Locator] = int32(len(c.rels) - 1)
	c.byName[r.Name] = int32(len(c.rels) - 1)
	return len(c.rels) - 1, nil
}

// nextRelNumber returns the relfilenumber a new relation takes: one past the highest in
// use, FirstRelNumber in an empty catalog, as GetNewRelFileNumber hands out one no relation
// has (a lab may number its own relations as it likes).
func (c *catalog) nextRelNumber() Oid {
	next := FirstRelNumber
	for _, r := range c.rels {
		next = max(next, r.Locator.RelNumber+1)
	}
	return next
}

// lookup returns the index of the relation with locator l, or -1.
func (c *catalog) lookup(l RelFileLocator) int {
	if i, ok := c.index[l]; ok {
		return int(i)
	}
	return -1
}

// lookupName returns the index of the relation called name, or -1.
func (c *catalog) lookupName(name string) int {
	if i, ok := c.byName[name]; ok {
		return int(i)
	}
	return -1
}

// lsnChunk is how many page LSNs one chunk of the simulated disk holds.
const lsnChunk = 4096

// pageLSN returns the LSN stored on disk for a page: zero for a page never written.
func (r *Relation) pageLSN(f ForkNumber, b BlockNumber) LSN {
	if s := r.diskLSN[f]; int(b/lsnChunk) < len(s) && s[b/lsnChunk] != nil {
		return s[b/lsnChunk][b%lsnChunk]
	}
	return 0
}

// setPageLSN records the LSN a page carried when it was written. The disk is kept in chunks
// allocated on first write, so memory follows the pages written, not the relation's size.
func (r *Relation) setPageLSN(f ForkNumber, b BlockNumber, lsn LSN) {
	c := int(b / lsnChunk)
	if c >= len(r.diskLSN[f]) {
		r.diskLSN[f] = append(r.diskLSN[f], make([]*[lsnChunk]LSN, c+1-len(r.diskLSN[f]))...)
	}
	if r.diskLSN[f][c] == nil {
		r.diskLSN[f][c] = new([lsnChunk]LSN)
	}
	r.diskLSN[f][c][b%lsnChunk] = lsn
}
