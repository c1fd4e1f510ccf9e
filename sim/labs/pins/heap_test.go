package pins

import (
	"testing"

	"github.com/bufferscope/bufferscope/sim"
)

// newSmallServer is a server of 2 clients on a 1,000-row table in the lab's default pool,
// with no event run yet.
func newSmallServer(t *testing.T) *Server {
	t.Helper()
	v, problems := table.Parse(map[string]string{"clients": "2", "rows": "1000"})
	if len(problems) > 0 {
		t.Fatal(problems[0])
	}
	cfg, nb, _, slice := ConfigOf(v)
	s, err := NewServer(cfg, nb, slice)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// heapBuffer reads heap page pg for pr, as a fetch does, and returns its buffer.
func heapBuffer(s *Server, pr *proc, pg int32) int {
	return s.readBuffer(pr, s.heapRel, sim.BlockNumber(pg))
}

// The default pool holds the whole table and its index from the start, as a long pgbench
// run leaves them: the grid is the lab's pages.
func TestPoolHoldsTheTableAndIndex(t *testing.T) {
	r := newRun(t, nil)
	s := r.srv
	byRel := map[sim.RelFileLocator]int{}
	for id := range s.Pool.NBuffers {
		if d := s.Pool.Desc(id); d.State.Has(sim.BM_VALID) {
			byRel[d.Tag.Locator]++
		}
	}
	heapPages, indexPages := len(s.heap.pages), s.Index.Blocks()
	if byRel[s.heapRel.Locator] != heapPages || byRel[s.rel.Locator] != indexPages {
		t.Fatalf("the pool holds %d of the table's %d pages and %d of the index's %d", byRel[s.heapRel.Locator], heapPages, byRel[s.rel.Locator], indexPages)
	}
	if share := float64(heapPages+indexPages) / float64(s.Pool.NBuffers); share < 0.9 {
		t.Errorf("the table and index fill %.0f%% of the default pool, want most of it", 100*share)
	}
}

// A scan's heap fetch pins the heap page of each TID it follows, moving its one pin from
// page to page, and holds the last until the statement ends; the pool counts each as a pin
// of that page's buffer.
// Reference: src/backend/access/heap/heapam_handler.c, heapam_index_fetch_tuple
// (ReleaseAndReadBuffer); src/backend/access/index/indexam.c, index_fetch_heap.
func TestScanPinsItsHeapPage(t *testing.T) {
	r := newRun(t, map[string]string{"clients": "8"})
	s := r.srv
	seen := 0
	for range 20000 {
		if err := r.Sim().Step(1); err != nil {
			t.Fatal(err)
		}
		for _, pr := range s.procs[:s.cfg.Clients] {
			if pr.heapBuf < 0 {
				continue
			}
			seen++
			d := s.Pool.Desc(pr.heapBuf)
			if d.Tag.Locator != s.heapRel.Locator || int32(d.Tag.Block) != pr.heapPage || d.State.RefCount() < 1 {
				t.Fatalf("client %d holds buffer %d for heap page %d: tag %s, refcount %d", pr.id, pr.heapBuf, pr.heapPage, d.Tag, d.State.RefCount())
			}
			if pr.pc != pcRowLock && pr.pc != pcKill && pr.pc != pcEPQ && pr.pc != pcUpdate {
				t.Fatalf("client %d holds its heap page in phase %d, after its scan's fetch ended", pr.id, pr.pc)
			}
		}
		if err := s.CheckPins(0); err != nil {
			t.Fatal(err)
		}
	}
	if seen == 0 {
		t.Fatal("no client was ever seen holding a heap page pin")
	}
}

// heap_page_prune_opt prunes a nearly full heap page only under a cleanup lock, which it
// tries for and does not wait for: while another backend pins the page, the page stays
// as it is; once it is alone, the page is pruned and the change WAL-logged.
// Reference: src/backend/access/heap/pruneheap.c, heap_page_prune_opt;
// src/backend/storage/buffer/bufmgr.c, ConditionalLockBufferForCleanup.
func TestPruningNeedsTheCleanupLock(t *testing.T) {
	s := newSmallServer(t)
	a, b := s.procs[0], s.procs[1]
	hp := s.heap.pages[0]
	hp.used = HeapTuplesPerPage
	hp.dead = []deadTuple{{died: 0, root: 1}, {died: 0, root: 2}}
	s.heap.chain[1], s.heap.chain[2] = 1, 1
	held := heapBuffer(s, a, 0) // another backend's scan holds the page
	id := heapBuffer(s, b, 0)
	lsn := s.Pool.Desc(id).LSN
	if d := s.pruneOpt(b, id, 0); d != 0 || hp.used != HeapTuplesPerPage || s.PruneBlocked != 1 || s.Prunes != 0 {
		t.Fatalf("pruned while another backend pins the page: cost %v, used %d, blocked %d, prunes %d", d, hp.used, s.PruneBlocked, s.Prunes)
	}
	s.unpin(a, held)
	if d := s.pruneOpt(b, id, 0); d != s.cfg.Cost.Prune || hp.used != HeapTuplesPerPage-2 || len(hp.dead) != 0 || s.Prunes != 1 {
		t.Fatalf("alone on the page: cost %v, used %d, dead %d, prunes %d", d, hp.used, len(hp.dead), s.Prunes)
	}
	if d := s.Pool.Desc(id); !d.State.Has(sim.BM_DIRTY) || d.LSN <= lsn {
		t.Fatalf("the prune was not WAL-logged: dirty %v, LSN %s after %s", d.State.Has(sim.BM_DIRTY), d.LSN, lsn)
	}
	s.unpin(b, id)
	if err := s.CheckPins(0); err != nil {
		t.Fatal(err)
	}
}

// heap_update pins the page of the version it replaces (and, when the new version does not
// fit there, the page RelationGetBufferForTuple chose), changes them under WAL, clears their
// visibility map bits, and releases them before it returns.
// Reference: src/backend/access/heap/heapam.c, heap_update (visibilitymap_clear,
// XLogInsert, PageSetLSN); src/backend/access/heap/hio.c, RelationGetBufferForTuple.
func TestHeapUpdateChangesItsPages(t *testing.T) {
	s := newSmallServer(t)
	pr := s.procs[0]
	pr.xid = 7
	before := len(s.heap.pages)
	s.heap.pages[s.heap.tail].used = HeapTuplesPerPage
	target, grew := s.heap.target()
	if !grew || int(target) != before || s.heap.tail != target {
		t.Fatalf("a full tail gave page %d (grew %v) of %d", target, grew, before)
	}
	s.updateHeap(pr, 0, target)
	for _, pg := range []int32{0, target} {
		id, ok := bufferOfPage(s, pg)
		if !ok {
			t.Fatalf("heap page %d is not in the pool", pg)
		}
		d := s.Pool.Desc(id)
		if !d.State.Has(sim.BM_DIRTY) || d.LSN == 0 || d.State.RefCount() != 0 {
			t.Errorf("heap page %d after heap_update: dirty %v, LSN %s, refcount %d", pg, d.State.Has(sim.BM_DIRTY), d.LSN, d.State.RefCount())
		}
		if hp := s.heap.pages[pg]; hp.allVisible || hp.lastXid != 7 {
			t.Errorf("heap page %d after heap_update: all-visible %v, last xid %d", pg, hp.allVisible, hp.lastXid)
		}
	}
	if got := s.heapRel.NBlocks[sim.MainForkNum]; int(got) != before+1 {
		t.Errorf("the table has %d blocks after extending %d", got, before)
	}
}

// bufferOfPage returns the buffer holding heap page pg, if any.
func bufferOfPage(s *Server, pg int32) (int, bool) {
	for id := range s.Pool.NBuffers {
		if d := s.Pool.Desc(id); d.State.Has(sim.BM_TAG_VALID) && d.Tag.Locator == s.heapRel.Locator && d.Tag.Block == sim.BlockNumber(pg) {
			return id, true
		}
	}
	return -1, false
}

// VACUUM's heap pass skips runs of all-visible pages only when they are long enough; a
// shorter run is read.
// Reference: src/backend/access/heap/vacuumlazy.c, lazy_scan_skip (SKIP_PAGES_THRESHOLD).
func TestVacuumSkipsLongAllVisibleRuns(t *testing.T) {
	h := &heapTable{}
	// Pages 0-9 all-visible (a short run), 10 not, 11-50 all-visible (a long run), 51 not.
	for i := range 52 {
		h.pages = append(h.pages, &heapPage{allVisible: i != 10 && i != 51})
	}
	var read []int
	for pg := h.nextToVacuum(0); pg < len(h.pages); pg = h.nextToVacuum(pg + 1) {
		read = append(read, pg)
	}
	if len(read) != 12 || read[0] != 0 || read[10] != 10 || read[11] != 51 {
		t.Fatalf("VACUUM reads pages %v; want 0 to 10 (the short run is read) and 51 (the long run skipped)", read)
	}
}

// VACUUM's heap pass reads each page it does not skip, prunes it when no other backend pins
// it, and does not wait for one that is pinned: it leaves that page unpruned and goes on.
// Reference: src/backend/access/heap/vacuumlazy.c, lazy_scan_heap (ConditionalLockBufferForCleanup,
// lazy_scan_noprune).
func TestVacuumHeapPassDoesNotWaitForPins(t *testing.T) {
	s := newSmallServer(t)
	a := s.procs[0]
	for _, pg := range []int{0, 1} {
		hp := s.heap.pages[pg]
		hp.allVisible = false
		hp.dead = []deadTuple{{died: 0, root: uint32(pg*HeapTuplesPerPage + 1)}}
		s.heap.chain[hp.dead[0].root] = 1
	}
	held := heapBuffer(s, a, 0)
	v := s.vac
	s.vacuumStep(v) // pcVacStart
	s.vacuumStep(v) // page 0: pinned by a
	if v.vacHeap != 1 || s.PruneBlocked != 1 || len(s.heap.pages[0].dead) != 1 || s.vacWait >= 0 {
		t.Fatalf("on the pinned page: next %d, blocked %d, dead left %d, waiting on %d", v.vacHeap, s.PruneBlocked, len(s.heap.pages[0].dead), s.vacWait)
	}
	s.vacuumStep(v) // page 1: alone
	if v.vacHeap != 2 || len(s.heap.pages[1].dead) != 0 || !s.heap.pages[1].allVisible || s.Prunes != 1 {
		t.Fatalf("on the free page: next %d, dead left %d, all-visible %v, prunes %d", v.vacHeap, len(s.heap.pages[1].dead), s.heap.pages[1].allVisible, s.Prunes)
	}
	if s.heap.pages[0].allVisible {
		t.Error("the page VACUUM could not prune was marked all-visible")
	}
	for !(v.pc == pcVacLeaf) {
		s.vacuumStep(v)
	}
	if n := len(s.heap.pages); s.VacuumHeapPages != uint64(n) {
		t.Errorf("VACUUM read %d heap pages of %d; the all-visible run after page 1 is shorter than %d pages, so it is read", s.VacuumHeapPages, n, skipPagesThreshold)
	}
	s.unpin(a, held)
	if err := s.CheckPins(0); err != nil {
		t.Fatal(err)
	}
}

// The same values and seed give the same pool, page for page and pin for pin, however the
// steps are grouped; another seed another.
func TestSameSeedSameHash(t *testing.T) {
	hash := func(seed string, chunk int) uint64 {
		r := newRun(t, map[string]string{"clients": "12", "duration": "10s", "naptime": "1s", "seed": seed})
		for done := 0; done < 30000; done += chunk {
			if err := r.Sim().Step(chunk); err != nil {
				t.Fatal(err)
			}
		}
		return r.Sim().Hash()
	}
	a, b, c := hash("3", 1000), hash("3", 8), hash("4", 1000)
	if a != b {
		t.Fatalf("seed 3: hash %x in chunks of 1000, %x in chunks of 8", a, b)
	}
	if a == c {
		t.Fatalf("seeds 3 and 4 gave the same hash %x", a)
	}
}
