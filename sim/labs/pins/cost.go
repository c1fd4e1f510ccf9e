package pins

import "github.com/bufferscope/bufferscope/sim"

// Cost is the virtual time each part of the pins lab's work takes. Every field is a named
// part with its source; most are assumptions of this model about a 2017-era x86 server
// running pgbench on the same host, and say so. None is fitted to the published table: the
// curve's shape comes from the mechanisms (queueing for cores, row and content lock waits,
// heap visits to dead tuples), not from these numbers.
type Cost struct {
	// NetRoundTrip is the time between a transaction's end and the client's next
	// statement arriving: pgbench's own work and a loopback round trip. It uses no server
	// core (assumed 20 µs).
	NetRoundTrip sim.Duration
	// Statement is a backend's CPU time for one simple statement besides the index and
	// heap work counted below: parse, plan (pgbench's simple protocol), executor start and
	// end, snapshot (assumed 15 µs).
	Statement sim.Duration
	// DescendLevel is one internal page visited by _bt_search on the way to a leaf: a pin,
	// a share lock and a binary search (assumed 0.3 µs).
	DescendLevel sim.Duration
	// ReadPage is _bt_readpage: a binary search of the leaf and copying the matching items
	// into so->currPos under a share lock (assumed 0.5 µs).
	ReadPage sim.Duration
	// HeapVisit is one heap fetch through an index TID (index_fetch_heap →
	// heapam_index_fetch_tuple): pin and share-lock the heap page (ReadBuffer, LockBuffer),
	// test the chain's first tuple's visibility, unlock (assumed 1 µs). Dead tuples cost it
	// too, which is why LP_DEAD hints matter.
	HeapVisit sim.Duration
	// HOTMember is each further version of a HOT chain that heap_hot_search_buffer walks on
	// the page the fetch already holds locked: a line pointer and a visibility test whose
	// hint bits are set, no buffer access (assumed 0.1 µs, a few cache misses).
	HOTMember sim.Duration
	// KillItems is _bt_killitems: re-pin (if dropped) and share-lock the leaf, compare the
	// LSN, match items by heap TID (assumed 0.5 µs).
	KillItems sim.Duration
	// HeapUpdate is heap_update's own work: lock the tuple, write the new version, WAL
	// record (assumed 3 µs).
	HeapUpdate sim.Duration
	// IndexInsert is _bt_doinsert's work on the leaf besides the descent and the unique
	// check: place the item, WAL record (assumed 1.5 µs).
	IndexInsert sim.Duration
	// SimpleDelete is _bt_delitems_delete: remove the LP_DEAD items of a full leaf under its
	// exclusive lock, WAL-logged (assumed 5 µs).
	SimpleDelete sim.Duration
	// Split is _bt_split: allocate a page, move half the items, WAL-log both halves and the
	// downlink (assumed 20 µs).
	Split sim.Duration
	// Commit is RecordTransactionCommit's CPU work, without the WAL flush (assumed 2 µs).
	Commit sim.Duration
	// WALFlush is one write and fdatasync of the WAL at commit, shared by every commit
	// waiting for it (group commit). Assumed 30 µs: an NVMe device with power-loss
	// protection (postgres-internals.md section 5: ~20–100 µs).
	WALFlush sim.Duration
	// Wakeup is the CPU a backend spends being woken from a lock wait (semaphore, context
	// switch, lock manager) before it can continue (assumed 4 µs).
	Wakeup sim.Duration
	// LockRelease is releasing the row's heavyweight locks at commit (the transaction
	// lock and the tuple lock) through the lock manager, under its partition LWLock
	// (assumed 1 µs).
	LockRelease sim.Duration
	// WaitQueueScan is ProcLockWakeup (proc.c) examining one waiter of a released lock:
	// it walks the whole wait queue on every release, checking each waiter's request for
	// conflicts, so a hot row's release costs more the more backends wait for it (assumed
	// 40 ns per waiter, a cache miss on the waiter's PGPROC).
	WaitQueueScan sim.Duration
	// SnapshotPerBackend is GetSnapshotData's work per connected backend: before
	// PostgreSQL 14 (dc7420c2c9) it reads every backend's PGXACT entry, so each statement's
	// snapshot costs more with more connections (assumed 10 ns per backend).
	SnapshotPerBackend sim.Duration
	// Prune is heap_page_prune on one heap page under its cleanup lock: free the dead
	// versions' space, redirect HOT chains, WAL-log it (assumed 5 µs, as SimpleDelete).
	Prune sim.Duration
	// VacuumPage is btvacuumpage on one leaf once it has the cleanup lock (assumed 5 µs).
	VacuumPage sim.Duration
}

// DefaultCost returns the constants described on Cost.
func DefaultCost() Cost {
	us := sim.Microsecond
	return Cost{
		NetRoundTrip: 20 * us, Statement: 15 * us, DescendLevel: 300 * sim.Nanosecond,
		ReadPage: 500 * sim.Nanosecond, HeapVisit: 1 * us, HOTMember: 100 * sim.Nanosecond, KillItems: 500 * sim.Nanosecond,
		HeapUpdate: 3 * us, IndexInsert: 1500 * sim.Nanosecond, SimpleDelete: 5 * us,
		Split: 20 * us, Commit: 2 * us, WALFlush: 30 * us, Wakeup: 4 * us, VacuumPage: 5 * us,
		LockRelease: 1 * us, WaitQueueScan: 40 * sim.Nanosecond, SnapshotPerBackend: 10 * sim.Nanosecond,
		Prune: 5 * us,
	}
}
