package drop

import (
	"math"
	"testing"

	"github.com/bufferscope/bufferscope/sim"
	"github.com/bufferscope/bufferscope/sim/lab"
)

func TestFitLine(t *testing.T) {
	a, b := fitLine([]float64{1, 2, 4, 8}, []float64{3, 5, 9, 17})
	if math.Abs(a-1) > 1e-12 || math.Abs(b-2) > 1e-12 {
		t.Errorf("fitLine of y = 1 + 2x: a = %v, b = %v", a, b)
	}
}

// TestCoarseClock: with a clock that steps by 100 µs, a drop of 5 µs reads 0 most of the
// time and 100 µs once in twenty; the mean finds 5 µs where a median finds 0. A pause of the
// device is left out.
func TestCoarseClock(t *testing.T) {
	var timings []Timing
	for i := range 200 {
		x := 0.0
		if i%20 == 0 {
			x = 100e-6
		}
		timings = append(timings, Timing{Blocks: 1, Scan: 200e-6, Lookup: x})
	}
	timings = append(timings, Timing{Blocks: 1, Scan: 200e-6, Lookup: 0.25})
	s := summarise(512, []int{512}, timings)
	if got := s.Sizes[0].Lookup; math.Abs(got-5e-6) > 1e-12 {
		t.Errorf("lookup time with a 100 µs clock = %v, want 5 µs", got)
	}
	if s.ClockTick != 100e-6 {
		t.Errorf("clock tick = %v, want 100 µs", s.ClockTick)
	}
}

func TestRobustMean(t *testing.T) {
	xs := []float64{5, 5, 6, 5, 5, 4, 5, 5, 5, 1000} // one pause of the device
	if got := robustMean(xs, 4); got != 5 {
		t.Errorf("robustMean = %v, want 5", got)
	}
	if got := robustMean([]float64{1, 2, 3}, 1); got != 2 {
		t.Errorf("robustMean of 3 = %v, want 2", got)
	}
}

// TestSummariseFindsTheCrossover feeds timings of a device that checks a descriptor in 5 ns
// and looks a block up in 160 ns (a lookup worth 32 checks), so the lookups stop winning at
// NBuffers/32; then of one whose lookups win up to NBuffers/4 and beyond.
func TestSummariseFindsTheCrossover(t *testing.T) {
	const nb = 131072
	var timings []Timing
	for range 3 {
		for _, k := range DefaultDivisors {
			n := float64(nb / k)
			timings = append(timings, Timing{Blocks: nb / k, Scan: nb * 5e-9, Lookup: n * 160e-9})
		}
	}
	s := summarise(nb, DefaultDivisors, timings)
	if len(s.Sizes) != len(DefaultDivisors) || s.Sizes[0].Samples != 3 || s.Sizes[0].Blocks != nb/512 {
		t.Fatalf("sizes = %+v", s.Sizes)
	}
	if math.Abs(s.Crossover-nb/32) > 1e-6 || !s.Within {
		t.Errorf("crossover = %v blocks (within %v), want %v", s.Crossover, s.Within, nb/32)
	}
	if math.Abs(s.PerDescriptor-5e-9) > 1e-15 || math.Abs(s.PerLookup-160e-9) > 1e-15 {
		t.Errorf("per descriptor %v, per lookup %v; want 5 ns and 160 ns", s.PerDescriptor, s.PerLookup)
	}

	// A device whose lookups always win: the crossover is where the fitted lines meet,
	// beyond the sizes measured.
	timings = timings[:0]
	for _, k := range DefaultDivisors {
		n := float64(nb / k)
		timings = append(timings, Timing{Blocks: nb / k, Scan: nb*5e-9 + n*100e-9, Lookup: n * 110e-9})
	}
	s = summarise(nb, DefaultDivisors, timings)
	if want := nb * 5e-9 / 10e-9; math.Abs(s.Crossover-want) > 1e-3 || s.Within {
		t.Errorf("lines meeting beyond NB/4: crossover %v (within %v), want %v", s.Crossover, s.Within, want)
	}
	if math.Abs(s.PerLookup-10e-9) > 1e-15 {
		t.Errorf("per lookup beyond the invalidation = %v, want 10 ns", s.PerLookup)
	}
}

// TestRunCurveMatchesTheExperiment checks that each point of the chart is the drop lab's
// experiment for one relation of NBuffers/k blocks, under each policy.
func TestRunCurveMatchesTheExperiment(t *testing.T) {
	req := curveRequest{NBuffers: 16384, Op: OpVacuum, InRecovery: true, Divisors: []int{64, 16}}
	var calls []int
	out, err := runCurve(req, func(done, total int, _ string, _ bool) bool {
		calls = append(calls, done, total)
		return true
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := calls; len(got) != 4 || got[0] != 1 || got[1] != 2 || got[2] != 2 || got[3] != 2 {
		t.Errorf("progress calls (done, total) = %v, want 1 2 2 2", got)
	}
	points := out["points"].([]any)
	for i, k := range req.Divisors {
		e := Experiment{NBuffers: req.NBuffers, Tables: []TableGroup{{Count: 1, Divisor: k}}, Op: req.Op, InRecovery: true}
		want, err := RunExperiment(e, sim.DropPG13, sim.DropLookup)
		if err != nil {
			t.Fatal(err)
		}
		p := points[i].(map[string]any)
		for j, name := range []string{"scan", "lookup"} {
			got := p[name].(map[string]any)
			if got["path"] != want[j].Path || got["seconds"] != want[j].Time.Seconds() ||
				got["dropSeconds"] != want[j].DropTime.Seconds() || got["lookups"] != float64(want[j].Lookups) {
				t.Errorf("NB/%d %s: %v, want %+v", k, name, got, want[j])
			}
		}
		if p["blocks"] != req.NBuffers/k {
			t.Errorf("NB/%d: blocks %v", k, p["blocks"])
		}
	}
	// 16384/64 = 256 blocks is below NB/32 = 512: lookups win; 1024 blocks: the scan wins.
	scan := func(i int) float64 {
		return points[i].(map[string]any)["scan"].(map[string]any)["dropSeconds"].(float64)
	}
	lookup := func(i int) float64 {
		return points[i].(map[string]any)["lookup"].(map[string]any)["dropSeconds"].(float64)
	}
	if !(lookup(0) < scan(0) && lookup(1) > scan(1)) {
		t.Errorf("buffer work: NB/64 scan %v lookup %v; NB/16 scan %v lookup %v; want the lookups to win only at NB/64", scan(0), lookup(0), scan(1), lookup(1))
	}
}

func TestRunCurveStopsWhenCancelled(t *testing.T) {
	req := curveRequest{NBuffers: 16384, Op: OpDrop, InRecovery: true, Divisors: DefaultDivisors}
	n := 0
	_, err := runCurve(req, func(done, total int, _ string, _ bool) bool {
		n++
		return false
	})
	if err != lab.ErrCancelled || n != 1 {
		t.Errorf("after a cancel: err %v after %d experiments, want lab.ErrCancelled after 1", err, n)
	}
}

// TestRunMeasureRoundRobin measures with a fake clock that advances a fixed amount per
// reading and checks the sizes, repetitions and summary.
func TestRunMeasureRoundRobin(t *testing.T) {
	now := 0.0
	clock := func() float64 { now += 1e-6; return now }
	req := measureRequest{NBuffers: 16384, Divisors: []int{512, 64, 4}, Reps: 5}
	out, err := runMeasure(req, clock, func(done, total int, _ string, _ bool) bool {
		if total != 15 {
			t.Fatalf("total = %d, want 15", total)
		}
		return true
	})
	if err != nil {
		t.Fatal(err)
	}
	sizes := out["sizes"].([]any)
	if len(sizes) != 3 || out["reps"] != 5 {
		t.Fatalf("sizes %v reps %v", sizes, out["reps"])
	}
	for i, k := range req.Divisors {
		s := sizes[i].(map[string]any)
		if s["blocks"] != 16384/k || s["samples"] != 5 || math.Abs(s["scan"].(float64)-1e-6) > 1e-12 {
			t.Errorf("size %d: %v", i, s)
		}
	}
	if req := (measureRequest{NBuffers: 16384}); req.reps() != 400 {
		t.Errorf("reps for 16384 = %d", req.reps())
	}
}

// TestCurveTakesTheCostParts builds the chart's request with the page's device and cost
// parameters, so the chart's crossover moves with them, and refuses bad ones.
func TestCurveTakesTheCostParts(t *testing.T) {
	r, err := parseCurveRequest(lab.Args{"nbuffers": float64(16384), "device": "hdd", "cost": "memory_latency=300ns"})
	if err != nil {
		t.Fatal(err)
	}
	c := r.Cost.WithDefaults()
	if c.MemoryLatency != 300*sim.Nanosecond || c.ControlFileSync != 8300*sim.Microsecond {
		t.Errorf("cost %+v", c)
	}
	for _, bad := range []lab.Args{{"nbuffers": float64(16384), "device": "tape"}, {"nbuffers": float64(16384), "cost": "x=1"}} {
		if _, err := parseCurveRequest(bad); err == nil {
			t.Errorf("%v accepted", bad)
		}
	}
}
