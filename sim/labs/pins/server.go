package pins

import (
	"fmt"
	"math/rand/v2"
	"sort"

	"github.com/bufferscope/bufferscope/sim"
)

// Policy is the rule by which a B-tree scan keeps or drops its leaf pin. The zero value is
// KeepPin.
type Policy uint8

// The pin policies.
const (
	// KeepPin is PostgreSQL before 9.5 (8217fb14): every scan keeps the pin on its current
	// leaf until it leaves the page.
	KeepPin Policy = iota
	// DropPin is PostgreSQL 9.5 to 18 (2ed5b87f96): an MVCC scan of a WAL-logged index
	// that is not index-only drops the pin after _bt_readpage.
	DropPin
	// DropPin19 is PostgreSQL 19 (8a879119a1): unlogged indexes get fake LSNs, so their
	// MVCC scans drop the pin too.
	DropPin19
)

var policyNames = [...]string{"keep-pin", "drop-pin", "pg19"}

// String returns "keep-pin", "drop-pin" or "pg19".
func (p Policy) String() string {
	if int(p) < len(policyNames) {
		return policyNames[p]
	}
	return fmt.Sprintf("policy%d", uint8(p))
}

// ParsePolicy reads a Policy as String writes it.
func ParsePolicy(s string) (Policy, error) {
	for i, n := range policyNames {
		if n == s {
			return Policy(i), nil
		}
	}
	return 0, fmt.Errorf("policy %q is not keep-pin, drop-pin or pg19", s)
}

// DropsPin mirrors the test in _bt_drop_lock_and_maybe_pin (so->dropPin from PostgreSQL 18,
// set in btrescan): whether a scan under policy p drops its leaf pin after reading the page.
// Non-MVCC snapshots and index-only scans (xs_want_itup) always keep it; before 19 so do
// scans of indexes that are not WAL-logged (RelationNeedsWAL).
func (p Policy) DropsPin(mvcc, logged, indexOnly bool) bool {
	switch p {
	case DropPin:
		return mvcc && logged && !indexOnly
	case DropPin19:
		return mvcc && !indexOnly
	}
	return false
}

// Config is one pins-lab server and its load.
type Config struct {
	Policy      Policy
	Clients     int
	Cores       int
	SelectShare float64 // share of transactions that are a SELECT; the rest UPDATE
	ZipfS       float64 // pgbench random_zipfian's parameter
	Rows        int
	Unique      bool
	Logged      bool
	IndexOnly   bool // the SELECTs are index-only scans
	Vacuum      bool
	// VacuumEvery is the time from the end of one VACUUM of the index to the start of the
	// next (autovacuum_naptime), in the server's time.
	VacuumEvery sim.Duration
	Seed        uint64
	Cost        Cost
}

// The phases of a client's transaction and of VACUUM.
const (
	pcBegin = iota
	pcRead
	pcHeap
	pcRowLock
	pcEPQ
	pcUpdate
	pcKill
	pcCommit
	pcRelease
	pcHandoff
	pcVacStart
	pcVacHeap
	pcVacLeaf
	pcVacDone
)

// proc is one backend: a pgbench client's or VACUUM's.
type proc struct {
	id       int
	backend  sim.Backend
	pc       int
	hasCore  bool
	update   bool
	key      int32
	scan     *Scan
	scanBuf  Scan // what scan points at between reads, reused by the next
	buf      int  // the leaf buffer the scan pins, -1 for none
	newTID   uint32
	oldTID   uint32
	extra    sim.Duration // CPU owed before the next phase (a wake-up)
	vacLeaf  int
	vacHeap  int // the next heap page VACUUM's heap pass looks at
	waitFrom sim.Duration
	xmin     uint64 // the transaction's snapshot's xmin
	xid      uint64 // its transaction ID, 0 before it has one
	// recent is the backend's RecentGlobalXmin (as a horizon) from its last snapshot,
	// VACUUM's OldestXmin from its start; hasRecent says it is set.
	recent    uint64
	hasRecent bool
	snapshot  bool // whether it holds a snapshot (MyPgXact->xmin is set)
	// heapPage is the heap page the scan's heap fetch holds pinned (IndexFetchHeapData's
	// xs_cbuf), -1 for none, and heapBuf its buffer.
	heapPage int32
	heapBuf  int
	// updPage is the page of the version the UPDATE replaces, as heap_update reads it.
	updPage int32
	hot     bool // the UPDATE is a HOT update
}

// event is a proc continuing at a time; seq breaks ties in order of scheduling.
type event struct {
	at  sim.Duration
	seq uint64
	p   int
}

// eventHeap is a binary min-heap of events by time, then seq: container/heap's algorithm,
// typed, so that scheduling an event puts nothing on the heap.
type eventHeap []event

func (h eventHeap) less(i, j int) bool {
	return h[i].at < h[j].at || h[i].at == h[j].at && h[i].seq < h[j].seq
}

// push adds e.
func (h *eventHeap) push(e event) {
	*h = append(*h, e)
	q := *h
	for i := len(q) - 1; i > 0; {
		up := (i - 1) / 2
		if !q.less(i, up) {
			break
		}
		q[i], q[up] = q[up], q[i]
		i = up
	}
}

// pop removes and returns the earliest event; the heap must not be empty.
func (h *eventHeap) pop() event {
	q := *h
	n := len(q) - 1
	q[0], q[n] = q[n], q[0]
	for i := 0; ; {
		j := 2*i + 1
		if j >= n {
			break
		}
		if r := j + 1; r < n && q.less(r, j) {
			j = r
		}
		if !q.less(j, i) {
			break
		}
		q[i], q[j] = q[j], q[i]
		i = j
	}
	*h = q[:n]
	return q[n]
}

// leafLock is a leaf's buffer content lock (an LWLock) as the model keeps it: the times
// until which a share and an exclusive holder hold it. A backend holds it only for the CPU
// work of one phase.
type leafLock struct{ shareUntil, exclUntil sim.Duration }

// Server is the pins lab's database server: the table and its index, whose pages are the
// pool's buffers, the backends, the cores they queue for, the row locks, the
// group-committing WAL flusher and VACUUM.
type Server struct {
	cfg     Config
	Pool    *sim.Pool
	Index   *Index
	heap    *heapTable
	rel     *sim.Relation // the index, pgbench_accounts_pkey
	heapRel *sim.Relation // the table, pgbench_accounts
	rng     *rand.Rand
	zipf    []float64

	now    sim.Duration
	seq    uint64
	events eventHeap
	procs  []*proc
	free   int   // idle cores
	runQ   []int // procs waiting for a core, first come first served
	runQAt int

	locks    map[*Leaf]*leafLock
	rowLock  map[int32]int   // key → proc holding its row lock
	rowWait  map[int32][]int // key → procs waiting for it, in order
	rowLive  map[int32]uint32
	flushing bool
	flushNow []int // commits the flush under way serves
	flushNxt []int // commits waiting for the next flush
	vac      *proc
	vacWait  int // buffer VACUUM waits to have alone, -1 for none
	cur      *proc
	// checking says the current backend's heap fetches are _bt_check_unique's.
	checking bool
	// snaps counts the active snapshots by their xmin; minSnap is at or below the oldest.
	// A new snapshot's xmin is the oldest running xid, never below an active xmin, so the
	// oldest only moves forward.
	snaps   map[uint64]int
	nSnaps  int
	minSnap uint64
	// nextXid is the next transaction ID; running holds the xids of running transactions
	// (UPDATEs take one at heap_update, SELECTs none) and minRun is at or below the oldest.
	nextXid uint64
	running map[uint64]bool
	minRun  uint64

	// Counters.
	Commits      uint64
	SliceCommits []uint64
	SliceLen     sim.Duration
	VacuumWait   sim.Duration
	VacuumWaits  uint64
	VacuumRuns   uint64
	RowLockWaits uint64
	ContentWaits uint64
	HeapVisits   uint64
	HOTUpdates   uint64
	Prunes       uint64
	// PruneBlocked counts the times a heap page was due for pruning but another backend's
	// pin denied the cleanup lock (heap_page_prune_opt, or VACUUM's heap pass).
	PruneBlocked uint64
	// VacuumHeapPages counts the heap pages VACUUM's heap pass read.
	VacuumHeapPages uint64
	Violations      []string
	bufOf           map[sim.BlockNumber]int // the buffer a leaf was last read into
	WaitingOnBlock  sim.BlockNumber         // the leaf VACUUM waits for, 0 for none
	err             error                   // why the server stopped (Err)
}

// Event is something the view or the event log may show.
type Event struct {
	Kind  EventKind
	Block sim.BlockNumber
	N     int
}

// EventKind is what an Event says happened.
type EventKind = sim.EventKind

// The lab's events.
const (
	EvHintSet EventKind = EventKind(sim.EvLabBase) + iota
	EvHintLost
	EvSplit
	EvVacuumWait
	EvVacuumGranted
)

// The relations of the server: pgbench's table and its primary key.
const (
	HeapRelation  = "pgbench_accounts"
	IndexRelation = "pgbench_accounts_pkey"
)

// NewServer builds the server of cfg: a pool of nbuffers buffers holding the table's and
// the index's pages, all clients about to begin. The pool starts as a long pgbench run
// leaves it: every page that fits is in shared buffers (the index first, then the table, as
// pg_prewarm would load them), clean.
func NewServer(cfg Config, nbuffers int, sliceLen sim.Duration) (*Server, error) {
	if cfg.Clients < 1 || cfg.Cores < 1 || cfg.Rows < 1 {
		return nil, fmt.Errorf("pins: clients, cores and rows must be at least 1")
	}
	p, err := sim.NewPool(nbuffers, 17, sim.CostModel{})
	if err != nil {
		return nil, err
	}
	ix := NewIndex(cfg.Rows, cfg.Unique, cfg.Logged, cfg.Policy == DropPin19 && !cfg.Logged)
	hp := newHeap(cfg.Rows)
	relation := func(name string, num sim.Oid, blocks int) (*sim.Relation, error) {
		r := &sim.Relation{
			Name:      name,
			Locator:   sim.RelFileLocator{SpcOid: sim.DefaultTablespaceOid, DbOid: sim.DefaultDatabaseOid, RelNumber: num},
			Permanent: cfg.Logged,
		}
		r.NBlocks[sim.MainForkNum] = sim.BlockNumber(blocks)
		_, err := p.AddRelation(r)
		return r, err
	}
	heapRel, err := relation(HeapRelation, sim.FirstRelNumber, len(hp.pages))
	if err != nil {
		return nil, err
	}
	rel, err := relation(IndexRelation, sim.FirstRelNumber+1, ix.Blocks())
	if err != nil {
		return nil, err
	}
	p.Prewarm(rel, sim.MainForkNum)
	p.Prewarm(heapRel, sim.MainForkNum)
	s := &Server{
		cfg: cfg, Pool: p, Index: ix, rel: rel, heapRel: heapRel, heap: hp,
		rng:   rand.New(rand.NewPCG(cfg.Seed, cfg.Seed^0x9E3779B97F4A7C15)),
		free:  cfg.Cores,
		locks: map[*Leaf]*leafLock{}, rowLock: map[int32]int{}, rowWait: map[int32][]int{}, rowLive: make(map[int32]uint32, cfg.Rows),
		vacWait: -1, SliceLen: sliceLen, bufOf: map[sim.BlockNumber]int{},
	}
	for _, l := range ix.Leaves {
		for _, it := range l.Items {
			s.rowLive[it.Key] = it.TID
		}
	}
	// The index's pages that Prewarm loaded, found through the mapping table: a scan of
	// every descriptor cost a 100GB pool a quarter of a second in one piece.
	for blk := range sim.BlockNumber(ix.Blocks()) {
		if id := p.Lookup(sim.BufferTag{Locator: rel.Locator, Fork: sim.MainForkNum, Block: blk}); id >= 0 {
			s.bufOf[blk] = id
		}
	}
	ix.stamp = s.stamp
	ix.walk = s.fetchTuple
	s.snaps = map[uint64]int{}
	s.running = map[uint64]bool{}
	s.nextXid, s.minRun, s.minSnap = 1, 1, 1
	ix.Horizon = s.recentHorizon
	s.zipf = zipfCDF(cfg.Rows, cfg.ZipfS)
	for i := range cfg.Clients {
		pr := &proc{id: i, backend: sim.Backend{ID: i}, buf: -1, heapPage: -1, heapBuf: -1}
		s.procs = append(s.procs, pr)
		// Clients connect one after another, a round trip apart in turn order.
		s.schedule(pr, sim.Duration(i)*cfg.Cost.NetRoundTrip/sim.Duration(cfg.Clients))
	}
	if cfg.Vacuum {
		s.vac = &proc{id: cfg.Clients, backend: sim.Backend{ID: cfg.Clients}, buf: -1, heapPage: -1, heapBuf: -1, pc: pcVacStart}
		s.procs = append(s.procs, s.vac)
		s.at(s.vac, cfg.VacuumEvery)
	}
	p.TakeElapsed()
	return s, nil
}

// zipfCDF returns the cumulative weights k^−s of keys 1..n, as pgbench's random_zipfian draws.
func zipfCDF(n int, s float64) []float64 {
	c := make([]float64, n)
	total := 0.0
	for k := 1; k <= n; k++ {
		total += 1 / sim.DetPow(float64(k), s)
		c[k-1] = total
	}
	return c
}

func (s *Server) drawKey() int32 {
	u := s.rng.Float64() * s.zipf[len(s.zipf)-1]
	return int32(sort.SearchFloat64s(s.zipf, u) + 1)
}

// BufferOf returns the buffer leaf block b was last read into, and whether there is one.
func (s *Server) BufferOf(b sim.BlockNumber) (int, bool) {
	id, ok := s.bufOf[b]
	return id, ok
}

// HeapPage is a heap page as the lab's view describes it.
type HeapPage struct {
	Block      sim.BlockNumber
	Tuples     int  // tuple versions taking space on it, live and dead
	Dead       int  // dead versions not yet pruned
	AllVisible bool // its visibility map bit
}

// HeapPageAt returns the heap page tag names, and whether it names one.
func (s *Server) HeapPageAt(tag sim.BufferTag) (HeapPage, bool) {
	if tag.Locator != s.heapRel.Locator || int(tag.Block) >= len(s.heap.pages) {
		return HeapPage{}, false
	}
	p := s.heap.pages[tag.Block]
	return HeapPage{Block: tag.Block, Tuples: p.used, Dead: len(p.dead), AllVisible: p.allVisible}, true
}

// LeafAt returns the leaf tag names, or nil (a heap page, the metapage).
func (s *Server) LeafAt(tag sim.BufferTag) *Leaf {
	if tag.Locator != s.rel.Locator {
		return nil
	}
	return s.Index.LeafByBlock(tag.Block)
}

// IsIndexPage reports whether tag names a page of the index.
func (s *Server) IsIndexPage(tag sim.BufferTag) bool { return tag.Locator == s.rel.Locator }

// horizon returns the newest xid whose deletions are dead to everyone: one below
// RecentGlobalXmin, the oldest xmin of an active snapshot (GetSnapshotData). A snapshot's
// xmin is the oldest xid running when it was taken, so a transaction that took its xid
// before the updater and still runs holds the updater's old versions back too.
func (s *Server) horizon() uint64 {
	if s.nSnaps == 0 {
		return s.oldestRunning() - 1
	}
	for s.minSnap < s.nextXid && s.snaps[s.minSnap] == 0 {
		s.minSnap++
	}
	return s.minSnap - 1
}

// recentHorizon is the horizon the current backend tests versions against: its
// RecentGlobalXmin from its last snapshot (VACUUM: its OldestXmin), else the exact one.
func (s *Server) recentHorizon() uint64 {
	if s.cur != nil && s.cur.hasRecent {
		return s.cur.recent
	}
	return s.horizon()
}

// oldestRunning returns the oldest xid still running, or the next xid when none runs.
// Xids are given out in order, so it only moves forward.
func (s *Server) oldestRunning() uint64 {
	for s.minRun < s.nextXid && !s.running[s.minRun] {
		s.minRun++
	}
	return s.minRun
}

// Now returns the server's clock.
func (s *Server) Now() sim.Duration { return s.now }

// at schedules pr to continue at time t.
func (s *Server) at(pr *proc, t sim.Duration) {
	s.seq++
	s.events.push(event{at: t, seq: s.seq, p: pr.id})
}

// schedule makes pr want a core at time t (after a wait or a round trip).
func (s *Server) schedule(pr *proc, t sim.Duration) { s.at(pr, t) }

// Step runs the next event and returns false when there is none.
func (s *Server) Step() (ok bool) {
	if s.err != nil || len(s.events) == 0 {
		return false
	}
	defer func() {
		if p := recover(); p != nil {
			short, is := p.(noBuffer)
			if !is {
				panic(p)
			}
			s.err, s.cur, ok = short.err, nil, false
		}
	}()
	e := s.events.pop()
	s.now = max(s.now, e.at)
	if e.p == len(s.procs) {
		s.endFlush()
		return true
	}
	pr := s.procs[e.p]
	if pr == s.vac {
		s.vacuumStep(pr)
		return true
	}
	if !pr.hasCore {
		if s.free == 0 {
			s.runQ = append(s.runQ, pr.id)
			return true
		}
		s.free--
		pr.hasCore = true
	}
	s.cur = pr
	s.clientStep(pr)
	s.cur = nil
	return true
}

// Err returns why the server stopped, or nil: a backend found no buffer for a leaf because
// every one was pinned (by the page's command-driven backends: the server's own pin at most
// half of the pool), as StrategyGetBuffer raises "no unpinned buffers available". The
// backend was in the middle of a phase, so the server takes no more steps.
func (s *Server) Err() error { return s.err }

// noBuffer is what pin panics with when the pool has no buffer for a leaf; Step recovers it
// into Err, so that the many calls between (an index change stamps its page through the
// pool) need not pass an error up.
type noBuffer struct{ err error }

// releaseCore gives pr's core to the first proc waiting in the run queue.
func (s *Server) releaseCore(pr *proc) {
	if !pr.hasCore {
		return
	}
	pr.hasCore = false
	if s.runQAt < len(s.runQ) {
		next := s.procs[s.runQ[s.runQAt]]
		s.runQAt++
		if s.runQAt > 1024 && s.runQAt*2 > len(s.runQ) {
			s.runQ = append(s.runQ[:0], s.runQ[s.runQAt:]...)
			s.runQAt = 0
		}
		next.hasCore = true
		s.at(next, s.now)
		return
	}
	s.free++
}

// run charges d of CPU to pr, which keeps its core, and continues at phase pc.
func (s *Server) run(pr *proc, d sim.Duration, pc int) {
	d += pr.extra
	pr.extra = 0
	pr.pc = pc
	s.at(pr, s.now+d)
}

// sleep makes pr give up its core and continue at phase pc when woken at t, paying the
// wake-up's CPU first.
func (s *Server) sleep(pr *proc, t sim.Duration, pc int) {
	s.releaseCore(pr)
	pr.pc = pc
	pr.extra += s.cfg.Cost.Wakeup
	s.at(pr, t)
}

func (s *Server) lock(l *Leaf) *leafLock {
	lk := s.locks[l]
	if lk == nil {
		lk = &leafLock{}
		s.locks[l] = lk
	}
	return lk
}

// readBuffer mirrors ReadBuffer of block blk of rel for pr, extending the relation when blk
// is just past its end (ReadBuffer of P_NEW), and returns the buffer, pinned. A hit is priced
// by the lab's own parts (each names the pins it includes), so the pool's charge for it is
// dropped. A miss of a page that existed adds to pr.extra what the pool's cost model charges
// for reading it (ReadOSCache, or ReadDisk) and for writing out a dirty victim (Write); the
// victim's WAL flush is not charged, as the lab's own commits keep the WAL flushed every few
// tens of microseconds (WALFlush). The lab's defaults hold the whole table and index, so
// misses happen only in a smaller pool.
func (s *Server) readBuffer(pr *proc, rel *sim.Relation, blk sim.BlockNumber) int {
	extend := blk >= rel.NBlocks[sim.MainForkNum]
	if extend {
		rel.NBlocks[sim.MainForkNum] = blk + 1 // _bt_split or RelationGetBufferForTuple extended it
	}
	st := &s.Pool.Stats
	cached, disk, writes := st.ReadsOSCache, st.ReadsDisk, st.DirtyWrites
	id, err := s.Pool.ReadBuffer(&pr.backend, sim.BufferTag{Locator: rel.Locator, Block: blk})
	if err != nil {
		panic(noBuffer{fmt.Errorf("pins: a backend could not read block %d of %s: %w; the server stopped: reset to start again", blk, rel.Name, err)})
	}
	s.Pool.TakeElapsed()
	if !extend {
		c := &s.Pool.Cost
		pr.extra += sim.Duration(st.ReadsOSCache-cached)*c.ReadOSCache + sim.Duration(st.ReadsDisk-disk)*c.ReadDisk +
			sim.Duration(st.DirtyWrites-writes)*c.Write
	}
	return id
}

// pin pins leaf l's buffer for pr (ReadBuffer) and returns it.
func (s *Server) pin(pr *proc, l *Leaf) int {
	id := s.readBuffer(pr, s.rel, l.Block)
	s.bufOf[l.Block] = id
	return id
}

// unpin releases pr's pin of buffer id and wakes VACUUM if it now has the buffer alone
// (UnpinBuffer's wake-up of a BM_PIN_COUNT_WAITER).
func (s *Server) unpin(pr *proc, id int) {
	if err := s.Pool.ReleaseBuffer(&pr.backend, id); err != nil {
		panic(err)
	}
	if s.vacWait == id && s.Pool.RefCount(id) == 1 {
		s.vacWait = -1
		s.at(s.vac, s.now)
	}
}

// stamp is the Index's hook for a WAL-logged change of leaf l: the current backend pins the
// page, logs the change through the pool (MarkBufferDirty, XLogInsert, PageSetLSN) and the
// leaf takes the pool's LSN. Unlogged pages take a fake LSN in PostgreSQL 19.
func (s *Server) stamp(l *Leaf) {
	pr := s.cur
	if pr == nil {
		pr = s.vac
	}
	id := s.pin(pr, l)
	if err := s.Pool.LogPageChange(&pr.backend, id, 64); err != nil {
		panic(err)
	}
	s.Pool.TakeElapsed()
	if s.cfg.Logged {
		l.LSN = s.Pool.Desc(id).LSN
		s.Index.lsn = l.LSN
	} else if s.Index.FakeLSN {
		s.Index.lsn++
		l.LSN = s.Index.lsn
	}
	s.unpin(pr, id)
}

func (s *Server) emit(e Event) {
	var b *sim.Backend
	if s.cur != nil {
		b = &s.cur.backend
	}
	id, ok := s.bufOf[e.Block]
	if !ok {
		id = -1
	}
	s.Pool.EmitLab(e.Kind, b, id, e.N)
}

// clientStep runs one phase of a pgbench client holding a core.
func (s *Server) clientStep(pr *proc) {
	c := &s.cfg.Cost
	ix := s.Index
	switch pr.pc {
	case pcBegin:
		// GetSnapshotData: the statement's snapshot, held until commit.
		pr.xmin, pr.snapshot = s.oldestRunning(), true
		s.snaps[pr.xmin]++
		s.nSnaps++
		// GetSnapshotData also computes RecentGlobalXmin, which this backend's pruning
		// and dead-tuple tests use until its next snapshot.
		pr.recent, pr.hasRecent = s.horizon(), true
		pr.update = s.rng.Float64() >= s.cfg.SelectShare
		pr.key = s.drawKey()
		pr.extra += c.Statement + sim.Duration(ix.Levels())*c.DescendLevel + sim.Duration(len(s.procs))*c.SnapshotPerBackend
		pr.pc = pcRead
		s.clientStep(pr)
	case pcRead:
		// _bt_first → _bt_readpage under a share lock on the leaf.
		l := ix.LeafOf(pr.key)
		lk := s.lock(l)
		if lk.exclUntil > s.now {
			s.ContentWaits++
			s.sleep(pr, lk.exclUntil, pcRead)
			return
		}
		pr.buf = s.pin(pr, l)
		keep := !s.cfg.Policy.DropsPin(true, s.cfg.Logged, s.cfg.IndexOnly && !pr.update)
		pr.scan = ix.ReadPageInto(&pr.scanBuf, pr.key, keep)
		d := c.ReadPage
		lk.shareUntil = max(lk.shareUntil, s.now+d)
		if !keep {
			// _bt_drop_lock_and_maybe_pin: the lock and the pin go now.
			pr.scan.Pinned = false
			s.unpin(pr, pr.buf)
			pr.buf = -1
		}
		s.run(pr, d, pcHeap)
	case pcHeap:
		// index_fetch_heap for each copied TID: fetchTuple moves the fetch's heap pin from
		// page to page and may prune them.
		n := ix.FetchHeap(pr.scan)
		s.HeapVisits += uint64(n)
		next := pcKill
		if pr.update {
			next = pcRowLock
		}
		s.run(pr, s.fetchCost(len(pr.scan.TIDs), n), next)
	case pcRowLock:
		if pr.xid == 0 {
			// heap_update's GetCurrentTransactionId: the UPDATE takes an xid before it
			// may wait for the row lock.
			pr.xid = s.nextXid
			s.nextXid++
			s.running[pr.xid] = true
		}
		if holder, held := s.rowLock[pr.key]; held && holder != pr.id {
			s.RowLockWaits++
			s.rowWait[pr.key] = append(s.rowWait[pr.key], pr.id)
			s.releaseCore(pr)
			pr.pc = pcEPQ
			return
		}
		s.rowLock[pr.key] = pr.id
		pr.oldTID = s.rowLive[pr.key]
		pr.updPage = s.heap.pageOf[pr.oldTID] // a commit since the fetch may have moved the row
		pr.pc = pcUpdate
		s.clientStep(pr)
	case pcEPQ:
		// Woken with the row lock: EvalPlanQual follows the update chain to the newest
		// version (heap_lock_tuple → heap_fetch), one more heap visit, its page pinned
		// while it looks.
		pr.oldTID = s.rowLive[pr.key]
		pr.updPage = s.heap.pageOf[pr.oldTID]
		s.HeapVisits++
		s.unpin(pr, s.readBuffer(pr, s.heapRel, sim.BlockNumber(pr.updPage)))
		s.run(pr, c.Wakeup+c.HeapVisit, pcUpdate)
	case pcUpdate:
		if hp := s.heap.pages[pr.updPage]; hp.used < HeapTuplesPerPage {
			// heap_update: the new version fits on the old one's page and no indexed
			// column changed (pgbench updates abalance), so it is a HOT update: no
			// index entry, no _bt_check_unique.
			hp.used++
			s.updateHeap(pr, pr.updPage, -1)
			pr.hot = true
			pr.newTID = 0
			s.run(pr, c.HeapUpdate, pcKill)
			return
		}
		pr.hot = false
		l := ix.LeafOf(pr.key)
		lk := s.lock(l)
		if t := max(lk.exclUntil, lk.shareUntil); t > s.now {
			s.ContentWaits++
			s.sleep(pr, t, pcUpdate)
			return
		}
		// heap_update puts the new version on another page (RelationGetBufferForTuple),
		// then ExecInsertIndexTuples inserts its index entry.
		target, _ := s.heap.target()
		s.updateHeap(pr, pr.updPage, target)
		d := c.HeapUpdate + sim.Duration(ix.Levels())*c.DescendLevel + c.IndexInsert
		if ix.Unique {
			marked := ix.HintsSet
			s.checking = true
			f, n := ix.CheckUnique(pr.key)
			s.checking = false
			s.HeapVisits += uint64(n)
			d += s.fetchCost(f, n)
			if m := ix.HintsSet - marked; m > 0 {
				s.emit(Event{Kind: EvHintSet, Block: l.Block, N: int(m)})
			}
		}
		splits, rewritten := ix.Splits, ix.HintsLostSplit
		tid, deleted, split := ix.Insert(pr.key)
		if m := ix.HintsLostSplit - rewritten; m > 0 {
			s.emit(Event{Kind: EvHintLost, Block: l.Block, N: int(m)})
		}
		pr.newTID = tid
		s.heap.place(tid, target)
		if deleted {
			d += c.SimpleDelete
		}
		if split {
			d += sim.Duration(ix.Splits-splits) * c.Split
			s.emit(Event{Kind: EvSplit, Block: l.Block})
		}
		lk.exclUntil = s.now + d
		s.run(pr, d, pcKill)
	case pcKill:
		sc := pr.scan
		d := sim.Duration(0)
		if len(sc.Killed) > 0 {
			lk := s.lock(sc.Leaf)
			if lk.exclUntil > s.now {
				s.ContentWaits++
				s.sleep(pr, lk.exclUntil, pcKill)
				return
			}
			if !sc.Pinned {
				pr.buf = s.pin(pr, sc.Leaf) // _bt_killitems reads the page again
			}
			before := sc.Leaf.LSN
			set, lost := ix.KillItems(sc)
			if !sc.Pinned && set > 0 && before != sc.LSN {
				s.Violations = append(s.Violations, fmt.Sprintf("a dropped-pin scan set %d hints on leaf %d whose LSN moved", set, sc.Leaf.Block))
			}
			if set > 0 {
				s.emit(Event{Kind: EvHintSet, Block: sc.Leaf.Block, N: set})
			}
			if lost > 0 {
				s.emit(Event{Kind: EvHintLost, Block: sc.Leaf.Block, N: lost})
			}
			d = c.KillItems
			lk.shareUntil = max(lk.shareUntil, s.now+d)
		}
		if pr.buf >= 0 {
			s.unpin(pr, pr.buf)
			pr.buf = -1
		}
		s.unpinHeap(pr)
		if pr.update {
			s.run(pr, d+c.Commit, pcCommit)
			return
		}
		s.run(pr, d+c.Commit, pcRelease)
	case pcCommit:
		if s.cfg.Logged {
			// XLogFlush of the commit record: wait for a flush that starts after it.
			s.releaseCore(pr)
			pr.pc = pcRelease
			pr.extra += c.Wakeup
			s.flushNxt = append(s.flushNxt, pr.id)
			if !s.flushing {
				s.startFlush()
			}
			return
		}
		pr.pc = pcRelease
		s.clientStep(pr)
	case pcRelease:
		if pr.extra > 0 {
			s.run(pr, 0, pcRelease) // pay the wake-up first
			return
		}
		if pr.update {
			// Release the row's locks: the lock manager wakes the first waiter after
			// walking the whole wait queue (ProcLockWakeup).
			s.run(pr, c.LockRelease+sim.Duration(len(s.rowWait[pr.key]))*c.WaitQueueScan, pcHandoff)
			return
		}
		pr.pc = pcHandoff
		s.clientStep(pr)
	case pcHandoff:
		if pr.update {
			hp := s.heap.pages[s.heap.pageOf[pr.oldTID]]
			if pr.hot {
				s.HOTUpdates++
				ix.CommitHOT()
				hp.dead = append(hp.dead, deadTuple{died: pr.xid, root: pr.oldTID})
			} else {
				ix.CommitAs(pr.newTID, pr.oldTID, pr.xid)
				hp.dead = append(hp.dead, deadTuple{died: pr.xid, root: pr.oldTID})
				s.rowLive[pr.key] = pr.newTID
			}
			s.heap.chain[pr.oldTID]++
			delete(s.rowLock, pr.key)
			if q := s.rowWait[pr.key]; len(q) > 0 {
				next := q[0]
				if len(q) == 1 {
					delete(s.rowWait, pr.key)
				} else {
					s.rowWait[pr.key] = q[1:]
				}
				s.rowLock[pr.key] = next
				s.at(s.procs[next], s.now)
			}
		}
		if pr.snapshot {
			if s.snaps[pr.xmin]--; s.snaps[pr.xmin] == 0 {
				delete(s.snaps, pr.xmin)
			}
			s.nSnaps--
			pr.snapshot = false
		}
		if pr.xid != 0 {
			delete(s.running, pr.xid)
			pr.xid = 0
		}
		s.Commits++
		if s.SliceLen > 0 {
			i := int(s.now / s.SliceLen)
			for len(s.SliceCommits) <= i {
				s.SliceCommits = append(s.SliceCommits, 0)
			}
			s.SliceCommits[i]++
		}
		s.releaseCore(pr)
		pr.pc = pcBegin
		pr.scan = nil
		s.at(pr, s.now+c.NetRoundTrip)
	}
}

// fetchCost is the CPU of fetches heap fetches through index TIDs that visited tuples heap
// tuples in all: a HeapVisit per fetch, a HOTMember per further chain version walked.
func (s *Server) fetchCost(fetches, tuples int) sim.Duration {
	c := &s.cfg.Cost
	return sim.Duration(fetches)*c.HeapVisit + sim.Duration(max(0, tuples-fetches))*c.HOTMember
}

// fetchTuple is the Index's hook for a heap fetch through index item tid by the current
// backend, and returns the heap tuples it visits (the item's HOT chain, which
// heap_hot_search_buffer walks). It mirrors heapam_index_fetch_tuple: when tid is on another
// page than the one the fetch holds, ReleaseAndReadBuffer moves the fetch's pin there and
// heap_page_prune_opt may prune the page. A scan's fetch keeps its last page pinned until
// the statement ends (index_endscan); a unique check's fetch (_bt_check_unique →
// table_index_fetch_tuple_check) begins and ends a fetch of its own for each item, so its
// pin goes at once.
func (s *Server) fetchTuple(tid uint32, live bool) int {
	if pr := s.cur; pr != nil {
		pg := s.heap.pageOf[tid]
		if s.checking {
			id := s.readBuffer(pr, s.heapRel, sim.BlockNumber(pg))
			pr.extra += s.pruneOpt(pr, id, pg)
			s.unpin(pr, id)
		} else if pg != pr.heapPage {
			s.unpinHeap(pr)
			pr.heapPage, pr.heapBuf = pg, s.readBuffer(pr, s.heapRel, sim.BlockNumber(pg))
			pr.extra += s.pruneOpt(pr, pr.heapBuf, pg)
		}
	}
	return s.heap.walk(tid, live)
}

// unpinHeap releases the pin pr's heap fetch holds, if any (index_fetch_end).
func (s *Server) unpinHeap(pr *proc) {
	if pr.heapBuf >= 0 {
		s.unpin(pr, pr.heapBuf)
		pr.heapPage, pr.heapBuf = -1, -1
	}
}

// pruneOpt mirrors heap_page_prune_opt on page pg in buffer id, which pr has just pinned: a
// page with less than a tenth of it free (pruneBelow) and a version dead to pr's
// RecentGlobalXmin is pruned if ConditionalLockBufferForCleanup succeeds, that is if pr's is
// the only pin; otherwise pruning waits for a later visit. It returns the CPU the pruning
// took (Prune).
func (s *Server) pruneOpt(pr *proc, id int, pg int32) sim.Duration {
	hp := s.heap.pages[pg]
	h := s.recentHorizon()
	if HeapTuplesPerPage-hp.used >= pruneBelow || !hp.prunable(h) {
		return 0
	}
	if !s.cleanupLock(pr, id) {
		s.PruneBlocked++
		return 0
	}
	s.prune(pr, id, hp, h)
	return s.cfg.Cost.Prune
}

// cleanupLock mirrors ConditionalLockBufferForCleanup on buffer id for pr: it succeeds only
// when pr pins the buffer once and no other backend pins it. Heap pages' content locks are
// not modelled, so the conditional exclusive lock always succeeds.
func (s *Server) cleanupLock(pr *proc, id int) bool {
	return pr.backend.PinCount(id) == 1 && s.Pool.RefCount(id) == 1
}

// prune mirrors heap_page_prune on page hp in buffer id under pr's cleanup lock, with the
// versions dead to everyone at horizon removed, and its WAL record (log_heap_prune: the
// page is dirtied and takes the record's LSN).
func (s *Server) prune(pr *proc, id int, hp *heapPage, horizon uint64) {
	if s.heap.prune(hp, horizon) == 0 {
		return
	}
	s.Prunes++
	s.logChange(pr, id)
}

// logChange WAL-logs a change of the page in buffer id, which pr pins (MarkBufferDirty,
// XLogInsert, PageSetLSN); an unlogged page is only dirtied.
func (s *Server) logChange(pr *proc, id int) {
	if err := s.Pool.LogPageChange(&pr.backend, id, 64); err != nil {
		panic(err)
	}
	s.Pool.TakeElapsed()
}

// updateHeap is heap_update's work on the heap pages for pr's transaction: it pins the page
// old of the version it replaces and, for a non-HOT update, the page target
// RelationGetBufferForTuple chose for the new version (-1 for a HOT update, whose new version
// goes on old), changes them under one WAL record, clears their visibility map bits
// (visibilitymap_clear) and releases them. The pins last only as long as heap_update.
func (s *Server) updateHeap(pr *proc, old, target int32) {
	ids := [2]int{s.readBuffer(pr, s.heapRel, sim.BlockNumber(old)), -1}
	s.heap.pages[old].written(pr.xid)
	if target >= 0 && target != old {
		ids[1] = s.readBuffer(pr, s.heapRel, sim.BlockNumber(target))
		s.heap.pages[target].written(pr.xid)
	}
	for _, id := range ids {
		if id >= 0 {
			s.logChange(pr, id)
			s.unpin(pr, id)
		}
	}
}

// CheckPins checks that every pin a backend holds between steps is one the model accounts
// for: a client's leaf under a policy that keeps it, VACUUM's leaf, and a heap fetch's page,
// each pinned once; a client between transactions holds none. The pool's own invariants
// check that each buffer's refcount is the number of backends pinning it, so the sum of the
// refcounts equals the pins accounted for, with the commands' (Sim.CommandPins), only if
// there is no other.
func (s *Server) CheckPins(commands int) error {
	held := 0
	for _, pr := range s.procs {
		for _, id := range [2]int{pr.buf, pr.heapBuf} {
			if id < 0 {
				continue
			}
			held++
			if n := pr.backend.PinCount(id); n != 1 {
				return fmt.Errorf("backend %d pins buffer %d %d times, want once", pr.id, id, n)
			}
		}
		if pr != s.vac && pr.pc == pcBegin && (pr.buf >= 0 || pr.heapBuf >= 0) {
			return fmt.Errorf("client %d holds pins between transactions", pr.id)
		}
		if pr.heapBuf >= 0 {
			if d := s.Pool.Desc(pr.heapBuf); d.Tag.Locator != s.heapRel.Locator || d.Tag.Block != sim.BlockNumber(pr.heapPage) {
				return fmt.Errorf("backend %d holds buffer %d for heap page %d, but it holds %s", pr.id, pr.heapBuf, pr.heapPage, d.Tag)
			}
		}
	}
	total := 0
	for id := range s.Pool.NBuffers {
		total += s.Pool.RefCount(id)
	}
	if total != held+commands {
		return fmt.Errorf("%d pins in the pool, %d accounted for (%d by the server's backends, %d by commands)", total, held+commands, held, commands)
	}
	return nil
}

// startFlush starts a flush of the WAL device: one flush at a time, each serving every
// commit that asked before it started (group commit). Its end is an event of a pseudo proc
// numbered len(procs).
func (s *Server) startFlush() {
	s.flushing = true
	s.flushNow, s.flushNxt = s.flushNxt, s.flushNow[:0]
	s.seq++
	s.events.push(event{at: s.now + s.cfg.Cost.WALFlush, seq: s.seq, p: len(s.procs)})
}

func (s *Server) endFlush() {
	for _, id := range s.flushNow {
		s.at(s.procs[id], s.now)
	}
	s.flushNow = s.flushNow[:0]
	s.flushing = false
	if len(s.flushNxt) > 0 {
		s.startFlush()
	}
}

// vacuumStep runs one step of VACUUM: lazy_scan_heap's pass over the heap, one page a step,
// then btvacuumscan's over the index, each leaf in order under a cleanup lock.
func (s *Server) vacuumStep(pr *proc) {
	ix := s.Index
	c := &s.cfg.Cost
	switch pr.pc {
	case pcVacStart:
		s.VacuumRuns++
		// GetOldestXmin once at the start: the whole run uses it.
		pr.recent, pr.hasRecent = s.horizon(), true
		pr.vacHeap, pr.vacLeaf = 0, 0
		pr.pc = pcVacHeap
		s.at(pr, s.now)
	case pcVacHeap:
		// lazy_scan_heap reads each page the visibility map does not let it skip
		// (lazy_scan_skip) and prunes it if ConditionalLockBufferForCleanup succeeds; a page
		// another backend pins is left unpruned rather than waited for (lazy_scan_noprune
		// from PostgreSQL 15, skipped before). A page left with nothing dead and no change
		// newer than OldestXmin becomes all-visible (visibilitymap_set). The visit costs a
		// fetch of the page's first tuple (HeapVisit) and a HOTMember for each further one:
		// the same line pointer and visibility test, on the locked page.
		pg := s.heap.nextToVacuum(pr.vacHeap)
		if pg >= len(s.heap.pages) {
			pr.pc = pcVacLeaf
			s.at(pr, s.now)
			return
		}
		hp := s.heap.pages[pg]
		id := s.readBuffer(pr, s.heapRel, sim.BlockNumber(pg))
		d := c.HeapVisit + sim.Duration(max(hp.used-1, 0))*c.HOTMember
		if s.cleanupLock(pr, id) {
			if hp.prunable(pr.recent) {
				s.prune(pr, id, hp, pr.recent)
				d += c.Prune
			}
			if !hp.allVisible && len(hp.dead) == 0 && hp.lastXid <= pr.recent {
				hp.allVisible = true
				if err := s.Pool.MarkBufferDirty(&pr.backend, id); err != nil { // PD_ALL_VISIBLE
					panic(err)
				}
			}
		} else if hp.prunable(pr.recent) {
			s.PruneBlocked++
		}
		s.unpin(pr, id)
		s.VacuumHeapPages++
		pr.vacHeap = pg + 1
		d += pr.extra
		pr.extra = 0
		s.at(pr, s.now+d)
	case pcVacLeaf:
		if pr.vacLeaf >= len(ix.Leaves) {
			pr.pc = pcVacStart
			s.WaitingOnBlock = 0
			s.at(pr, s.now+s.cfg.VacuumEvery)
			return
		}
		l := ix.Leaves[pr.vacLeaf]
		if pr.buf < 0 {
			pr.buf = s.pin(pr, l)
			pr.waitFrom = -1
		}
		// _bt_upgradelockbufcleanup → LockBufferForCleanup.
		ok, err := s.Pool.LockBufferForCleanup(&pr.backend, pr.buf)
		if err != nil {
			panic(err)
		}
		if !ok {
			if pr.waitFrom < 0 {
				pr.waitFrom = s.now
				s.VacuumWaits++
				s.WaitingOnBlock = l.Block
				s.emit(Event{Kind: EvVacuumWait, Block: l.Block})
			}
			s.vacWait = pr.buf
			return // woken by the last other unpin
		}
		if s.Pool.RefCount(pr.buf) != 1 {
			s.Violations = append(s.Violations, fmt.Sprintf("cleanup lock on leaf %d granted with %d pins", l.Block, s.Pool.RefCount(pr.buf)))
		}
		lk := s.lock(l)
		if t := max(lk.exclUntil, lk.shareUntil); t > s.now {
			s.at(pr, t) // the exclusive content lock waits for the holders
			return
		}
		if pr.waitFrom >= 0 {
			s.VacuumWait += s.now - pr.waitFrom
			s.WaitingOnBlock = 0
			s.emit(Event{Kind: EvVacuumGranted, Block: l.Block})
		}
		s.Pool.UnlockCleanup(&pr.backend, pr.buf)
		s.cur = pr
		ix.VacuumPage(l)
		s.cur = nil
		d := c.VacuumPage + pr.extra
		pr.extra = 0
		lk.exclUntil = s.now + c.VacuumPage
		s.unpin(pr, pr.buf)
		pr.buf = -1
		pr.vacLeaf++
		s.at(pr, s.now+d)
	}
}
