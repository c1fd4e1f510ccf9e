//go:build js

package main

import (
	"fmt"
	"math"
	"slices"
	"syscall/js"

	"github.com/bufferscope/bufferscope/sim/labs/drop"
)

// measureRequest asks for "Measure on this device": drop.Measure's real full scan and
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

func parseMeasureRequest(msg js.Value) (measureRequest, error) {
	var r measureRequest
	var err error
	if r.NBuffers, err = intField(msg, "nbuffers", 1024, maxMeasureNBuffers); err != nil {
		return r, err
	}
	if r.Divisors, err = intsField(msg, "divisors", 2, r.NBuffers, DefaultDivisors); err != nil {
		return r, err
	}
	if v := msg.Get("reps"); !v.IsUndefined() && !v.IsNull() {
		if r.Reps, err = intField(msg, "reps", 0, 1000); err != nil {
			return r, err
		}
	}
	return r, nil
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
func runMeasure(r measureRequest, clock func() float64, progress func(done, total int, label string, force bool) bool) (map[string]any, error) {
	reps := r.reps()
	sizes := make([]int, 0, reps*len(r.Divisors))
	for range reps {
		for _, k := range r.Divisors {
			sizes = append(sizes, r.NBuffers/k)
		}
	}
	cancelled := false
	m, err := drop.Measure(r.NBuffers, sizes, clock, func(done, total int) bool {
		ok := progress(done, total, fmt.Sprintf("round %d of %d", (done-1)/len(r.Divisors)+1, reps), false)
		cancelled = !ok
		return ok
	})
	if err != nil {
		return nil, err
	}
	if cancelled {
		return nil, errCancelled
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
func summarise(nbuffers int, divisors []int, timings []drop.Timing) measureSummary {
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
func clockTick(timings []drop.Timing) float64 {
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
