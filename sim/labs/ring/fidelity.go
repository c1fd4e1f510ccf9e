package ring

import (
	"fmt"

	"github.com/bufferscope/bufferscope/sim"
)

// The fidelity harness (package fidelity, docs/fidelity.md experiments 1–3) compares a real
// PostgreSQL with these: the ring lab's VACUUM alone (no clients) over a table of
// tableBlocks pages at a pool of nbuffers, and a sequential scan through the core's
// SeqScanStrategy. ringKB is vacuum_buffer_usage_limit in kB: -1 for the version's default,
// 0 for no ring.

// fidelityRun builds the ring lab's setup for the harness: VACUUM alone, every page dirtied.
func fidelityRun(version sim.Version, ringKB, nbuffers, tableBlocks int, cached bool) Setup {
	set := SetupOf(table.Defaults())
	set.NBuffers, set.Version, set.RingKB, set.TableBlocks, set.Clients = nbuffers, version, ringKB, tableBlocks, 0
	set.Prewarmed = cached
	return set
}

// PagesLeftAfterVacuum runs VACUUM of a cold table of tableBlocks pages at a pool of
// nbuffers and counts the table's pages left valid in shared buffers (experiment 1).
func PagesLeftAfterVacuum(version sim.Version, ringKB, nbuffers, tableBlocks int) (int, error) {
	r, err := NewRun(fidelityRun(version, ringKB, nbuffers, tableBlocks, false))
	if err != nil {
		return 0, err
	}
	for !r.Done() {
		if err := r.s.Step(1 << 16); err != nil {
			return 0, err
		}
	}
	return pagesOf(r.s.Pool, r.vr.table.Locator), nil
}

// VacuumWALFlushes runs VACUUM of a table of tableBlocks pages at a pool of nbuffers, cold or
// with the table prewarmed (cached), and returns the WAL flushes VACUUM was forced to make
// and all WAL flushes of the run (the WAL writer's included), the latter being what a real
// server's cluster-wide WAL sync count measures (experiment 3).
func VacuumWALFlushes(version sim.Version, ringKB, nbuffers, tableBlocks int, cached bool) (vacuum, all uint64, err error) {
	c, err := RunToEnd(fidelityRun(version, ringKB, nbuffers, tableBlocks, cached))
	if err != nil {
		return 0, 0, err
	}
	return c.VacuumWALFlushes, c.WALFlushes, nil
}

// VacuumCounters runs VACUUM of a table of tableBlocks pages at a pool of nbuffers, cold or
// prewarmed (cached), and returns the ring lab's counters at its end (experiment 3's reads,
// reuses and writes). image, when not nil, is the size of each page's full-page image (a
// checkpoint just before, HarnessPageImage).
func VacuumCounters(version sim.Version, ringKB, nbuffers, tableBlocks int, cached bool, image func(blk int) int) (*Counters, error) {
	set := fidelityRun(version, ringKB, nbuffers, tableBlocks, cached)
	set.PageImage = image
	return RunToEnd(set)
}

// The harness's vacuumed table, ring_t (id int, filler text): rows of an id and
// repeat('x', 100), inserted in id order, so that page k holds ids rowsPerPage·k+1 onwards.
const (
	pageHeaderBytes = 24 // SizeOfPageHeaderData
	itemIDBytes     = 4  // sizeof(ItemIdData): one line pointer
	// harnessTupleBytes is one row: MAXALIGN of its header (SizeofHeapTupleHeader 23, t_hoff
	// 24), the int4 (4) and the filler as a short varlena (1 + 100): MAXALIGN(129) = 136.
	harnessTupleBytes = 136
	// harnessRowsPerPage is how many rows fill a page: (8192 − 24) ÷ (136 + 4) = 58.
	harnessRowsPerPage = (sim.BLCKSZ - pageHeaderBytes) / (harnessTupleBytes + itemIDBytes)
	// xlogRecordBytes is SizeOfXLogRecord, the header of the XLOG_FPI_FOR_HINT record that
	// carries a hint's image.
	xlogRecordBytes = 24
)

// HarnessPageImage returns the size of the full-page image that VACUUM's first change of
// each page of the harness's table logs after the CHECKPOINT before the VACUUM, in case
// caseIdx of a run whose case i deleted the rows whose id % slices = i (experiment 3: each
// case deletes a new slice, and the slices before it are gone). An image leaves out the
// page's hole (pd_lower to pd_upper): it holds the header, every line pointer and the rows
// on the page. With data checksums (initdb's default from PostgreSQL 18, 04bec894a0) the
// first change is the hint bit pruning sets on a deleted row (MarkBufferDirtyHint, which
// logs the page as it is: XLogSaveBufferForHint), so the image still holds the rows deleted
// this time; without, it is pruning's own record, taken after the rows were removed.
//
// Reference: src/backend/access/transam/xloginsert.c, XLogRecordAssemble (hole);
// src/backend/storage/buffer/bufmgr.c, MarkBufferDirtyHint; src/backend/access/heap/pruneheap.c.
func HarnessPageImage(slices, caseIdx int, checksums bool) func(blk int) int {
	return func(blk int) int {
		lines, rows := 0, 0
		for id := harnessRowsPerPage*blk + 1; id <= harnessRowsPerPage*(blk+1); id++ {
			lines++
			if k := id % slices; k > caseIdx || checksums && k == caseIdx {
				rows++
			}
		}
		image := pageHeaderBytes + itemIDBytes*lines + harnessTupleBytes*rows
		if checksums {
			image += xlogRecordBytes
		}
		return image
	}
}

// ForegroundCost runs the fidelity harness's experiment 7 in the model: a hot table of
// hotPages, prewarmed until no buffer of the pool of nbuffers is free, then VACUUM alone of a
// cold table of coldPages under ringKB (-1 the version's default, 0 no ring). It returns the
// hot table's pages the VACUUM evicted, and VACUUM's evictions and reuses as pg_stat_io counts
// them in context vacuum.
func ForegroundCost(version sim.Version, ringKB, nbuffers, hotPages, coldPages int) (lost int, evictions, reuses uint64, err error) {
	return ForegroundCostWithReaders(version, ringKB, nbuffers, hotPages, coldPages, 0)
}

// ForegroundCostWithReaders is ForegroundCost with clients reading random pages of the hot
// table while VACUUM runs (the second half of experiment 7), each a transaction of one read
// (ClientReads).
func ForegroundCostWithReaders(version sim.Version, ringKB, nbuffers, hotPages, coldPages, clients int) (lost int, evictions, reuses uint64, err error) {
	set := fidelityRun(version, ringKB, nbuffers, coldPages, false)
	set.HotBlocks, set.PrewarmHot = hotPages, true
	set.Clients, set.ClientReads = clients, clients > 0
	r, err := NewRun(set)
	if err != nil {
		return 0, 0, 0, err
	}
	before := pagesOf(r.s.Pool, r.vr.hot.Locator)
	for !r.Done() {
		if err := r.s.Step(1 << 16); err != nil {
			return 0, 0, 0, err
		}
	}
	io := r.s.Pool.Stats.IO[sim.BAS_VACUUM]
	return before - pagesOf(r.s.Pool, r.vr.hot.Locator), io.Evictions, io.Reuses, nil
}

// PagesLeftAfterSeqScan reads a table of tableBlocks pages from a cold pool of nbuffers
// block by block through the strategy a sequential scan chooses (SeqScanStrategy: the
// bulk-read ring above NBuffers/4), from PostgreSQL 17 through a read stream as heapam's
// scan does, and counts its pages left in shared buffers (experiment 2).
// Reference: src/backend/access/heap/heapam.c, initscan
func PagesLeftAfterSeqScan(version sim.Version, nbuffers, tableBlocks int) (int, error) {
	return PagesLeftAfterSeqScanIO(version, nbuffers, tableBlocks, sim.IOSettingsOf(version))
}

// PagesLeftAfterSeqScanIO is PagesLeftAfterSeqScan on a server whose I/O settings, which size
// PostgreSQL 18's bulk-read ring, are io.
func PagesLeftAfterSeqScanIO(version sim.Version, nbuffers, tableBlocks int, io sim.IOSettings) (int, error) {
	p, err := sim.NewPool(nbuffers, version, sim.CostModel{})
	if err != nil {
		return 0, err
	}
	p.IO = io
	rel := &sim.Relation{Name: "ring_t", Permanent: true,
		Locator: sim.RelFileLocator{SpcOid: sim.DefaultTablespaceOid, DbOid: sim.DefaultDatabaseOid, RelNumber: sim.FirstRelNumber}}
	rel.NBlocks[sim.MainForkNum] = sim.BlockNumber(tableBlocks)
	if _, err := p.AddRelation(rel); err != nil {
		return 0, err
	}
	b := &sim.Backend{ID: 1}
	s := p.SeqScanStrategy(sim.BlockNumber(tableBlocks))
	var stream *sim.ReadStream
	if version.SeqScanReadStream() {
		next := sim.BlockNumber(0)
		stream = p.NewReadStream(b, s, rel.Locator, sim.MainForkNum, 0, 0, func() (sim.BlockNumber, bool) {
			if int(next) >= tableBlocks {
				return 0, false
			}
			next++
			return next - 1, true
		})
	}
	for blk := range tableBlocks {
		// heapgettup releases the page it is done with before it asks for the next.
		var id int
		var err error
		if stream != nil {
			var ok bool
			if id, ok, err = stream.Next(); err == nil && (!ok || p.Desc(id).Tag.Block != sim.BlockNumber(blk)) {
				err = fmt.Errorf("the read stream handed buffer %d", id)
			}
		} else {
			id, err = p.ReadBufferExtended(b, sim.BufferTag{Locator: rel.Locator, Block: sim.BlockNumber(blk)}, s)
		}
		if err != nil {
			return 0, fmt.Errorf("block %d: %v", blk, err)
		}
		if err := p.ReleaseBuffer(b, id); err != nil {
			return 0, err
		}
	}
	if stream != nil {
		if err := stream.End(); err != nil {
			return 0, err
		}
	}
	return pagesOf(p, rel.Locator), nil
}

// pagesOf counts the valid buffers of relation loc in p.
func pagesOf(p *sim.Pool, loc sim.RelFileLocator) int {
	n := 0
	for id := range p.NBuffers {
		if d := p.Desc(id); d.State.Has(sim.BM_VALID) && d.Tag.Locator == loc {
			n++
		}
	}
	return n
}
