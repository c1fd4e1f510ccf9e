package ring

import (
	"fmt"
	"math/rand/v2"

	"github.com/bufferscope/bufferscope/sim"
)

// Setup is one run of the ring lab: a lazy VACUUM pass over a table through its ring while
// clients run OLTP transactions on a hot table, the WAL writer flushing in the background.
type Setup struct {
	NBuffers int
	Version  sim.Version
	// RingKB is VACUUM's ring in kB (vacuum_buffer_usage_limit); 0 means no ring, -1 the
	// version's default.
	RingKB      int
	TableBlocks int
	// OSCacheFits: VACUUM reads the table from the kernel's page cache; false: from storage.
	OSCacheFits  bool
	DirtyPercent int // share of the table's pages VACUUM changes
	FlushLatency sim.Duration
	SyncCommit   bool
	// WALWriterDelay and WALWriterFlushAfter (bytes) are the WAL writer's settings.
	WALWriterDelay      sim.Duration
	WALWriterFlushAfter int
	Clients             int
	HotPercent          int // the hot table's size, in percent of shared_buffers
	Seed                uint64
	Cost                sim.CostModel // zero fields take their defaults; WALFlush is FlushLatency
	// Prewarmed loads the table into shared buffers first, as far as it fits (pg_prewarm):
	// the "cached" case of the fidelity harness. Not a parameter of the page.
	Prewarmed bool
	// HotBlocks, when not 0, is the hot table's size in pages in place of HotPercent, and
	// PrewarmHot loads it (without its index) into shared buffers as far as it fits when there
	// are no clients to: the fidelity harness's experiment 7. Not parameters of the page.
	HotBlocks  int
	PrewarmHot bool
	// ClientReads makes each client transaction one read of a random page of the hot table
	// and nothing else (no update, no commit record, no index): the fidelity harness's
	// clients reading the hot table during VACUUM. Not a parameter of the page.
	ClientReads bool
	// PageImage, when not nil, is the size in bytes of the full-page image VACUUM's record of
	// page blk carries: a checkpoint has just happened, so the first change of each page after
	// it logs the whole page (XLogInsert's doPageWrites), as after the fidelity harness's
	// CHECKPOINT before each VACUUM. Not a parameter of the page, whose runs are far from one.
	PageImage func(blk int) int
}

// The work this model charges beyond the cost model's primitives. Each is an assumption of
// this model, not a measurement, and none is chosen to match a published figure.
const (
	// pruneRecordBytes is the payload of the WAL record VACUUM writes for a page it prunes
	// or freezes (XLOG_HEAP2_PRUNE_FREEZE and its kin): a few dozen item offsets (assumed
	// 200 bytes; no full-page images, as if a checkpoint had not just happened).
	pruneRecordBytes = 200
	// updateRecordBytes is the payload of a heap UPDATE record (assumed 100 bytes).
	updateRecordBytes = 100
	// indexRecordBytes is the payload of a B-tree insert record (assumed 60 bytes).
	indexRecordBytes = 60
	// commitRecordBytes is the payload of a commit record without subtransactions or
	// dropped relations (assumed 16 bytes).
	commitRecordBytes = 16
	// nonHOTPercent is the share of updates that cannot be HOT and also insert an index
	// entry (assumed 30%).
	nonHOTPercent = 30
	// indexShare is the hot table's index's size against the table's (assumed 1/16).
	indexShare = 16
	// txnOverhead is what a client's transaction costs besides its page accesses: parsing,
	// planning and executing its statements and the round trips to its client (assumed
	// 200µs, a pgbench-like transaction on one core).
	txnOverhead = 200 * sim.Microsecond
	// xlogBlcksz is XLOG_BLCKSZ: the WAL writer writes whole WAL pages.
	xlogBlcksz = 8192
	// walSegSize is wal_segment_size's default: XLogWrite syncs each segment it finishes.
	walSegSize = 16 << 20
	// vacuumOtherPins are the pins VACUUM holds besides its read stream's and its page's: the
	// visibility map page, which lazy_scan_heap keeps pinned from page to page (vmbuffer).
	vacuumOtherPins = 1
)

// Process indexes in a vacuumRun's schedule.
const (
	procWALWriter = iota
	procVacuum
	procClients // the first client
)

// vacuumRun is the ring lab's scenario: it steps the processes in order of virtual time,
// one unit each: a page VACUUM vacuums, a client's transaction, a round of the WAL writer.
type vacuumRun struct {
	set   Setup
	p     *sim.Pool
	table *sim.Relation
	hot   *sim.Relation
	index *sim.Relation
	ring  *sim.BufferAccessStrategy
	// stream is VACUUM's read stream from PostgreSQL 18 on (sim.Version.VacuumReadStream):
	// it pins the table's buffers ahead of the page VACUUM works on; nil before 18.
	stream *sim.ReadStream
	vacB   sim.Backend
	cliB   []sim.Backend
	next   []sim.Duration // each process's next wake-up
	rng    *rand.Rand
	clock  sim.Duration // the virtual time of the unit under way
	charge sim.Duration // virtual time already handed to the Sim's clock

	loaded int // pages prewarm read into empty buffers (PostgreSQL 19)

	blk  int          // the next page VACUUM reads
	done bool         // VACUUM has passed the last page
	end  sim.Duration // when VACUUM finished

	// The WAL device: flushes are serial. busy is when the latest flush ends, queued when
	// it starts; a commit arriving before a queued flush starts joins it (group commit).
	busy, queued sim.Duration
	// flights are the flushes booked and not yet done, by end; durable is how far WAL is
	// synced by the unit under way (LogwrtResult.Flush). A unit starts with WAL.Flushed at
	// durable; a process that waits for a flight sees its target flushed.
	flights []flight
	durable sim.LSN
	// waited is the time the unit under way was charged waiting for others' flushes.
	waited sim.Duration
	// violation is the first broken rule met inside a step, for checkInvariants.
	violation error
	// inVacuum is set while VACUUM's unit runs.
	inVacuum bool
	// vacWait is the flush VACUUM's XLogFlush last waited for: its own, or one under way it
	// slept on. VACUUM is waiting until it ends.
	vacWait   flight
	lastFlush sim.Duration // the WAL writer's last flush
	asyncLSN  sim.LSN      // XLogCtl->asyncXactLSN: the latest asynchronous commit
	// written is how far WAL has been written to the kernel (LogwrtResult.Write); walBuffers
	// is how much inserted WAL the WAL buffers hold before an inserter must write some out.
	written, walBuffers sim.LSN
	walStart            sim.LSN // the insert position when the run began

	c counts
}

// flight is one WAL flush under way or queued: when it ends and how far it syncs.
type flight struct {
	start, end sim.Duration
	target     sim.LSN
}

// counts are the scenario's own counters.
type counts struct {
	vacuumFlushes, walwriterFlushes, commitFlushes, clientFlushes uint64
	segmentSyncs                                                  uint64 // XLogWrite's syncs of the WAL segments it finished
	vacuumWaits                                                   uint64 // VACUUM's XLogFlush waited for a flush under way
	commitsJoined                                                 uint64
	txns, fgAccesses, fgHits                                      uint64
	pagesDirtied                                                  uint64
	vacuumReads                                                   uint64 // VACUUM's reads without a read stream: its misses
}

// newVacuumRun builds the pool: the hot table and its index prewarmed, the table on disk.
func newVacuumRun(set Setup) (*vacuumRun, error) {
	cost := set.Cost
	cost.WALFlush = set.FlushLatency
	p, err := sim.NewPool(set.NBuffers, set.Version, cost)
	if err != nil {
		return nil, err
	}
	r := &vacuumRun{set: set, p: p, rng: rand.New(rand.NewPCG(set.Seed, set.Seed^0x9E3779B97F4A7C15))}
	rel := func(name string, blocks int) (*sim.Relation, error) {
		x := &sim.Relation{Name: name, Permanent: true, Locator: sim.RelFileLocator{
			SpcOid: sim.DefaultTablespaceOid, DbOid: sim.DefaultDatabaseOid, RelNumber: sim.FirstRelNumber + sim.Oid(len(p.Relations()))}}
		x.NBlocks[sim.MainForkNum] = sim.BlockNumber(max(blocks, 1))
		_, err := p.AddRelation(x)
		return x, err
	}
	if r.table, err = rel("vacuumed", set.TableBlocks); err != nil {
		return nil, err
	}
	hot := max(set.NBuffers*set.HotPercent/100, 1)
	if set.HotBlocks > 0 {
		hot = set.HotBlocks
	}
	if r.hot, err = rel("hot", hot); err != nil {
		return nil, err
	}
	if r.index, err = rel("hot_pkey", hot/indexShare); err != nil {
		return nil, err
	}
	if set.Prewarmed {
		if err := r.prewarm(r.table); err != nil {
			return nil, err
		}
	}
	if set.Clients > 0 {
		if !set.ClientReads {
			if err := r.prewarm(r.index); err != nil {
				return nil, err
			}
		}
		if err := r.prewarm(r.hot); err != nil {
			return nil, err
		}
	} else if set.PrewarmHot {
		if err := r.prewarm(r.hot); err != nil {
			return nil, err
		}
	}
	switch {
	case set.RingKB < 0:
		r.ring = p.GetAccessStrategy(sim.BAS_VACUUM)
	default:
		r.ring = p.GetAccessStrategyWithSize(sim.BAS_VACUUM, set.RingKB)
	}
	r.durable = p.WAL.Flushed
	r.written, r.walBuffers, r.walStart = p.WAL.Flushed, walBuffersBytes(set.NBuffers), p.WAL.Insert
	p.SetWALWait(r.walWait)
	r.vacB = sim.Backend{ID: 0}
	if set.Version.VacuumReadStream() {
		next := sim.BlockNumber(0)
		r.stream = p.NewReadStream(&r.vacB, r.ring, r.table.Locator, sim.MainForkNum, sim.ReadStreamMaintenance, vacuumOtherPins, func() (sim.BlockNumber, bool) {
			if int(next) >= set.TableBlocks {
				return 0, false
			}
			next++
			return next - 1, true
		})
	}
	r.cliB = make([]sim.Backend, set.Clients)
	r.next = make([]sim.Duration, procClients+set.Clients)
	r.next[procWALWriter] = set.WALWriterDelay
	for i := range r.cliB {
		r.cliB[i].ID = i + 1
	}
	p.TakeElapsed()
	return r, nil
}

// prewarm loads rel's pages into shared buffers as far as they fit, as pg_prewarm does
// before the run: from the freelist (sim.Pool.Prewarm) up to PostgreSQL 18; in 19, which has
// no freelist, by reading each page into an empty buffer while empty ones remain.
func (r *vacuumRun) prewarm(rel *sim.Relation) error {
	p := r.p
	if p.Version.HasFreelist() {
		p.Prewarm(rel, sim.MainForkNum)
		return nil
	}
	b := &sim.Backend{}
	stage := "Loading " + rel.Name + "'s pages (pg_prewarm)"
	total := int(min(rel.NBlocks[sim.MainForkNum], sim.BlockNumber(p.NBuffers-r.loaded)))
	for blk := range rel.NBlocks[sim.MainForkNum] {
		if r.loaded >= p.NBuffers {
			break
		}
		if sim.PaceDue(int(blk)) {
			sim.Pace(stage, int(blk), total)
		}
		id, err := p.ReadBuffer(b, sim.BufferTag{Locator: rel.Locator, Block: blk})
		if err != nil {
			return err
		}
		if err := p.ReleaseBuffer(b, id); err != nil {
			return err
		}
		r.loaded++
	}
	p.TakeElapsed()
	return nil
}

// Done reports whether VACUUM has passed the table's last page.
func (r *vacuumRun) Done() bool { return r.done }

// Step runs up to n units, each the process that wakes first (ties: the WAL writer, VACUUM,
// then clients in order), and hands the time passed to the Sim's clock, also when a unit
// fails (no unpinned buffer), so that the units before it count as they would one by one.
func (r *vacuumRun) Step(s *sim.Sim, n int) (int, error) {
	defer r.handTime()
	done := 0
	for ; done < n && !r.done; done++ {
		who := 0
		for i := 1; i < len(r.next); i++ {
			if r.next[i] < r.next[who] {
				who = i
			}
		}
		r.clock = r.next[who]
		r.settle()
		var cost sim.Duration
		var err error
		switch who {
		case procWALWriter:
			cost = r.walWriter()
		case procVacuum:
			cost, err = r.vacuumPage()
		default:
			cost, err = r.transaction(who - procClients)
		}
		if err != nil {
			return done, err
		}
		r.next[who] = r.clock + cost
		if who == procWALWriter {
			r.next[who] += r.set.WALWriterDelay
		}
		if who == procVacuum && r.done {
			r.end = r.next[who]
		}
	}
	return done, nil
}

// handTime hands the Sim's clock, which follows the schedule, the time passed since the
// last step.
func (r *vacuumRun) handTime() {
	now := r.clock
	if r.done {
		now = r.end
	}
	if now > r.charge {
		r.p.Charge(now - r.charge)
		r.charge = now
	}
}

// work runs fn and returns the virtual time it charged, with the wait for the WAL device
// of the flushes it made (sim's flushes charge the latency itself). A unit's flushes are
// serial: the first is asked at the unit's start, after any wait for another's flush the unit
// was charged (walWait), so that it does not wait for the device twice; each further one is
// asked when the one before has ended, so it waits for nothing but its own latency.
func (r *vacuumRun) work(fn func() error) (sim.Duration, uint64, error) {
	before := r.p.Stats.WALFlushes
	r.waited = 0
	err := fn()
	cost := r.p.TakeElapsed()
	flushes := r.p.Stats.WALFlushes - before
	t := r.clock + r.waited
	for i := range flushes {
		wait := r.device(t, r.p.WAL.Flushed)
		if i == 0 {
			cost += wait
		}
		t = r.busy
	}
	return cost, flushes, err
}

// device books one flush to target requested at t on the WAL device and returns how long
// the request waits for the flush before it to finish.
func (r *vacuumRun) device(t sim.Duration, target sim.LSN) sim.Duration {
	start := max(t, r.busy)
	r.queued, r.busy = start, start+r.set.FlushLatency
	r.flights = append(r.flights, flight{start: start, end: r.busy, target: target})
	return start - t
}

// settle retires the flights done by the unit's start and sets WAL.Flushed to what is durable.
func (r *vacuumRun) settle() {
	keep := r.flights[:0]
	for _, f := range r.flights {
		if f.end <= r.clock {
			r.durable = max(r.durable, f.target)
		} else {
			keep = append(keep, f)
		}
	}
	r.flights = keep
	r.p.WAL.Flushed = r.durable
}

// covering returns the first flight whose target reaches lsn.
func (r *vacuumRun) covering(lsn sim.LSN) (flight, bool) {
	for _, f := range r.flights {
		if f.target >= lsn {
			return f, true
		}
	}
	return flight{}, false
}

// walWait is XLogFlush's question (sim.Pool.SetWALWait): when a flight under way or queued
// covers lsn, the caller waits for it to end instead of flushing again.
func (r *vacuumRun) walWait(lsn sim.LSN) bool {
	f, ok := r.covering(lsn)
	if !ok {
		// XLogFlush writes and syncs all that is inserted: first each segment the write
		// finishes, then the rest, unless a segment's sync reached past lsn and the write
		// ended there.
		p := r.p
		if r.finishSegments(p.WAL.Insert, true, sim.ByBackend) > 0 && !p.WAL.XLogNeedsFlush(lsn) {
			p.XLogWrite(p.WAL.Insert, sim.ByBackend)
			return true
		}
		return false
	}
	if now := r.clock + r.p.Elapsed(); f.end > now {
		r.p.Charge(f.end - now)
		r.waited += f.end - now
	}
	r.p.WAL.Flushed = max(r.p.WAL.Flushed, f.target)
	if r.inVacuum {
		r.c.vacuumWaits++
		r.vacWait = f
	}
	return true
}

// vacuumPage is one page of lazy VACUUM's heap pass (lazy_scan_heap): read it through the
// ring, prune and freeze it if it has anything to prune (dirtying it under a WAL record),
// release it. A ring buffer VACUUM dirtied earlier is written when the ring comes round to
// it, after VACUUM itself flushes WAL up to its LSN when nobody has yet (GetVictimBuffer,
// FlushBuffer).
func (r *vacuumRun) vacuumPage() (sim.Duration, error) {
	p := r.p
	blk := r.blk
	r.inVacuum = true
	defer func() { r.inVacuum = false }()
	segments := r.c.segmentSyncs
	cost, flushes, err := r.work(func() error {
		if r.set.OSCacheFits {
			p.SetOSCache(100)
		} else {
			p.SetOSCache(0)
		}
		tag := sim.BufferTag{Locator: r.table.Locator, Block: sim.BlockNumber(blk)}
		before := 0 // the page's usage count, 0 when it is not in the pool
		if id := p.Lookup(tag); id >= 0 {
			before = p.Desc(id).State.UsageCount()
		}
		var id int
		var err error
		if r.stream != nil {
			// The stream pins the page, and those after it up to its distance, ahead.
			var ok bool
			if id, ok, err = r.stream.Next(); err == nil && (!ok || p.Desc(id).Tag != tag) && r.violation == nil {
				r.violation = fmt.Errorf("VACUUM's read stream handed buffer %d for page %d", id, blk)
			}
		} else {
			misses := p.Stats.Misses
			id, err = p.ReadBufferExtended(&r.vacB, tag, r.ring)
			r.c.vacuumReads += p.Stats.Misses - misses
		}
		p.SetOSCache(100)
		if err != nil {
			return err
		}
		if got, want := p.Desc(id).State.UsageCount(), max(before, 1); r.ring != nil && got != want && r.violation == nil {
			r.violation = fmt.Errorf("VACUUM's strategy pin of page %d took buffer %d's usage count from %d to %d, not %d", blk, id, before, got, want)
		}
		p.Charge(p.Cost.PageWork)
		if dirties(blk, r.set.DirtyPercent) {
			r.c.pagesDirtied++
			bytes := pruneRecordBytes
			if r.set.PageImage != nil {
				bytes += r.set.PageImage(blk)
			}
			if err := p.LogPageChange(&r.vacB, id, bytes); err != nil {
				return err
			}
			r.walBuffersFull()
		}
		return p.ReleaseBuffer(&r.vacB, id)
	})
	flushes -= r.c.segmentSyncs - segments
	r.c.vacuumFlushes += flushes
	if flushes > 0 {
		r.vacWait = r.flights[len(r.flights)-1] // the flush VACUUM booked for itself
	}
	r.blk++
	r.done = r.blk >= r.set.TableBlocks
	if r.done && r.stream != nil && err == nil {
		err = r.stream.End()
	}
	return cost, err
}

// dirties reports whether VACUUM changes page blk when pct percent of the pages need it,
// spread evenly: the pages where pct×(blk+1)/100 steps up.
func dirties(blk, pct int) bool { return pct*(blk+1)/100 > pct*blk/100 }

// transaction is one client's OLTP transaction: update a row of a random hot page (HOT), in
// nonHOTPercent of them also insert an index entry, then commit. With synchronous_commit on
// the commit flushes WAL up to its record, joining a flush queued but not yet started (group
// commit); with off it only tells the WAL writer (XLogSetAsyncXactLSN).
func (r *vacuumRun) transaction(i int) (sim.Duration, error) {
	p := r.p
	b := &r.cliB[i]
	hits, acc := p.Stats.Hits, p.Stats.Accesses
	nonHOT := r.rng.IntN(100) < nonHOTPercent
	heapBlk := r.rng.IntN(int(r.hot.NBlocks[sim.MainForkNum]))
	if r.set.ClientReads {
		return r.read(b, heapBlk)
	}
	idxBlk := r.rng.IntN(int(r.index.NBlocks[sim.MainForkNum]))
	segments := r.c.segmentSyncs
	cost, flushes, err := r.work(func() error {
		p.Charge(txnOverhead)
		if err := r.update(b, r.hot, heapBlk, updateRecordBytes); err != nil {
			return err
		}
		if nonHOT {
			if err := r.update(b, r.index, idxBlk, indexRecordBytes); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	r.c.clientFlushes += flushes - (r.c.segmentSyncs - segments)
	r.c.fgHits += p.Stats.Hits - hits
	r.c.fgAccesses += p.Stats.Accesses - acc
	r.c.txns++
	lsn := p.InsertWAL(commitRecordBytes)
	t := r.clock + cost + p.TakeElapsed()
	cost = t - r.clock
	if !r.set.SyncCommit {
		r.asyncLSN = lsn
		if r.writerHasWork(t) {
			r.next[procWALWriter] = min(r.next[procWALWriter], t)
		}
		return cost, nil
	}
	if !p.WAL.XLogNeedsFlush(lsn) {
		return cost, nil
	}
	if f, ok := r.covering(lsn); ok {
		// A flush under way or queued already takes this record.
		return max(cost, f.end-r.clock), nil
	}
	if n := len(r.flights); n > 0 && r.flights[n-1].start > t {
		// A flush is queued behind the one in progress and has not started: it takes this
		// commit's record too (whoever gets WALWriteLock flushes all that is inserted).
		r.flights[n-1].target = p.WAL.Insert
		r.c.commitsJoined++
		return r.flights[n-1].end - r.clock, nil
	}
	p.XLogFlush(lsn, sim.ByCommit)
	wait := r.device(t, p.WAL.Flushed)
	r.c.commitFlushes++
	return cost + wait + p.TakeElapsed(), nil
}

// read is a client's transaction under ClientReads: one page of the hot table read and
// released, and the statement's own work.
func (r *vacuumRun) read(b *sim.Backend, blk int) (sim.Duration, error) {
	p := r.p
	hits, acc := p.Stats.Hits, p.Stats.Accesses
	segments := r.c.segmentSyncs
	cost, flushes, err := r.work(func() error {
		p.Charge(txnOverhead)
		id, err := p.ReadBuffer(b, sim.BufferTag{Locator: r.hot.Locator, Block: sim.BlockNumber(blk)})
		if err != nil {
			return err
		}
		p.Charge(p.Cost.PageWork)
		return p.ReleaseBuffer(b, id)
	})
	r.c.clientFlushes += flushes - (r.c.segmentSyncs - segments)
	r.c.fgHits += p.Stats.Hits - hits
	r.c.fgAccesses += p.Stats.Accesses - acc
	r.c.txns++
	return cost, err
}

// update reads a page without a ring and changes it under a WAL record.
func (r *vacuumRun) update(b *sim.Backend, rel *sim.Relation, blk, bytes int) error {
	p := r.p
	id, err := p.ReadBuffer(b, sim.BufferTag{Locator: rel.Locator, Block: sim.BlockNumber(blk)})
	if err != nil {
		return err
	}
	p.Charge(p.Cost.PageWork)
	if err := p.LogPageChange(b, id, bytes); err != nil {
		return err
	}
	r.walBuffersFull()
	return p.ReleaseBuffer(b, id)
}

// walBuffersBytes mirrors XLOGChooseNumBuffers for wal_buffers = -1: NBuffers/32 WAL pages,
// at least 8 and at most one segment's worth.
func walBuffersBytes(nbuffers int) sim.LSN {
	return sim.LSN(min(max(nbuffers/32, 8), walSegSize/xlogBlcksz) * xlogBlcksz)
}

// walBuffersFull mirrors AdvanceXLInsertBuffer: when the WAL inserted and not yet written
// fills the WAL buffers, the inserting backend writes the oldest pages out itself (XLogWrite
// without a flush), which syncs a segment it finishes.
func (r *vacuumRun) walBuffersFull() {
	insert := r.p.WAL.Insert
	if insert-r.written <= r.walBuffers {
		return
	}
	upto := insert - r.walBuffers
	r.finishSegments(upto-upto%xlogBlcksz, false, sim.ByBackend)
}

// finishSegments mirrors XLogWrite's sync of each WAL segment its write finishes
// (issue_xlog_fsync when finishing_seg; LogwrtResult.Flush then reaches the segment's end):
// writing WAL up to upto syncs every segment end it passes, and the end it stops at when the
// write is not a flush, which would sync there itself. It returns the syncs it made.
//
// Reference: src/backend/access/transam/xlog.c, XLogWrite (finishing_seg).
func (r *vacuumRun) finishSegments(upto sim.LSN, flush bool, cause sim.Cause) int {
	n := 0
	for seg := (r.written/walSegSize + 1) * walSegSize; seg < upto || !flush && seg == upto; seg += walSegSize {
		if r.p.XLogWrite(seg, cause) {
			n++
		}
	}
	r.written = max(r.written, upto)
	r.c.segmentSyncs += uint64(n)
	return n
}

// writerTarget mirrors how XLogBackgroundFlush picks what to flush: WAL up to the last
// completed WAL page, or, when that is flushed already, up to the latest asynchronous commit.
func (r *vacuumRun) writerTarget() sim.LSN {
	w := r.p.WAL
	target := w.Insert - w.Insert%xlogBlcksz
	if target <= w.Flushed && r.asyncLSN > w.Flushed {
		target = r.asyncLSN
	}
	return target
}

// writerHasWork reports whether XLogBackgroundFlush at t would flush: something to flush, and
// wal_writer_flush_after of it or wal_writer_delay since the last flush.
func (r *vacuumRun) writerHasWork(t sim.Duration) bool {
	target := r.writerTarget()
	if target <= r.p.WAL.Flushed {
		return false
	}
	if _, ok := r.covering(target); ok {
		return false
	}
	return int(target-r.p.WAL.Flushed) >= r.set.WALWriterFlushAfter || t-r.lastFlush >= r.set.WALWriterDelay
}

// walWriter is one round of the WAL writer (WalWriterMain, XLogBackgroundFlush). It wakes
// every wal_writer_delay, and earlier when an asynchronous commit leaves it work.
func (r *vacuumRun) walWriter() sim.Duration {
	if !r.writerHasWork(r.clock) {
		return 0
	}
	target := r.writerTarget()
	segments := r.finishSegments(target, true, sim.ByWALWriter)
	r.p.XLogWrite(target, sim.ByWALWriter)
	wait := r.device(r.clock, r.p.WAL.Flushed)
	for range segments {
		r.device(r.clock, r.p.WAL.Flushed) // the segments' syncs, one after another
	}
	r.c.walwriterFlushes++
	r.lastFlush = r.clock
	return wait + r.p.TakeElapsed()
}

// checkInvariants checks the ring's own rules: its length within NBuffers/8, and no
// strategy pin of VACUUM's raising a page's usage count other than from 0 to 1 (checked at
// each read, as another backend may raise it by pinning the page normally).
func (r *vacuumRun) checkInvariants() error {
	if n := r.ring.RingSize(); n > max(r.p.NBuffers/8, 1) {
		return fmt.Errorf("ring of %d buffers, more than NBuffers/8 = %d", n, r.p.NBuffers/8)
	}
	return r.violation
}

// Backends lets the pool's invariants count the pins of VACUUM (its read stream's, from
// PostgreSQL 18) and of the clients (sim.ScenarioBackends).
func (r *vacuumRun) Backends(fn func(b *sim.Backend)) {
	fn(&r.vacB)
	for i := range r.cliB {
		fn(&r.cliB[i])
	}
}
