// Package ring is the ring lab: VACUUM keeps to a small ring of shared buffers (a buffer
// access strategy, sim/strategy.go), and when the ring comes round to a page VACUUM dirtied
// moments ago, WAL must be flushed up to that page's LSN before the page can be written. A
// small ring makes VACUUM flush WAL itself again and again; a large one lets committing
// clients and the WAL writer flush first, but takes more of the pool from the foreground.
//
// The lab is a scenario (vacuum.go) of processes on one virtual clock: VACUUM's heap pass,
// OLTP clients that commit, and the WAL writer, sharing one WAL device whose flushes are
// serial. Its parameters (params.go), counters, legend and headless experiment (this file,
// experiment.go) follow the lab shape of package lab.
//
// Where the model departs from PostgreSQL, knowingly:
//   - VACUUM's heap pass only: no visibility-map skipping, no index or second heap pass, no
//     FSM or VM pages, no full-page images, no checkpoints, no cost-based delay, no read
//     stream (PG17+/18 pin limits) — every page is read, one by one, through the ring.
//   - A unit of work (a page, a transaction, a WAL writer round) runs whole at its start
//     time: other processes see WAL synced only once a flush has ended, but the unit's own
//     page writes are placed at its start, after the waits it is charged for. A process
//     that needs a flush already under way waits for it and is not counted as flushing;
//     one that needs more queues behind it and flushes everything inserted.
//   - Storage reads (os_cache none) cost a random read each, with no readahead, and never
//     contend with the WAL device; page writes to the kernel never block.
//   - Clients never contend for CPU: any number run in parallel, each transaction costing
//     txnOverhead plus its pages.
//   - The WAL writer never hibernates; an asynchronous commit wakes it only when it would
//     flush (wal_writer_flush_after reached, or wal_writer_delay since its last flush).
package ring

import (
	"github.com/bufferscope/bufferscope/sim"
	"github.com/bufferscope/bufferscope/sim/lab"
)

// Lab is the ring lab.
type Lab struct{}

// Info names the ring lab.
func (Lab) Info() lab.Info {
	return lab.Info{
		Name: "ring", Command: "ring", Title: "Ring",
		Summary: "VACUUM through its ring beside an OLTP load: the WAL flushes it forces",
	}
}

// Params returns the ring lab's parameter table.
func (Lab) Params() *lab.Table { return table }

// New builds the run v describes.
func (Lab) New(v lab.Values) (lab.Run, error) { return NewRun(SetupOf(v)) }

// NewRun builds a run of set.
func NewRun(set Setup) (*Run, error) {
	vr, err := newVacuumRun(set)
	if err != nil {
		return nil, err
	}
	s := sim.NewScenario(vr.p, sim.Config{NBuffers: set.NBuffers, Version: set.Version, Seed: set.Seed}, vr)
	return &Run{s: s, vr: vr}, nil
}

// Counters are the ring lab's counters; once VACUUM is done, the ones bufferscope ring
// prints are what it prints for the same parameters.
type Counters struct {
	VacuumSeconds      float64 `counter:"vacuumSeconds" label:"VACUUM duration" unit:"s" format:"seconds" doc:"Virtual time from VACUUM's start to its last page (so far, while it runs)."`
	PagesVacuumed      uint64  `counter:"pagesVacuumed" label:"Pages vacuumed" unit:"pages" format:"count" doc:"Heap pages VACUUM has read."`
	PagesDirtied       uint64  `counter:"pagesDirtied" sub:"true" label:"of which pruned or frozen" unit:"pages" format:"count" doc:"Pages VACUUM changed under a WAL record."`
	RingBuffers        int     `counter:"ringBuffers" label:"Ring size" unit:"buffers" format:"count" doc:"Buffers in VACUUM's ring: the size asked for, capped at NBuffers/8; 0 for no ring."`
	RingReuses         uint64  `counter:"ringReuses" label:"Ring reuses" unit:"buffers" format:"count" doc:"Times VACUUM reused a buffer of its ring for the next page (pg_stat_io reuses, context vacuum)."`
	VacuumReads        uint64  `counter:"vacuumReads" label:"Reads by VACUUM" unit:"I/Os" format:"count" doc:"Read operations VACUUM's pages took (pg_stat_io reads, context vacuum): one per page up to PostgreSQL 17; from 18 its read stream combines runs of pages into reads of up to io_combine_limit (16) pages."`
	PinnedAhead        int     `counter:"pinnedAhead" sub:"true" label:"pinned ahead by its read stream" unit:"buffers" format:"count" doc:"Buffers PostgreSQL 18's read stream has pinned and read ahead of the page VACUUM works on (read_stream.c): at most half the ring (GetAccessStrategyPinLimit) and GetPinLimit. Each was taken from the ring before VACUUM dirtied the pages before it."`
	VacuumWrites       uint64  `counter:"vacuumWrites" label:"Written by VACUUM" unit:"pages" format:"count" doc:"Dirty ring buffers VACUUM wrote itself before reusing them (pg_stat_io writes, context vacuum)."`
	VacuumWALFlushes   uint64  `counter:"vacuumWalFlushes" label:"Ring writes that waited for WAL" unit:"pages" format:"count" doc:"Dirty ring buffers VACUUM could write only once WAL was flushed past the page's LSN: FlushBuffer called XLogFlush, which returns when WAL is flushed that far (src/backend/storage/buffer/bufmgr.c, FlushBuffer; src/backend/access/transam/xlog.c, XLogFlush). Either VACUUM flushed WAL itself (WAL flushes by VACUUM, below) or it slept while another process's flush covered the page. PostgreSQL counts no such total: the flushes are in pg_stat_wal.wal_sync (14 to 17) and pg_stat_io's fsyncs of object wal (18), the sleeps as wait event LWLock WALWrite."`
	VacuumWALWaits     uint64  `counter:"vacuumWalWaits" sub:"true" label:"of which on another's flush" unit:"pages" format:"count" doc:"Ring writes whose WAL a flush already under way (a commit's, the WAL writer's) covered: VACUUM's XLogFlush slept on WALWriteLock (LWLockAcquireOrWait; wait event LWLock WALWrite) and, waking, found WAL flushed past the page, so it flushed nothing itself (xlog.c, XLogFlush)."`
	WALFlushesAll      uint64  `counter:"walFlushesAll" label:"WAL flushes" format:"count" doc:"Times anybody wrote and synced WAL (XLogWrite with issue_xlog_fsync): pg_stat_wal.wal_sync in PostgreSQL 14 to 17, the sum of pg_stat_io's fsyncs of object wal in 18. The lines under it say who flushed; they add up to it."`
	VacuumWALSyncs     uint64  `counter:"vacuumWalSyncs" sub:"true" label:"by VACUUM, to write a ring buffer" format:"count" doc:"Flushes VACUUM made itself in XLogFlush because nobody had flushed its ring buffer's WAL yet: counted in pg_stat_io (18) as fsyncs of object wal by VACUUM's backend type (a client backend for VACUUM, an autovacuum worker for autovacuum)."`
	CommitFlushes      uint64  `counter:"commitFlushes" sub:"true" label:"by committing clients" format:"count" doc:"Flushes committing clients made (synchronous_commit on: RecordTransactionCommit calls XLogFlush); commits that joined a flush already queued are not counted again."`
	WALWriterFlushes   uint64  `counter:"walwriterFlushes" sub:"true" label:"by the WAL writer" format:"count" doc:"Flushes the WAL writer made on its rounds (XLogBackgroundFlush; pg_stat_io backend type walwriter)."`
	ClientFlushes      uint64  `counter:"clientFlushes" sub:"true" label:"by clients, to write a dirty victim" format:"count" doc:"Flushes clients made in FlushBuffer before writing a dirty buffer they took from the clock sweep for one of their own pages."`
	SegmentSyncs       uint64  `counter:"segmentSyncs" sub:"true" label:"finishing a WAL segment" format:"count" doc:"Syncs XLogWrite made of each 16MB WAL segment it finished writing (issue_xlog_fsync when finishing_seg, src/backend/access/transam/xlog.c), by whoever wrote it: a backend whose WAL filled the WAL buffers (AdvanceXLInsertBuffer), a flush that passed a segment's end, or the WAL writer. A run after a checkpoint, whose every first page change logs the whole page, finishes a segment every 2,000 or so pages."`
	ForegroundHitRatio float64 `counter:"foregroundHitRatio" label:"Foreground hit ratio" format:"ratio" of:"foregroundAccesses" doc:"Share of the clients' page accesses found in shared buffers."`
	ForegroundAccesses uint64  `counter:"foregroundAccesses" label:"Foreground accesses" format:"count" hidden:"true"`
	ForegroundTPS      float64 `counter:"foregroundTps" label:"Foreground TPS" unit:"tx/s" format:"number" doc:"The clients' committed transactions per second of virtual time."`
	Transactions       uint64  `counter:"transactions" label:"Transactions" format:"count" hidden:"true"`
	VacuumBlock        int     `counter:"vacuumBlock" label:"VACUUM's page" format:"count" hidden:"true" doc:"The next page VACUUM reads."`
	WALBytes           uint64  `counter:"walBytes" label:"WAL inserted" unit:"bytes" format:"count" hidden:"true" doc:"Bytes of WAL inserted since the run began (pg_current_wal_lsn's advance), full-page images included."`
	TablePages         int     `counter:"tablePages" label:"Table pages" format:"count" hidden:"true"`
	RingCurrent        int     `counter:"ringCurrent" label:"Ring slot" format:"count" hidden:"true" doc:"The ring slot VACUUM used last."`
	Done               bool    `counter:"done" label:"Done" format:"bool" hidden:"true"`
	// The pool's WAL flushes are the lab's own WAL flushes above, split by who flushed: its
	// "forced by a dirty victim" leaves out VACUUM's ring writes, which are dirty victims too.
	lab.Pool `hidden:"walFlushes,walFlushesBackend,walFlushesWriter"`
}

// Counters returns the ring lab's counters at zero.
func (Lab) Counters() any { return &Counters{} }

// Events are what a reader of the ring lab may want to find next.
func (Lab) Events() []lab.EventSpec {
	return []lab.EventSpec{
		{Kind: sim.EvWALFlush, Label: "WAL flush", Plural: "WAL flushes", Doc: "WAL is written and synced: by VACUUM forced to (its ring came round to an unflushed page), a commit, or the WAL writer."},
		{Kind: sim.EvWrite, Label: "page written", Plural: "pages written", Doc: "A dirty page is handed to the kernel, WAL flushed past its LSN first."},
		{Kind: sim.EvEvict, Label: "eviction", Plural: "evictions", Doc: "A page leaves shared buffers for another: a foreground page pushed out, or a ring buffer reused."},
	}
}

// Run is one run of the ring lab.
type Run struct {
	s  *sim.Sim
	vr *vacuumRun
}

// Sim returns the simulation.
func (r *Run) Sim() *sim.Sim { return r.s }

// Done reports whether VACUUM has finished.
func (r *Run) Done() bool { return r.s.Done() }

// Seeded is true: the clients draw their pages.
func (r *Run) Seeded() bool { return true }

// CheckInvariants checks the pool's invariants and the ring's.
func (r *Run) CheckInvariants() error {
	if err := r.s.CheckInvariants(); err != nil {
		return err
	}
	return r.vr.checkInvariants()
}

// Ring returns VACUUM's ring, nil for none.
func (r *Run) Ring() *sim.BufferAccessStrategy { return r.vr.ring }

// PinnedAhead returns the buffers VACUUM's read stream has pinned and read ahead of the page
// VACUUM works on, oldest first: none before PostgreSQL 18. The slice is the stream's own.
func (r *Run) PinnedAhead() []int {
	if r.vr.stream == nil {
		return nil
	}
	return r.vr.stream.Pinned()
}

// WALNow is the WAL as the run stands, in the model's time: what a view draws of it.
type WALNow struct {
	Inserted sim.LSN // the end of the last record inserted
	Durable  sim.LSN // how far WAL is synced: flushes that have ended
	Flushing sim.LSN // how far the flushes under way will sync it; Durable when none is
	// VacuumWaitsFor is the position VACUUM waits in XLogFlush to see synced, before it can
	// write its ring's next buffer; 0 when VACUUM is not waiting.
	VacuumWaitsFor sim.LSN
}

// WALNow returns the WAL as the run stands. The model runs a unit of work whole at its start
// (see the package doc): a flush a unit made has begun, and Durable moves past it only once
// it has ended.
func (r *Run) WALNow() WALNow {
	vr := r.vr
	w := WALNow{Inserted: r.s.Pool.WAL.Insert, Durable: vr.durable}
	for _, f := range vr.flights {
		if f.end <= vr.clock {
			w.Durable = max(w.Durable, f.target)
		} else {
			w.Flushing = max(w.Flushing, f.target)
		}
	}
	w.Flushing = max(w.Flushing, w.Durable)
	if !vr.done && vr.clock < vr.vacWait.end {
		w.VacuumWaitsFor = vr.vacWait.target
	}
	return w
}

// Table returns the catalog index of the vacuumed table.
func (r *Run) Table() int { return 0 }

// Counters returns the counters now.
func (r *Run) Counters() any {
	vr := r.vr
	c := &Counters{
		PagesVacuumed: uint64(vr.blk), PagesDirtied: vr.c.pagesDirtied, RingBuffers: vr.ring.RingSize(),
		VacuumWALFlushes: vr.c.vacuumFlushes + vr.c.vacuumWaits, VacuumWALWaits: vr.c.vacuumWaits,
		WALFlushesAll: r.s.Stats().WALFlushes, VacuumWALSyncs: vr.c.vacuumFlushes, WALWriterFlushes: vr.c.walwriterFlushes,
		CommitFlushes: vr.c.commitFlushes, ClientFlushes: vr.c.clientFlushes, SegmentSyncs: vr.c.segmentSyncs,
		ForegroundAccesses: vr.c.fgAccesses, Transactions: vr.c.txns,
		VacuumBlock: vr.blk, TablePages: vr.set.TableBlocks, Done: vr.done, WALBytes: uint64(r.s.Pool.WAL.Insert - vr.walStart),
		Pool: lab.PoolOf(r.s),
	}
	if vr.ring != nil {
		c.RingReuses, c.VacuumWrites, c.RingCurrent = vr.ring.Reuses, vr.ring.Written, vr.ring.Current()
	}
	c.VacuumReads = vr.c.vacuumReads
	if vr.stream != nil {
		c.VacuumReads, c.PinnedAhead = vr.stream.Reads, len(vr.stream.Pinned())
	}
	t := vr.clock
	if vr.done {
		t = vr.end
	}
	c.VacuumSeconds = t.Seconds()
	if vr.c.fgAccesses > 0 {
		c.ForegroundHitRatio = float64(vr.c.fgHits) / float64(vr.c.fgAccesses)
	}
	if t > 0 {
		c.ForegroundTPS = float64(vr.c.txns) / t.Seconds()
	}
	return c
}

// Legend colours the vacuumed table, which lives in the ring's buffers, apart from the
// foreground's hot table and its index.
func (r *Run) Legend() lab.Legend {
	return lab.Legend{
		Roles: []lab.Swatch{
			{Key: "vacuumed", Label: "table being vacuumed", Doc: "Pages VACUUM read. With a ring they stay in the ring's buffers: the ring's members.", Light: "#d55e00", Dark: "#e8743b"},
			{Key: "hot", Label: "hot table", Doc: "The foreground's table: the pages the clients update.", Light: "#3a9ad9", Dark: "#56b4e9"},
			{Key: "hot_pkey", Label: "its index", Doc: "The hot table's index, which non-HOT updates change too.", Light: "#0072b2", Dark: "#2a6fc9"},
		},
		Role:  func(rel int) int { return min(rel, 2) },
		Marks: r.marks(),
	}
}

// marks are the grid's marks and the ring's, with what the pinned mark means from
// PostgreSQL 18, whose VACUUM pins pages ahead through its read stream.
func (r *Run) marks() []lab.Swatch {
	marks := append([]lab.Swatch(nil), lab.PoolMarks...)
	if r.vr.stream != nil {
		for i, m := range marks {
			if m.Key == lab.MarkPinned.Key {
				marks[i].Doc += " From PostgreSQL 18 VACUUM's read stream pins the ring buffers of the pages it has read ahead of the one VACUUM works on (up to half the ring, at most GetPinLimit), reading up to io_combine_limit pages at a time: those buffers were taken from the ring before VACUUM dirtied the pages before them."
			}
		}
	}
	return append(marks, RingMarks...)
}

// RingMarks are the marks the ring lab's view draws over the grid, in the magnified ring
// under it, and in the lane under that. Each is a shape, so none is told by colour alone.
var RingMarks = []lab.Swatch{
	{Key: "ring", Label: "Ring member (outline)", Shape: "hollow", Light: "#7a3e9d", Dark: "#c38ee0",
		Doc: "A buffer in VACUUM's ring. VACUUM reuses it for a later page when nobody pins it and its usage count is at most 1; otherwise a buffer from the clock sweep takes its slot."},
	{Key: "magnified", Label: "The ring, magnified (under the grid)", Shape: "usage", Wide: true,
		Doc: "Every buffer of VACUUM's ring, slot by slot in the order VACUUM uses them, drawn large as the grid draws it (colour, usage ticks, dirty corner), with the marks below; tap or hover one to inspect it. A ring too long for the band shows the page of slots VACUUM is in."},
	{Key: "vacuum", Label: "VACUUM's slot: the page being read (thick ring)", Shape: "cursor",
		Doc: "The ring buffer VACUUM read its latest page into; markers in the rulers point at it in the pool."},
	{Key: "next", Label: "Reused next (pointer)", Shape: "pointer",
		Doc: "The ring's next slot: VACUUM reuses its buffer for its next page, writing the page in it first when VACUUM dirtied it."},
	{Key: "waits", Label: "Waits for a WAL flush (hourglass)", Shape: "hourglass",
		Doc: "A page VACUUM dirtied whose WAL is not yet flushed past its LSN: before it can be written, WAL must be flushed that far (FlushBuffer calls XLogFlush). On VACUUM's slot it means VACUUM is waiting for that flush now."},
	{Key: "wal", Label: "The WAL bar under the ring", Shape: "bar", Wide: true, Light: "#7a3e9d", Dark: "#c38ee0",
		Doc: "The last 1MB of WAL inserted, newest at the right, labelled on the canvas: filled up to \"flushed\" (synced to disk), striped where a flush is under way, hollow up to \"inserted\". \"VACUUM waiting\" and an hourglass mark the position VACUUM waits to see flushed. Each flush leaves a tick where it flushed to: full height when VACUUM flushed itself, on the top half for a commit, on the bottom half for the WAL writer."},
}
