//go:build !js

package e2e

import (
	"fmt"
	"image"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bufferscope/bufferscope/sim"
	"github.com/bufferscope/bufferscope/wasm/grid"
	"github.com/chromedp/chromedp"
)

// These tests drive the free-play page (site/index.html) through its controls and its JS
// bridge (bufferscope.* in the page, wasm/bridge_js.go) and hold what it shows against the
// simulation run natively, in the test process, with the same parameters. A page opened with
// play=0 stays paused until a test plays it. Every test also fails on an uncaught exception
// or a console error in its tab (see openPage).

// TestGridShowsTheSimulation steps a small pool to a fixed point and checks that the page
// ran exactly the simulation the test process runs, and that the grid shows it: each cell
// in the colour of what its buffer holds, and the whole canvas as wasm/grid paints it.
func TestGridShowsTheSimulation(t *testing.T) {
	const query = "shared_buffers=1MB&seed=42"
	const steps = 300 // 33 of the 128 buffers are still empty then, and all four relations have pages
	p := openPage(t, "/?"+query+"&play=0")
	start := p.stats()
	if start.Step != 0 || start.Playing || start.NBuffers != 128 {
		t.Fatalf("opened with %s&play=0: step %d, playing %v, nbuffers %d; want step 0, paused, 128 buffers", query, start.Step, start.Playing, start.NBuffers)
	}
	if want := hashString(nativeSim(t, query, 0).Hash()); start.Hash != want {
		t.Errorf("at step 0 the page's hash is %s, the native simulation's %s", start.Hash, want)
	}
	st := p.step(steps)
	native := nativeSim(t, query, steps)
	if want := hashString(native.Hash()); st.Hash != want {
		t.Fatalf("after %d steps the page's hash is %s, the native simulation's %s: the page ran a different simulation", steps, st.Hash, want)
	}
	if st.Counters.ClockHand != native.Pool.ClockHand() {
		t.Errorf("stats().counters.clockHand = %d, the native simulation's %d", st.Counters.ClockHand, native.Pool.ClockHand())
	}
	// The hash reads every descriptor, so only a caller that asks pays for it; a bad
	// argument is ignored and stats come back as usual.
	for call, want := range map[string]bool{`bufferscope.stats()`: false, `bufferscope.stats({})`: false,
		`bufferscope.stats(7)`: false, `bufferscope.stats({hash: true})`: true} {
		got := eval[map[string]any](p, call)
		if _, has := got["hash"]; has != want || got["step"] != float64(steps) {
			t.Errorf("%s: hash present %v (want %v), step %v", call, has, want, got["step"])
		}
	}
	if h := eval[string](p, `bufferscope.snapshotHash()`); h != st.Hash {
		t.Errorf("snapshotHash() = %s, stats({hash: true}).hash %s", h, st.Hash)
	}
	// The tests emulate prefers-color-scheme: light; the grid's colours come from the lab's
	// legend.
	theme := grid.ThemeFor(&grid.Light, freeLegend(native))
	colours := checkRelations(t, p, native, theme)
	checkBuffers(t, p, native)
	p.settle()
	cm := p.cellMap(st.NBuffers)
	img := p.screenshot()
	checkCells(t, img, cm, native, theme, colours)
	checkPainting(t, p, img, cm, native, theme)
}

// checkRelations checks that bufferscope.relations() lists the simulation's relations in
// the colours the grid draws them in, and returns those colours.
func checkRelations(t *testing.T, p *page, native *sim.Sim, theme *grid.Theme) []rgb {
	t.Helper()
	rels := eval[[]relation](p, `bufferscope.relations()`)
	nativeRels := native.Relations()
	if len(rels) != len(nativeRels) {
		t.Fatalf("relations() lists %d relations, the simulation has %d", len(rels), len(nativeRels))
	}
	colours := make([]rgb, len(rels))
	for i, r := range rels {
		c, err := parseHex(r.Color)
		if err != nil {
			t.Fatalf("relations()[%d] (%s): %v", i, r.Name, err)
		}
		colours[i] = c
		if r.Name != nativeRels[i].Name || r.Color != theme.Rel(i).Hex() {
			t.Errorf("relations()[%d] = %s %s, want %s %s", i, r.Name, r.Color, nativeRels[i].Name, theme.Rel(i).Hex())
		}
	}
	return colours
}

// checkBuffers checks that bufferscope.buffer(id) describes each buffer as the native
// simulation has it.
func checkBuffers(t *testing.T, p *page, native *sim.Sim) {
	t.Helper()
	n := native.Pool.NBuffers
	infos := eval[[]bufferInfo](p, fmt.Sprintf(`Array.from({length: %d}, (_, i) => bufferscope.buffer(i))`, n))
	views := make([]sim.BufferView, n)
	native.Snapshot(views, 0)
	for id, v := range views {
		info := infos[id]
		switch {
		case v.Rel < 0:
			if !info.Empty || info.Tag != nil {
				t.Errorf("buffer(%d) = %s; the buffer is empty", id, info)
			}
		case info.Empty || info.Tag == nil || *info.Tag != native.TagName(v.Tag) ||
			info.Relation == nil || *info.Relation != native.Relations()[v.Rel].Name ||
			info.Usage != v.State.UsageCount() || info.Pins != v.State.RefCount() || info.Dirty != v.State.Has(sim.BM_DIRTY):
			t.Errorf("buffer(%d) = %s; the buffer holds %s, usage count %d, %d pins, dirty %v",
				id, info, native.TagName(v.Tag), v.State.UsageCount(), v.State.RefCount(), v.State.Has(sim.BM_DIRTY))
		}
	}
}

// colourTolerance is how far, in RGB, a drawn colour may be from the one the grid paints:
// the canvas goes through WebGL and the compositor, which may round.
const colourTolerance = 6

// checkCells checks that each cell of the screenshot is drawn in the colour of what its
// buffer holds: relation R's colour from relations(), faded towards the background for a
// low usage count (as wasm/grid.Theme.Fill does), or the empty colour.
func checkCells(t *testing.T, img image.Image, cm cells, native *sim.Sim, theme *grid.Theme, colours []rgb) {
	t.Helper()
	views := make([]sim.BufferView, native.Pool.NBuffers)
	native.Snapshot(views, 0)
	background := toRGB(theme.Background)
	wrong := 0
	for id, v := range views {
		want, what := toRGB(theme.Empty), "empty"
		if v.Rel >= 0 {
			usage := v.State.UsageCount()
			want = mix(background, colours[v.Rel], grid.UsageFade(usage))
			what = fmt.Sprintf("%s, usage %d: %s faded %.0f%%", native.TagName(v.Tag), usage, colours[v.Rel], 100*(1-grid.UsageFade(usage)))
		}
		// The middle of the cell: clear of the empty outline and the clock hand's ring,
		// with the marks along the edges too small to outnumber the fill.
		got, share := dominant(img, cm.rect(id).pixels(2))
		if d := got.dist(want); d > colourTolerance {
			if wrong++; wrong <= 5 {
				t.Errorf("buffer %d (%s) is drawn %v (%.0f%% of the cell), want %v (distance %.0f)", id, what, got, share*100, want, d)
			}
		}
	}
	if wrong > 0 {
		t.Errorf("%d of %d cells have the wrong colour", wrong, len(views))
	}
}

// checkPainting checks that the whole canvas, marks, clock hand and rulers included, is
// what wasm/grid paints for the native simulation. Where the painter leaves the pool's area
// transparent (the gaps between cells) the page's background shows, which must be the
// theme's, since cells fade into it. The margins are left out: the page rounds the grid's
// corners.
func checkPainting(t *testing.T, p *page, img image.Image, cm cells, native *sim.Sim, theme *grid.Theme) {
	t.Helper()
	if cm.sx != 1 || cm.sy != 1 {
		t.Fatalf("the canvas is scaled by %g×%g; the tests expect a canvas pixel to be a CSS pixel", cm.sx, cm.sy)
	}
	views := make([]sim.BufferView, native.Pool.NBuffers)
	native.Snapshot(views, 0)
	codes := make([]grid.Code, len(views))
	for i, v := range views {
		codes[i] = grid.Encode(v)
	}
	var painter grid.Painter
	painter.Paint(&grid.Frame{Layout: cm.layout, Codes: codes, NumRel: len(native.Relations()), Theme: theme, Hand: native.Pool.ClockHand(), Highlight: -1})
	w, h := painter.Size()
	ax, ay, aw, ah := cm.layout.Area()
	area := image.Rect(ax, ay, ax+aw, ay+ah)
	background := toRGB(theme.Background)
	want := func(x, y int) (rgb, bool) {
		if c := painter.At(x, y); c.A != 0 {
			return toRGB(c), true
		}
		return background, image.Pt(x, y).In(area)
	}
	// Chromium puts the canvas on whole pixels, near where getBoundingClientRect says.
	var best mismatch
	var origin image.Point
	for i, o := range nearPixels(cm.canvas) {
		if m := compare(img, o, w, h, want, colourTolerance); i == 0 || m.N < best.N {
			best, origin = m, o
		}
	}
	if best.N > 0 {
		t.Errorf("%d of the canvas's %d×%d pixels (placed at %v) differ from what wasm/grid paints for the native simulation; the first, at canvas pixel %v, is %v, want %v",
			best.N, w, h, origin, best.First, best.Got, best.Want)
		p.saveImage("want", picture(w, h, want))
	}
}

// nearPixels returns the whole-pixel positions r's top-left corner may be drawn at.
func nearPixels(r rect) []image.Point {
	xs := []int{int(math.Floor(r.X)), int(math.Ceil(r.X))}
	ys := []int{int(math.Floor(r.Y)), int(math.Ceil(r.Y))}
	var out []image.Point
	for _, x := range slices.Compact(xs) {
		for _, y := range slices.Compact(ys) {
			out = append(out, image.Pt(x, y))
		}
	}
	return out
}

func toRGB(c grid.RGBA) rgb { return rgb{c.R, c.G, c.B} }

// mix is grid.Mix for rgb.
func mix(a, b rgb, t float64) rgb {
	c := grid.Mix(grid.RGBA{R: a.R, G: a.G, B: a.B, A: 255}, grid.RGBA{R: b.R, G: b.G, B: b.B, A: 255}, t)
	return toRGB(c)
}

// TestFramesAdvanceWhilePlaying plays the simulation with the play button and checks that
// it steps and that the grid is redrawn.
func TestFramesAdvanceWhilePlaying(t *testing.T) {
	p := openPage(t, "/?shared_buffers=1MB&seed=7&play=0")
	start := p.stats()
	p.settle()
	canvas := p.elementRect(gridCanvas).pixels(0)
	before := p.screenshot()
	p.click("#play")
	waitJS[bool](p, waitTimeout, "the play button to say it is pressed", `document.querySelector("#play").getAttribute("aria-pressed") === "true"`)
	waitJS[bool](p, waitTimeout, "the simulation to step and draw while playing",
		fmt.Sprintf(`(s => s.playing && s.step > %d && s.frames > %d)(bufferscope.stats())`, start.Step+100, start.Frames+2))
	// Within a few frames the canvas differs from the paused picture, and then again from
	// itself: the grid keeps being redrawn.
	last := before
	for i := 0; i < 2; i++ {
		deadline := time.Now().Add(waitTimeout)
		for {
			img := p.screenshot()
			if differing(last, img, canvas) > 0 {
				last = img
				break
			}
			if time.Now().After(deadline) {
				p.fatalf("the grid looked the same for %v while the simulation played", waitTimeout)
			}
			p.waitFrames(3, 0)
		}
	}
}

// TestPauseStopsAndStepAdvancesOne pauses a playing simulation with the play button, checks
// that it stays put, and that one click on #step advances it by exactly one step.
func TestPauseStopsAndStepAdvancesOne(t *testing.T) {
	p := openPage(t, "/?shared_buffers=1MB&seed=3&play=0")
	p.click("#play")
	waitJS[bool](p, waitTimeout, "the simulation to step while playing", `bufferscope.stats().step > 10`)
	p.click("#play")
	paused := waitJS[stats](p, waitTimeout, "playback to stop", `(s => !s.playing && s)(bufferscope.stats())`)
	waitJS[bool](p, waitTimeout, "the play button to say it is not pressed", `document.querySelector("#play").getAttribute("aria-pressed") === "false"`)
	p.waitFrames(30, time.Second)
	if st := p.stats(); st.Step != paused.Step || st.Playing {
		t.Fatalf("paused at step %d, but 30 frames and a second later at step %d (playing %v)", paused.Step, st.Step, st.Playing)
	}
	p.click("#step")
	waitJS[bool](p, waitTimeout, "one step", fmt.Sprintf(`bufferscope.stats().step > %d`, paused.Step))
	p.waitFrames(10, 200*time.Millisecond)
	if st := p.stats(); st.Step != paused.Step+1 || st.Playing {
		t.Fatalf("one click on #step at step %d: now at step %d (playing %v), want step %d, paused", paused.Step, st.Step, st.Playing, paused.Step+1)
	}
	waitJS[bool](p, waitTimeout, "the step counter to show it", fmt.Sprintf(`document.querySelector("#c-step").dataset.value === "%d"`, paused.Step+1))
}

// TestControlsChangeSimulationAndURL changes two settings with their controls and checks
// that the simulation and the address follow, and that a reload restores both.
func TestControlsChangeSimulationAndURL(t *testing.T) {
	p := openPage(t, "/?shared_buffers=1MB&seed=5&play=0")
	p.choose("#p-shared_buffers", "8MB")
	waitJS[bool](p, waitTimeout, "the pool to grow to 8MB", `bufferscope.stats().nbuffers === 1024`)
	waitJS[bool](p, waitTimeout, "the address to say shared_buffers=8MB", `new URLSearchParams(location.search).get("shared_buffers") === "8MB"`)
	p.choose("#p-distribution", "uniform")
	waitJS[bool](p, waitTimeout, "the address to say distribution=uniform", `new URLSearchParams(location.search).get("distribution") === "uniform"`)

	p.reload()
	for sel, want := range map[string]string{"#p-shared_buffers": "8MB", "#p-distribution": "uniform", "#p-seed": "5"} {
		if got := eval[string](p, fmt.Sprintf(`document.querySelector(%q).value`, sel)); got != want {
			t.Errorf("after a reload %s is %q, want %q", sel, got, want)
		}
	}
	eval[chromedp.Void](p, `bufferscope.pause()`)
	eval[chromedp.Void](p, `bufferscope.reset()`)
	if st := p.stats(); st.NBuffers != 1024 || st.Step != 0 {
		t.Fatalf("after a reload and a reset: nbuffers %d, step %d; want 1024, 0", st.NBuffers, st.Step)
	}
	// The page now runs the new settings: its state matches the native simulation of
	// them, which differs from that of the old ones.
	const steps = 500
	st := p.step(steps)
	native := hashString(nativeSim(t, "shared_buffers=8MB&seed=5&distribution=uniform", steps).Hash())
	old := hashString(nativeSim(t, "shared_buffers=8MB&seed=5", steps).Hash())
	if st.Hash != native {
		t.Errorf("after %d steps with shared_buffers=8MB and distribution=uniform the page's hash is %s, the native simulation's %s (with the old zipfian distribution: %s)", steps, st.Hash, native, old)
	}
}

// TestBadParametersShowErrorAndStillRender opens an address with malformed parameters: the
// page names them in its error panel, uses safe values, and still draws the grid.
func TestBadParametersShowErrorAndStillRender(t *testing.T) {
	p := openPage(t, "/?shared_buffers=12XB&clients=-3")
	p.do(waitTimeout, "waiting for #error-panel to show", chromedp.WaitVisible(chromedp.CSS("#error-panel")))
	if role := eval[string](p, `document.querySelector("#error-panel").getAttribute("role")`); role != "alert" {
		t.Errorf(`#error-panel has role=%q, want "alert"`, role)
	}
	msg := eval[string](p, `document.querySelector("#error-panel").innerText`)
	for _, want := range []string{`shared_buffers "12XB"`, `clients "-3"`} {
		if !strings.Contains(msg, want) {
			t.Errorf("#error-panel does not name %s:\n%s", want, msg)
		}
	}
	st := p.stats()
	if st.NBuffers != 16384 {
		t.Errorf("with shared_buffers=12XB stats().nbuffers = %d, want the default 16384 (128MB)", st.NBuffers)
	}
	if got := eval[string](p, `document.querySelector("#p-shared_buffers").value`); got != "128MB" {
		t.Errorf("with shared_buffers=12XB the control shows %q, want the safe value 128MB", got)
	}
	canvas := p.elementRect(gridCanvas).pixels(0)
	if canvas.Dx() < 100 || canvas.Dy() < 100 {
		t.Fatalf("the grid canvas is %v: too small to show the pool", canvas)
	}
	if n := colours(p.screenshot(), canvas, 3); n < 3 {
		t.Errorf("the grid canvas has %d colours: nothing was drawn", n)
	}
}

// TestHoverShowsTooltip moves the mouse over a cell and checks that the tooltip names the
// buffer and the page it holds.
func TestHoverShowsTooltip(t *testing.T) {
	const query = "shared_buffers=1MB&seed=42"
	const steps = 300
	p := openPage(t, "/?"+query+"&play=0")
	st := p.step(steps)
	native := nativeSim(t, query, steps)
	if want := hashString(native.Hash()); st.Hash != want {
		t.Fatalf("after %d steps the page's hash is %s, the native simulation's %s", steps, st.Hash, want)
	}
	views := make([]sim.BufferView, native.Pool.NBuffers)
	native.Snapshot(views, 0)
	cm := p.cellMap(st.NBuffers)
	for _, id := range []int{firstFull(views), len(views) - 1} {
		var want []string
		if views[id].Rel >= 0 {
			want = []string{fmt.Sprintf("Buffer %d", id), native.TagName(views[id].Tag)}
		} else {
			want = []string{fmt.Sprintf("Buffer %d", id), "empty"}
		}
		x, y := cm.rect(id).centre()
		p.do(waitTimeout, "moving the mouse", chromedp.MouseEvent(chromedp.MouseMoved, x, y))
		p.do(waitTimeout, "waiting for #tooltip to show", chromedp.WaitVisible(chromedp.CSS("#tooltip")))
		waitJS[bool](p, waitTimeout, fmt.Sprintf("the tooltip of buffer %d to say %q", id, want), jsStrings(want)+`.every(w => document.querySelector("#tooltip").innerText.includes(w))`)
	}
}

// firstFull returns the first buffer that holds a page, or 0.
func firstFull(views []sim.BufferView) int {
	for i, v := range views {
		if v.Rel >= 0 {
			return i
		}
	}
	return 0
}

// jsStrings writes ss as a JavaScript array literal.
func jsStrings(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = fmt.Sprintf("%q", s)
	}
	return "[" + strings.Join(q, ", ") + "]"
}
