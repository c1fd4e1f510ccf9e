//go:build !js

package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// These tests drive the drop lab (site/index.html?lab=drop): its replay against the headless
// command's, its chart and its measurement, both computed by the experiment worker
// (site/js/worker/main.js running wasm/worker), and its error panel.

// dropStats is what stats().counters holds in the drop lab, as far as the tests read it.
type dropStats struct {
	Done               bool    `json:"done"`
	Path               string  `json:"path"`
	ResultPath         string  `json:"resultPath"`
	DescriptorsChecked uint64  `json:"descriptorsChecked"`
	Lookups            uint64  `json:"lookups"`
	Invalidated        uint64  `json:"invalidated"`
	ModelledSeconds    float64 `json:"modelledSeconds"`
}

// commandRow is one row of bufferscope drop --format json.
type commandRow struct {
	Policy             string  `json:"policy"`
	Path               string  `json:"path"`
	DescriptorsChecked uint64  `json:"descriptors_checked"`
	Lookups            uint64  `json:"lookups"`
	BuffersInvalidated uint64  `json:"buffers_invalidated"`
	ModelledSeconds    float64 `json:"modelled_seconds"`
}

var (
	commandOnce sync.Once
	commandPath string
	commandErr  error
)

// bufferscopeCommand builds cmd/bufferscope once for the test run and returns its path.
func bufferscopeCommand(t *testing.T) string {
	t.Helper()
	commandOnce.Do(func() {
		root, err := moduleRoot()
		if err != nil {
			commandErr = err
			return
		}
		commandPath = filepath.Join(suite.tmp, "bufferscope")
		ctx, cancel := context.WithTimeout(context.Background(), buildTimeout)
		defer cancel()
		build := exec.CommandContext(ctx, "go", "build", "-o", commandPath, "./cmd/bufferscope")
		build.Dir = root
		if out, err := build.CombinedOutput(); err != nil {
			commandErr = fmt.Errorf("go build ./cmd/bufferscope: %v\n%s", err, out)
		}
	})
	if commandErr != nil {
		t.Fatal(commandErr)
	}
	return commandPath
}

// runCommand runs bufferscope drop with args and --format json and returns its one row.
func runCommand(t *testing.T, args ...string) commandRow {
	t.Helper()
	cmd := exec.Command(bufferscopeCommand(t), append(append([]string{"drop"}, args...), "--format", "json")...)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("bufferscope drop %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	var rows []commandRow
	if err := json.Unmarshal(out, &rows); err != nil || len(rows) != 1 {
		t.Fatalf("bufferscope drop %s printed %d rows (%v):\n%s", strings.Join(args, " "), len(rows), err, out)
	}
	return rows[0]
}

// runToEnd plays the page's replay as fast as it goes and returns the drop counters at its
// end.
func (p *page) runToEnd() dropStats {
	p.t.Helper()
	eval[any](p, `bufferscope.setSpeed("max")`)
	eval[any](p, `bufferscope.play()`)
	return waitJS[dropStats](p, 30*time.Second, "the replay to end", `(s => s.lab === "drop" && s.done && s.counters)(bufferscope.stats())`)
}

// TestDropMatchesCommand runs the drop lab in the page to its end, under PostgreSQL 13's
// policy (full scans) raced against 14's, and then, chosen with the policy control, under
// PostgreSQL 14's (lookups) raced against 13's, and checks that each side's counters, in the
// bridge and on the page, are what bufferscope drop prints for its policy and the same
// settings.
func TestDropMatchesCommand(t *testing.T) {
	p := openPage(t, "/?lab=drop&shared_buffers=128MB&tables=10x3&op=truncate&policy=pg13&play=0")
	for _, tc := range []struct {
		policies, paths [2]string // the policy chosen and its rival, and the paths they take
	}{
		{[2]string{"pg13", "pg14"}, [2]string{"scan", "lookup"}},
		{[2]string{"pg14", "pg13"}, [2]string{"lookup", "scan"}},
	} {
		if tc.policies[0] != "pg13" {
			p.choose("#p-policy", tc.policies[0])
			waitJS[bool](p, waitTimeout, "the address to follow the policy", fmt.Sprintf(`new URLSearchParams(location.search).get("policy") === %q`, tc.policies[0]))
			eval[any](p, `bufferscope.pause()`)
		}
		start := time.Now()
		p.runToEnd()
		t.Logf("%s against %s: the page's race ended in %.1fs", tc.policies[0], tc.policies[1], time.Since(start).Seconds())
		sides := eval[[]dropStats](p, `bufferscope.stats().panes.map(p => p.counters)`)
		keys := eval[[]string](p, `bufferscope.stats().panes.map(p => p.key)`)
		if len(sides) != 2 || keys[0] != tc.policies[0] || keys[1] != tc.policies[1] {
			t.Fatalf("the page races %v; want %v", keys, tc.policies)
		}
		for i, got := range sides {
			want := runCommand(t, "--shared-buffers", "128MB", "--tables", "10x3", "--op", "truncate", "--policy", tc.policies[i])
			if want.Path != tc.paths[i] {
				t.Fatalf("bufferscope drop --policy %s took path %s; the test expects %s", tc.policies[i], want.Path, tc.paths[i])
			}
			if !got.Done || got.ResultPath != want.Path || got.DescriptorsChecked != want.DescriptorsChecked || got.Lookups != want.Lookups ||
				got.Invalidated != want.BuffersInvalidated || math.Abs(got.ModelledSeconds-want.ModelledSeconds) > 1e-9 {
				t.Errorf("policy %s: the page's replay ended with %+v; bufferscope drop prints %+v", tc.policies[i], got, want)
			}
			// The counters on the page say the same: the first pane's in the counters' first
			// column and its badge, the second's in the second.
			suffix := map[int]string{0: "", 1: "-p1"}[i]
			shown := map[string]string{
				"#d-path" + map[int]string{0: "", 1: "-1"}[i]: want.Path,
				"#c-descriptorsChecked" + suffix:              fmt.Sprint(want.DescriptorsChecked),
				"#c-lookups" + suffix:                         fmt.Sprint(want.Lookups),
				"#c-invalidated" + suffix:                     fmt.Sprint(want.BuffersInvalidated),
			}
			for sel, v := range shown {
				waitJS[bool](p, waitTimeout, fmt.Sprintf("%s to show %s", sel, v), fmt.Sprintf(`document.querySelector(%q).dataset.value === %q`, sel, v))
			}
			if v := eval[float64](p, fmt.Sprintf(`Number(document.querySelector("#c-modelledSeconds%s").dataset.value)`, suffix)); math.Abs(v-want.ModelledSeconds) > 1e-9 {
				t.Errorf("policy %s: #c-modelledSeconds%s holds %v seconds, bufferscope drop prints %v", tc.policies[i], suffix, v, want.ModelledSeconds)
			}
			badge := "#d-path" + map[int]string{0: "", 1: "-1"}[i]
			if text := eval[string](p, fmt.Sprintf(`document.querySelector(%q).textContent`, badge)); !strings.Contains(text, map[string]string{"scan": "full scan", "lookup": "lookups"}[want.Path]) {
				t.Errorf("policy %s: the path badge says %q", tc.policies[i], text)
			}
		}
	}
}

// chartInk counts, in the canvas of the chart in container sel, the pixels near each of the
// two paths' colours (the page's --chart-scan and --chart-lookup).
const chartInkJS = `((sel) => {
	const probe = (name) => {
		const s = document.createElement("span");
		s.style.color = "var(" + name + ")";
		document.body.append(s);
		const m = getComputedStyle(s).color.match(/\d+/g).map(Number);
		s.remove();
		return m;
	};
	const colours = [probe("--chart-scan"), probe("--chart-lookup")];
	const canvas = document.querySelector(sel + " canvas");
	if (!canvas) return null;
	const d = canvas.getContext("2d").getImageData(0, 0, canvas.width, canvas.height).data;
	const counts = colours.map(() => 0);
	for (let i = 0; i < d.length; i += 4) {
		colours.forEach((c, j) => {
			if (Math.abs(d[i] - c[0]) + Math.abs(d[i + 1] - c[1]) + Math.abs(d[i + 2] - c[2]) < 30 && d[i + 3] > 200) counts[j]++;
		});
	}
	return {width: canvas.width, height: canvas.height, scan: counts[0], lookup: counts[1]};
})`

type ink struct {
	Width, Height, Scan, Lookup int
}

// TestDropChartRenders waits for the worker's experiments and checks that the chart draws
// both paths, marks the threshold and finds the crossover where the default cost parts put it
// for a 128MB pool, whose mapping table and descriptors fit in the CPU cache: a lookup of
// 65 ns against a check of 1.5 ns, about NBuffers/42.
func TestDropChartRenders(t *testing.T) {
	p := openPage(t, "/?lab=drop&shared_buffers=128MB&tables=10x3&op=truncate&play=0")
	start := time.Now()
	waitJS[bool](p, 30*time.Second, "the chart's experiments", `document.querySelector("#curve-card").dataset.state === "done"`)
	t.Logf("chart computed in %.1fs", time.Since(start).Seconds())
	got := eval[*ink](p, chartInkJS+`("#curve-chart")`)
	if got == nil {
		t.Fatal("#curve-chart has no canvas")
	}
	if got.Width < 200 || got.Height < 150 || got.Scan < 100 || got.Lookup < 100 {
		t.Errorf("the chart's canvas is %d×%d with %d pixels of the full scan's colour and %d of the lookups'; want both lines drawn", got.Width, got.Height, got.Scan, got.Lookup)
	}
	summary := eval[string](p, `document.querySelector("#curve-summary").textContent`)
	if !strings.Contains(summary, "about NB/42 (389 blocks)") || !strings.Contains(summary, "NBuffers/32") {
		t.Errorf("#curve-summary = %q; want the crossover at NB/42 and PostgreSQL's threshold", summary)
	}
	if rows := eval[int](p, `document.querySelectorAll("#curve-table tbody tr").length`); rows != 8 {
		t.Errorf("the experiment's table has %d rows, want 8 (NB/512 to NB/4)", rows)
	}
	checkExports(t, p)

	// The tabs switch labs in place, and Back returns.
	p.click("#lab-free")
	waitJS[bool](p, waitTimeout, "free play", `bufferscope.stats().lab === "free" && !location.search.includes("lab=") && document.querySelector("#settings").checkVisibility()`)
	if shown := eval[bool](p, `Boolean(document.querySelector("#curve-card") || document.querySelector("#p-tables"))`); shown {
		t.Error("free play shows the drop lab's chart or settings")
	}
	eval[any](p, `history.back()`)
	waitJS[bool](p, waitTimeout, "the drop lab again", `bufferscope.stats().lab === "drop" && new URLSearchParams(location.search).get("tables") === "10x3"`)
}

// checkExports saves the chart as CSV and PNG with its buttons, as a reader would, and
// checks the files.
func checkExports(t *testing.T, p *page) {
	t.Helper()
	saved := downloads(t, p)
	const base = "bufferscope-drop-chart-128MB-truncate-recovery"
	csv := string(saved("#curve-csv", base+".csv"))
	lines := strings.Split(strings.TrimSpace(csv), "\r\n")
	if len(lines) != 9 || !strings.HasPrefix(lines[0], "nbuffers,op,mode,divisor,blocks,scan_path,") || !strings.HasPrefix(lines[1], "16384,truncate,recovery,512,32,scan,") {
		t.Errorf("the chart's CSV:\n%s", csv)
	}
	img, err := decodePNG(saved("#curve-png", base+".png"))
	if err != nil {
		t.Fatalf("the chart's PNG: %v", err)
	}
	chart := p.elementRect("#curve-chart canvas")
	if b := img.Bounds(); float64(b.Dx()) < chart.W || float64(b.Dy()) < chart.H {
		t.Errorf("the chart's PNG is %v, smaller than the chart (%.0f×%.0f)", b, chart.W, chart.H)
	}
}

// TestDropBadAddress opens the drop lab with malformed settings: the error panel names
// them, the controls and the address show the safe values used, and the replay runs.
func TestDropBadAddress(t *testing.T) {
	p := openPage(t, "/?lab=drop&shared_buffers=12XB&tables=ax1&op=explode&threshold=NB/0&play=0")
	waitJS[bool](p, waitTimeout, "#error-panel to show", `!document.querySelector("#error-panel").hidden`)
	msg := eval[string](p, `document.querySelector("#error-panel").innerText`)
	for _, want := range []string{`shared_buffers "12XB"`, `tables "ax1"`, `op "explode"`, `threshold "NB/0"`} {
		if !strings.Contains(msg, want) {
			t.Errorf("#error-panel does not name %s:\n%s", want, msg)
		}
	}
	for sel, want := range map[string]string{"#p-shared_buffers": "128MB", "#p-op": "drop", "#p-tables": "96xNB/128", "#p-threshold": "NB/32"} {
		if got := eval[string](p, fmt.Sprintf(`document.querySelector(%q).value`, sel)); got != want {
			t.Errorf("%s shows %q, want the safe value %q", sel, got, want)
		}
	}
	q := eval[string](p, `location.search`)
	for _, want := range []string{"lab=drop", "shared_buffers=128MB", "tables=96xNB/128", "op=drop", "threshold=NB/32"} {
		if !strings.Contains(q, want) {
			t.Errorf("the address %s does not hold %s", q, want)
		}
	}
	if d := p.runToEnd(); d.Invalidated != 12288 {
		t.Errorf("the default replay invalidated %d buffers, want 12,288 (96 tables of 128 blocks)", d.Invalidated)
	}
}

// measured is the part of the measurement the test reads.
type measured struct {
	State, Summary string
}

// TestMeasureOnThisDevice measures the full scan and the lookups on the test's machine with
// a small pool, and checks that the page states a crossover and charts it; then that a
// measurement of a large pool can be cancelled.
func TestMeasureOnThisDevice(t *testing.T) {
	p := openPage(t, "/?lab=drop&shared_buffers=128MB&tables=10x3&op=truncate&play=0")
	p.choose("#measure-pool", "16384") // the worker runs it after the chart's experiments
	start := time.Now()
	p.click("#measure-run")
	got := waitJS[measured](p, 45*time.Second, "the measurement", `(c => c.dataset.state !== "running" && {State: c.dataset.state, Summary: document.querySelector("#measure-summary").textContent})(document.querySelector("#measure-card"))`)
	t.Logf("measured in %.1fs: %s", time.Since(start).Seconds(), got.Summary)
	if got.State != "done" || !strings.Contains(got.Summary, "On this device") || !strings.Contains(got.Summary, "NBuffers/32") {
		t.Fatalf("the measurement ended %q: %q", got.State, got.Summary)
	}
	if ink := eval[*ink](p, chartInkJS+`("#measure-chart")`); ink == nil || ink.Scan < 50 || ink.Lookup < 50 {
		t.Errorf("the measurement's chart: %+v", ink)
	}

	// A replay that plays pauses while the device is measured, and plays on afterwards.
	eval[any](p, `bufferscope.setSpeed(1), bufferscope.play()`) // slow enough not to end meanwhile
	p.click("#measure-run")
	waitJS[bool](p, waitTimeout, "the replay to pause for the measurement", `document.querySelector("#measure-card").dataset.state === "running" && !bufferscope.stats().playing`)
	waitJS[bool](p, 45*time.Second, "the measurement to end and the replay to play on", `document.querySelector("#measure-card").dataset.state === "done" && bufferscope.stats().playing`)
	eval[any](p, `bufferscope.pause()`)

	// A 20GB pool takes seconds to build: cancel it as soon as it reports progress.
	p.choose("#measure-pool", "2621440")
	p.click("#measure-run")
	waitJS[bool](p, 30*time.Second, "the measurement's first progress", `document.querySelector("#measure-progress").value > 0`)
	p.click("#measure-cancel")
	got = waitJS[measured](p, 30*time.Second, "the cancelled measurement to stop", `(c => c.dataset.state !== "running" && {State: c.dataset.state, Summary: document.querySelector("#measure-summary").textContent})(document.querySelector("#measure-card"))`)
	if got.State != "cancelled" || !strings.HasPrefix(got.Summary, "Cancelled.") {
		t.Errorf("after Cancel the measurement is %q: %q", got.State, got.Summary)
	}
	if disabled := eval[bool](p, `document.querySelector("#measure-run").disabled`); disabled {
		t.Error("after Cancel the measure button stays disabled")
	}
}
