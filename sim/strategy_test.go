package sim

import "testing"

// TestGetAccessStrategySizes checks each ring's size per version and the NBuffers/8 cap.
// Reference: src/backend/storage/buffer/freelist.c, GetAccessStrategy,
// GetAccessStrategyWithSize; src/backend/utils/misc/guc_tables.c, vacuum_buffer_usage_limit
func TestGetAccessStrategySizes(t *testing.T) {
	for _, tt := range []struct {
		v        Version
		nbuffers int
		typ      BufferAccessStrategyType
		want     int
	}{
		{14, 16384, BAS_VACUUM, 32},
		{15, 16384, BAS_VACUUM, 32},
		{16, 16384, BAS_VACUUM, 32},
		{17, 16384, BAS_VACUUM, 256},
		{18, 16384, BAS_VACUUM, 256},
		{17, 16384, BAS_BULKREAD, 32},
		{18, 16384, BAS_BULKREAD, 94}, // bounded by GetPinLimit at 128MB
		{18, 131072, BAS_BULKREAD, 288},
		{17, 16384, BAS_BULKWRITE, 2048},
		{17, 1024, BAS_BULKWRITE, 128}, // NBuffers/8
		{17, 128, BAS_VACUUM, 16},      // NBuffers/8
		{17, 16384, BAS_NORMAL, 0},
	} {
		p, err := NewPool(tt.nbuffers, tt.v, CostModel{})
		if err != nil {
			t.Fatal(err)
		}
		if got := p.GetAccessStrategy(tt.typ).RingSize(); got != tt.want {
			t.Errorf("PG%d NBuffers %d %s: ring of %d, want %d", tt.v, tt.nbuffers, tt.typ, got, tt.want)
		}
	}
	p, _ := NewPool(16384, 17, CostModel{})
	for kb, want := range map[int]int{0: 0, 256: 32, 2048: 256, 16384: 2048, 65536: 2048} {
		if got := p.GetAccessStrategyWithSize(BAS_VACUUM, kb).RingSize(); got != want {
			t.Errorf("vacuum_buffer_usage_limit %dkB: ring of %d, want %d", kb, got, want)
		}
	}
}

// ringPool returns a pool of 64 buffers with a 16-block relation and a ring of two slots of
// type typ.
func ringPool(t *testing.T, typ BufferAccessStrategyType) (*Pool, *Relation, *BufferAccessStrategy) {
	t.Helper()
	p, err := NewPool(64, 17, CostModel{})
	if err != nil {
		t.Fatal(err)
	}
	r := &Relation{Name: "t", Permanent: true, Locator: RelFileLocator{DefaultTablespaceOid, DefaultDatabaseOid, FirstRelNumber}}
	r.NBlocks[MainForkNum] = 16
	if _, err := p.AddRelation(r); err != nil {
		t.Fatal(err)
	}
	return p, r, p.GetAccessStrategyWithSize(typ, 16)
}

// read reads block blk of r through s and releases it, dirtying it under WAL if dirty.
func read(t *testing.T, p *Pool, b *Backend, r *Relation, blk BlockNumber, s *BufferAccessStrategy, dirty bool) int {
	t.Helper()
	id, err := p.ReadBufferExtended(b, BufferTag{Locator: r.Locator, Block: blk}, s)
	if err != nil {
		t.Fatal(err)
	}
	if dirty {
		if err := p.LogPageChange(b, id, 100); err != nil {
			t.Fatal(err)
		}
	}
	if err := p.ReleaseBuffer(b, id); err != nil {
		t.Fatal(err)
	}
	return id
}

// TestRingReuseAndReplace: the ring's slots fill from the freelist, a slot whose buffer has
// usage count at most 1 is reused, and one at usage count 2 is replaced by a clock-sweep
// victim, its page staying in the pool.
// Reference: src/backend/storage/buffer/freelist.c, GetBufferFromRing, AddBufferToRing
func TestRingReuseAndReplace(t *testing.T) {
	p, r, s := ringPool(t, BAS_VACUUM)
	b := &Backend{}
	a0 := read(t, p, b, r, 0, s, false) // slot 1
	a1 := read(t, p, b, r, 1, s, false) // slot 0
	if got := s.Buffers(nil); got[1] != a0 || got[0] != a1 {
		t.Fatalf("ring %v, want [%d %d]", got, a1, a0)
	}
	a2 := read(t, p, b, r, 2, s, false) // slot 1 again: block 0's buffer, usage 1, reused
	if a2 != a0 || s.Reuses != 1 {
		t.Fatalf("block 2 in buffer %d (reuses %d), want block 0's buffer %d reused", a2, s.Reuses, a0)
	}
	// Block 1 read again without a ring: usage 2, so the ring must not reuse it.
	if got := read(t, p, b, r, 1, nil, false); got != a1 || p.Desc(a1).State.UsageCount() != 2 {
		t.Fatalf("block 1 in buffer %d at usage %d", got, p.Desc(a1).State.UsageCount())
	}
	a3 := read(t, p, b, r, 3, s, false) // slot 0: usage 2, replaced
	if a3 == a1 || s.Buffers(nil)[0] != a3 || s.Reuses != 1 {
		t.Fatalf("block 3 in buffer %d, ring %v, reuses %d: want a new buffer in slot 0", a3, s.Buffers(nil), s.Reuses)
	}
	if d := p.Desc(a1); d.Tag.Block != 1 || !d.State.Has(BM_VALID) {
		t.Errorf("block 1 left the pool: buffer %d holds %s", a1, d.Tag)
	}
}

// TestStrategyPinUsage: a pin through a ring raises the usage count from 0 to 1 and never
// further.
// Reference: src/backend/storage/buffer/bufmgr.c, PinBuffer (strategy != NULL)
func TestStrategyPinUsage(t *testing.T) {
	for _, before := range []int{0, 1, 3} {
		p, r, s := ringPool(t, BAS_VACUUM)
		b := &Backend{}
		id := read(t, p, b, r, 0, nil, false)
		p.desc[id].State = p.desc[id].State&^BufUsagecountMask | BufferState(before)*BufUsagecountOne
		read(t, p, b, r, 0, s, false)
		want := max(before, 1)
		if got := p.Desc(id).State.UsageCount(); got != want {
			t.Errorf("usage %d pinned through a ring: %d, want %d", before, got, want)
		}
	}
}

// TestRingDirtySlotFlushesOnce: reusing a dirty ring buffer makes VACUUM (and BULKWRITE)
// flush WAL itself, exactly once, when WAL is behind the page's LSN, and not at all when it
// is not; the page is written either way.
// Reference: src/backend/storage/buffer/bufmgr.c, GetVictimBuffer, FlushBuffer
func TestRingDirtySlotFlushesOnce(t *testing.T) {
	for _, typ := range []BufferAccessStrategyType{BAS_VACUUM, BAS_BULKWRITE} {
		for _, flushedFirst := range []bool{false, true} {
			p, r, s := ringPool(t, typ)
			b := &Backend{}
			read(t, p, b, r, 0, s, true)
			read(t, p, b, r, 1, s, true)
			if flushedFirst {
				p.XLogFlush(p.WAL.Insert, ByWALWriter)
			}
			flushes := p.Stats.WALFlushes
			read(t, p, b, r, 2, s, false)
			want := uint64(1)
			if flushedFirst {
				want = 0
			}
			if got := p.Stats.WALFlushes - flushes; got != want || s.Written != 1 {
				t.Errorf("%s, WAL flushed first %v: %d flushes and %d writes, want %d and 1", typ, flushedFirst, got, s.Written, want)
			}
		}
	}
}

// TestBulkreadRejects: a bulk-read ring gives up a dirty buffer of its current slot that
// needs a WAL flush: the slot is emptied, the page stays dirty in the pool, no WAL is flushed.
// Reference: src/backend/storage/buffer/freelist.c, StrategyRejectBuffer
func TestBulkreadRejects(t *testing.T) {
	p, r, s := ringPool(t, BAS_BULKREAD)
	b := &Backend{}
	a0 := read(t, p, b, r, 0, s, true) // slot 1, dirty
	a1 := read(t, p, b, r, 1, s, false)
	flushes := p.Stats.WALFlushes
	a2 := read(t, p, b, r, 2, s, false) // slot 1 rejected and emptied; slot 0 reused
	if s.Rejects != 1 || p.Stats.WALFlushes != flushes {
		t.Fatalf("rejects %d, flushes %d: want 1 and none", s.Rejects, p.Stats.WALFlushes-flushes)
	}
	if a2 != a1 || s.Buffers(nil)[1] != -1 {
		t.Errorf("block 2 in buffer %d, ring %v: want block 1's buffer %d, slot 1 empty", a2, s.Buffers(nil), a1)
	}
	if d := p.Desc(a0); d.Tag.Block != 0 || !d.State.Has(BM_DIRTY) {
		t.Errorf("block 0 should stay dirty in buffer %d: %s %s", a0, d.Tag, d.State.FlagString())
	}
	// With WAL flushed, the bulk-read ring writes the page instead.
	p2, r2, s2 := ringPool(t, BAS_BULKREAD)
	read(t, p2, b, r2, 0, s2, true)
	read(t, p2, b, r2, 1, s2, false)
	p2.XLogFlush(p2.WAL.Insert, ByWALWriter)
	read(t, p2, b, r2, 2, s2, false)
	if s2.Rejects != 0 || s2.Written != 1 {
		t.Errorf("WAL flushed: rejects %d, writes %d; want 0 and 1", s2.Rejects, s2.Written)
	}
}

// TestSeqScanLeavesRing: a sequential scan of a table over NBuffers/4 reads through the
// bulk-read ring and leaves a ring-ful of its pages in shared buffers (32 up to PostgreSQL 17,
// 94 in 18 at 128MB); a smaller table is read without a ring. A real server leaves 32 pages
// of the fidelity harness's 10,345-page table on 13–17 (docs/fidelity.md experiment 2).
// Reference: src/backend/access/heap/heapam.c, initscan; src/backend/storage/buffer/freelist.c, GetAccessStrategy
func TestSeqScanLeavesRing(t *testing.T) {
	for _, tt := range []struct {
		v      Version
		blocks BlockNumber
		want   int
	}{{16, 10345, 32}, {17, 10345, 32}, {18, 10345, 94}, {17, 4096, 4096}} {
		p, err := NewPool(16384, tt.v, CostModel{})
		if err != nil {
			t.Fatal(err)
		}
		r := &Relation{Name: "t", Permanent: true, Locator: RelFileLocator{DefaultTablespaceOid, DefaultDatabaseOid, FirstRelNumber}}
		r.NBlocks[MainForkNum] = tt.blocks
		if _, err := p.AddRelation(r); err != nil {
			t.Fatal(err)
		}
		s := p.SeqScanStrategy(tt.blocks)
		b := &Backend{}
		for blk := range tt.blocks {
			read(t, p, b, r, blk, s, false)
		}
		left := 0
		for id := range p.NBuffers {
			if p.Desc(id).State.Has(BM_VALID) {
				left++
			}
		}
		if left != tt.want {
			t.Errorf("PG%d, scan of %d blocks: %d pages left, want %d", tt.v, tt.blocks, left, tt.want)
		}
	}
}

// TestIOCountsByContext: what a ring does is counted in its pg_stat_io context and what
// plain ReadBuffer does in the normal one; summed, the contexts are the pool's counters.
// Reference: src/backend/storage/buffer/bufmgr.c, PinBufferForBlock and GetVictimBuffer
// (pgstat_count_io_op with IOContextForStrategy)
func TestIOCountsByContext(t *testing.T) {
	p, r, s := ringPool(t, BAS_VACUUM)
	b := &Backend{}
	for blk := range BlockNumber(16) {
		read(t, p, b, r, blk, s, true) // each read through the ring dirties its page
	}
	read(t, p, b, r, 15, nil, false) // a hit without a ring
	read(t, p, b, r, 14, s, false)   // a hit through the ring
	vac, normal := p.Stats.IOIn(BAS_VACUUM), p.Stats.IOIn(BAS_NORMAL)
	if vac.Reads != 16 || vac.Hits != 1 || vac.Reuses != s.Reuses || vac.Reuses == 0 || vac.Writes != s.Written || vac.Writes == 0 {
		t.Errorf("vacuum context %+v; the ring reused %d and wrote %d", vac, s.Reuses, s.Written)
	}
	if normal.Hits != 1 || normal.Reads != 0 {
		t.Errorf("normal context %+v, want one hit", normal)
	}
	var sum IOCounts
	for ctx := range BufferAccessStrategyType(numStrategies) {
		c := p.Stats.IOIn(ctx)
		sum.Reads += c.Reads
		sum.Hits += c.Hits
		sum.Writes += c.Writes
		sum.Evictions += c.Evictions
	}
	st := p.Stats
	if sum.Reads != st.Misses || sum.Hits != st.Hits || sum.Writes != st.DirtyWrites || sum.Evictions != st.Evictions {
		t.Errorf("contexts sum to %+v; the pool counted %d misses, %d hits, %d writes, %d evictions", sum, st.Misses, st.Hits, st.DirtyWrites, st.Evictions)
	}
}

// TestWALFlushesByWhoMadeThem: a checkpoint that writes a buffer whose WAL is not yet
// flushed flushes it itself, and the flush is the checkpointer's, not a backend's.
// Reference: src/backend/storage/buffer/bufmgr.c, FlushBuffer (XLogFlush before the write)
func TestWALFlushesByWhoMadeThem(t *testing.T) {
	s, err := New(Config{NBuffers: 16, Workload: &Workload{WALWriterDelay: Second, BgWriterDelay: Second}})
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{"relation a blocks=100", "update b=0 rel=a blk=0", "update b=0 rel=a blk=1", "checkpoint"} {
		c, err := ParseCommand(line)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Apply(c); err != nil {
			t.Fatalf("%s: %v", line, err)
		}
	}
	st := s.Stats()
	if st.WALFlushesCheckpointer == 0 || st.WALFlushesCheckpointer != st.WALFlushes || st.WALFlushesBackend != 0 || st.WALFlushesBgWriter != 0 {
		t.Errorf("after a checkpoint of two updated pages: %d WAL flushes, %d the checkpointer's, %d backends', %d the background writer's",
			st.WALFlushes, st.WALFlushesCheckpointer, st.WALFlushesBackend, st.WALFlushesBgWriter)
	}
}

// TestPinLimitProcsOfADefaultServer: a default PostgreSQL 18 divides NBuffers by 174 for
// GetPinLimit (100 connections, 16 autovacuum worker slots, 8 worker processes, 10 WAL
// senders, 2 special workers and 38 auxiliary processes), which makes the bulk-read ring of a
// 128MB pool 94 buffers.
//
// Reference: src/backend/utils/init/postinit.c, InitializeMaxBackends;
// src/backend/storage/buffer/freelist.c, GetAccessStrategy.
func TestPinLimitProcsOfADefaultServer(t *testing.T) {
	if n := PinLimitProcs(100, 16, 8, 10); n != 174 || DefaultIOSettings.PinLimitProcs != n {
		t.Fatalf("PinLimitProcs of a default server = %d (DefaultIOSettings %d), want 174", n, DefaultIOSettings.PinLimitProcs)
	}
	p, err := NewPool(16384, 18, CostModel{})
	if err != nil {
		t.Fatal(err)
	}
	if n := p.GetAccessStrategy(BAS_BULKREAD).RingSize(); n != 94 {
		t.Errorf("PostgreSQL 18's bulk-read ring at 128MB: %d buffers, want 94", n)
	}
	p.IO.PinLimitProcs = PinLimitProcs(100, 16, 1, 3)
	if n := p.GetAccessStrategy(BAS_BULKREAD).RingSize(); n != 16384/160 {
		t.Errorf("with one worker process and 3 WAL senders the ring is %d buffers, want %d", n, 16384/160)
	}
	p.IO.EffectiveIOConcurrency = 0
	if n := p.GetAccessStrategy(BAS_BULKREAD).RingSize(); n != RingBulkRead {
		t.Errorf("with effective_io_concurrency 0 the ring is %d buffers, want 256kB's %d", n, RingBulkRead)
	}
}
