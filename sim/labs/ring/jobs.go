package ring

import (
	"fmt"

	"github.com/bufferscope/bufferscope/sim/lab"
)

// Jobs are the ring lab's long jobs, which the page runs in the experiment worker:
//
//	sweep {the lab's parameters as text, rings: [kB…]}  one VACUUM per ring size
func (Lab) Jobs() map[string]lab.Job {
	return map[string]lab.Job{"sweep": runSweep}
}

// DefaultSweepKB are the ring sizes of the page's chart: 128kB (the smallest
// vacuum_buffer_usage_limit) to 64MB, doubling.
var DefaultSweepKB = []int{128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536}

// runSweep runs VACUUM once per ring size with the other parameters as the page has them,
// and returns per ring: kB, ring buffers, VACUUM's seconds and own WAL flushes, and the
// foreground's hit ratio and TPS.
func runSweep(a lab.Args, _ func() float64, progress lab.Progress) (map[string]any, error) {
	v, err := a.Values(table, nil)
	if err != nil {
		return nil, err
	}
	kbs, err := a.Ints("rings", minRingKB, maxRingKB, DefaultSweepKB)
	if err != nil {
		return nil, err
	}
	// Lists of any, as js.ValueOf takes them.
	var rings, ringBuffers, flushes, secs, hits, tps []any
	for i, kb := range kbs {
		if progress != nil && !progress(i, len(kbs), fmt.Sprintf("ring %dkB", kb), true) {
			return nil, lab.ErrCancelled
		}
		set := SetupOf(v)
		set.RingKB = kb
		c, err := RunToEnd(set)
		if err != nil {
			return nil, err
		}
		rings = append(rings, kb)
		ringBuffers = append(ringBuffers, c.RingBuffers)
		flushes = append(flushes, int(c.VacuumWALFlushes))
		secs = append(secs, c.VacuumSeconds)
		hits = append(hits, c.ForegroundHitRatio)
		tps = append(tps, c.ForegroundTPS)
	}
	if progress != nil {
		progress(len(kbs), len(kbs), "done", true)
	}
	return map[string]any{
		"rings": rings, "ringBuffers": ringBuffers, "vacuumWalFlushes": flushes,
		"vacuumSeconds": secs, "foregroundHitRatio": hits, "foregroundTps": tps,
	}, nil
}
