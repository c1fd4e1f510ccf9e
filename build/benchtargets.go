//go:build !js

package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/bufferscope/bufferscope/internal/benchdata"
)

// readReproduce reads what build bench-reproduce wrote.
func readReproduce(name string) (*reproduceReport, error) {
	b, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	var r reproduceReport
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	return &r, nil
}

// target is one line of the report's targets table: what issue #16 asks, the figure this
// run measured, the baseline measured beside it, their ratio and whether the target is met.
type target struct {
	n                           int
	what, figure, baseline, cmp string
	met                         verdict
}

// verdict is a target's state in one run.
type verdict int

const (
	notMeasured verdict = iota // the run lacks the figures (a part of make bench was skipped)
	met
	missed
)

func (v verdict) String() string {
	return [...]string{"not measured", "met", "**missed**"}[v]
}

func check(ok bool) verdict {
	if ok {
		return met
	}
	return missed
}

// median returns the median of xs, NaN for none.
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func mb(b float64) string { return fmt.Sprintf("%.2f MB", b/1e6) }

// metric finds a benchmark result of a run by the end of its name (without the package),
// and returns its value in unit.
func metric(run *benchRun, name, unit string) (float64, bool) {
	if run == nil {
		return 0, false
	}
	for _, r := range run.results {
		if r.name == name {
			return r.value(unit)
		}
	}
	return 0, false
}

// writeTargets writes the targets of issue #16 from whatever the run measured: the Go
// benchmarks natively and in wasm, the browser benchmark, and the reproductions.
func writeTargets(w io.Writer, native, wasm *benchRun, br *benchdata.Browser, rep *reproduceReport) {
	var ts []target
	add := func(t target) { ts = append(ts, t) }

	// 1. First view.
	if br != nil {
		var page, bare *benchdata.Load
		for i := range br.FirstView {
			switch br.FirstView[i].Name {
			case "page":
				page = &br.FirstView[i]
			case "bare":
				bare = &br.FirstView[i]
			}
		}
		if page != nil {
			pb, pt := median(page.Bytes), median(page.MS)
			first := target{n: 1, what: "main page's bytes before its first frame ≤ 2.1 MB", figure: mb(pb), met: check(pb <= 2.1e6)}
			if bare != nil {
				// What the limit leaves for everything the page adds to a bare Ebiten app.
				first.baseline = fmt.Sprintf("bare app %s, leaving %s for the page's own", mb(median(bare.Bytes)), mb(max(2.1e6-median(bare.Bytes), 0)))
			}
			add(first)
			if bare != nil {
				bb, bt := median(bare.Bytes), median(bare.MS)
				tb := target{n: 1, what: "… ≤ 1.2× a bare Ebiten app's", figure: mb(pb), baseline: mb(bb), cmp: ratio(pb, bb), met: check(pb <= 1.2*bb)}
				if len(page.WASM) > 0 && len(bare.WASM) > 0 {
					tb.figure += ", of which wasm " + mb(median(page.WASM))
					tb.baseline += ", of which wasm " + mb(median(bare.WASM))
				}
				add(tb)
				tt := target{n: 1, what: "time to first frame ≤ 1.25× the bare app's", figure: ms(pt), baseline: ms(bt), cmp: ratio(pt, bt), met: check(pt <= 1.25*bt)}
				if len(page.WASMEndMS) > 0 && len(bare.WASMEndMS) > 0 {
					// Where the time goes: the download, then compiling, starting Go and the page's own work.
					pw, bw := median(page.WASMEndMS), median(bare.WASMEndMS)
					tt.figure += fmt.Sprintf(" (wasm in at %s, then %s)", ms(pw), ms(pt-pw))
					tt.baseline += fmt.Sprintf(" (wasm in at %s, then %s)", ms(bw), ms(bt-bw))
				}
				add(tt)
			} else {
				add(target{n: 1, what: "… ≤ 1.2× a bare Ebiten app's; time to first frame ≤ 1.25×", figure: mb(pb) + ", " + ms(pt), baseline: "(no bare app in this run)"})
			}
		}
		// 2. Embeds.
		for _, e := range br.Embeds {
			limit := 200e3
			what := "an embed before interaction ≤ 200 kB"
			if strings.Contains(e.Name, "host") {
				limit, what = 1e6, "a "+e.Name+" before interaction ≤ 1 MB ("+e.Path+")"
			}
			b := median(e.Bytes)
			base := fmt.Sprintf("of which wasm %s", mb(median(e.WASM)))
			if len(e.PlayedBytes) > 0 {
				base = fmt.Sprintf("%s; once played %s, first frame %s after the click", base, mb(median(e.PlayedBytes)), ms(median(e.MS)))
			}
			add(target{n: 2, what: what, figure: mb(b), baseline: base, met: check(b <= limit && median(e.WASM) == 0)})
		}
		// 3. Long tasks, in two rows: the states that open a document, where the page's
		// tasks include starting Go and Ebiten, beside the bare app's open; and the rest,
		// beside the longest step a lab can take (one clock sweep of the largest pool).
		if len(br.LongTasks) > 0 {
			bareOpen := 0.0
			for _, l := range br.FirstView {
				if l.Name == "bare" && len(l.LongestTask) > 0 {
					bareOpen = median(l.LongestTask)
				}
			}
			for _, opens := range []bool{true, false} {
				worst, where, seen := 0.0, "", false
				for _, l := range br.LongTasks {
					if l.Opens != opens {
						continue
					}
					seen = true
					for _, d := range l.MS {
						if d > worst {
							worst, where = d, l.Lab+": "+l.State
						}
					}
				}
				if !seen {
					continue
				}
				fig := "none"
				if worst > 0 {
					fig = fmt.Sprintf("%s (%s)", ms(worst), where)
				}
				t3 := target{n: 3, met: check(worst <= 100), figure: fig}
				if opens {
					t3.what = "no main-thread task > 100 ms while the page opens (its first load, or the reload that gives memory back)"
					if bareOpen > 0 {
						t3.baseline = fmt.Sprintf("bare Ebiten app's open: longest task %s", ms(bareOpen))
						if worst > 0 {
							t3.cmp = ratio(worst, bareOpen)
						}
					}
				} else {
					t3.what = "no main-thread task > 100 ms in any other state visited (building, playing)"
					if sw, ok := metric(wasm, "BenchmarkClockSweep", "ns/op"); ok {
						n, _ := metric(wasm, "BenchmarkClockSweep", "descriptors/op")
						t3.baseline = fmt.Sprintf("one victim search passing %s descriptors, a step no frame can split, in wasm: %s", formatValue(n), ms(sw/1e6))
						if worst > 0 {
							t3.cmp = ratio(worst, sw/1e6)
						}
					}
				}
				add(t3)
			}
		}
		// 4. Memory.
		for _, m := range br.Memory {
			fresh, back := m.Fresh.WASM+m.Fresh.JS, m.Back.WASM+m.Back.JS
			add(target{n: 4, what: m.Lab + ": tab memory after " + benchBigLabel(m) + " and back ≤ 1.5× a fresh tab's", figure: mb(back),
				baseline: mb(fresh), cmp: ratio(back, fresh), met: check(back <= 1.5*fresh)})
		}
		// 5. Endurance.
		machine := machineSpeed(br)
		for _, e := range br.Endurance {
			if len(e.Samples) < 2 {
				continue
			}
			first, last := e.Samples[0], e.Samples[len(e.Samples)-1]
			flat := true
			var after []benchdata.Sample
			for _, s := range e.Samples {
				if s.T >= 60 {
					after = append(after, s)
				}
			}
			if len(after) >= 2 {
				flat = after[len(after)-1].WASM <= after[0].WASM
			}
			// Since when the memory has not grown: the sample of its last rise.
			since := first.T
			for i := 1; i < len(e.Samples); i++ {
				if e.Samples[i].WASM > e.Samples[i-1].WASM {
					since = e.Samples[i].T
				}
			}
			// The speed at each end is the median of a sixth of the samples (5 minutes of 30):
			// one 30 s sample of four tabs sharing two cores swings by a quarter either way.
			speeds := stepsSec(e.Samples)
			n := max(1, len(speeds)/6)
			start, end := median(speeds[:n]), median(speeds[len(speeds)-n:])
			beside := ""
			if len(machine) == len(speeds) {
				// The same ratio after dividing each sample by the tabs' common speed at its time.
				rel := make([]float64, len(speeds))
				for i := range speeds {
					rel[i] = speeds[i] / machine[i]
				}
				beside = fmt.Sprintf("; %.2f× beside the other tabs", median(rel[len(rel)-n:])/median(rel[:n]))
			}
			window := fmt.Sprintf("median of %d sample", n)
			if n > 1 {
				window = fmt.Sprintf("median of %d samples, %.0f s", n, e.Samples[n-1].T)
			}
			add(target{n: 5, what: fmt.Sprintf("%s: %.0f s at full speed: speed at the end ≥ 95%% of the start (%s at each end), wasm memory flat after 1 min", e.Lab, last.T, window),
				figure: fmt.Sprintf("%s steps/s%s, wasm %s, flat from %.0f s", formatValue(end), beside, mb(last.WASM), since), baseline: fmt.Sprintf("%s steps/s, wasm %s", formatValue(start), mb(first.WASM)),
				cmp: ratio(end, start), met: endurance(end >= 0.95*start && flat, last.T)})
		}
		// 6. Experiments in the browser.
		for _, x := range br.Experiments {
			add(target{n: 6, what: fmt.Sprintf("%s's %s chart in the worker ≤ 4× native", x.Lab, x.Job), figure: fmt.Sprintf("%.2f s", x.BrowserS),
				baseline: fmt.Sprintf("%.2f s", x.NativeS), cmp: ratio(x.BrowserS, x.NativeS), met: check(x.BrowserS <= 4*x.NativeS && x.Progress)})
		}
		// 7. Frame time.
		for _, f := range br.Frames {
			m := median(f.MS)
			t := target{n: 7, what: fmt.Sprintf("%s: Go time per frame at %s cells ≤ 4 ms (median)", f.Lab, formatValue(float64(f.Cells))), figure: ms(m), met: check(m <= 4)}
			if len(f.PaintMS) > 0 {
				t.baseline = "of which painting " + ms(median(f.PaintMS))
			}
			add(t)
		}
	}
	if rep != nil {
		for _, r := range rep.Runs {
			if r.LimitSeconds == 0 {
				continue // the lab states no budget
			}
			ok := r.OK && r.Seconds <= r.LimitSeconds
			what := fmt.Sprintf("bufferscope %s --reproduce natively, every published check passing, ≤ %.0f s", r.Lab, r.LimitSeconds)
			if r.LimitBytes > 0 {
				what += fmt.Sprintf(" and ≤ %.0f GB peak", r.LimitBytes/(1<<30))
				ok = ok && r.PeakBytes <= r.LimitBytes
			}
			fig := fmt.Sprintf("%.1f s, peak %s", r.Seconds, mb(r.PeakBytes))
			if !r.OK {
				fig += ", checks failed"
			}
			add(target{n: 6, what: what, figure: fig, met: check(ok)})
		}
	}
	// 7. Close to the limit, from the Go benchmarks.
	for _, run := range []struct {
		name string
		run  *benchRun
	}{{"native", native}, {"wasm", wasm}} {
		if s, ok1 := metric(run.run, "BenchmarkFullScan/model", "GB/s"); ok1 {
			if m, ok2 := metric(run.run, "BenchmarkFullScan/memread", "GB/s"); ok2 {
				add(target{n: 7, what: "drop lab's full scan ≥ 50% of a plain memory read (" + run.name + ")", figure: fmt.Sprintf("%.2f GB/s", s),
					baseline: fmt.Sprintf("%.2f GB/s", m), cmp: ratio(s, m), met: check(s >= 0.5*m)})
			}
		}
		if l, ok1 := metric(run.run, "BenchmarkLookup/mapping", "ns/op"); ok1 {
			if g, ok2 := metric(run.run, "BenchmarkLookup/gomap", "ns/op"); ok2 {
				add(target{n: 7, what: "mapping-table lookup ≥ 2× a Go map's (" + run.name + ")", figure: fmt.Sprintf("%.1f ns", l),
					baseline: fmt.Sprintf("%.1f ns", g), cmp: ratio(g, l) + " faster", met: check(g >= 2*l)})
			}
		}
	}
	if a, ok := metric(native, "BenchmarkAccess/nbuffers=16384/zipfian", "accesses/s"); ok {
		add(target{n: 7, what: "free play ≥ 30 M accesses/s natively at 16K buffers (zipfian)", figure: formatValue(a), met: check(a >= 30e6)})
	}
	growth(native, func(t target) { add(t) })

	fmt.Fprintf(w, "\n## Targets (issue #16)\n\n")
	fmt.Fprintf(w, "Each figure beside the baseline measured in the same run; \"not measured\" means that part of\n`make bench` did not run.\n\n")
	fmt.Fprintf(w, "| # | target | figure | baseline | ratio | state |\n|--:|---|--:|--:|--:|---|\n")
	for _, t := range ts {
		fmt.Fprintf(w, "| %d | %s | %s | %s | %s | %s |\n", t.n, cell(t.what), cell(t.figure), cell(orDash(t.baseline)), cell(orDash(t.cmp)), t.met)
	}
	if rep != nil {
		writeFailedChecks(w, rep)
	}
	if br != nil {
		writeBrowserDetail(w, br)
	}
}

// writeFailedChecks lists, for each reproduction that failed, the published targets it
// missed as it printed them: a target 6 marked "checks failed" is read there, as a finding of
// the model (never tuned away) or as a regression.
func writeFailedChecks(w io.Writer, rep *reproduceReport) {
	for _, r := range rep.Runs {
		if r.OK || len(r.Failed) == 0 {
			continue
		}
		fmt.Fprintf(w, "\n`bufferscope %s --reproduce` missed these published targets (its own words):\n\n", r.Lab)
		for _, f := range r.Failed {
			fmt.Fprintf(w, "- %s\n", cell(f))
		}
	}
}

// growthName is a growth benchmark: BenchmarkGrowthBuffers/LAB/nbuffers=N,
// BenchmarkGrowthDuration/LAB/seconds=S, or BenchmarkGrowthBuffers' baseline
// BenchmarkGrowthTouch/LAB/nbuffers=N.
var growthName = regexp.MustCompile(`^BenchmarkGrowth(Buffers|Duration|Touch)/([a-z]+)/(nbuffers|seconds)=(\d+)$`)

// growth adds target 8 for each lab and axis: the cost per unit (per buffer, per simulated
// second) at the largest size is at most twice the cost at the smallest. Twice, not equal:
// memory latency grows with the table, which no algorithm removes. Against NBuffers the
// run also measures that latency (BenchmarkGrowthTouch: the lab's bytes allocated and
// written at random, once per buffer); a lab whose cost per buffer grows no faster than
// that baseline's is judged by the baseline, which then replaces the allowance of twice.
func growth(run *benchRun, add func(target)) {
	if run == nil {
		return
	}
	type point struct{ x, ns, bytes float64 }
	series := map[[2]string][]point{}
	var order [][2]string
	for _, r := range run.results {
		m := growthName.FindStringSubmatch(r.name)
		if m == nil {
			continue
		}
		k := [2]string{m[2], m[1]}
		x, _ := strconv.ParseFloat(m[4], 64)
		ns, _ := r.value("ns/op")
		b, _ := r.value("B/op")
		if _, seen := series[k]; !seen {
			order = append(order, k)
		}
		series[k] = append(series[k], point{x, ns, b})
	}
	ends := func(ps []point) (point, point) {
		slices.SortFunc(ps, func(a, b point) int { return int(a.x - b.x) })
		return ps[0], ps[len(ps)-1]
	}
	for _, k := range order {
		if k[1] == "Touch" {
			continue // a baseline, read beside its lab's series
		}
		ps := series[k]
		lo, hi := ends(ps)
		if hi.x == lo.x {
			continue
		}
		unit := "buffer"
		if k[1] == "Duration" {
			unit = "simulated second"
		}
		var fig []string
		for _, p := range ps {
			fig = append(fig, fmt.Sprintf("%s: %s, %s", formatValue(p.x), ms(p.ns/1e6), mb(p.bytes)))
		}
		perLo, perHi := lo.ns/lo.x, hi.ns/hi.x
		baseline, allowed := "per "+unit+" at the smallest", 2.0
		if touch := series[[2]string{k[0], "Touch"}]; k[1] == "Buffers" && len(touch) >= 2 {
			if tlo, thi := ends(touch); tlo.x == lo.x && thi.x == hi.x && tlo.ns > 0 {
				r := (thi.ns / thi.x) / (tlo.ns / tlo.x)
				baseline += fmt.Sprintf("; its bytes written at random once per buffer: %s, %s per buffer", ms(thi.ns/1e6), ratio(r, 1))
				allowed = max(allowed, r)
			}
		}
		add(target{n: 8, what: fmt.Sprintf("%s: time and memory against %s, no worse than linear", k[0], map[string]string{"Buffers": "NBuffers", "Duration": "simulated duration"}[k[1]]),
			figure: strings.Join(fig, "; "), baseline: baseline, cmp: ratio(perHi, perLo) + " per " + unit,
			met: check(perHi <= allowed*perLo && hi.bytes/hi.x <= 2*math.Max(lo.bytes/lo.x, 1))})
	}
}

// machineSpeed is the common speed of endurance series that ran side by side, sample by
// sample: the median over the labs of each sample's speed over its own series' median. Tabs
// that share two cores slow down and speed up together when the machine does, so a lab's
// speed over this is its own. It is nil unless at least three series ran together with the
// same number of samples.
func machineSpeed(br *benchdata.Browser) []float64 {
	if !br.SideBySide || len(br.Endurance) < 3 {
		return nil
	}
	n := len(br.Endurance[0].Samples)
	norm := make([][]float64, len(br.Endurance))
	for i, e := range br.Endurance {
		if len(e.Samples) != n {
			return nil
		}
		norm[i] = stepsSec(e.Samples)
		m := median(norm[i])
		for j := range norm[i] {
			norm[i][j] /= m
		}
	}
	common := make([]float64, n)
	for j := range common {
		var at []float64
		for i := range norm {
			at = append(at, norm[i][j])
		}
		common[j] = median(at)
	}
	return common
}

// stepsSec returns each sample's speed.
func stepsSec(ss []benchdata.Sample) []float64 {
	xs := make([]float64, len(ss))
	for i, s := range ss {
		xs[i] = s.StepsSec
	}
	return xs
}

// endurance is target 5's verdict: a series shorter than the 30 minutes the target names
// cannot meet it, but a failure in a shorter one is already a miss.
func endurance(ok bool, seconds float64) verdict {
	if !ok {
		return missed
	}
	if seconds < 30*60-1 {
		return notMeasured
	}
	return met
}

func benchBigLabel(m benchdata.Memory) string {
	if m.BigNB > 0 {
		return fmt.Sprintf("%s buffers", formatValue(m.BigNB))
	}
	return "a big pool"
}

func ratio(a, b float64) string {
	if b == 0 || math.IsNaN(a) || math.IsNaN(b) {
		return "—"
	}
	return fmt.Sprintf("%.2f×", a/b)
}

func ms(v float64) string { return fmt.Sprintf("%.1f ms", v) }

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

// writeBrowserDetail writes the browser run's series: the long tasks of every state, the
// memory of every lab and the endurance series.
func writeBrowserDetail(w io.Writer, br *benchdata.Browser) {
	together := ""
	if br.SideBySide {
		together = ", side by side, each lab in a tab of its own (they share the machine's CPUs, so compare a series' end with its own start, not one lab's speed with another's; target 5's \"beside the other tabs\" divides each sample by the tabs' common speed at that time, the median over the labs of each one's speed over its own series' median, since the tabs slow down and speed up together when the machine does)"
	}
	fmt.Fprintf(w, "\n## In the browser\n\n%s on %s, %s. Endurance series ran %s per lab%s.\n", orDash(br.Browser), br.Machine, br.Date, br.Duration, together)
	fmt.Fprintf(w, "Bytes are Resource Timing's transfer sizes (headers and compressed bodies) of a cold load;\nmemory is the page's live WebAssembly memories plus its JS heap in use after a forced\ncollection (the experiment worker's memory is its own and not counted).\n\n")
	fmt.Fprintf(w, "| lab | state | long tasks | longest |\n|---|---|--:|--:|\n")
	for _, l := range br.LongTasks {
		fmt.Fprintf(w, "| %s | %s | %d | %s |\n", l.Lab, cell(l.State), len(l.MS), ms(slices.Max(append([]float64{0}, l.MS...))))
	}
	fmt.Fprintf(w, "\n| lab | fresh (wasm + JS) | after big pool | back |\n|---|--:|--:|--:|\n")
	for _, m := range br.Memory {
		fmt.Fprintf(w, "| %s | %s + %s | %s + %s | %s + %s |\n", m.Lab, mb(m.Fresh.WASM), mb(m.Fresh.JS), mb(m.Big.WASM), mb(m.Big.JS), mb(m.Back.WASM), mb(m.Back.JS))
	}
	if len(br.Real) > 0 {
		var bytes, clicked, worker []float64
		for _, r := range br.Real {
			bytes, clicked, worker = append(bytes, r.Bytes), append(clicked, r.MS), append(worker, r.WorkerMS)
		}
		fmt.Fprintf(w, "\nThe real PostgreSQL 18 panel (issue #19), started in a settled page, median of %d: it fetches\n%s (the first view fetches none of it) and is ready %s after the click on Start,\n%s of it in its worker (download, compile, initdb, start). Bytes as served by `build serve`.\n",
			len(br.Real), mb(median(bytes)), seconds(median(clicked)), seconds(median(worker)))
	}
	for _, e := range br.Endurance {
		fmt.Fprintf(w, "\n%s endurance:\n\n| t | steps/s | wasm | JS heap |\n|--:|--:|--:|--:|\n", e.Lab)
		for _, s := range e.Samples {
			fmt.Fprintf(w, "| %.0f s | %s | %s | %s |\n", s.T, formatValue(s.StepsSec), mb(s.WASM), mb(s.JS))
		}
	}
}

// seconds writes a duration in milliseconds as seconds.
func seconds(ms float64) string { return fmt.Sprintf("%.1f s", ms/1000) }
