package sim

// CostModel holds the virtual time charged for each primitive the simulation performs. The
// zero value of a field means its default (DefaultCostModel); every constant is visible and
// adjustable so a reader can ask "what if a WAL flush took 8 ms?".
//
// Sources (reference/postgres-internals.md section 5): the descriptor check is the ~5 ns per
// descriptor measured from a full scan of a 100 GB pool; the lookup default is 32 descriptor
// checks, the break-even that makes NBuffers/32 the right threshold; a WAL flush of 1 ms is an
// SSD write plus fdatasync. Page reads and writes are assumptions of this model and say so.
type CostModel struct {
	// DescriptorCheck is one buffer descriptor visited by a full scan or the clock sweep.
	DescriptorCheck Duration
	// Lookup is one BufTableHashCode + partition LWLock + BufTableLookup.
	Lookup Duration
	// ReadOSCache is reading one 8 kB page that the kernel's page cache holds (assumed 5 µs).
	ReadOSCache Duration
	// ReadDisk is reading one 8 kB page from storage (assumed 100 µs, an SSD random read).
	ReadDisk Duration
	// Write is handing one dirty page to the kernel with smgrwrite, no fsync (assumed 10 µs).
	Write Duration
	// WALFlush is one XLogFlush that writes and fdatasyncs WAL (1 ms).
	WALFlush Duration
	// WALInsert is inserting one WAL record (assumed 1 µs).
	WALInsert Duration
	// PageWork is what a client backend does with a page besides getting it: executor,
	// tuple visibility, locks (assumed 5 µs, a pgbench-like statement's share per page).
	PageWork Duration
	// LocatorCompare is one more RelFileLocator comparison when a full scan checks a buffer
	// against several relations (assumed 1 ns).
	LocatorCompare Duration
	// ReplayRecord is decoding and redoing one WAL record in the startup process, beyond the
	// buffer accesses the redo makes (assumed 2 µs).
	ReplayRecord Duration
	// FileOp is one file-system call on a relation's file: create, truncate or unlink
	// (assumed 20 µs).
	FileOp Duration
}

// DefaultCostModel returns the default constants described on CostModel.
func DefaultCostModel() CostModel {
	return CostModel{
		DescriptorCheck: 5 * Nanosecond,
		Lookup:          160 * Nanosecond,
		ReadOSCache:     5 * Microsecond,
		ReadDisk:        100 * Microsecond,
		Write:           10 * Microsecond,
		WALFlush:        1 * Millisecond,
		WALInsert:       1 * Microsecond,
		PageWork:        5 * Microsecond,
		LocatorCompare:  1 * Nanosecond,
		ReplayRecord:    2 * Microsecond,
		FileOp:          20 * Microsecond,
	}
}

// WithDefaults returns c with every zero field replaced by its default.
func (c CostModel) WithDefaults() CostModel {
	d := DefaultCostModel()
	fill := func(v *Duration, def Duration) {
		if *v == 0 {
			*v = def
		}
	}
	fill(&c.DescriptorCheck, d.DescriptorCheck)
	fill(&c.Lookup, d.Lookup)
	fill(&c.ReadOSCache, d.ReadOSCache)
	fill(&c.ReadDisk, d.ReadDisk)
	fill(&c.Write, d.Write)
	fill(&c.WALFlush, d.WALFlush)
	fill(&c.WALInsert, d.WALInsert)
	fill(&c.PageWork, d.PageWork)
	fill(&c.LocatorCompare, d.LocatorCompare)
	fill(&c.ReplayRecord, d.ReplayRecord)
	fill(&c.FileOp, d.FileOp)
	return c
}
