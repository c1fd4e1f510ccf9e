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

// heapPage is one heap page of the table as the HOT model needs it: how many tuples occupy
// space on it, the dead versions among them not yet pruned, and how many backends pin it.
type heapPage struct {
	used int
	dead []deadTuple
	pins int
}

// deadTuple is a superseded version still taking space on its page: the commit that
// superseded it and the index item (the HOT chain's root TID) through which it is reached.
type deadTuple struct {
	died uint64
	root uint32
}

// heapTable is the table: its pages, the page of each index item's HOT chain, and how many dead,
// unpruned versions each chain holds (a fetch through the index walks them all,
// heap_hot_search_buffer).
type heapTable struct {
	pages  []*heapPage
	pageOf map[uint32]int32 // index item's root TID → its page
	chain  map[uint32]int   // root TID → dead versions of its chain still on the page
	tail   int32            // the page new non-HOT versions go to (RelationGetBufferForTuple)
}

func newHeap(rows int) *heapTable {
	h := &heapTable{pageOf: make(map[uint32]int32, rows), chain: map[uint32]int{}}
	for k := 0; k < rows; k++ {
		if k%HeapTuplesPerPage == 0 {
			h.pages = append(h.pages, &heapPage{})
		}
		h.pages[len(h.pages)-1].used++
		h.pageOf[uint32(k+1)] = int32(len(h.pages) - 1) // NewIndex gives key k+1 TID k+1
	}
	h.tail = int32(len(h.pages) - 1)
	return h
}

// place puts a new non-HOT version on the tail page, extending the table when it is full.
func (h *heapTable) place(tid uint32) {
	if h.pages[h.tail].used >= HeapTuplesPerPage {
		h.pages = append(h.pages, &heapPage{})
		h.tail = int32(len(h.pages) - 1)
	}
	h.pages[h.tail].used++
	h.pageOf[tid] = h.tail
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

// walk returns the heap tuples a fetch through index item root visits: every version of its
// HOT chain not yet pruned, at least the line pointer.
func (h *heapTable) walk(root uint32, live bool) int {
	n := h.chain[root]
	if live {
		n++
	}
	return max(1, n)
}
