package sim

import (
	"errors"
	"fmt"
	"unsafe"
)

// BufferDesc mirrors BufferDesc in buf_internals.h: the header of one shared buffer. The page
// LSN lives on the page itself in PostgreSQL; the simulation keeps it here.
type BufferDesc struct {
	Tag   BufferTag
	State BufferState
	LSN   LSN
	// freeNext mirrors freeNext: the next buffer on the freelist, freeNextEndOfList, or
	// freeNextNotInList.
	freeNext int32
	// rel is the catalog index of the tag's relation, or -1: simulation bookkeeping for
	// drawing, not a PostgreSQL field.
	rel int32
}

// The freelist link values of freelist.c.
const (
	freeNextEndOfList int32 = -1
	freeNextNotInList int32 = -2
)

// ErrNoUnpinnedBuffers is StrategyGetBuffer's error when the clock hand has passed NBuffers
// pinned buffers in a row.
var ErrNoUnpinnedBuffers = errors.New("no unpinned buffers available")

// Pool is the shared buffer pool: NBuffers descriptors, the mapping table, the freelist and
// the clock hand, with the WAL and the relations whose pages it holds. Every operation charges
// its primitives to the cost model; the caller collects the time with takeElapsed.
type Pool struct {
	NBuffers int
	Version  Version
	Cost     CostModel
	WAL      WAL
	Stats    Stats
	// InRecovery mirrors InRecovery: the pool belongs to the startup process replaying WAL,
	// the only place smgrnblocks_cached answers.
	InRecovery bool
	// Drop holds the settings of DropRelationBuffers and DropRelationsAllBuffers.
	Drop DropSettings
	// IO holds the I/O settings PostgreSQL 18 sizes its bulk-read ring from.
	IO IOSettings

	desc       []BufferDesc
	relNums    []Oid // each descriptor's tag's relfilenumber, packed for fast scans
	table      *bufTable
	partLocks  [NumBufferPartitions]uint64 // acquisitions of each mapping partition lock
	firstFree  int32                       // StrategyControl->firstFreeBuffer
	lastFree   int32                       // StrategyControl->lastFreeBuffer
	nextVictim uint64                      // clock ticks so far; the hand is nextVictim % NBuffers
	cat        catalog

	elapsed Duration
	events  []Event
	// osCache is the share of misses, in percent, that the kernel's page cache serves; the
	// others go to storage. Draws come from pcg, the simulation's random source; a pool
	// without one reads everything from the page cache.
	osCache int
	pcg     *pcg
	// strategy is the ring of the ReadBufferExtended under way, nil otherwise: the ring
	// StrategyGetBuffer and GetVictimBuffer are called with.
	strategy *BufferAccessStrategy
	// walWait, when set, is asked by XLogFlush before it flushes (SetWALWait).
	walWait func(lsn LSN) bool
	// cleanupWaiter holds, by buffer, the backend waiting in LockBufferForCleanup
	// (BufferDesc's wait_backend_pgprocno).
	cleanupWaiter map[int]int
}

// NewPool returns a pool of nbuffers empty buffers, all on the freelist in buffer order, as
// InitBufferPool leaves them.
func NewPool(nbuffers int, v Version, cost CostModel) (*Pool, error) {
	if nbuffers < MinNBuffers {
		return nil, fmt.Errorf("NBuffers %d is below the minimum %d", nbuffers, MinNBuffers)
	}
	if nbuffers > MaxNBuffers {
		return nil, fmt.Errorf("NBuffers %d is above this simulator's maximum %d", nbuffers, MaxNBuffers)
	}
	// The three arrays are hundreds of megabytes at 100GB, and memory the heap has had
	// before is cleared when it is handed out again: the pacer hears between them.
	const stage = "Allocating the pool"
	Pace(stage, 0, 3)
	desc := make([]BufferDesc, nbuffers)
	Pace(stage, 1, 3)
	relNums := make([]Oid, nbuffers)
	Pace(stage, 2, 3)
	table := newBufTable(nbuffers + NumBufferPartitions)
	p := &Pool{
		NBuffers:  nbuffers,
		Version:   v.Resolve(),
		Cost:      cost.ForPool(nbuffers),
		WAL:       WAL{Insert: walStart, Flushed: walStart},
		desc:      desc,
		relNums:   relNums,
		table:     table,
		firstFree: 0,
		lastFree:  int32(nbuffers - 1),
		osCache:   100,
		IO:        IOSettingsOf(v),
	}
	linked := p.Version.HasFreelist()
	for i := range p.desc {
		if PaceDue(i) {
			Pace("Setting up the buffer descriptors", i, nbuffers)
		}
		p.desc[i].freeNext = int32(i + 1)
		if !linked {
			p.desc[i].freeNext = freeNextNotInList
		}
		p.desc[i].rel = -1
	}
	if linked {
		p.desc[nbuffers-1].freeNext = freeNextEndOfList
	} else {
		p.firstFree, p.lastFree = freeNextEndOfList, freeNextEndOfList
	}
	return p, nil
}

// MaxNBuffers is the largest pool the simulator builds: 100 GB of 8 kB pages, which fits the
// 4 GiB address space of WebAssembly.
const MaxNBuffers = 13107200

// Desc returns a copy of buffer id's descriptor.
func (p *Pool) Desc(id int) BufferDesc { return p.desc[id] }

// Lookup returns the buffer holding tag, or -1, as BufTableLookup finds it, for a caller
// that checks the pool: it charges nothing, counts nothing and takes no lock.
func (p *Pool) Lookup(tag BufferTag) int {
	k := packTag(tag)
	return p.table.lookup(k, k.hash())
}

// ClockHand returns the buffer the clock sweep examines next.
func (p *Pool) ClockHand() int { return int(p.nextVictim % uint64(p.NBuffers)) }

// Relations returns the relations the pool knows, in creation order.
func (p *Pool) Relations() []*Relation { return p.cat.rels }

// AddRelation registers a relation whose pages can be read, and returns its catalog index.
func (p *Pool) AddRelation(r *Relation) (int, error) { return p.cat.add(r) }

func (p *Pool) charge(d Duration) { p.elapsed += d }

// takeElapsed returns the virtual time charged since the last call and resets it.
func (p *Pool) takeElapsed() Duration {
	d := p.elapsed
	p.elapsed = 0
	return d
}

// maxEvents bounds the events kept for one command: a frame that runs a million steps
// keeps the first ones, enough to animate, instead of growing without limit.
const maxEvents = 1 << 14

func (p *Pool) emit(e Event) {
	if len(p.events) < maxEvents {
		p.events = append(p.events, e)
	}
}

// emitBackend records an event of backend b on buffer id. Unlike emit it builds the event
// only once it knows there is room for it, so a long command past maxEvents pays for the
// length check alone. It stays small enough to inline into pinBuffer and unpinBuffer.
func (p *Pool) emitBackend(kind EventKind, b *Backend, id int) {
	if len(p.events) < maxEvents {
		p.events = append(p.events, Event{Kind: kind, Backend: int16(b.ID), Buffer: int32(id)})
	}
}

// lockPartition counts one acquisition of the mapping partition lock for hash.
func (p *Pool) lockPartition(hash uint64) { p.partLocks[BufTablePartition(hash)]++ }

// ReadBuffer mirrors ReadBuffer_common for a shared buffer: it returns buffer id holding tag,
// pinned by backend b, loading the page through BufferAlloc on a miss.
func (p *Pool) ReadBuffer(b *Backend, tag BufferTag) (int, error) {
	ri := p.cat.lookup(tag.Locator)
	if ri < 0 {
		return -1, fmt.Errorf("relation %d does not exist", tag.Locator.RelNumber)
	}
	return p.readBuffer(b, tag, ri)
}

// readBuffer is ReadBuffer for a caller that knows the relation's catalog index. It does the
// first half of BufferAlloc itself — the lookup under the shared partition lock, and PinBuffer
// on a hit — and calls bufferAlloc for the rest on a miss, so a hit costs one call fewer.
func (p *Pool) readBuffer(b *Backend, tag BufferTag, ri int) (int, error) {
	rel := p.cat.rels[ri]
	if tag.Fork > MaxForkNum || tag.Block >= rel.NBlocks[tag.Fork] {
		return -1, fmt.Errorf("block %d is beyond the end of %s fork of %q (%d blocks)", tag.Block, tag.Fork, rel.Name, rel.NBlocks[min(tag.Fork, MaxForkNum)])
	}
	p.Stats.Accesses++
	key := packTag(tag)
	hash := key.hash()
	p.lockPartition(hash)
	p.Stats.Lookups++
	p.charge(p.Cost.Lookup)
	id := p.table.lookup(key, hash)
	if id < 0 {
		var err error
		if id, err = p.bufferAlloc(b, tag, key, hash, ri); err != nil {
			return -1, err
		}
	} else {
		n := b.tryAddPin(id)
		if n == 0 {
			n = b.addPin(id)
		}
		if p.pinBuffer(b, id, n) {
			p.Stats.Hits++
			p.emitBackend(EvHit, b, id)
			return id, nil
		}
	}
	// A miss, or a buffer found without BM_VALID: read the page. It is read under
	// BM_IO_IN_PROGRESS; a step is atomic, so the flag is never seen.
	p.readPage(b, id, rel, tag)
	return id, nil
}

// readPage reads the page of a buffer a miss allocated, as ReadBuffer_common does after
// BufferAlloc: from the kernel's page cache or from storage, with the LSN the page had when
// it was last written, and marks the buffer valid. It is off the hot path of a hit.
func (p *Pool) readPage(b *Backend, id int, rel *Relation, tag BufferTag) {
	p.Stats.Misses++
	if p.osCache >= 100 || p.pcg != nil && percentDraw(p.pcg) < p.osCache {
		p.Stats.ReadsOSCache++
		p.charge(p.Cost.ReadOSCache)
	} else {
		p.Stats.ReadsDisk++
		p.charge(p.Cost.ReadDisk)
	}
	d := &p.desc[id]
	d.LSN = rel.pageLSN(tag.Fork, tag.Block)
	d.State |= BM_VALID
	p.emitBackend(EvRead, b, id)
}

// bufferAlloc mirrors BufferAlloc after its lookup (done by readBuffer, whose key and hash it
// takes) found nothing: a victim from GetVictimBuffer, retagged and entered in the mapping
// table under the exclusive partition lock. The buffer comes back pinned by b and not valid.
func (p *Pool) bufferAlloc(b *Backend, tag BufferTag, key tableKey, hash uint64, rel int) (int, error) {
	id, err := p.getVictimBuffer(b)
	if err != nil {
		return -1, err
	}
	p.lockPartition(hash)
	if other := p.table.insert(key, hash, id); other >= 0 {
		// Another backend loaded the page meanwhile; steps are atomic, so this cannot happen.
		panic(fmt.Sprintf("bufferAlloc: tag %v appeared in buffer %d during the miss", tag, other))
	}
	d := &p.desc[id]
	p.setTag(id, tag, rel)
	d.State = d.State&BufRefcountMask | BM_TAG_VALID | BufUsagecountOne
	if p.cat.rels[rel].Permanent || tag.Fork == InitForkNum {
		d.State |= BM_PERMANENT
	}
	return id, nil
}

// pinBuffer mirrors PinBuffer without a strategy, once the caller has counted the pin in b's
// private pins and b holds n pins of buffer id: the backend's first pin raises the shared
// refcount and the usage count (up to BM_MAX_USAGE_COUNT). It reports whether the buffer is
// valid. Leaving the private count to the caller (tryAddPin, else addPin) keeps it small
// enough to inline: in WebAssembly a Go call costs as much as the pin.
func (p *Pool) pinBuffer(b *Backend, id int, n int32) bool {
	d := &p.desc[id]
	if n == 1 {
		d.State += BufRefcountOne
		if d.State.UsageCount() < BMMaxUsageCount {
			d.State += BufUsagecountOne
		}
		p.emitBackend(EvPin, b, id)
	}
	return d.State.Has(BM_VALID)
}

// pinBufferLocked mirrors PinBuffer_Locked, once the caller has counted the pin as for
// pinBuffer: a pin that leaves the usage count alone, used on a victim the clock sweep just
// chose.
func (p *Pool) pinBufferLocked(b *Backend, id int, n int32) {
	if n == 1 {
		p.desc[id].State += BufRefcountOne
		p.emitBackend(EvPin, b, id)
	}
}

// ReleaseBuffer mirrors ReleaseBuffer → UnpinBuffer: it drops one of b's pins on id, and the
// shared refcount with the last one.
func (p *Pool) ReleaseBuffer(b *Backend, id int) error {
	if id < 0 || id >= p.NBuffers {
		return fmt.Errorf("buffer %d does not exist", id)
	}
	n, ok := b.tryDropPin(id)
	if !ok {
		n = b.dropPin(id)
	}
	if n < 0 {
		return fmt.Errorf("backend %d does not pin buffer %d", b.ID, id)
	}
	p.unpinBuffer(b, id, n)
	return nil
}

// unpinBuffer mirrors UnpinBuffer once the caller has dropped the pin from b's private pins
// and b holds n pins of buffer id: the backend's last unpin drops the shared refcount. Like
// pinBuffer it is small enough to inline.
func (p *Pool) unpinBuffer(b *Backend, id int, n int32) {
	if n == 0 {
		p.desc[id].State -= BufRefcountOne
		p.emitBackend(EvUnpin, b, id)
	}
}

// MarkBufferDirty mirrors MarkBufferDirty: it sets BM_DIRTY and BM_JUST_DIRTIED on a buffer
// the caller pins (and, in PostgreSQL, holds exclusively locked).
func (p *Pool) MarkBufferDirty(b *Backend, id int) error {
	if id < 0 || id >= p.NBuffers || b.PinCount(id) == 0 {
		return fmt.Errorf("backend %d must pin buffer %d to dirty it", b.ID, id)
	}
	d := &p.desc[id]
	if !d.State.Has(BM_DIRTY) {
		p.emitBackend(EvDirty, b, id)
	}
	d.State |= BM_DIRTY | BM_JUST_DIRTIED
	return nil
}

// LogPageChange changes a pinned page under WAL: MarkBufferDirty, then XLogInsert of a record
// with n bytes of payload and PageSetLSN to its end, in that order as a critical section in
// heapam does. Unlogged pages are dirtied without WAL.
func (p *Pool) LogPageChange(b *Backend, id int, n int) error {
	if err := p.MarkBufferDirty(b, id); err != nil {
		return err
	}
	p.Stats.Updates++
	d := &p.desc[id]
	if d.State.Has(BM_PERMANENT) {
		p.charge(p.Cost.WALInsert)
		d.LSN = p.WAL.xlogInsert(n)
	}
	return nil
}

// getVictimBuffer mirrors GetVictimBuffer (PostgreSQL 16+; inside BufferAlloc before): take a
// buffer from StrategyGetBuffer, pin it, write it out if dirty and remove its old tag from
// the mapping table (InvalidateVictimBuffer). With a ring (p.strategy), a dirty buffer whose
// WAL is not yet flushed may be rejected (StrategyRejectBuffer) and another victim taken; a
// reused ring buffer counts as a reuse, not an eviction, as in pg_stat_io. The buffer comes
// back pinned once by b, clean, and with no tag.
func (p *Pool) getVictimBuffer(b *Backend) (int, error) {
again:
	id, err := p.strategyGetBuffer()
	if err != nil {
		return -1, err
	}
	n := b.tryAddPin(id)
	if n == 0 {
		n = b.addPin(id)
	}
	p.pinBufferLocked(b, id, n)
	d := &p.desc[id]
	if d.State.Has(BM_DIRTY) {
		// The conditional share lock on the content always succeeds: no backend holds a
		// content lock between steps.
		if s := p.strategy; s != nil {
			if p.WAL.XLogNeedsFlush(d.LSN) && p.strategyRejectBuffer(s, id, s.fromRing) {
				p.unpinBuffer(b, id, b.dropPin(id))
				goto again
			}
			s.Written++
			p.flushBuffer(id, ByStrategy)
		} else {
			p.flushBuffer(id, ByBackend)
		}
		p.Stats.DirtyWrites++
		if s := p.strategy; s != nil {
			p.Stats.IO[s.Type].Writes++
		}
	}
	if d.State.Has(BM_TAG_VALID) {
		key := packTag(d.Tag)
		hash := key.hash()
		p.lockPartition(hash)
		p.table.delete(key, hash)
		if s := p.strategy; s != nil && s.fromRing {
			s.Reuses++
			p.Stats.IO[s.Type].Reuses++
		} else {
			p.Stats.Evictions++
			if s != nil {
				p.Stats.IO[s.Type].Evictions++
			}
		}
		p.emitBackend(EvEvict, b, id)
	}
	p.setTag(id, BufferTag{}, -1)
	d.LSN = 0
	d.State &= BufRefcountMask
	return id, nil
}

// setTag gives buffer id a new tag (the zero tag to clear it) and the catalog index of its
// relation.
func (p *Pool) setTag(id int, tag BufferTag, rel int) {
	p.desc[id].Tag = tag
	p.desc[id].rel = int32(rel)
	p.relNums[id] = tag.Locator.RelNumber
}

// flushBuffer mirrors FlushBuffer: for a dirty buffer, flush WAL up to the page LSN if the
// buffer is permanent (WAL before data), then write the page and clear BM_DIRTY. It reports
// whether a page was written.
func (p *Pool) flushBuffer(id int, cause Cause) bool {
	d := &p.desc[id]
	if !d.State.Has(BM_DIRTY) {
		return false
	}
	d.State &^= BM_JUST_DIRTIED
	permanent := d.State.Has(BM_PERMANENT)
	if permanent {
		p.xlogFlush(d.LSN, cause)
	}
	p.charge(p.Cost.Write)
	p.cat.rels[d.rel].setPageLSN(d.Tag.Fork, d.Tag.Block, d.LSN)
	p.emit(Event{Kind: EvWrite, Cause: cause, Buffer: int32(id), LSN: d.LSN, Flushed: p.WAL.Flushed, Permanent: permanent})
	d.State &^= BM_DIRTY | BM_CHECKPOINT_NEEDED
	return true
}

// xlogFlush runs XLogFlush(lsn) and charges and counts it when it had to flush.
func (p *Pool) xlogFlush(lsn LSN, cause Cause) {
	if p.walWait != nil && p.WAL.XLogNeedsFlush(lsn) && p.walWait(lsn) {
		return
	}
	if !p.WAL.xlogFlush(lsn) {
		return
	}
	p.flushedWAL(cause, lsn)
}

// flushedWAL charges and counts a WAL flush that cause made, up to lsn.
func (p *Pool) flushedWAL(cause Cause, lsn LSN) {
	p.charge(p.Cost.WALFlush)
	p.Stats.WALFlushes++
	switch cause {
	case ByBackend:
		p.Stats.WALFlushesBackend++
	case ByWALWriter:
		p.Stats.WALFlushesWriter++
	case ByBgWriter:
		p.Stats.WALFlushesBgWriter++
	case ByCheckpoint:
		p.Stats.WALFlushesCheckpointer++
	}
	p.emit(Event{Kind: EvWALFlush, Cause: cause, Buffer: -1, LSN: lsn, Flushed: p.WAL.Flushed})
}

// XLogBackgroundFlush mirrors the WAL writer's XLogBackgroundFlush: flush everything inserted
// so far, if anything is unflushed.
func (p *Pool) XLogBackgroundFlush() { p.xlogFlush(p.WAL.Insert, ByWALWriter) }

// Charge adds d to the virtual time of the work under way, for a scenario that charges work
// of its own (a WAL record replayed, a file unlinked).
func (p *Pool) Charge(d Duration) { p.elapsed += d }

// Elapsed returns the virtual time charged since the last TakeElapsed.
func (p *Pool) Elapsed() Duration { return p.elapsed }

// TakeElapsed returns the virtual time charged since the last call and resets it.
func (p *Pool) TakeElapsed() Duration { return p.takeElapsed() }

// RedoPageChange is what a redo routine does to a page it has read: dirty it and stamp it
// with the LSN of the record being replayed. During replay WAL advances as it is read, not
// inserted, so no WALInsert is charged.
func (p *Pool) RedoPageChange(b *Backend, id int) error {
	if err := p.MarkBufferDirty(b, id); err != nil {
		return err
	}
	p.desc[id].LSN = p.WAL.xlogInsert(0)
	return nil
}

// PoolBytes is the memory a pool of nbuffers buffers takes, from its parts: a descriptor
// and a relation number per buffer, and the mapping table's slots (newBufTable), for a host
// that must know before it allocates whether the pool fits.
func PoolBytes(nbuffers int) int64 {
	desc := int64(unsafe.Sizeof(BufferDesc{})) + int64(unsafe.Sizeof(Oid(0)))
	return int64(nbuffers)*desc + int64(tableSlots(nbuffers+NumBufferPartitions))*int64(unsafe.Sizeof(tableSlot{}))
}
