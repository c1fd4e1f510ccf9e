package pins

// HeapTuplesPerPage is how many pgbench_accounts rows fit on an 8 kB heap page at pgbench's
// default fillfactor 100: a 24-byte page header, then per row a 4-byte line pointer and a
// 121-byte tuple (23-byte header, aid, bid, abalance, filler char(84)) MAXALIGNed to 128:
// (8192 − 24) / 132 = 61.
const HeapTuplesPerPage = (8192 - 24) / (128 + 4)

// pruneBelow mirrors heap_page_prune_opt's trigger: a page is pruned when its free space is
// below max(the fillfactor's reserve, BLCKSZ/10); at fillfactor 100 that is BLCKSZ/10, about
// a tenth of the page's tuples.
const pruneBelow = HeapTuplesPerPage / 10

// skipPagesThreshold mirrors SKIP_PAGES_THRESHOLD (vacuumlazy.c): VACUUM skips a run of
// pages the visibility map marks all-visible only when the run is at least this long.
const skipPagesThreshold = 32

// heapPage is one heap page of the table as the HOT model needs it: how many tuples occupy
// space on it, the dead versions among them not yet pruned, its visibility map bit, and the
// newest transaction that wrote a tuple or an xmax on it. Its buffer, pins and LSN are the
// pool's.
type heapPage struct {
	used int
	dead []deadTuple
	// allVisible mirrors the page's bit in the visibility map (and PD_ALL_VISIBLE): every
	// tuple on it is visible to every snapshot. VACUUM sets it; any change clears it.
	allVisible bool
	// lastXid is the newest xid that wrote on the page: a page can be all-visible only once
	// it is below VACUUM's OldestXmin.
	lastXid uint64
}

// deadTuple is a superseded version still taking space on its page: the commit that
// superseded it and the index item (the HOT chain's root TID) through which it is reached.
type deadTuple struct {
	died uint64
	root uint32
}

// heapTable is the table: its pages (page i is block i of pgbench_accounts), the page of
// each index item's HOT chain, and how many dead, unpruned versions each chain holds (a
// fetch through the index walks them all, heap_hot_search_buffer).
type heapTable struct {
	pages  []*heapPage
	pageOf map[uint32]int32 // index item's root TID → its page
	chain  map[uint32]int   // root TID → dead versions of its chain still on the page
	tail   int32            // the page new non-HOT versions go to (RelationGetBufferForTuple)
}

// newHeap returns the table of rows rows as pgbench -i leaves it: pages filled in key order
// and, after its VACUUM, all-visible.
func newHeap(rows int) *heapTable {
	h := &heapTable{pageOf: make(map[uint32]int32, rows), chain: map[uint32]int{}}
	for k := 0; k < rows; k++ {
		if k%HeapTuplesPerPage == 0 {
			h.pages = append(h.pages, &heapPage{allVisible: true})
		}
		h.pages[len(h.pages)-1].used++
		h.pageOf[uint32(k+1)] = int32(len(h.pages) - 1) // NewIndex gives key k+1 TID k+1
	}
	h.tail = int32(len(h.pages) - 1)
	return h
}

// target mirrors RelationGetBufferForTuple for a new non-HOT version: the tail page, or a
// new page after it (the relation extended) when the tail is full. It returns the page and
// whether the table grew.
func (h *heapTable) target() (int32, bool) {
	if h.pages[h.tail].used < HeapTuplesPerPage {
		return h.tail, false
	}
	h.pages = append(h.pages, &heapPage{})
	h.tail = int32(len(h.pages) - 1)
	return h.tail, true
}

// place puts a new non-HOT version on page pg, which target chose.
func (h *heapTable) place(tid uint32, pg int32) {
	h.pages[pg].used++
	h.pageOf[tid] = pg
}

// written records that transaction xid wrote on page p (heap_update's old or new tuple):
// the page is no longer all-visible (visibilitymap_clear).
func (p *heapPage) written(xid uint64) {
	p.allVisible = false
	p.lastXid = max(p.lastXid, xid)
}

// nextToVacuum mirrors lazy_scan_skip (heap_vac_scan_next_block in PostgreSQL 17): the first
// page at or after from that VACUUM's heap pass reads. A run of all-visible pages is skipped
// when it is at least skipPagesThreshold long; a shorter one is read, as the kernel's
// readahead makes that cheaper than seeking. It returns len(pages) when none is left.
func (h *heapTable) nextToVacuum(from int) int {
	for from < len(h.pages) && h.pages[from].allVisible {
		end := from
		for end < len(h.pages) && h.pages[end].allVisible {
			end++
		}
		if end-from < skipPagesThreshold {
			return from
		}
		from = end
	}
	return from
}

// prune mirrors heap_page_prune on page p under its cleanup lock: every version dead to
// everyone (superseded by a commit at or before horizon) frees its space; a chain's pruned
// members are no longer walked (the root becomes a redirect or LP_DEAD stub). It returns
// the versions removed.
func (h *heapTable) prune(p *heapPage, horizon uint64) int {
	kept := p.dead[:0]
	n := 0
	for _, d := range p.dead {
		if d.died <= horizon {
			n++
			if h.chain[d.root]--; h.chain[d.root] <= 0 {
				delete(h.chain, d.root)
			}
			continue
		}
		kept = append(kept, d)
	}
	p.dead = kept
	p.used -= n
	return n
}

// prunable reports whether page p holds a version dead to everyone at horizon: the test
// heap_page_prune_opt makes of pd_prune_xid before it tries to prune.
func (p *heapPage) prunable(horizon uint64) bool {
	for _, d := range p.dead {
		if d.died <= horizon {
			return true
		}
	}
	return false
}

// walk returns the heap tuples a fetch through index item root visits: every version of its
// HOT chain not yet pruned, at least the line pointer.
func (h *heapTable) walk(root uint32, live bool) int {
	n := h.chain[root]
	if live {
		n++
	}
	return max(1, n)
}
