package fidelity

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/bufferscope/bufferscope/sim"
	"github.com/bufferscope/bufferscope/sim/labs/ring"
)

// RingSimTablePages is the size of the ring experiments' table (ring_t) in the simulation:
// the 10,345 pages every real server measured (its rows do not carry the size, except the
// seqscan's case name, which is used when present).
const RingSimTablePages = 10345

// WALSyncTolerance is experiment 3's tolerance: a simulated WAL flush count agrees with the
// real cluster-wide WAL sync count when it is within 25% of it, or within 5 syncs (the
// cached cases, where a real server makes a handful of syncs of its own).
const (
	WALSyncTolerance  = 0.25
	WALSyncAbsolute   = 5
	ringModelFirstMaj = 14
)

// RingHooks are the ring lab's simulated side of experiments 1 (pages VACUUM leaves in
// shared buffers), 2 (pages a sequential scan leaves) and 3 (VACUUM's WAL flushes), at the
// real run's pool (shared_buffers 128MB, NBuffers 16,384) and table (10,345 pages). The
// model's versions start at 14: a 13 row is simulated under 14's rules and its figure says
// so. Experiments 1 and 2 agree only when the page counts are equal. Experiment 3 compares
// the run's WAL flushes (VACUUM's forced ones and the WAL writer's; no clients run) with
// the real cluster-wide WAL syncs: it agrees when |simulated − real| ≤ max(25% of real, 5)
// (WALSyncTolerance, WALSyncAbsolute); 13 counts no WAL syncs (no pg_stat_wal), so its rows
// have no simulated verdict.
func RingHooks() Hooks {
	return Hooks{
		ExpVacuumRing:  ringVacuumHook,
		ExpSeqScanRing: ringSeqScanHook,
		ExpVacuumWAL:   ringWALHook,
		ExpRingCost:    ringCostHook,
	}
}

var costCase = regexp.MustCompile(`^limit (\S+), (hot pages evicted|VACUUM's evictions and reuses)$`)

var readersCase = regexp.MustCompile(`^limit (\S+), (\d+) clients reading, hot pages evicted$`)

// ringCostHook is experiment 7's simulated side: ring.ForegroundCost at the real run's sizes.
// With clients reading the hot table (ring.ForegroundCostWithReaders) the rule is the shape:
// a row agrees when the model orders its loss against the pass's smallest ring's loss as the
// real server does (more or fewer hot pages lost); a row of the same ring in the model is the
// reference.
func ringCostHook(r Row) (string, bool, bool) {
	if m := readersCase.FindStringSubmatch(r.Case); m != nil && r.Args != nil {
		kb, err := ringKBOf(m[1])
		if err != nil {
			return "error: " + err.Error(), false, true
		}
		v, note := ringVersion(r.Major)
		a := r.Args
		lost, _, _, err := ring.ForegroundCostWithReaders(v, kb, int(a["nbuffers"]), int(a["hot"]), int(a["cold"]), int(a["clients"]))
		if err != nil {
			return "error: " + err.Error(), false, true
		}
		ref, _, _, err := ring.ForegroundCostWithReaders(v, int(a["ref_kb"]), int(a["nbuffers"]), int(a["hot"]), int(a["cold"]), int(a["clients"]))
		if err != nil {
			return "error: " + err.Error(), false, true
		}
		// A row whose ring the model sizes as the smallest's (the version's default of 256kB)
		// is the reference; the others must grow, or not, as the real ones do.
		real := cmpInt(int64(r.Value), a["ref_lost"])
		model := cmpInt(int64(lost), int64(ref))
		return fmt.Sprintf("%d hot pages (%s the smallest ring's %d)%s", lost, orderWord(model), ref, note), model == 0 || real == model, true
	}
	m := costCase.FindStringSubmatch(r.Case)
	if m == nil || r.Args == nil {
		return "", false, false
	}
	kb, err := ringKBOf(m[1])
	if err != nil {
		return "error: " + err.Error(), false, true
	}
	v, note := ringVersion(r.Major)
	lost, ev, re, err := ring.ForegroundCost(v, kb, int(r.Args["nbuffers"]), int(r.Args["hot"]), int(r.Args["cold"]))
	if err != nil {
		return "error: " + err.Error(), false, true
	}
	if m[2] == "hot pages evicted" {
		return fmt.Sprintf("%d hot pages (its heap pages only: no FSM, VM or catalog page read)%s", lost, note), float64(lost) == r.Value, true
	}
	return fmt.Sprintf("%d evictions, %d reuses%s", ev, re, note), float64(ev) == r.Value && int64(re) == r.Args["reuses"], true
}

// cmpInt is −1, 0 or 1 as a is less than, equal to or more than b.
func cmpInt(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// orderWord names cmpInt's answer.
func orderWord(c int) string { return [...]string{"fewer than", "as many as", "more than"}[c+1] }

// ringVersion is the model's version for a major, and the figure's note when it differs.
func ringVersion(major int) (sim.Version, string) {
	if major < ringModelFirstMaj {
		return sim.Version(ringModelFirstMaj), fmt.Sprintf(" (PG%d's rules: the model starts at 14)", ringModelFirstMaj)
	}
	return sim.Version(major), ""
}

// ringKBOf is the ring lab's RingKB for a vacuum_buffer_usage_limit as the cases print it.
func ringKBOf(limit string) (int, error) {
	if limit == "default" || limit == "" {
		return -1, nil
	}
	kb, err := parseKB(limit)
	return int(kb), err
}

func ringNBuffers() int {
	nb, err := sim.SharedBuffersToNBuffers(ringPool)
	if err != nil {
		panic(err)
	}
	return nb
}

func ringVacuumHook(r Row) (string, bool, bool) {
	limit, ok := strings.CutPrefix(r.Case, "vacuum_buffer_usage_limit ")
	if !ok {
		return "", false, false
	}
	kb, err := ringKBOf(limit)
	if err != nil {
		return "error: " + err.Error(), false, true
	}
	v, note := ringVersion(r.Major)
	n, err := ring.PagesLeftAfterVacuum(v, kb, ringNBuffers(), RingSimTablePages)
	if err != nil {
		return "error: " + err.Error(), false, true
	}
	return fmt.Sprintf("%d pages%s", n, note), float64(n) == r.Value, true
}

var seqScanCase = regexp.MustCompile(`^count\(\*\) of (\d+) pages$`)

func ringSeqScanHook(r Row) (string, bool, bool) {
	m := seqScanCase.FindStringSubmatch(r.Case)
	if m == nil {
		return "", false, false
	}
	pages, _ := strconv.Atoi(m[1])
	v, note := ringVersion(r.Major)
	n, err := ring.PagesLeftAfterSeqScan(v, ringNBuffers(), pages)
	if err != nil {
		return "error: " + err.Error(), false, true
	}
	return fmt.Sprintf("%d pages%s", n, note), float64(n) == r.Value, true
}

var walCase = regexp.MustCompile(`^(cold|cached), limit (\S+)$`)

func ringWALHook(r Row) (string, bool, bool) {
	m := walCase.FindStringSubmatch(r.Case)
	if m == nil || r.Value < 0 {
		return "", false, false
	}
	kb, err := ringKBOf(m[2])
	if err != nil {
		return "error: " + err.Error(), false, true
	}
	v, note := ringVersion(r.Major)
	cached, limit := m[1] == "cached", m[2]
	if limit == "default" {
		limit = ""
	}
	cases := walCases(r.Major)
	at := slices.IndexFunc(cases, func(c WALCase) bool { return c.Cached == cached && c.Limit == limit })
	if at < 0 {
		return "", false, false
	}
	// The CHECKPOINT before each case makes every page's first change log the whole page;
	// 18's initdb turns data checksums on, so its first change is a hint's image.
	image := ring.HarnessPageImage(len(cases)+1, at, r.Major >= 18)
	c, err := ring.VacuumCounters(v, kb, ringNBuffers(), RingSimTablePages, cached, image)
	if err != nil {
		return "error: " + err.Error(), false, true
	}
	all, vac := c.WALFlushes, c.VacuumWALFlushes
	fig := fmt.Sprintf("%d WAL flushes (%d forced on VACUUM, %d finishing a segment); %.1f MB WAL; vacuum reuses %d, writes %d, reads %d%s",
		all, vac, c.SegmentSyncs, float64(c.WALBytes)/1e6, c.RingReuses, c.VacuumWrites, c.VacuumReads, note)
	return fig, walSyncsAgree(float64(all), r.Value), true
}

// walSyncsAgree is experiment 3's rule: within 25% of the real count, or within 5 syncs.
func walSyncsAgree(sim, real float64) bool {
	return math.Abs(sim-real) <= math.Max(WALSyncTolerance*real, WALSyncAbsolute)
}
