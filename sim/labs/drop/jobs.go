package drop

import (
	"fmt"
	"math"
	"runtime"
	"slices"

	"github.com/bufferscope/bufferscope/sim"
	"github.com/bufferscope/bufferscope/sim/lab"
)

// Jobs are the drop lab's long jobs, which the page runs in the experiment worker:
//
//	curve   {nbuffers, op, mode, divisors}  modelled time of both paths against relation size
//	measure {nbuffers, divisors, reps}      the real scan and lookups timed on this device
//	real    {nbuffers, pages}               the page's PostgreSQL 18 cases in the model (real.go)
func (Lab) Jobs() map[string]lab.Job {
	return map[string]lab.Job{
		"real": runReal,
		"curve": func(a lab.Args, _ func() float64, progress lab.Progress) (map[string]any, error) {
			r, err := parseCurveRequest(a)
			if err != nil {
				return nil, err
			}
			return runCurve(r, progress)
		},
		"measure": func(a lab.Args, clock func() float64, progress lab.Progress) (map[string]any, error) {
			r, err := parseMeasureRequest(a)
			if err != nil {
				return nil, err
			}
			return runMeasure(r, clock, progress)
		},
	}
}

// curveRequest asks for the drop lab's chart: for one relation of NBuffers/k blocks, for
// each k of Divisors, the experiment replayed under PostgreSQL 13's full scan and under the
// lookup path forced on, as the published threshold test did (seed-results.md, table A).
type curveRequest struct {
	NBuffers   int
	Op         Operation
	InRecovery bool
	Divisors   []int
	// Cost is the cost model of the lab's device and cost parameters, so the chart's
	// crossover moves with them.
	Cost sim.CostModel
}

// DefaultDivisors are the sizes of the published threshold test, NB/512 to NB/8, and NB/4.
var DefaultDivisors = []int{512, 256, 128, 64, 32, 16, 8, 4}

// separateAt is the pool from which each policy gets its own experiment: RunDropExperiment
// clones the filled pool for every policy but the last, so running them one at a time halves
// the memory a 100GB pool needs (about 1 GB for each copy), at the cost of filling it twice.
const separateAt = 2_621_440 // 20GB

func parseCurveRequest(a lab.Args) (curveRequest, error) {
	var r curveRequest
	var err error
	if r.NBuffers, err = a.Int("nbuffers", sim.MinNBuffers, sim.MaxNBuffers, 0); err != nil {
		return r, err
	}
	if r.NBuffers == 0 {
		return r, fmt.Errorf("nbuffers must be a number")
	}
	op, err := a.String("op", OpDrop.String())
	if err != nil {
		return r, err
	}
	if r.Op, err = ParseOperation(op); err != nil {
		return r, err
	}
	mode, err := a.String("mode", recovery)
	if err != nil {
		return r, err
	}
	switch mode {
	case recovery, primary:
		r.InRecovery = mode == recovery
	default:
		return r, fmt.Errorf("mode %q is not recovery or primary", mode)
	}
	if r.Divisors, err = a.Ints("divisors", 2, sim.MaxNBuffers, DefaultDivisors); err != nil {
		return r, err
	}
	device, err := a.String("device", sim.DeviceServer.String())
	if err != nil {
		return r, err
	}
	if r.Cost.Device, err = sim.ParseDevice(device); err != nil {
		return r, err
	}
	cost, err := a.String("cost", "")
	if err != nil {
		return r, err
	}
	r.Cost, err = sim.ParseCostOverrides(cost, r.Cost)
	return r, err
}

// curvePolicies are the two paths the chart compares, in the order of each point's fields.
var curvePolicies = []sim.DropPolicy{sim.DropPG13, sim.DropLookup}

// runCurve runs the experiments of r, calling progress after each, and returns the points.
func runCurve(r curveRequest, progress lab.Progress) (map[string]any, error) {
	separate := r.NBuffers >= separateAt
	calls := len(r.Divisors)
	if separate {
		calls *= len(curvePolicies)
	}
	done := 0
	var points []any
	for _, k := range r.Divisors {
		g := TableGroup{Count: 1, Divisor: k}
		e := Experiment{NBuffers: r.NBuffers, Tables: []TableGroup{g}, Op: r.Op, InRecovery: r.InRecovery, Cost: r.Cost}
		var results []Result
		if separate {
			for _, pol := range curvePolicies {
				res, err := RunExperiment(e, pol)
				if err != nil {
					return nil, err
				}
				results = append(results, res...)
				runtime.GC() // the pool is garbage now: free it before the next is built
				done++
				if !progress(done, calls, fmt.Sprintf("NB/%d, %s", k, pol), true) {
					return nil, lab.ErrCancelled
				}
			}
		} else {
			res, err := RunExperiment(e, curvePolicies...)
			if err != nil {
				return nil, err
			}
			results = res
			done++
		}
		points = append(points, map[string]any{
			"divisor": k,
			"blocks":  g.Resolve(r.NBuffers),
			"scan":    resultMap(results[0]),
			"lookup":  resultMap(results[1]),
		})
		if !separate && !progress(done, calls, fmt.Sprintf("NB/%d", k), r.NBuffers >= separateAt/8) {
			return nil, lab.ErrCancelled
		}
	}
	return map[string]any{
		"nbuffers": r.NBuffers,
		"op":       r.Op.String(),
		"mode":     map[bool]string{true: "recovery", false: "primary"}[r.InRecovery],
		"points":   points,
	}, nil
}

// resultMap writes one experiment's result as the page reads it; times are in seconds.
func resultMap(r Result) map[string]any {
	return map[string]any{
		"path":               r.Path,
		"drops":              r.Drops,
		"descriptorsChecked": float64(r.DescriptorsChecked),
		"lookups":            float64(r.Lookups),
		"invalidated":        float64(r.Invalidated),
		"dropSeconds":        r.DropTime.Seconds(),
		"seconds":            r.Time.Seconds(),
	}
}

// measureRequest asks for "Measure on this device": Measure's real full scan and
// real lookups over a pool of NBuffers, for one relation of NBuffers/k blocks for each k of
// Divisors, every size Reps times.
type measureRequest struct {
	NBuffers int
	Divisors []int
	Reps     int
}

// maxMeasureNBuffers is the largest pool measured: 20GB, about 180 MiB of wasm memory.
const maxMeasureNBuffers = 2_621_440

// measureBudget is about how many descriptors the measurement scans in all when Reps is 0:
// a browser's performance.now() ticks in steps of up to 100 µs, longer than one scan of a
// small pool, so small pools are measured many times and the times averaged.
const measureBudget = 1 << 23

func parseMeasureRequest(a lab.Args) (measureRequest, error) {
	var r measureRequest
	var err error
	if r.NBuffers, err = a.Int("nbuffers", 1024, maxMeasureNBuffers, 0); err != nil {
		return r, err
	}
	if r.NBuffers == 0 {
		return r, fmt.Errorf("nbuffers must be a number")
	}
	if r.Divisors, err = a.Ints("divisors", 2, r.NBuffers, DefaultDivisors); err != nil {
		return r, err
	}
	r.Reps, err = a.Int("reps", 0, 1000, 0)
	return r, err
}

// reps returns how many times each size is measured.
func (r measureRequest) reps() int {
	if r.Reps > 0 {
		return r.Reps
	}
	return min(max(measureBudget/r.NBuffers, 3), 400)
}

// runMeasure measures r on this device with clock (seconds) and summarises the timings.
// The sizes are measured round-robin, NB/512 to NB/4 and again, so that a slow moment of
// the device (a garbage collection, another tab) spreads over every size.
func runMeasure(r measureRequest, clock func() float64, progress lab.Progress) (map[string]any, error) {
	reps := r.reps()
	sizes := make([]int, 0, reps*len(r.Divisors))
	for range reps {
		for _, k := range r.Divisors {
			sizes = append(sizes, r.NBuffers/k)
		}
	}
	cancelled := false
	m, err := Measure(r.NBuffers, sizes, clock, func(done, total int) bool {
		ok := progress(done, total, fmt.Sprintf("round %d of %d", (done-1)/len(r.Divisors)+1, reps), false)
		cancelled = !ok
		return ok
	})
	if err != nil {
		return nil, err
	}
	if cancelled {
		return nil, lab.ErrCancelled
	}
	s := summarise(r.NBuffers, r.Divisors, m.Timings)
	out := s.toMap()
	out["reps"] = reps
	return out, nil
}

// sizeTiming is the time of one size on this device: the mean of its repetitions (see
// average).
type sizeTiming struct {
	Divisor, Blocks int
	Scan, Lookup    float64 // seconds
	Samples         int
}

// measureSummary is what the page shows of a measurement.
type measureSummary struct {
	NBuffers int
	Sizes    []sizeTiming
	// The lines fitted to the sizes, in seconds: a full scan takes ScanBase + ScanPerBlock·n
	// (every descriptor checked, then the n matches invalidated), the lookups LookupBase +
	// LookupPerBlock·n (each block looked up and invalidated).
	ScanBase, ScanPerBlock, LookupBase, LookupPerBlock float64
	// PerDescriptor is ScanBase/NBuffers, one descriptor checked; PerLookup is
	// LookupPerBlock − ScanPerBlock, what a lookup costs beyond the invalidation both paths
	// do (0 when it costs nothing more). They are this device's counterparts of the cost
	// model's DescriptorCheck and Lookup.
	PerDescriptor, PerLookup float64
	// Crossover is the relation size in blocks from which the full scan is faster: where
	// the measured times cross, or where the fitted lines meet when they do not cross
	// within the sizes measured; 0 when the lines never meet.
	Crossover float64
	// Within reports whether the measured times cross between the smallest and the largest
	// size.
	Within bool
	// ClockTick is the smallest time measured that is not 0: about the clock's step when it
	// is coarse.
	ClockTick float64
}

// summarise averages the timings of each size (MeasureDrop's Timings, in the order of the
// sizes asked for) and finds the crossover.
func summarise(nbuffers int, divisors []int, timings []Timing) measureSummary {
	s := measureSummary{NBuffers: nbuffers}
	s.ClockTick = clockTick(timings)
	var xs, scans, lookups []float64
	for i, k := range divisors {
		var sc, lk []float64
		for j := i; j < len(timings); j += len(divisors) {
			sc = append(sc, timings[j].Scan)
			lk = append(lk, timings[j].Lookup)
		}
		if len(sc) == 0 {
			continue
		}
		t := sizeTiming{Divisor: k, Blocks: nbuffers / k, Scan: robustMean(sc, s.ClockTick), Lookup: robustMean(lk, s.ClockTick), Samples: len(sc)}
		s.Sizes = append(s.Sizes, t)
	}
	slices.SortFunc(s.Sizes, func(a, b sizeTiming) int { return a.Blocks - b.Blocks })
	for _, t := range s.Sizes {
		xs = append(xs, float64(t.Blocks))
		scans = append(scans, t.Scan)
		lookups = append(lookups, t.Lookup)
	}
	s.ScanBase, s.ScanPerBlock = fitLine(xs, scans)
	s.LookupBase, s.LookupPerBlock = fitLine(xs, lookups)
	s.PerDescriptor = math.Max(s.ScanBase, 0) / float64(nbuffers)
	s.PerLookup = math.Max(s.LookupPerBlock-s.ScanPerBlock, 0)
	if x, ok := crossing(xs, scans, lookups); ok {
		s.Crossover, s.Within = x, true
	} else if s.PerLookup > 0 {
		s.Crossover = math.Max((s.ScanBase-s.LookupBase)/s.PerLookup, 1)
	}
	return s
}

// crossing returns the first size at which the lookups (ys2) stop being faster than the
// scan (ys1), interpolating between the sizes on logarithmic axes, as the page's chart draws
// them; false when they do not cross within xs (ascending).
func crossing(xs, ys1, ys2 []float64) (float64, bool) {
	d := make([]float64, len(xs))
	for i := range xs {
		if ys1[i] <= 0 || ys2[i] <= 0 {
			return 0, false // a clock too coarse to time the size at all
		}
		d[i] = math.Log(ys2[i]) - math.Log(ys1[i])
	}
	for i := 0; i+1 < len(xs); i++ {
		if d[i] < 0 && d[i+1] >= 0 {
			t := d[i] / (d[i] - d[i+1])
			return math.Exp(math.Log(xs[i]) + t*(math.Log(xs[i+1])-math.Log(xs[i]))), true
		}
	}
	return 0, false
}

// clockTick returns the smallest time measured that is not 0: about the clock's step when it
// is coarse.
func clockTick(timings []Timing) float64 {
	tick := math.Inf(1)
	for _, t := range timings {
		for _, x := range []float64{t.Scan, t.Lookup} {
			if x > 0 {
				tick = math.Min(tick, x)
			}
		}
	}
	return tick
}

// robustMean is the mean of the times xs that are not pauses of the device (a garbage
// collection, another thread on the core): those above the upper quartile plus 1.5
// interquartile ranges, or plus two steps of the clock when that is more, are left out.
//
// The mean and not the median, because browsers that are not cross-origin isolated coarsen
// performance.now() to steps of 100 µs, longer than a small drop: most readings of one are 0
// and a few one step, and only their mean, over many readings, comes out right.
func robustMean(xs []float64, tick float64) float64 {
	s := slices.Sorted(slices.Values(xs))
	q1, q3 := s[len(s)/4], s[(3*len(s))/4]
	fence := q3 + math.Max(1.5*(q3-q1), 2*tick)
	sum, n := 0.0, 0
	for _, x := range s {
		if x <= fence {
			sum += x
			n++
		}
	}
	return sum / float64(n)
}

// fitLine returns the least-squares line y = a + b·x.
func fitLine(xs, ys []float64) (a, b float64) {
	n := float64(len(xs))
	if n == 0 {
		return 0, 0
	}
	var sx, sy, sxx, sxy float64
	for i := range xs {
		sx += xs[i]
		sy += ys[i]
		sxx += xs[i] * xs[i]
		sxy += xs[i] * ys[i]
	}
	d := n*sxx - sx*sx
	if d == 0 {
		return sy / n, 0
	}
	b = (n*sxy - sx*sy) / d
	return (sy - b*sx) / n, b
}

func (s measureSummary) toMap() map[string]any {
	sizes := make([]any, len(s.Sizes))
	for i, t := range s.Sizes {
		sizes[i] = map[string]any{"divisor": t.Divisor, "blocks": t.Blocks, "scan": t.Scan, "lookup": t.Lookup, "samples": t.Samples}
	}
	return map[string]any{
		"nbuffers": s.NBuffers, "sizes": sizes,
		"scanBase": s.ScanBase, "scanPerBlock": s.ScanPerBlock,
		"lookupBase": s.LookupBase, "lookupPerBlock": s.LookupPerBlock,
		"perDescriptor": s.PerDescriptor, "perLookup": s.PerLookup,
		"crossover": s.Crossover, "within": s.Within,
		"clockTick": s.ClockTick,
	}
}
