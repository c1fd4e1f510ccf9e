package sim

import "testing"

// streamOver returns a read stream over a relation of n blocks in a pool of nbuffers, through
// a ring of kb kilobytes of type typ (kb -1: the type's own size; BAS_NORMAL: none), and the
// relation.
func streamOver(t *testing.T, nbuffers, n int, typ BufferAccessStrategyType, kb int) (*Pool, *ReadStream, *Backend, *Relation) {
	t.Helper()
	p, err := NewPool(nbuffers, 18, CostModel{})
	if err != nil {
		t.Fatal(err)
	}
	rel := &Relation{Name: "t", Permanent: true, Locator: RelFileLocator{SpcOid: DefaultTablespaceOid, DbOid: DefaultDatabaseOid, RelNumber: FirstRelNumber}}
	rel.NBlocks[MainForkNum] = BlockNumber(n)
	if _, err := p.AddRelation(rel); err != nil {
		t.Fatal(err)
	}
	b := &Backend{ID: 1}
	next := BlockNumber(0)
	ring := p.GetAccessStrategy(typ)
	if kb >= 0 {
		ring = p.GetAccessStrategyWithSize(typ, kb)
	}
	s := p.NewReadStream(b, ring, rel.Locator, MainForkNum, ReadStreamMaintenance, 0, func() (BlockNumber, bool) {
		if int(next) >= n {
			return 0, false
		}
		next++
		return next - 1, true
	})
	return p, s, b, rel
}

// consume reads the whole stream as VACUUM does, a buffer at a time, releasing each before
// asking for the next, and returns the most buffers pinned ahead at once.
func consume(t *testing.T, p *Pool, s *ReadStream, b *Backend, n int) int {
	t.Helper()
	most := 0
	for blk := range n {
		id, ok, err := s.Next()
		if err != nil || !ok {
			t.Fatalf("block %d: ok %v, %v", blk, ok, err)
		}
		if got := p.Desc(id).Tag.Block; got != BlockNumber(blk) {
			t.Fatalf("the stream handed block %d, want %d", got, blk)
		}
		most = max(most, len(s.Pinned()))
		if err := p.ReleaseBuffer(b, id); err != nil {
			t.Fatal(err)
		}
	}
	if _, ok, _ := s.Next(); ok {
		t.Fatal("the stream went on past its last block")
	}
	if len(s.Pinned()) != 0 || b.Buffers() != 0 {
		t.Fatalf("at the end the stream pins %d buffers, the backend %d", len(s.Pinned()), b.Buffers())
	}
	return most
}

// TestReadStreamCombinesAndLooksAhead: a cold relation read through a stream is read in I/Os
// of io_combine_limit blocks, and the look-ahead grows to the most the stream may pin:
// (maintenance_io_concurrency + 1) × io_combine_limit, capped by GetPinLimit (94 at 128MB with
// a default server's processes), or by half of VACUUM's ring.
//
// Reference: src/backend/storage/aio/read_stream.c, read_stream_begin_impl and
// read_stream_look_ahead; src/backend/storage/buffer/freelist.c, GetAccessStrategyPinLimit.
func TestReadStreamCombinesAndLooksAhead(t *testing.T) {
	for _, c := range []struct {
		name      string
		typ       BufferAccessStrategyType
		maxPinned int
	}{
		{"no ring", BAS_NORMAL, 16384 / 174},
		{"VACUUM's 2MB ring", BAS_VACUUM, 94}, // half the ring is 128, GetPinLimit 94
	} {
		const n = 3000
		p, s, b, _ := streamOver(t, 16384, n, c.typ, -1)
		if s.MaxPinned() != c.maxPinned {
			t.Errorf("%s: the stream pins at most %d buffers, want %d", c.name, s.MaxPinned(), c.maxPinned)
		}
		most := consume(t, p, s, b, n)
		if most > c.maxPinned || most < c.maxPinned-DefaultIOSettings.IOCombineLimit {
			t.Errorf("%s: the stream pinned at most %d ahead, want close to its limit %d", c.name, most, c.maxPinned)
		}
		// The ramp-up reads 1, 2, 4 and 8 blocks before the reads are full.
		if s.Blocks != n || s.Reads < n/16 || s.Reads > n/16+5 {
			t.Errorf("%s: %d reads of %d blocks for %d blocks, want about one per 16", c.name, s.Reads, s.Blocks, n)
		}
	}

	// Through a ring of 32 the stream pins at most 16, and every read is full.
	p, s, b, _ := streamOver(t, 16384, 1600, BAS_VACUUM, 256)
	if s.MaxPinned() != 16 {
		t.Fatalf("through a 32-buffer ring the stream pins at most %d, want 16", s.MaxPinned())
	}
	consume(t, p, s, b, 1600)
	if s.Reads > 1600/16+4 {
		t.Errorf("%d reads for 1,600 blocks through a ring of 32, want about 100", s.Reads)
	}
}

// TestReadStreamOfCachedPagesDoesNoIO: pages already in the pool are pinned one at a time
// with no read, and the look-ahead decays to one.
//
// Reference: src/backend/storage/aio/read_stream.c, read_stream_start_pending_read (the
// distance decays when no I/O was needed).
func TestReadStreamOfCachedPagesDoesNoIO(t *testing.T) {
	p, s, b, rel := streamOver(t, 1024, 200, BAS_NORMAL, -1)
	p.Prewarm(rel, MainForkNum)
	consume(t, p, s, b, 200)
	if s.Reads != 0 || s.Distance() != 0 {
		t.Errorf("a cached relation: %d reads, distance %d at the end; want none and the end", s.Reads, s.Distance())
	}
}

// TestReadStreamPinsPerVersion: a stream of PostgreSQL 17 pins at most Max(max_ios × 4,
// io_combine_limit) ahead, with 17's effective_io_concurrency of 1: 16 buffers; one of 18,
// (max_ios + 1) × io_combine_limit with 18's 16, capped by the backend's share of the pool
// (GetPinLimit: 16,384 / 174 = 94).
// Reference: src/backend/storage/aio/read_stream.c, read_stream_begin_impl (17 and 55918f798b);
// src/include/storage/bufmgr.h, DEFAULT_EFFECTIVE_IO_CONCURRENCY (ff79b5b2ab).
func TestReadStreamPinsPerVersion(t *testing.T) {
	for _, c := range []struct {
		version Version
		want    int
	}{{17, 16}, {18, 94}} {
		p, err := NewPool(16384, c.version, CostModel{})
		if err != nil {
			t.Fatal(err)
		}
		rel := &Relation{Name: "t", Permanent: true, Locator: RelFileLocator{SpcOid: DefaultTablespaceOid, DbOid: DefaultDatabaseOid, RelNumber: FirstRelNumber}}
		rel.NBlocks[MainForkNum] = 1000
		if _, err := p.AddRelation(rel); err != nil {
			t.Fatal(err)
		}
		s := p.NewReadStream(&Backend{ID: 1}, nil, rel.Locator, MainForkNum, 0, 0, func() (BlockNumber, bool) { return 0, false })
		if got := s.MaxPinned(); got != c.want {
			t.Errorf("%v: a stream pins up to %d ahead, want %d", c.version, got, c.want)
		}
	}
}
