//go:build !js

package e2e

import (
	"encoding/json"
	"fmt"
	"math"
	"os/exec"
	"strings"
	"testing"
	"time"

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
