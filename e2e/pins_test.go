//go:build !js

package e2e

import (
	"encoding/json"
	"fmt"
	"image"
	"math"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/bufferscope/bufferscope/wasm/grid"
	"github.com/chromedp/chromedp"
)

// pinsStats is what stats().counters holds in the pins lab, as far as the test reads it.
type pinsStats struct {
	Done              bool    `json:"done"`
	TPS               float64 `json:"tps"`
	HintsSet          uint64  `json:"hintsSet"`
	HintsLost         uint64  `json:"hintsLost"`
	DeadItems         int     `json:"deadItems"`
	Splits            uint64  `json:"splits"`
	VacuumWaitSeconds float64 `json:"vacuumWaitSeconds"`
}

// pinsRow is one row of bufferscope pins --format json.
type pinsRow struct {
	TPS               float64 `json:"tps"`
	HintsSet          uint64  `json:"hints_set"`
	HintsLost         uint64  `json:"hints_lost"`
	DeadItems         int     `json:"dead_items"`
	Splits            uint64  `json:"splits"`
	VacuumWaitSeconds float64 `json:"vacuum_wait_seconds"`
}

// TestPinsMatchesCommand opens the pins lab by its address, runs it to its end and checks
// that its counters are what bufferscope pins prints for the same parameters and seed, and
// that the chart of TPS per slice says in words what the slices are: their length in
// simulated server time and their lowest and highest TPS (it once said "highest NaN").
func TestPinsMatchesCommand(t *testing.T) {
	for _, policy := range []string{"keep-pin", "drop-pin"} {
		p := openPage(t, "/?lab=pins&clients=30&duration=20s&naptime=2s&seed=7&policy="+policy+"&play=0")
		eval[any](p, `bufferscope.setSpeed("max")`)
		eval[any](p, `bufferscope.play()`)
		got := waitJS[pinsStats](p, 60*time.Second, "the run to end", `(s => s.lab === "pins" && s.counters.done && s.counters)(bufferscope.stats())`)
		out, err := exec.Command(bufferscopeCommand(t), "pins", "--clients", "30", "--duration", "20s", "--naptime", "2s",
			"--seed", "7", "--policy", policy, "--format", "json").Output()
		if err != nil {
			t.Fatalf("bufferscope pins: %v\n%s", err, out)
		}
		var rows []pinsRow
		if err := json.Unmarshal(out, &rows); err != nil || len(rows) != 1 {
			t.Fatalf("bufferscope pins printed %d rows (%v):\n%s", len(rows), err, out)
		}
		want := rows[0]
		waitJS[bool](p, waitTimeout, "the chart of TPS per slice", `document.querySelector("#pins-slices canvas") !== null && document.querySelector("#pins-slices-summary").textContent.includes("slices")`)
		checkSliceSummary(t, p)
		if got.HintsSet != want.HintsSet || got.HintsLost != want.HintsLost || got.DeadItems != want.DeadItems ||
			got.Splits != want.Splits || math.Abs(got.TPS-want.TPS) > 0.5 || math.Abs(got.VacuumWaitSeconds-want.VacuumWaitSeconds) > 1e-6 {
			t.Errorf("%s: the page ended with %+v; bufferscope pins prints %+v", policy, got, want)
		}
	}
}

// checkSliceSummary holds the words under the chart of TPS per slice against the slices the
// lab reports (the sliceTPS counter): their number, their length in simulated server time
// (the slice ÷ the time scale) and their mean, lowest and highest TPS, with digit groups.
func checkSliceSummary(t *testing.T, p *page) {
	t.Helper()
	got := eval[struct {
		Summary, Slices string
		Seconds         float64
	}](p, `({Summary: document.querySelector("#pins-slices-summary").textContent, Slices: bufferscope.stats().counters.sliceTPS, Seconds: bufferscope.stats().counters.sliceSeconds})`)
	var ys []float64
	for _, f := range strings.Split(got.Slices, ",") {
		var y float64
		if _, err := fmt.Sscan(f, &y); err != nil {
			t.Fatalf("the sliceTPS counter %q: %v", got.Slices, err)
		}
		ys = append(ys, y)
	}
	lo, hi, sum := ys[0], ys[0], 0.0
	for _, y := range ys {
		lo, hi, sum = min(lo, y), max(hi, y), sum+y
	}
	group := func(x float64) string {
		s := fmt.Sprint(int64(math.Round(x)))
		for i := len(s) - 3; i > 0; i -= 3 {
			s = s[:i] + "," + s[i:]
		}
		return s
	}
	want := fmt.Sprintf("%d slices of %.2f ms of simulated server time: mean %s tps, lowest %s, highest %s,",
		len(ys), got.Seconds*1000, group(sum/float64(len(ys))), group(lo), group(hi))
	if strings.Contains(got.Summary, "NaN") || !strings.HasPrefix(got.Summary, want) {
		t.Errorf("the slices' summary says %q; want it to start %q", got.Summary, want)
	}
}

// TestPinsLeavesAndComparisons checks the pins lab's page: the leftmost leaves are drawn
// with one mark per item, agreeing with the inspector's counts, and the comparison of both
// policies and the sweep over clients run in the background and agree with bufferscope pins.
func TestPinsLeavesAndComparisons(t *testing.T) {
	p := openPage(t, "/?lab=pins&clients=12&duration=10s&naptime=2s&seed=5&play=0")
	eval[any](p, `bufferscope.step(20000)`)
	type leaf struct {
		Buffer int `json:"buffer"`
		Marks  int `json:"marks"`
		Items  int `json:"items"`
		Label  string
	}
	leaves := waitJS[[]leaf](p, waitTimeout, "the leaves drawn", `(ls => ls.length > 0 && ls)([...document.querySelectorAll('#pins-leaves figure.leaf')].map(f => ({
		buffer: Number(f.dataset.buffer),
		marks: f.querySelectorAll('svg rect').length,
		items: parseInt(bufferscope.buffer(Number(f.dataset.buffer)).lab.find(d => d.label === "Items").value.replaceAll(",", "")),
	})))`)
	for _, l := range leaves {
		if l.Marks != l.Items || l.Items == 0 {
			t.Errorf("leaf in buffer %d: %d marks drawn for %d items", l.Buffer, l.Marks, l.Items)
		}
	}

	save := downloads(t, p)
	p.click("#pins-compare-run")
	got := waitJS[[]float64](p, 60*time.Second, "the comparison", `!document.getElementById('pins-compare-csv').disabled &&
		[...document.querySelectorAll('#pins-compare-runs li')].map(li => Number(li.dataset.tps))`)
	out, err := exec.Command(bufferscopeCommand(t), "pins", "--clients", "12", "--duration", "10s", "--naptime", "2s",
		"--seed", "5", "--policy", "keep-pin,drop-pin", "--format", "json").Output()
	if err != nil {
		t.Fatalf("bufferscope pins: %v\n%s", err, out)
	}
	var rows []pinsRow
	if err := json.Unmarshal(out, &rows); err != nil || len(rows) != 2 || len(got) != 2 {
		t.Fatalf("bufferscope pins printed %s; the page shows %v", out, got)
	}
	for i := range rows {
		if math.Abs(got[i]-rows[i].TPS) > 0.5 {
			t.Errorf("policy %d: the comparison shows %v TPS, bufferscope pins %v", i, got[i], rows[i].TPS)
		}
	}
	// Both policies on one chart save as one PNG (chart.js, LogChart.png).
	img, err := decodePNG(save("#pins-compare-png", "pins-slices.png"))
	if err != nil {
		t.Fatalf("the comparison's PNG: %v", err)
	}
	if both := p.elementRect("#pins-compare"); float64(img.Bounds().Dx()) < both.W || float64(img.Bounds().Dy()) < both.H || colours(img, img.Bounds(), 3) < 2 {
		t.Errorf("the comparison's PNG is %v, the charts %.0f×%.0f", img.Bounds(), both.W, both.H)
	}
}

// TestLeafDetailsAreWorded: hovering a leaf in the pins lab shows worded lines in a fixed
// order, its items as a small table, no field names of the code, the LSN once, and the
// tooltip inside the window, on a wide screen and on a phone.
func TestLeafDetailsAreWorded(t *testing.T) {
	for _, size := range [][2]int64{{1280, 800}, {390, 844}} {
		p := openPageSized(t, "/?lab=pins&play=0", size[0], size[1])
		p.step(3000)
		waitJS[bool](p, waitTimeout, "a leaf in a buffer", `bufferscope.stats().view.leaves.length > 0`)
		at := eval[struct{ X, Y float64 }](p, `(() => {
			const id = bufferscope.stats().view.leaves[0].buffer;
			const r = document.querySelector("#grid canvas").getBoundingClientRect();
			for (let y = r.top + 0.5; y < r.bottom; y += 1) for (let x = r.left + 0.5; x < r.right; x += 1) {
				const i = bufferscope.inspect(x, y);
				if (i && i.buffer === id) return {X: x, Y: y};
			}
			return null;
		})()`)
		var orders []string
		for i := 0; i < 2; i++ {
			p.do(waitTimeout, "moving the mouse away", chromedp.MouseEvent(chromedp.MouseMoved, 1, 1))
			p.do(waitTimeout, "moving the mouse over the leaf", chromedp.MouseEvent(chromedp.MouseMoved, at.X, at.Y))
			p.do(waitTimeout, "waiting for #tooltip", chromedp.WaitVisible(chromedp.CSS("#tooltip")))
			got := eval[struct {
				Labels        []string
				Text          string
				Header        []string
				L, T, R, B, W float64
				H             float64
			}](p, `(() => {
				const tip = document.querySelector("#tooltip");
				const r = tip.getBoundingClientRect();
				return {Labels: [...tip.querySelectorAll("dt")].map((d) => d.textContent), Text: tip.innerText,
					Header: [...tip.querySelectorAll("table th")].map((d) => d.textContent),
					L: r.left, T: r.top, R: r.right, B: r.bottom, W: innerWidth, H: innerHeight};
			})()`)
			orders = append(orders, strings.Join(got.Labels, "|"))
			if !strings.Contains(orders[i], "Index page|Items|Splits") {
				t.Errorf("%dx%d: the leaf's details are labelled %q, want Index page, Items, Splits in order", size[0], size[1], got.Labels)
			}
			if len(got.Header) == 0 || got.Header[0] != "itemoffset" {
				t.Errorf("%dx%d: the leaf's items are not a table with bt_page_items' columns: %q", size[0], size[1], got.Header)
			}
			for _, raw := range []string{"lpDead", "itemStates", "btPageItems", "recentHint", "deadUnmarked", "vacuumWaiting", "LLLL"} {
				if strings.Contains(got.Text, raw) {
					t.Errorf("%dx%d: the tooltip shows the code's %q:\n%s", size[0], size[1], raw, got.Text)
				}
			}
			if n := strings.Count(got.Text, "LSN"); n != 1 {
				t.Errorf("%dx%d: the tooltip says LSN %d times:\n%s", size[0], size[1], n, got.Text)
			}
			if got.L < 0 || got.T < 0 || got.R > got.W || got.B > got.H {
				t.Errorf("%dx%d: the tooltip at (%.0f,%.0f)-(%.0f,%.0f) leaves the %.0f×%.0f window", size[0], size[1], got.L, got.T, got.R, got.B, got.W, got.H)
			}
		}
		if orders[0] != orders[1] {
			t.Errorf("%dx%d: two hovers of the same leaf gave %q then %q", size[0], size[1], orders[0], orders[1])
		}
	}
}

// pinsMark is one mark the pins lab's view draws on a cell (stats().view.marks).
type pinsMark struct {
	Mark   string `json:"mark"`
	Buffer int    `json:"buffer"`
}

// pinsFillJS counts the buffers holding a page (pg_buffercache's rows with a page), all of
// the lab's table or its index when those are the pool's only relations.
const pinsFillJS = `(() => {
	const n = bufferscope.stats().nbuffers;
	const names = bufferscope.relations().map((r) => r.name).sort().join(",");
	const lab = names === "pgbench_accounts,pgbench_accounts_pkey" ? bufferscope.pgBuffercache(0, n).valid : 0;
	return {Lab: lab, All: n};
})()`

// pinsCaughtJS returns, once the picture shows them together, the marks of kinds and the
// buffers of the lab's pages that backends pin, pausing the run at that step; null before.
// wantPin asks for a pinned page too.
func pinsCaughtJS(kinds []string, wantPin bool) string {
	return fmt.Sprintf(`(() => {
		const marks = (bufferscope.stats().view.marks || []).filter((m) => %s.includes(m.mark) && m.strength === 1);
		if (marks.length === 0) return null;
		const pinned = [];
		if (%v) {
			// pg_buffercache's rows: bufferid (from 1), …, pinning_backends last.
			const rows = bufferscope.pgBuffercache(0, bufferscope.stats().nbuffers).csv.trim().split("\n").slice(1);
			for (const row of rows) {
				const cols = row.split(",");
				const id = Number(cols[0]) - 1;
				if (Number(cols[cols.length - 1]) > 0 && !marks.some((m) => m.buffer === id)) pinned.push(id);
			}
			if (pinned.length === 0) return null;
		}
		bufferscope.pause();
		return {Marks: marks, Pinned: pinned};
	})()`, jsStrings(kinds), wantPin)
}

// markPixels counts the pixels of cell r that are (nearly) colour c, and how many of them lie
// on the cell's outermost row or column, where a ring would be and a glyph is not.
func markPixels(img image.Image, r rect, c rgb) (inside, edge int) {
	b := r.pixels(0)
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if at(img, x, y).dist(c) < 40 {
				inside++
				if x == b.Min.X || y == b.Min.Y || x == b.Max.X-1 || y == b.Max.Y-1 {
					edge++
				}
			}
		}
	}
	return inside, edge
}

// TestPinsCanvasShowsTheStory opens the pins lab cold at 1280×800, as a reader does, and
// reads what the canvas shows: the table's and the index's pages fill the pool, and so the
// view; within ten seconds a page pinned by a backend (the bar down its left side) and a
// hint set or lost on a leaf (a tick or a cross, inside the cell, not a ring around it) are
// drawn together. With the pin kept, once VACUUM runs, it waits for a scan's pin and an
// hourglass marks that leaf, with markers in the rulers.
func TestPinsCanvasShowsTheStory(t *testing.T) {
	p := openPageSized(t, "/?lab=pins", 1280, 800)
	fill := eval[struct{ Lab, All int }](p, pinsFillJS)
	if fill.Lab*10 < fill.All*9 {
		t.Errorf("%d of %d buffers hold the lab's pages; want most of them", fill.Lab, fill.All)
	}
	v := eval[viewInfo](p, `bufferscope.view()`)
	if v.Zoomed || v.Block != 1 || v.Cell < 8 {
		t.Errorf("the view is %+v; want the whole pool, each buffer a cell of 8 px or more so its marks read", v)
	}
	legend := eval[struct {
		Marks []struct{ Key, Color string }
		Empty struct{ Color string }
	}](p, `bufferscope.legend()`)
	colour := map[string]rgb{}
	for _, m := range legend.Marks {
		if c, err := parseHex(m.Color); err == nil {
			colour[m.Key] = c
		}
	}
	empty, _ := parseHex(legend.Empty.Color)

	caught := waitJS[struct {
		Marks  []pinsMark
		Pinned []int
	}](p, 10*time.Second, "a hint mark and a pinned page on the canvas", pinsCaughtJS([]string{"hintset", "hintlost"}, true))
	p.waitFrames(5, time.Second) // the picture of the paused step: marks and pins stand still
	img := p.screenshot()
	cm := p.cellMap(fill.All)
	filled := 0
	for id := range fill.All {
		if c, _ := dominant(img, cm.rect(id).pixels(0)); c.dist(empty) > 30 {
			filled++
		}
	}
	if filled*10 < fill.All*9 {
		t.Errorf("%d of %d cells on the canvas are painted as pages; want most of them", filled, fill.All)
	}
	for _, m := range caught.Marks {
		inside, edge := markPixels(img, cm.rect(m.Buffer), colour[m.Mark])
		if inside < 4 || edge > inside/3 {
			t.Errorf("buffer %d is marked %s, but its cell shows %d pixels of %s (%d on its edge): no %s drawn inside it",
				m.Buffer, m.Mark, inside, colour[m.Mark], edge, map[string]string{"hintset": "tick", "hintlost": "cross"}[m.Mark])
		}
	}
	bars := 0
	for _, id := range caught.Pinned {
		r := cm.rect(id)
		fillColour, _ := dominant(img, r.pixels(0))
		b := r.pixels(0)
		left := at(img, b.Min.X, (b.Min.Y+b.Max.Y)/2)
		next := at(img, b.Min.X+1, (b.Min.Y+b.Max.Y)/2)
		if left.dist(fillColour) > 80 && next.dist(fillColour) > 80 {
			bars++
		} else {
			t.Errorf("buffer %d is pinned, but the left of its cell is %s then %s on a fill of %s: no bar", id, left, next, fillColour)
		}
	}
	t.Logf("caught %v and %d pinned pages, %d with their bar drawn", caught.Marks, len(caught.Pinned), bars)

	// Keeping the pin, VACUUM waits for scans: it first starts after 60 ms of simulated server
	// time, about 100,000 steps in, and waits for a moment, so the reader's Next event
	// button takes the test there.
	k := openPageSized(t, "/?lab=pins&policy=keep-pin", 1280, 800)
	eval[any](k, `bufferscope.pause(), bufferscope.nextEvent("VACUUM waiting")`)
	wait := waitJS[struct{ Marks []pinsMark }](k, 90*time.Second, "VACUUM waiting on a leaf", `bufferscope.stats().time.job === null && `+pinsCaughtJS([]string{"vacuumwait"}, false))
	k.waitFrames(5, time.Second)
	img = k.screenshot()
	cm = k.cellMap(fill.All)
	for _, m := range wait.Marks {
		r := cm.rect(m.Buffer)
		inside, edge := markPixels(img, r, colour["vacuumwait"])
		if inside < 4 || edge > inside/3 {
			t.Errorf("VACUUM waits on buffer %d, but its cell shows %d pixels of %s (%d on its edge): no hourglass drawn inside it", m.Buffer, inside, colour["vacuumwait"], edge)
		}
		canvas := k.elementRect(gridCanvas)
		marker := rect{X: canvas.X, Y: r.Y, W: float64(grid.Ruler), H: r.H}
		if in, _ := markPixels(img, marker, colour["vacuumwait"]); in == 0 {
			t.Errorf("VACUUM waits on buffer %d, but the left ruler has no marker beside it", m.Buffer)
		}
	}
}
