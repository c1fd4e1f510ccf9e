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
