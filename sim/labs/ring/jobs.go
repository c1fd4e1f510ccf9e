package ring

import (
	"fmt"

	"github.com/bufferscope/bufferscope/sim/lab"
)

// Jobs are the ring lab's long jobs, which the page runs in the experiment worker:
//
//	sweep {the lab's parameters as text, rings: [kB…]}  one VACUUM per ring size
//	real {nbuffers, pages, limits: [kB…]}             the page's PostgreSQL 18 cases in the model (real.go)
func (Lab) Jobs() map[string]lab.Job {
	return map[string]lab.Job{"sweep": runSweep, "real": runReal}
}

// sweepChunk is how many steps a sweep's VACUUM runs between reports of its progress.
const sweepChunk = 1 << 14

// DefaultSweepKB are the ring sizes of the page's chart: 128kB (the smallest
// vacuum_buffer_usage_limit) to 64MB, doubling.
var DefaultSweepKB = []int{128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536}

// runSweep runs VACUUM once per ring size with the other parameters as the page has them,
// and returns per ring: kB, ring buffers, VACUUM's seconds and ring writes that waited for
// WAL, and the foreground's hit ratio and TPS. Its progress counts pages vacuumed over all the
// runs, reported every sweepChunk steps, so the page's bar moves during a long VACUUM and a
// cancel stops it there.
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
	pages := TableBlocks(v.Text("table"))
	total := pages * len(kbs)
	for i, kb := range kbs {
		label := fmt.Sprintf("ring %dkB", kb)
		if progress != nil && !progress(i*pages, total, label, true) {
			return nil, lab.ErrCancelled
		}
		set := SetupOf(v)
		set.RingKB = kb
		r, err := NewRun(set)
		if err != nil {
			return nil, err
		}
		for !r.Done() {
			if err := r.s.Step(sweepChunk); err != nil {
				return nil, err
			}
			if progress != nil && !progress(i*pages+r.vr.blk, total, label, false) {
				return nil, lab.ErrCancelled
			}
		}
		c := r.Counters().(*Counters)
		rings = append(rings, kb)
		ringBuffers = append(ringBuffers, c.RingBuffers)
		flushes = append(flushes, int(c.VacuumWALFlushes))
		secs = append(secs, c.VacuumSeconds)
		hits = append(hits, c.ForegroundHitRatio)
		tps = append(tps, c.ForegroundTPS)
	}
	if progress != nil {
		progress(total, total, "done", true)
	}
	return map[string]any{
		"rings": rings, "ringBuffers": ringBuffers, "vacuumWalFlushes": flushes,
		"vacuumSeconds": secs, "foregroundHitRatio": hits, "foregroundTps": tps,
	}, nil
}
