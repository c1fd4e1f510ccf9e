package sim

// Stats counts what the simulation has done since it started. Counters only grow.
type Stats struct {
	Steps             uint64 // simulation steps taken
	Accesses          uint64 // ReadBuffer calls
	Hits              uint64 // ReadBuffer found the page in shared buffers
	Misses            uint64 // ReadBuffer had to load the page
	ReadsOSCache      uint64 // misses served by the kernel's page cache
	ReadsDisk         uint64 // misses served by storage
	Evictions         uint64 // valid pages evicted to make room
	DirtyWrites       uint64 // dirty victims written by client backends
	BgWriterWrites    uint64 // pages written by the background writer
	CheckpointWrites  uint64 // pages written by checkpoints
	Updates           uint64 // pages changed with a WAL record
	WALFlushes        uint64 // XLogFlush calls that flushed
	WALFlushesBackend uint64 // of which forced by a client writing a dirty victim
	WALFlushesWriter  uint64 // of which done by the WAL writer
	// of which forced by the background writer and by checkpoints writing dirty buffers
	WALFlushesBgWriter, WALFlushesCheckpointer uint64
	DescriptorsChecked                         uint64 // descriptors visited by the clock sweep and scans
	Lookups                                    uint64 // mapping-table lookups
	SweepPasses                                uint64 // complete passes of the clock hand
	Invalidated                                uint64 // buffers dropped by InvalidateBuffer
	// IO counts what backends did through a ring, by its pg_stat_io context, indexed by
	// BufferAccessStrategyType; IO[BAS_NORMAL] stays zero: IOIn derives the normal context
	// from the totals.
	IO [numStrategies]IOCounts
}

// IOIn returns what backends did in pg_stat_io context ctx: through rings of that type, or,
// for the normal context, everything else (the pool's Hits, Misses, DirtyWrites and
// Evictions less what the rings did).
func (s *Stats) IOIn(ctx BufferAccessStrategyType) IOCounts {
	if ctx != BAS_NORMAL {
		return s.IO[ctx]
	}
	n := IOCounts{Reads: s.Misses, Hits: s.Hits, Writes: s.DirtyWrites, Evictions: s.Evictions}
	for _, r := range s.IO[BAS_NORMAL+1:] {
		n.Reads -= r.Reads
		n.Hits -= r.Hits
		n.Writes -= r.Writes
		n.Evictions -= r.Evictions
	}
	return n
}

// IOCounts mirrors the operations pg_stat_io counts for one context of one backend type
// (PgStat_BktypeIO in pgstat.h), as far as the simulation makes them: reads of pages into
// shared buffers, hits, writes of dirty victims, evictions (a valid buffer taken by the
// clock sweep) and reuses (a ring's own buffer taken again).
type IOCounts struct {
	Reads     uint64
	Hits      uint64
	Writes    uint64
	Evictions uint64
	Reuses    uint64
}

// HitRatio returns Hits/Accesses, or 0 before the first access.
func (s Stats) HitRatio() float64 {
	if s.Accesses == 0 {
		return 0
	}
	return float64(s.Hits) / float64(s.Accesses)
}
