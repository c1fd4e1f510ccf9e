package sim

import "fmt"

// BufferAccessStrategyType mirrors BufferAccessStrategyType in bufmgr.h: which kind of bulk
// operation a ring of buffers serves. The zero value is BAS_NORMAL, no ring.
type BufferAccessStrategyType uint8

// The access strategies of bufmgr.h.
const (
	BAS_NORMAL    BufferAccessStrategyType = iota // no ring: the whole pool
	BAS_BULKREAD                                  // a large sequential scan
	BAS_BULKWRITE                                 // COPY FROM, CREATE TABLE AS
	BAS_VACUUM                                    // VACUUM, ANALYZE, autovacuum
)

var strategyNames = [...]string{"normal", "bulkread", "bulkwrite", "vacuum"}

// numStrategies is the number of BufferAccessStrategyTypes, the contexts of Stats.IO.
const numStrategies = len(strategyNames)

// String returns "normal", "bulkread", "bulkwrite" or "vacuum".
func (t BufferAccessStrategyType) String() string {
	if int(t) < len(strategyNames) {
		return strategyNames[t]
	}
	return fmt.Sprintf("strategy%d", uint8(t))
}

// BufferAccessStrategy mirrors BufferAccessStrategyData in freelist.c: a backend-local ring
// of buffer ids and the slot in use. Its buffers are ordinary shared buffers. Reuses, Rejects
// and Written count what the ring did (pg_stat_io's reuses, and the writes a ring's owner
// makes); they are simulation bookkeeping.
type BufferAccessStrategy struct {
	Type BufferAccessStrategyType
	// buffers are the ring's slots: buf_id+1, or 0 (InvalidBuffer) for an empty slot.
	buffers []int32
	current int
	// fromRing mirrors StrategyGetBuffer's from_ring out-parameter for the buffer last
	// returned.
	fromRing bool

	Reuses  uint64 // ring buffers reused (pg_stat_io reuses)
	Rejects uint64 // dirty ring buffers StrategyRejectBuffer gave up (BULKREAD only)
	Written uint64 // dirty victims the ring's owner wrote itself
}

// The ring sizes of freelist.c, in 8 kB buffers.
const (
	// RingBulkRead is BAS_BULKREAD's 256kB up to PostgreSQL 17.
	RingBulkRead = 256 * 1024 / BLCKSZ
	// RingBulkWrite is BAS_BULKWRITE's 16MB (6382448cf9, PostgreSQL 8.4).
	RingBulkWrite = 16 * 1024 * 1024 / BLCKSZ
	// RingVacuumOld is BAS_VACUUM's 256kB up to PostgreSQL 15 and the default of 16.
	RingVacuumOld = 256 * 1024 / BLCKSZ
	// RingVacuum17 is vacuum_buffer_usage_limit's default 2MB from PostgreSQL 17 (98f320eb2e).
	RingVacuum17 = 2 * 1024 * 1024 / BLCKSZ
)

// IOSettings are the server settings PostgreSQL 18 sizes BAS_BULKREAD from (15f0cb26b5):
// io_combine_limit and effective_io_concurrency, and the processes GetPinLimit divides
// NBuffers by; and maintenance_io_concurrency, which its read streams of VACUUM take
// (ReadStream). NewPool gives a pool DefaultIOSettings.
type IOSettings struct {
	IOCombineLimit           int // io_combine_limit, in blocks
	EffectiveIOConcurrency   int // effective_io_concurrency
	MaintenanceIOConcurrency int // maintenance_io_concurrency: a maintenance command's read streams' I/Os
	// PinLimitProcs is MaxBackends + NUM_AUXILIARY_PROCS (PinLimitProcs).
	PinLimitProcs int
}

// DefaultIOSettings are a default PostgreSQL 18 server's: io_combine_limit,
// effective_io_concurrency and maintenance_io_concurrency 16 (DEFAULT_*_IO_CONCURRENCY in
// bufmgr.h), and the processes of PinLimitProcs(100, 16, 8, 10), 174, which make the ring 94
// buffers at 128MB, what a real PostgreSQL 18 leaves of a seqscan.
var DefaultIOSettings = IOSettings{IOCombineLimit: 16, EffectiveIOConcurrency: 16, MaintenanceIOConcurrency: 16, PinLimitProcs: PinLimitProcs(100, 16, 8, 10)}

// IOSettingsOf returns a default server's I/O settings for version v: up to PostgreSQL 17,
// effective_io_concurrency 1 and maintenance_io_concurrency 10 (18 raised both to 16,
// ff79b5b2ab and cc6be07ebd); io_combine_limit is 16 blocks from 17, when it appeared. The pin-limit
// processes are 18's sum for every version: at the few pins a read stream of 17 holds, the
// share they give each backend (NBuffers/174) never binds.
func IOSettingsOf(v Version) IOSettings {
	io := DefaultIOSettings
	if v.Resolve() < 18 {
		io.EffectiveIOConcurrency, io.MaintenanceIOConcurrency = 1, 10
	}
	return io
}

// PinLimitProcs returns MaxBackends + NUM_AUXILIARY_PROCS, by which InitBufferManagerAccess
// divides NBuffers for MaxProportionalPins (GetPinLimit), for a server's max_connections,
// autovacuum_worker_slots, max_worker_processes and max_wal_senders: InitializeMaxBackends
// adds NUM_SPECIAL_WORKER_PROCS (2: the autovacuum launcher and the slot sync worker), and
// NUM_AUXILIARY_PROCS is 6 + MAX_IO_WORKERS (32).
// Reference: src/backend/utils/init/postinit.c, InitializeMaxBackends;
// src/include/storage/proc.h; src/backend/storage/buffer/bufmgr.c, InitBufferManagerAccess.
func PinLimitProcs(maxConnections, autovacuumWorkerSlots, maxWorkerProcesses, maxWalSenders int) int {
	const numSpecialWorkerProcs, numAuxiliaryProcs = 2, 6 + 32
	return maxConnections + autovacuumWorkerSlots + maxWorkerProcesses + maxWalSenders + numSpecialWorkerProcs + numAuxiliaryProcs
}

// VacuumRingBuffers returns the buffers of the VACUUM ring of version v before the
// NBuffers/8 cap: 32 up to PostgreSQL 16, 256 from 17 (vacuum_buffer_usage_limit's default).
func VacuumRingBuffers(v Version) int {
	if v.Resolve() >= 17 {
		return RingVacuum17
	}
	return RingVacuumOld
}

// GetAccessStrategy mirrors GetAccessStrategy in freelist.c for pool p: BAS_NORMAL gives nil
// (no ring); the others get their version's size, capped at NBuffers/8.
func (p *Pool) GetAccessStrategy(t BufferAccessStrategyType) *BufferAccessStrategy {
	var n int
	switch t {
	case BAS_NORMAL:
		return nil
	case BAS_BULKREAD:
		n = RingBulkRead
		if p.Version.Resolve() >= 18 {
			// 256kB + io_combine_limit × effective_io_concurrency pages, at most
			// max(256kB, GetPinLimit() pages).
			io := p.IO
			n = min(RingBulkRead+io.IOCombineLimit*io.EffectiveIOConcurrency, max(RingBulkRead, p.NBuffers/max(io.PinLimitProcs, 1)))
		}
	case BAS_BULKWRITE:
		n = RingBulkWrite
	case BAS_VACUUM:
		n = VacuumRingBuffers(p.Version)
	}
	return p.GetAccessStrategyWithSize(t, n*BLCKSZ/1024)
}

// GetAccessStrategyWithSize mirrors GetAccessStrategyWithSize in freelist.c (PostgreSQL
// 16+): a ring of kB kilobytes (BUFFER_USAGE_LIMIT, vacuum_buffer_usage_limit), nil when that
// is less than one buffer, and never more than NBuffers/8 buffers.
func (p *Pool) GetAccessStrategyWithSize(t BufferAccessStrategyType, kB int) *BufferAccessStrategy {
	n := kB / (BLCKSZ / 1024)
	if t == BAS_NORMAL || n == 0 {
		return nil
	}
	n = min(n, p.NBuffers/8)
	// PostgreSQL allocates NBuffers/8 ≥ 2 for any pool; keep one slot in the smallest.
	n = max(n, 1)
	return &BufferAccessStrategy{Type: t, buffers: make([]int32, n)}
}

// RingSize returns the ring's number of slots (GetAccessStrategyBufferCount); 0 for nil.
func (s *BufferAccessStrategy) RingSize() int {
	if s == nil {
		return 0
	}
	return len(s.buffers)
}

// Buffers returns the ring's slots in order: a buffer id, or -1 for an empty slot.
func (s *BufferAccessStrategy) Buffers(dst []int) []int {
	dst = dst[:0]
	if s == nil {
		return dst
	}
	for _, b := range s.buffers {
		dst = append(dst, int(b)-1)
	}
	return dst
}

// Current returns the slot in use.
func (s *BufferAccessStrategy) Current() int { return s.current }

// getBufferFromRing mirrors GetBufferFromRing in freelist.c: advance to the next slot; an
// empty slot gives -1 (the caller's clock-sweep victim will fill it); a slot whose buffer
// nobody pins and whose usage count is at most 1 gives that buffer; any other gives -1 and
// the clock sweep's victim takes the slot over, the old buffer staying in the pool.
func (p *Pool) getBufferFromRing(s *BufferAccessStrategy) int {
	if s.current++; s.current >= len(s.buffers) {
		s.current = 0
	}
	b := s.buffers[s.current]
	if b == 0 {
		return -1
	}
	id := int(b - 1)
	d := &p.desc[id]
	p.Stats.DescriptorsChecked++
	p.charge(p.Cost.DescriptorCheck)
	if d.State.RefCount() == 0 && d.State.UsageCount() <= 1 {
		return id
	}
	return -1
}

// addBufferToRing mirrors AddBufferToRing: the current slot takes buffer id.
func (s *BufferAccessStrategy) addBufferToRing(id int) { s.buffers[s.current] = int32(id + 1) }

// strategyRejectBuffer mirrors StrategyRejectBuffer in freelist.c: only BAS_BULKREAD gives up
// a dirty buffer that needs a WAL flush, and only one that came from its current slot, which
// it empties so that a ring of dirty buffers cannot loop. PostgreSQL 19 also keeps
// unlogged buffers (11e0824bd9).
func (p *Pool) strategyRejectBuffer(s *BufferAccessStrategy, id int, fromRing bool) bool {
	if s.Type != BAS_BULKREAD {
		return false
	}
	if p.Version.Resolve() >= 19 && !p.desc[id].State.Has(BM_PERMANENT) {
		return false
	}
	if !fromRing || s.buffers[s.current] != int32(id+1) {
		return false
	}
	s.buffers[s.current] = 0
	s.Rejects++
	return true
}

// ReadBufferExtended mirrors ReadBufferExtended(…, RBM_NORMAL, strategy) for a shared
// buffer: ReadBuffer through a ring. A nil strategy is plain ReadBuffer. With one, a hit pins
// the buffer raising its usage count only from 0 to 1 (PinBuffer with a strategy), and a miss
// takes its victim from the ring first (StrategyGetBuffer, GetVictimBuffer).
func (p *Pool) ReadBufferExtended(b *Backend, tag BufferTag, s *BufferAccessStrategy) (int, error) {
	if s == nil {
		return p.ReadBuffer(b, tag)
	}
	ri := p.cat.lookup(tag.Locator)
	if ri < 0 {
		return -1, fmt.Errorf("relation %d does not exist", tag.Locator.RelNumber)
	}
	rel := p.cat.rels[ri]
	if tag.Fork > MaxForkNum || tag.Block >= rel.NBlocks[tag.Fork] {
		return -1, fmt.Errorf("block %d is beyond the end of %s fork of %q", tag.Block, tag.Fork, rel.Name)
	}
	p.Stats.Accesses++
	key := packTag(tag)
	hash := key.hash()
	p.lockPartition(hash)
	p.Stats.Lookups++
	p.charge(p.Cost.Lookup)
	id := p.table.lookup(key, hash)
	if id >= 0 {
		n := b.tryAddPin(id)
		if n == 0 {
			n = b.addPin(id)
		}
		d := &p.desc[id]
		if n == 1 {
			d.State += BufRefcountOne
			if d.State.UsageCount() == 0 {
				d.State += BufUsagecountOne
			}
			p.emitBackend(EvPin, b, id)
		}
		if d.State.Has(BM_VALID) {
			p.Stats.Hits++
			p.Stats.IO[s.Type].Hits++
			p.emitBackend(EvHit, b, id)
			return id, nil
		}
	} else {
		p.strategy = s
		var err error
		id, err = p.bufferAlloc(b, tag, key, hash, ri)
		p.strategy = nil
		if err != nil {
			return -1, err
		}
	}
	p.Stats.IO[s.Type].Reads++
	p.readPage(b, id, rel, tag)
	return id, nil
}

// SetOSCache sets the share of misses, in percent (0 to 100), that the kernel's page cache
// serves; the others are read from storage. A pool built by NewPool has no random source, so
// only 0 and 100 are exact there: anything below 100 then reads from storage.
func (p *Pool) SetOSCache(percent int) { p.osCache = min(max(percent, 0), 100) }

// XLogFlush mirrors XLogFlush: when WAL is not yet flushed past lsn, write and sync it as far
// as the furthest write request (everything inserted so far), charging one WAL flush to cause.
// It reports whether it flushed.
func (p *Pool) XLogFlush(lsn LSN, cause Cause) bool {
	n := p.Stats.WALFlushes
	p.xlogFlush(lsn, cause)
	return p.Stats.WALFlushes != n
}

// XLogWrite mirrors the WAL writer's XLogWrite with flexible false (XLogBackgroundFlush):
// write and sync WAL exactly up to upto (never past the insert position), charging one WAL
// flush to cause. It reports whether it flushed.
func (p *Pool) XLogWrite(upto LSN, cause Cause) bool {
	upto = min(upto, p.WAL.Insert)
	if upto <= p.WAL.Flushed {
		return false
	}
	p.WAL.Flushed = upto
	p.flushedWAL(cause, upto)
	return true
}

// SetWALWait lets a scenario whose WAL flushes take time say that a flush already under way
// covers lsn: XLogFlush then asks fn before flushing, and when fn returns true it does not
// flush, fn having charged the caller's wait for that flush and moved WAL.Flushed past lsn
// (the caller's XLogFlush returns once the flush it waited for is done, as one that waited
// for WALWriteLock finds the WAL flushed). Nil, the default, flushes at once.
func (p *Pool) SetWALWait(fn func(lsn LSN) bool) { p.walWait = fn }

// InsertWAL inserts a WAL record of n payload bytes that changes no buffer (a commit
// record) and returns its end, charging one WAL insertion.
func (p *Pool) InsertWAL(n int) LSN {
	p.charge(p.Cost.WALInsert)
	return p.WAL.xlogInsert(n)
}

// SeqScanStrategy mirrors initscan in heapam.c: a sequential scan of a relation of nblocks
// pages uses the BAS_BULKREAD ring when the relation is larger than NBuffers/4, and no ring
// otherwise (nil).
func (p *Pool) SeqScanStrategy(nblocks BlockNumber) *BufferAccessStrategy {
	if int64(nblocks) > int64(p.NBuffers/4) {
		return p.GetAccessStrategy(BAS_BULKREAD)
	}
	return nil
}
