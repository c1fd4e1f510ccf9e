package ring

import (
	"testing"

	"github.com/bufferscope/bufferscope/sim"
)

// TestFidelityHelpers: the exported helpers give the figures the real servers gave at the
// harness's 128MB pool and 10,345-page table (docs/fidelity.md experiments 1–3).
func TestFidelityHelpers(t *testing.T) {
	if n, err := PagesLeftAfterVacuum(16, 2048, 16384, 10345); err != nil || n != 256 {
		t.Errorf("VACUUM 2MB: %d pages, %v; want 256", n, err)
	}
	for v, want := range map[int]int{14: 32, 17: 32, 18: 94} {
		if n, err := PagesLeftAfterSeqScan(sim.Version(v), 16384, 10345); err != nil || n != want {
			t.Errorf("PG%d seqscan: %d pages, %v; want %d", v, n, err, want)
		}
	}
	_, cold, err := VacuumWALFlushes(16, -1, 16384, 10345, false)
	if err != nil || cold < 300 || cold > 360 {
		t.Errorf("cold: %d WAL flushes, %v; a real server ~329", cold, err)
	}
	_, cached, err := VacuumWALFlushes(16, -1, 16384, 10345, true)
	if err != nil || cached > 6 {
		t.Errorf("cached: %d WAL flushes, %v; a real server ~6", cached, err)
	}
}

// TestVacuumReadStreamFlushesOncePerRead: from PostgreSQL 18 VACUUM reads a cold table
// through a read stream that pins up to half its ring ahead, in reads of 16 pages; through a
// ring of 32 each read takes the ring's buffers of pages VACUUM dirtied after the last WAL
// flush, so VACUUM flushes WAL about once per read, twice as often as 17's once per ring-ful.
//
// Reference: src/backend/access/heap/vacuumlazy.c (9256822608, the read stream in VACUUM's
// first phase); src/backend/storage/buffer/freelist.c, GetAccessStrategyPinLimit.
func TestVacuumReadStreamFlushesOncePerRead(t *testing.T) {
	const pages = 3200
	c18, err := VacuumCounters(18, 256, 16384, pages, false, nil)
	if err != nil {
		t.Fatal(err)
	}
	c17, err := VacuumCounters(17, 256, 16384, pages, false, nil)
	if err != nil {
		t.Fatal(err)
	}
	// The stream's first reads ramp up, 1, 2, 4 and 8 pages, before they are full.
	if c17.VacuumReads != pages || c18.VacuumReads < pages/16 || c18.VacuumReads > pages/16+5 {
		t.Errorf("reads: 17 %d, 18 %d; want one per page and about one per 16 pages", c17.VacuumReads, c18.VacuumReads)
	}
	if c18.VacuumWALSyncs < c18.VacuumReads-8 || c18.VacuumWALSyncs > c18.VacuumReads {
		t.Errorf("18 flushed WAL %d times in %d reads, want about once per read", c18.VacuumWALSyncs, c18.VacuumReads)
	}
	if c17.VacuumWALSyncs > pages/32+1 || c17.VacuumWALSyncs < pages/32-1 {
		t.Errorf("17 flushed WAL %d times, want once per ring-ful of 32 (%d)", c17.VacuumWALSyncs, pages/32)
	}
	if c18.RingReuses != c17.RingReuses || c18.VacuumWrites != c17.VacuumWrites {
		t.Errorf("reuses and writes: 17 %d and %d, 18 %d and %d; the stream takes the same buffers", c17.RingReuses, c17.VacuumWrites, c18.RingReuses, c18.VacuumWrites)
	}
}
