//go:build !js

package e2e

import (
	"encoding/json"
	"fmt"
	"image"
	"math"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/bufferscope/bufferscope/sim"
	"github.com/bufferscope/bufferscope/sim/lab"
	simring "github.com/bufferscope/bufferscope/sim/labs/ring"
	"github.com/bufferscope/bufferscope/wasm/grid"
)

// ringStats are the ring lab's counters the page's bridge reports.
type ringStats struct {
	Done               bool    `json:"done"`
	VacuumSeconds      float64 `json:"vacuumSeconds"`
	PagesVacuumed      uint64  `json:"pagesVacuumed"`
	VacuumWALFlushes   uint64  `json:"vacuumWalFlushes"`
	WALWriterFlushes   uint64  `json:"walwriterFlushes"`
	ForegroundHitRatio float64 `json:"foregroundHitRatio"`
	ForegroundTPS      float64 `json:"foregroundTps"`
}

// ringRow is one row of bufferscope ring --format json.
type ringRow struct {
	VacuumSeconds      float64 `json:"vacuum_seconds"`
	PagesVacuumed      uint64  `json:"pages_vacuumed"`
	VacuumWALFlushes   uint64  `json:"vacuum_wal_flushes"`
	WALWriterFlushes   uint64  `json:"walwriter_flushes"`
	ForegroundHitRatio float64 `json:"foreground_hit_ratio"`
	ForegroundTPS      float64 `json:"foreground_tps"`
}

// TestRingMatchesCommand: the ring lab opened by its address runs VACUUM to the end, and
// its counters are what bufferscope ring prints for the same parameters and seed.
func TestRingMatchesCommand(t *testing.T) {
	args := map[string]string{"shared_buffers": "8MB", "table": "16MB", "ring": "256kB", "clients": "4", "seed": "3"}
	q, flags := []string{"lab=ring", "play=0"}, []string{"ring", "--format", "json"}
	for k, v := range args {
		q = append(q, k+"="+v)
		flags = append(flags, "--"+strings.ReplaceAll(k, "_", "-"), v)
	}
	p := openPage(t, "/?"+strings.Join(q, "&"))
	eval[any](p, `bufferscope.setSpeed("max")`)
	eval[any](p, `bufferscope.play()`)
	start := time.Now()
	got := waitJS[ringStats](p, 60*time.Second, "VACUUM to end", `(s => s.lab === "ring" && s.counters.done && s.counters)(bufferscope.stats())`)
	t.Logf("the page's VACUUM ended in %.1fs", time.Since(start).Seconds())
	out, err := exec.Command(bufferscopeCommand(t), flags...).Output()
	if err != nil {
		t.Fatalf("bufferscope %s: %v\n%s", strings.Join(flags, " "), err, out)
	}
	var rows []ringRow
	if err := json.Unmarshal(out, &rows); err != nil || len(rows) != 1 {
		t.Fatalf("bufferscope ring printed %d rows (%v):\n%s", len(rows), err, out)
	}
	want := rows[0]
	if got.PagesVacuumed != want.PagesVacuumed || got.VacuumWALFlushes != want.VacuumWALFlushes || got.WALWriterFlushes != want.WALWriterFlushes ||
		math.Abs(got.VacuumSeconds-want.VacuumSeconds) > 1e-6 || math.Abs(got.ForegroundHitRatio-want.ForegroundHitRatio) > 1e-6 ||
		math.Abs(got.ForegroundTPS-want.ForegroundTPS) > 0.05 {
		t.Errorf("the page's VACUUM ended with %+v; bufferscope ring prints %+v", got, want)
	}
	if want.PagesVacuumed != 2048 {
		t.Errorf("bufferscope ring vacuumed %d pages of a 16MB table", want.PagesVacuumed)
	}
	sel := "#c-pagesVacuumed"
	waitJS[bool](p, waitTimeout, sel+" to show the pages", fmt.Sprintf(`document.querySelector(%q).dataset.value === %q`, sel, fmt.Sprint(want.PagesVacuumed)))

	// The chart sweeps the ring size in the worker with the page's settings, unasked.
	summary := waitJS[string](p, 60*time.Second, "the ring chart", `(t => t.includes("256kB") && t)(document.querySelector("#ring-summary").textContent)`)
	if !eval[bool](p, `Boolean(document.querySelector("#ring-chart canvas"))`) {
		t.Errorf("no chart drawn; the summary says %q", summary)
	}
}

// ringView is what bufferscope.view() says of the grid, its inset and its labels.
type ringView struct {
	viewInfo
	Label string `json:"label"`
	Inset *struct {
		X, Y, Cell, Side, Cols, Rows int
		Buffers                      []int `json:"buffers"`
	} `json:"inset"`
	Labels []struct {
		Text       string `json:"text"`
		X, Y, W, H int
	} `json:"labels"`
}

// labelled returns the first label of v that starts with prefix, and whether there is one.
func (v ringView) labelled(prefix string) (rect, bool) {
	for _, l := range v.Labels {
		if strings.HasPrefix(l.Text, prefix) {
			return rect{X: float64(l.X), Y: float64(l.Y), W: float64(l.W), H: float64(l.H)}, true
		}
	}
	return rect{}, false
}

// texts lists the labels' texts, for failure messages.
func (v ringView) texts() []string {
	var out []string
	for _, l := range v.Labels {
		out = append(out, l.Text)
	}
	return out
}

// runRingTo plays the ring lab as opened, fast, until VACUUM has read pages pages, and pauses
// with the flashes faded.
func runRingTo(p *page, pages int) {
	p.t.Helper()
	eval[any](p, `bufferscope.setSpeed("max")`)
	eval[any](p, `bufferscope.play()`)
	waitJS[bool](p, 60*time.Second, "VACUUM under way", fmt.Sprintf(`bufferscope.stats().counters.pagesVacuumed >= %d`, pages))
	eval[any](p, `bufferscope.pause()`)
	p.settle()
}

// inkIn counts the pixels of r (canvas pixels, placed by the canvas's rectangle c) darker
// than the page's light background by far: text, glyphs.
func inkIn(img image.Image, c rect, r rect) int {
	n := 0
	px := rect{X: c.X + r.X, Y: c.Y + r.Y, W: r.W, H: r.H}.pixels(0)
	for y := px.Min.Y; y < px.Max.Y; y++ {
		for x := px.Min.X; x < px.Max.X; x++ {
			if col := at(img, x, y); int(col.R)+int(col.G)+int(col.B) < 3*110 {
				n++
			}
		}
	}
	return n
}

// TestRingOpensMagnified: the ring lab opened cold at 1280×800 shows the whole pool and,
// under it, VACUUM's ring magnified slot by slot — every ring buffer painted at 12 px or more
// in the colour its pool cell has, inspected where it is drawn — and a WAL bar whose labels
// ("flushed", "inserted", and "VACUUM waiting" at a step where the same run natively has
// VACUUM waiting in XLogFlush) are written on the canvas. Its counters name VACUUM's waits
// apart from WAL flushes, and it offers its pool sizes in order.
func TestRingOpensMagnified(t *testing.T) {
	p := openPageSized(t, "/?lab=ring", 1280, 800)
	runRingTo(p, 3000)
	v := eval[ringView](p, `bufferscope.view()`)
	st := eval[struct {
		Counters struct {
			RingBuffers int `json:"ringBuffers"`
		} `json:"counters"`
	}](p, `bufferscope.stats()`)
	if v.Zoomed || v.Cell < 2 {
		t.Errorf("at 1280×800 the grid opens at %q (zoomed %v): the desktop shows the whole pool", v.Label, v.Zoomed)
	}
	if v.Inset == nil {
		t.Fatalf("no inset: view() = %+v", v)
	}
	const minSide = 12
	if v.Inset.Side < minSide || len(v.Inset.Buffers) != st.Counters.RingBuffers || st.Counters.RingBuffers != 256 {
		t.Fatalf("inset %+v: want the %d ring buffers drawn at %d px or more", *v.Inset, st.Counters.RingBuffers, minSide)
	}
	for _, want := range []string{"VACUUM's ring", "inserted", "flushed"} {
		if _, ok := v.labelled(want); !ok {
			t.Errorf("no label %q on the canvas; labels %q", want, v.texts())
		}
	}

	// The picture: each item is the colour of its buffer's cell, the labels are written.
	canvas := p.elementRect(gridCanvas)
	img := p.screenshot()
	rl := simring.Lab{}
	vals, _ := rl.Params().Parse(nil)
	run, err := rl.New(vals)
	if err != nil {
		t.Fatal(err)
	}
	theme := grid.ThemeFor(&grid.Light, run.Legend())
	checked := 0
	for i, id := range v.Inset.Buffers {
		if id < 0 || i%17 != 0 {
			continue
		}
		b := eval[bufferInfo](p, fmt.Sprintf(`bufferscope.buffer(%d)`, id))
		want := toRGB(theme.Fill(0, b.Usage))
		x, y := v.Inset.X+i%v.Inset.Cols*v.Inset.Cell, v.Inset.Y+i/v.Inset.Cols*v.Inset.Cell
		cell := rect{X: canvas.X + float64(x), Y: canvas.Y + float64(y), W: float64(v.Inset.Side), H: float64(v.Inset.Side)}
		if got, share := dominant(img, cell.pixels(2)); got.dist(want) > 12 || share < 0.3 {
			t.Errorf("slot %d (buffer %d, usage %d) is drawn %v over %.0f%% of its item, want the vacuumed table's %v", i+1, id, b.Usage, got, 100*share, want)
		}
		got := eval[*bufferInfo](p, fmt.Sprintf(`bufferscope.cellAt(%d, %d)`, x+v.Inset.Side/2, y+v.Inset.Side/2))
		if got == nil || got.Buffer != id {
			t.Errorf("cellAt the middle of slot %d gives %v, want buffer %d", i+1, got, id)
		}
		checked++
	}
	if checked < 10 {
		t.Errorf("only %d slots checked", checked)
	}
	for _, want := range []string{"inserted", "flushed"} {
		r, _ := v.labelled(want)
		if n := inkIn(img, canvas, r); n < 6*len(want) {
			t.Errorf("label %q at %+v has %d inked pixels: not written", want, r, n)
		}
	}
	if t.Failed() {
		p.saveImage("screen", img)
	}

	// Where VACUUM next waits for a WAL flush, found in the same run natively, the bar says so.
	at := eval[uint64](p, `bufferscope.stats().step`)
	r := run.(interface {
		lab.Run
		WALNow() simring.WALNow
	})
	if err := r.Sim().Step(int(at)); err != nil {
		t.Fatal(err)
	}
	wait := 0
	for r.WALNow().VacuumWaitsFor == 0 && wait < 100_000 {
		if err := r.Sim().Step(1); err != nil {
			t.Fatal(err)
		}
		wait++
	}
	t.Logf("natively VACUUM waits for WAL at step %d, %d after the pause", at+uint64(wait), wait)
	if wait > 0 {
		p.step(wait)
	}
	p.waitFrames(3, 0)
	v = eval[ringView](p, `bufferscope.view()`)
	if lr, ok := v.labelled("VACUUM waiting"); !ok {
		t.Errorf("at step %d VACUUM waits for WAL to %v, but the labels are %q", at+uint64(wait), r.WALNow().VacuumWaitsFor, v.texts())
	} else if n := inkIn(p.screenshot(), canvas, lr); n < 40 {
		t.Errorf("label \"VACUUM waiting\" at %+v has %d inked pixels: not written", lr, n)
	}

	// The counters tell VACUUM's waits from WAL flushes; the pool's sizes are in order.
	panel := eval[string](p, `document.querySelector("#counter-list").innerText`)
	if !strings.Contains(panel, "Ring writes that waited for WAL") || strings.Contains(panel, "forced by a dirty victim") || strings.Contains(panel, "forced WAL flushes") {
		t.Errorf("the counters panel reads:\n%s", panel)
	}
	sizes := eval[[]string](p, `[...document.querySelectorAll("#p-shared_buffers option")].map(o => o.value)`)
	last := 0
	for _, s := range sizes {
		n, err := sim.SharedBuffersToNBuffers(s)
		if err != nil || n <= last {
			t.Errorf("shared_buffers offers %q out of order: %q", s, sizes)
			break
		}
		last = n
	}
}

// TestRingPhoneTappable: on a phone (390×844) the ring lab opens zoomed in to 8 px or more
// per buffer around VACUUM's ring, where a tap on a ring buffer's cell inspects it; the
// magnified ring and the WAL bar's labels are there too; Fit shows the whole pool again.
func TestRingPhoneTappable(t *testing.T) {
	p := openPageSized(t, "/?lab=ring", 390, 844)
	runRingTo(p, 2000)
	v := eval[ringView](p, `bufferscope.view()`)
	if !v.Zoomed || v.Cell < 8 || v.Block != 1 {
		t.Fatalf("on a phone the ring lab opens at %q (zoomed %v): want 8 px or more per buffer", v.Label, v.Zoomed)
	}
	if v.Inset == nil || v.Inset.Side < 7 {
		t.Errorf("inset %+v: the ring is not magnified to a tappable size", v.Inset)
	}
	for _, want := range []string{"inserted", "flushed"} {
		if _, ok := v.labelled(want); !ok {
			t.Errorf("no label %q on the phone's canvas; labels %q", want, v.texts())
		}
	}
	// Which buffers the canvas shows where, probed every 4 px.
	type hit struct{ X, Y, Buffer int }
	hits := eval[[]hit](p, `(() => {
		const v = bufferscope.view(), out = [];
		for (let y = 0; y < v.height; y += 4) for (let x = 0; x < v.width; x += 4) {
			const b = bufferscope.cellAt(x, y);
			if (b && !(v.inset && y >= v.inset.y)) out.push({X: x, Y: y, Buffer: b.buffer});
		}
		return out;
	})()`)
	ring := map[int]bool{}
	for _, id := range v.Inset.Buffers {
		ring[id] = true
	}
	tapped := -1
	canvas := p.elementRect(gridCanvas)
	sx := canvas.W / float64(v.Width)
	for _, h := range hits {
		if !ring[h.Buffer] {
			continue
		}
		// A tap in the middle of the cell, in the page's coordinates.
		got := eval[*bufferInfo](p, fmt.Sprintf(`bufferscope.inspect(%f, %f)`, canvas.X+float64(h.X)*sx+1, canvas.Y+float64(h.Y)*sx+1))
		if got == nil || !ring[got.Buffer] {
			t.Errorf("a tap at canvas (%d, %d) over ring buffer %d inspects %v", h.X, h.Y, h.Buffer, got)
		}
		tapped = h.Buffer
		break
	}
	if tapped < 0 {
		t.Fatalf("no ring buffer shows in the pool on the phone's canvas (%d cells probed)", len(hits))
	}
	p.click("#zoom-fit")
	if v := eval[ringView](p, `bufferscope.view()`); v.Zoomed {
		t.Errorf("Fit leaves the grid at %q, zoomed", v.Label)
	}
}

// TestRingChartOnOpening: the ring lab's chart is computed in the worker as the lab opens,
// without a click, with VACUUM's duration and the foreground's misses each on an axis of its
// own — seconds on the left, a percentage on the right — whose labels fit the chart; a change
// of settings computes it again, with progress and a cancel button that stops it. Its summary
// and the counters write numbers as the tables declare them.
func TestRingChartOnOpening(t *testing.T) {
	p := openPage(t, "/?lab=ring&shared_buffers=8MB&table=16MB&clients=4")
	waitJS[bool](p, 90*time.Second, "the chart, unasked", `document.querySelector("#ring-card").dataset.state === "done"`)
	if !eval[bool](p, `Boolean(document.querySelector("#ring-chart canvas"))`) {
		t.Fatal("no chart drawn")
	}
	type axis struct {
		Side, Label, Font string
		Values            []string
	}
	axes := eval[[]axis](p, `JSON.parse(document.querySelector("#ring-chart").dataset.axes || "[]")`)
	if len(axes) != 2 {
		t.Fatalf("axes %+v: want one for each series", axes)
	}
	left, right := axes[0], axes[1]
	if left.Side != "left" || right.Side != "right" || !strings.Contains(left.Label, "duration") || !strings.Contains(right.Label, "misses") {
		t.Errorf("axes %+v: want VACUUM's duration on the left, the misses on the right", axes)
	}
	seconds := regexp.MustCompile(`^[\d.]+ (s|ms|µs|ns)$|^\d+ min \d+ s$`)
	percent := regexp.MustCompile(`^[\d.]+ %$`)
	for _, a := range []struct {
		axis axis
		re   *regexp.Regexp
	}{{left, seconds}, {right, percent}} {
		if len(a.axis.Values) == 0 {
			t.Errorf("the %s axis has no values", a.axis.Side)
		}
		for _, v := range a.axis.Values {
			if !a.re.MatchString(v) {
				t.Errorf("the %s axis (%s) has the value %q", a.axis.Side, a.axis.Label, v)
			}
		}
		room := eval[float64](p, fmt.Sprintf(`(() => {
			const c = document.querySelector("#ring-chart canvas"), ctx = document.createElement("canvas").getContext("2d");
			ctx.font = %q;
			return c.height - ctx.measureText(%q).width;
		})()`, a.axis.Font, a.axis.Label))
		if room < 0 {
			t.Errorf("the %s axis's label %q is %.0f px longer than the chart is high: it is cut", a.axis.Side, a.axis.Label, -room)
		}
	}
	summary := eval[string](p, `document.querySelector("#ring-summary").textContent`)
	if !regexp.MustCompile(`misses [\d.]+ % of its page accesses`).MatchString(summary) || strings.Contains(summary, "%)") && !strings.Contains(summary, " %") {
		t.Errorf("summary %q", summary)
	}
	tps := eval[string](p, `document.querySelector("#c-foregroundTps").textContent`)
	if !regexp.MustCompile(`^\d{1,3}(,\d{3})*(\.\d+)? tx/s$`).MatchString(tps) {
		t.Errorf("foreground TPS reads %q: want digit groups and its unit", tps)
	}

	// New settings compute it again, in the background, and the reader may cancel.
	p.choose("#p-table", "1GB")
	waitJS[bool](p, waitTimeout, "the chart computed again", `document.querySelector("#ring-card").dataset.state === "running" && !document.querySelector("#ring-job").hidden`)
	p.click("#ring-cancel")
	waitJS[bool](p, waitTimeout, "the computation cancelled", `document.querySelector("#ring-card").dataset.state === "cancelled" && !document.querySelector("#ring-start").hidden`)
}

// TestRingSizesFollowTheVersion: on PostgreSQL 14 the ring control offers only the
// version's default, the other sizes greyed out with the reason the server would give;
// choosing 17 offers them all again.
// Reference: src/backend/utils/misc/guc_tables.c (vacuum_buffer_usage_limit, 1cbbee0338, 16).
func TestRingSizesFollowTheVersion(t *testing.T) {
	p := openPage(t, "/?lab=ring&version=14&play=0")
	offered := func() map[string]string {
		return eval[map[string]string](p, `Object.fromEntries([...document.querySelector("#p-ring").options].map(o => [o.value, o.disabled ? o.title : ""]))`)
	}
	got := offered()
	for value, why := range got {
		if refused := why != ""; refused != (value != "default") {
			t.Errorf("on 14, ring %s greyed out %v (%q)", value, refused, why)
		} else if refused && !strings.Contains(why, "does not exist before PostgreSQL 16") {
			t.Errorf("on 14, ring %s greyed out saying %q", value, why)
		}
	}
	if len(got) < 3 {
		t.Fatalf("the ring control offers %v", got)
	}
	// The SQL to try on a real server names the versions a block runs on.
	versions := eval[string](p, `(() => {
		const b = [...document.querySelectorAll('#sql-blocks .sql-block')].find((b) => b.querySelector('h3').textContent === 'VACUUM through a ring of your choice');
		const v = b && b.querySelector('.sql-versions');
		return v ? v.textContent : '';
	})()`)
	if versions != "Runs on PostgreSQL 16 and later." {
		t.Errorf("the ring's VACUUM block says %q of its versions", versions)
	}
	p.choose("#p-version", "17")
	waitJS[bool](p, waitTimeout, "version 17 in force", `bufferscope.params().params.version === "17"`)
	for value, why := range offered() {
		if why != "" {
			t.Errorf("on 17, ring %s is greyed out: %q", value, why)
		}
	}
}
