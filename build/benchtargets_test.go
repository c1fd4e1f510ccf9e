//go:build !js

package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/bufferscope/bufferscope/internal/benchdata"
)

// TestTargetsJudgeTheFigures feeds the targets table figures on both sides of each limit and
// checks the verdicts it writes.
func TestTargetsJudgeTheFigures(t *testing.T) {
	native, err := parseBench(strings.NewReader(`pkg: github.com/bufferscope/bufferscope/sim/labs/drop
BenchmarkFullScan/model-2 10 100 ns/op 4.0 GB/s
BenchmarkFullScan/memread-2 10 100 ns/op 10.0 GB/s
BenchmarkLookup/mapping-2 10 20 ns/op
BenchmarkLookup/gomap-2 10 50 ns/op
BenchmarkGrowthBuffers/ring/nbuffers=16384-2 10 1000000 ns/op 1000 B/op
BenchmarkGrowthBuffers/ring/nbuffers=163840-2 10 30000000 ns/op 10000 B/op
`))
	if err != nil {
		t.Fatal(err)
	}
	br := &benchdata.Browser{
		FirstView: []benchdata.Load{{Name: "page", Bytes: []float64{2.0e6, 2.05e6, 3e6}, MS: []float64{900, 1000, 1100}},
			{Name: "bare", Bytes: []float64{1.5e6}, MS: []float64{700}, LongestTask: []float64{90, 110, 400}}},
		Embeds: []benchdata.Load{{Name: "embed", Bytes: []float64{150e3}, WASM: []float64{0}, PlayedBytes: []float64{2.6e6}, MS: []float64{1500}},
			{Name: "host page with 4 embeds", Bytes: []float64{1.2e6}, WASM: []float64{0}}},
		LongTasks: []benchdata.LongTasks{{Lab: "free", State: "open", MS: []float64{300}, Opens: true}, {Lab: "free", State: "build 100GB", MS: []float64{60, 130}}},
		Memory:    []benchdata.Memory{{Lab: "free", Fresh: benchdata.Sample{WASM: 100, JS: 10}, Back: benchdata.Sample{WASM: 150, JS: 10}}},
	}
	wasm, err := parseBench(strings.NewReader(`pkg: github.com/bufferscope/bufferscope/sim
BenchmarkClockSweep 3 120000000 ns/op 13107201 descriptors/op
`))
	if err != nil {
		t.Fatal(err)
	}
	br.FirstView[0].WASM, br.FirstView[1].WASM = []float64{1.9e6}, []float64{1.4e6}
	br.FirstView[0].WASMEndMS, br.FirstView[1].WASMEndMS = []float64{300}, []float64{200}
	var b bytes.Buffer
	writeTargets(&b, native, wasm, br, nil)
	out := b.String()
	reportHas(t, out,
		"| 1 | main page's bytes before its first frame ≤ 2.1 MB | 2.05 MB | bare app 1.50 MB, leaving 0.60 MB for the page's own | — | met |",
		"| 1 | … ≤ 1.2× a bare Ebiten app's | 2.05 MB, of which wasm 1.90 MB | 1.50 MB, of which wasm 1.40 MB | 1.37× | **missed** |",
		"| 1 | time to first frame ≤ 1.25× the bare app's | 1000.0 ms (wasm in at 300.0 ms, then 700.0 ms) | 700.0 ms (wasm in at 200.0 ms, then 500.0 ms) | 1.43× | **missed** |",
		"| 2 | an embed before interaction ≤ 200 kB | 0.15 MB | of which wasm 0.00 MB; once played 2.60 MB, first frame 1500.0 ms after the click | — | met |",
		"| 3 | no main-thread task > 100 ms while the page opens (its first load, or the reload that gives memory back) | 300.0 ms (free: open) | bare Ebiten app's open: longest task 110.0 ms | 2.73× | **missed** |",
		"| 3 | no main-thread task > 100 ms in any other state visited (building, playing) | 130.0 ms (free: build 100GB) | one victim search passing 13,107,201 descriptors, a step no frame can split, in wasm: 120.0 ms | 1.08× | **missed** |",
		"| 4 | free: tab memory after a big pool and back ≤ 1.5× a fresh tab's | 0.00 MB | 0.00 MB | 1.45× | met |",
		"| 7 | drop lab's full scan ≥ 50% of a plain memory read (native) | 4.00 GB/s | 10.00 GB/s | 0.40× | **missed** |",
		"| 7 | mapping-table lookup ≥ 2× a Go map's (native) | 20.0 ns | 50.0 ns | 2.50× faster | met |",
		"per buffer | **missed** |", // 30 ms for 10× the buffers is 3× the cost per buffer
	)
	if !strings.Contains(out, "host page with 4 embeds before interaction ≤ 1 MB") || !strings.Contains(out, "1.20 MB | of which wasm") {
		t.Errorf("the host page's line is missing or wrong:\n%s", out)
	}
}

// TestTargetsNameTheMissedChecks: a reproduction that failed is marked so in the table, and
// the checks it missed are listed under it; one that passed lists none.
func TestTargetsNameTheMissedChecks(t *testing.T) {
	rep := &reproduceReport{Runs: []reproduceRun{
		{Lab: "ring", Seconds: 2, OK: true, LimitSeconds: 30},
		{Lab: "pins", Seconds: 18, LimitSeconds: 60},
	}}
	rep.Runs[1].Failed = []string{"the drop-pin curve rises then falls with clients: peak 10 at 800"}
	var b bytes.Buffer
	writeTargets(&b, nil, nil, nil, rep)
	out := b.String()
	reportHas(t, out,
		"| 6 | bufferscope pins --reproduce natively, every published check passing, ≤ 60 s | 18.0 s, peak 0.00 MB, checks failed | — | — | **missed** |",
		"`bufferscope pins --reproduce` missed these published targets",
		"- the drop-pin curve rises then falls with clients: peak 10 at 800\n",
	)
	if strings.Contains(out, "`bufferscope ring --reproduce` missed") {
		t.Errorf("a passing reproduction lists missed targets:\n%s", out)
	}
}

// TestBrowserDetailReportsTheRealPanel: the real PostgreSQL panel's start is reported by its
// medians, and not at all when the run has none (a build without PGlite).
func TestBrowserDetailReportsTheRealPanel(t *testing.T) {
	br := &benchdata.Browser{Real: []benchdata.Real{{Bytes: 9e6, MS: 4000, WorkerMS: 3900}, {Bytes: 5e6, MS: 3000, WorkerMS: 2900}, {Bytes: 6e6, MS: 9000, WorkerMS: 8900}}}
	var b bytes.Buffer
	writeBrowserDetail(&b, br)
	if out := b.String(); !strings.Contains(out, "median of 3: it fetches\n6.00 MB") || !strings.Contains(out, "ready 4.0 s after the click on Start,\n3.9 s of it in its worker") {
		t.Errorf("the real panel's line is missing or wrong:\n%s", out)
	}
	b.Reset()
	writeBrowserDetail(&b, &benchdata.Browser{})
	if strings.Contains(b.String(), "PostgreSQL 18 panel") {
		t.Errorf("a run without the real panel reports it:\n%s", b.String())
	}
}

// TestGrowthReadsTheTouchBaseline: a lab whose cost per buffer grows more than twice is
// met when writing its bytes at random grows as much (the machine's memory, not the
// model), and missed when it grows faster than that baseline.
func TestGrowthReadsTheTouchBaseline(t *testing.T) {
	for _, c := range []struct {
		touchHi string
		want    string
	}{
		{"40000000", "its bytes written at random once per buffer: 40.0 ms, 4.00× per buffer | 3.00× per buffer | met |"},
		{"20000000", "its bytes written at random once per buffer: 20.0 ms, 2.00× per buffer | 3.00× per buffer | **missed** |"},
	} {
		native, err := parseBench(strings.NewReader(`pkg: github.com/bufferscope/bufferscope/sim/labs
BenchmarkGrowthBuffers/drop/nbuffers=16384-2 10 1000000 ns/op 1000 B/op
BenchmarkGrowthBuffers/drop/nbuffers=163840-2 10 30000000 ns/op 10000 B/op
BenchmarkGrowthTouch/drop/nbuffers=16384-2 10 1000000 ns/op 1000 bytes
BenchmarkGrowthTouch/drop/nbuffers=163840-2 10 ` + c.touchHi + ` ns/op 10000 bytes
`))
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		writeTargets(&b, native, nil, nil, nil)
		if out := b.String(); !strings.Contains(out, c.want) {
			t.Errorf("with the baseline at %s ns the report lacks %q:\n%s", c.touchHi, c.want, out)
		}
		if !strings.Contains(b.String(), "| 8 | drop: time and memory against NBuffers") || strings.Count(b.String(), "| 8 |") != 1 {
			t.Errorf("the baseline became a target of its own, or the lab's row is missing:\n%s", b.String())
		}
	}
}

// TestEnduranceSaysSinceWhenFlat: the endurance row names the sample of the memory's last
// rise, and a rise after the first minute is a miss.
func TestEnduranceSaysSinceWhenFlat(t *testing.T) {
	s := func(t, wasm float64) benchdata.Sample { return benchdata.Sample{T: t, WASM: wasm, StepsSec: 100} }
	br := &benchdata.Browser{Endurance: []benchdata.Endurance{
		{Lab: "free", Samples: []benchdata.Sample{s(30, 10e6), s(60, 11e6), s(90, 12e6), s(1800, 12e6)}},
		{Lab: "ring", Samples: []benchdata.Sample{s(30, 10e6), s(60, 12e6), s(90, 12e6), s(1800, 12e6)}},
	}}
	var b bytes.Buffer
	writeTargets(&b, nil, nil, br, nil)
	out := b.String()
	reportHas(t, out,
		"| 5 | free: 1800 s at full speed: speed at the end ≥ 95% of the start (median of 1 sample at each end), wasm memory flat after 1 min | 100 steps/s, wasm 12.00 MB, flat from 90 s | 100 steps/s, wasm 10.00 MB | 1.00× | **missed** |",
		"| 5 | ring: 1800 s at full speed: speed at the end ≥ 95% of the start (median of 1 sample at each end), wasm memory flat after 1 min | 100 steps/s, wasm 12.00 MB, flat from 60 s | 100 steps/s, wasm 10.00 MB | 1.00× | met |",
	)
}

// TestEnduranceComparesMediansOfEachEnd: over a 30-minute series the speed at each end is
// the median of its first and last 5 minutes, so one slow or fast sample at either end does
// not decide the row, and a slowdown held over the last 5 minutes does.
func TestEnduranceComparesMediansOfEachEnd(t *testing.T) {
	series := func(lab string, speed func(i int) float64) benchdata.Endurance {
		e := benchdata.Endurance{Lab: lab}
		for i := range 60 {
			e.Samples = append(e.Samples, benchdata.Sample{T: float64(30 * (i + 1)), WASM: 20e6, StepsSec: speed(i)})
		}
		return e
	}
	noisy := func(i int) float64 { return []float64{100, 120, 80}[i%3] }
	br := &benchdata.Browser{Endurance: []benchdata.Endurance{
		// Its first sample is the fastest and its last the slowest: 0.67× by those two alone.
		series("free", func(i int) float64 {
			if i == 0 {
				return 120
			}
			if i == 59 {
				return 80
			}
			return noisy(i)
		}),
		// Its last 5 minutes run at 90%.
		series("ring", func(i int) float64 {
			if i >= 50 {
				return 90
			}
			return 100
		}),
	}}
	var b bytes.Buffer
	writeTargets(&b, nil, nil, br, nil)
	reportHas(t, b.String(),
		"| 5 | free: 1800 s at full speed: speed at the end ≥ 95% of the start (median of 10 samples, 300 s at each end), wasm memory flat after 1 min | 100 steps/s, wasm 20.00 MB, flat from 30 s | 100 steps/s, wasm 20.00 MB | 1.00× | met |",
		"| 5 | ring: 1800 s at full speed: speed at the end ≥ 95% of the start (median of 10 samples, 300 s at each end), wasm memory flat after 1 min | 90 steps/s, wasm 20.00 MB, flat from 30 s | 100 steps/s, wasm 20.00 MB | 0.90× | **missed** |",
	)
}

// TestEnduranceDividesOutTheMachine: when tabs that ran side by side all slow down together,
// each lab's speed beside the others stays at its start, and a lab that slows more than the
// rest shows by how much.
func TestEnduranceDividesOutTheMachine(t *testing.T) {
	series := func(lab string, last float64) benchdata.Endurance {
		e := benchdata.Endurance{Lab: lab}
		for i := range 60 {
			speed := 100.0
			if i >= 50 {
				speed = last
			}
			e.Samples = append(e.Samples, benchdata.Sample{T: float64(30 * (i + 1)), WASM: 20e6, StepsSec: speed})
		}
		return e
	}
	br := &benchdata.Browser{SideBySide: true, Endurance: []benchdata.Endurance{
		series("free", 80), series("drop", 80), series("ring", 80), series("pins", 60),
	}}
	var b bytes.Buffer
	writeTargets(&b, nil, nil, br, nil)
	reportHas(t, b.String(),
		"| 80 steps/s; 1.00× beside the other tabs, wasm 20.00 MB, flat from 30 s | 100 steps/s, wasm 20.00 MB | 0.80× | **missed** |",
		"| 60 steps/s; 0.75× beside the other tabs, wasm 20.00 MB, flat from 30 s | 100 steps/s, wasm 20.00 MB | 0.60× | **missed** |",
	)
	if n := strings.Count(b.String(), "1.00× beside"); n != 3 {
		t.Errorf("%d rows are 1.00× beside the other tabs, want 3:\n%s", n, b.String())
	}
}

// reportHas fails t for each line of want that the report out lacks.
func reportHas(t *testing.T, out string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(out, w) {
			t.Errorf("the report lacks %q:\n%s", w, out)
		}
	}
}
