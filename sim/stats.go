package sim

// Stats counts what the simulation has done since it started. Counters only grow.
type Stats struct {
	Steps              uint64 // simulation steps taken
	Accesses           uint64 // ReadBuffer calls
	Hits               uint64 // ReadBuffer found the page in shared buffers
	Misses             uint64 // ReadBuffer had to load the page
	ReadsOSCache       uint64 // misses served by the kernel's page cache
	ReadsDisk          uint64 // misses served by storage
	Evictions          uint64 // valid pages evicted to make room
	DirtyWrites        uint64 // dirty victims written by client backends
	BgWriterWrites     uint64 // pages written by the background writer
	CheckpointWrites   uint64 // pages written by checkpoints
	Updates            uint64 // pages changed with a WAL record
	WALFlushes         uint64 // XLogFlush calls that flushed
	WALFlushesBackend  uint64 // of which forced by a client writing a dirty victim
	WALFlushesWriter   uint64 // of which done by the WAL writer
	DescriptorsChecked uint64 // descriptors visited by the clock sweep and scans
	Lookups            uint64 // mapping-table lookups
	SweepPasses        uint64 // complete passes of the clock hand
	Invalidated        uint64 // buffers dropped by InvalidateBuffer
}

// HitRatio returns Hits/Accesses, or 0 before the first access.
func (s Stats) HitRatio() float64 {
	if s.Accesses == 0 {
		return 0
	}
	return float64(s.Hits) / float64(s.Accesses)
}
