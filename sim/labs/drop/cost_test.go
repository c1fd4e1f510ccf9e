package drop

import (
	"testing"

	"github.com/bufferscope/bufferscope/sim"
)

// crossover replays table A's experiment (one relation of NB/k blocks, VACUUM, the lookup
// path forced against the full scan) on a 128MB pool under cost and returns the largest
// divisor k at which the lookup path no longer wins, or 0 if it wins at every k.
func crossover(t *testing.T, cost sim.CostModel) int {
	t.Helper()
	for _, k := range []int{512, 256, 128, 64, 32, 16, 8, 4} {
		res, err := RunExperiment(Experiment{NBuffers: 16384, Tables: []TableGroup{{Count: 1, Divisor: k}},
			Op: OpVacuum, InRecovery: true, Cost: cost}, sim.DropPG13, sim.DropLookup)
		if err != nil {
			t.Fatal(err)
		}
		if res[1].DropTime >= res[0].DropTime {
			return k
		}
	}
	return 0
}

// TestCrossoverIsAResult changes one cost part at a time and sees the lookup path's
// crossover move: it is what the parts make of BufTableLookup and the scan, not an input.
// The cache is shrunk to 64kB so a 128MB pool's mapping table and descriptors miss it, as a
// 100GB pool's miss a 15MB cache.
// Reference: src/backend/storage/buffer/bufmgr.c, BUF_DROP_FULL_SCAN_THRESHOLD and FindAndDropRelationBuffers
func TestCrossoverIsAResult(t *testing.T) {
	base := sim.CostModel{CacheSize: 64 << 10}
	k := crossover(t, base)
	if k < 8 || k > 32 {
		t.Fatalf("default parts: lookup stops winning at NB/%d, want between NB/32 and NB/8", k)
	}
	slow := base
	slow.MemoryLatency = 400 * sim.Nanosecond
	if k2 := crossover(t, slow); k2 <= k {
		t.Errorf("memory latency 400ns: crossover at NB/%d, want above NB/%d (lookups dearer)", k2, k)
	}
	fastMem := base
	fastMem.MemoryLine = 2 * sim.Nanosecond // more bandwidth: a cheaper scan
	if k3 := crossover(t, fastMem); k3 <= k {
		t.Errorf("memory line 2ns: crossover at NB/%d, want above NB/%d (scan cheaper)", k3, k)
	}
	big := sim.CostModel{} // the default 15MB cache holds a 128MB pool's table and descriptors
	if k4 := crossover(t, big); k4 == k {
		t.Errorf("in cache the crossover stays at NB/%d", k4)
	}
}
