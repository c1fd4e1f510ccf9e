package sim

import "fmt"

// Distribution is how the free-play workload picks blocks. The zero value is Uniform.
type Distribution uint8

// The key distributions, named as pgbench's random functions.
const (
	Uniform Distribution = iota // random(1, n)
	Zipfian                     // random_zipfian(1, n, s): block k with weight k^−s
)

// String returns "uniform" or "zipfian".
func (d Distribution) String() string {
	if d == Zipfian {
		return "zipfian"
	}
	return "uniform"
}

// ParseDistribution parses "uniform" or "zipfian".
func ParseDistribution(s string) (Distribution, error) {
	switch s {
	case "uniform":
		return Uniform, nil
	case "zipfian", "zipf":
		return Zipfian, nil
	}
	return 0, fmt.Errorf("distribution %q is not uniform or zipfian", s)
}

// RelationSpec describes one relation of the free-play workload.
type RelationSpec struct {
	Name     string
	Blocks   int  // size of the main fork in 8 kB blocks
	Unlogged bool // an UNLOGGED table: no WAL, no BM_PERMANENT
	Weight   int  // relative share of the accesses that go to this relation
}

// Workload is the free-play load that keeps the pool busy: clients that each pin one page at
// a time, pgbench-like, reading it or changing it under WAL. Every field is literal: build
// one with DefaultWorkload and change what you need.
type Workload struct {
	Relations      []RelationSpec
	Clients        int          // client backends, 0 to MaxClients
	UpdatePercent  int          // share of accesses that change the page, 0 to 100
	Distribution   Distribution // how blocks are picked within a relation
	ZipfS          float64      // random_zipfian's skew s, MinZipfianParam to MaxZipfianParam
	OSCachePercent int          // share of misses the kernel's page cache serves, 0 to 100
	WALWriterDelay Duration     // wal_writer_delay; the WAL writer flushes on every wake-up
	BgWriterDelay  Duration     // bgwriter_delay
	BgWriterPages  int          // bgwriter_lru_maxpages; 0 turns the background writer off
}

// MaxClients is the largest number of client backends a workload may have.
const MaxClients = 1000

// updateRecordBytes is the WAL payload of one page change, about a heap UPDATE record.
const updateRecordBytes = 120

// DefaultWorkload returns the free-play workload for a pool of nbuffers buffers: pgbench's
// four tables scaled so the data is twice the pool, eight clients, a fifth of the accesses
// updates, Zipfian keys with s = 1.1 and PostgreSQL's background-process defaults.
func DefaultWorkload(nbuffers int) Workload {
	return Workload{
		Relations: []RelationSpec{
			{Name: "pgbench_accounts", Blocks: 2 * nbuffers, Weight: 60},
			{Name: "pgbench_accounts_pkey", Blocks: max(nbuffers/4, 1), Weight: 30},
			{Name: "pgbench_tellers", Blocks: max(nbuffers/256, 1), Weight: 5},
			{Name: "pgbench_branches", Blocks: 1, Weight: 5},
		},
		Clients:        8,
		UpdatePercent:  20,
		Distribution:   Zipfian,
		ZipfS:          1.1,
		OSCachePercent: 90,
		WALWriterDelay: 200 * Millisecond,
		BgWriterDelay:  200 * Millisecond,
		BgWriterPages:  100,
	}
}

// Validate reports the first value out of range, for a pool of nbuffers buffers.
func (w *Workload) Validate(nbuffers int) error {
	switch {
	case w.Clients < 0 || w.Clients > MaxClients:
		return fmt.Errorf("clients %d is not between 0 and %d", w.Clients, MaxClients)
	case w.Clients > nbuffers/2:
		return fmt.Errorf("clients %d is more than half of NBuffers %d: every client holds a pin", w.Clients, nbuffers)
	case w.UpdatePercent < 0 || w.UpdatePercent > 100:
		return fmt.Errorf("update percent %d is not between 0 and 100", w.UpdatePercent)
	case w.OSCachePercent < 0 || w.OSCachePercent > 100:
		return fmt.Errorf("OS cache percent %d is not between 0 and 100", w.OSCachePercent)
	case w.Distribution > Zipfian:
		return fmt.Errorf("distribution %d is unknown", w.Distribution)
	case w.Distribution == Zipfian && !(w.ZipfS >= MinZipfianParam && w.ZipfS <= MaxZipfianParam):
		return fmt.Errorf("zipfian s %v is not between %v and %v", w.ZipfS, MinZipfianParam, MaxZipfianParam)
	case w.WALWriterDelay < Millisecond || w.WALWriterDelay > 10*Second:
		return fmt.Errorf("wal_writer_delay %v is not between 1ms and 10s", w.WALWriterDelay)
	case w.BgWriterDelay < 10*Millisecond || w.BgWriterDelay > 10*Second:
		return fmt.Errorf("bgwriter_delay %v is not between 10ms and 10s", w.BgWriterDelay)
	case w.BgWriterPages < 0 || w.BgWriterPages > 1073741823:
		return fmt.Errorf("bgwriter_lru_maxpages %d is out of range", w.BgWriterPages)
	}
	total := 0
	for _, r := range w.Relations {
		if r.Name == "" || r.Blocks < 1 || r.Blocks > 1<<30 || r.Weight < 0 {
			return fmt.Errorf("relation %q needs a name, 1 to 2^30 blocks and a weight ≥ 0", r.Name)
		}
		total += r.Weight
	}
	if w.Clients > 0 && total == 0 {
		return fmt.Errorf("the workload's relations have no weight, so clients have nothing to read")
	}
	return nil
}
