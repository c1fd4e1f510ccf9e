//go:build !js

package e2e

import (
	"fmt"
	"image"
	"strings"
	"testing"
	"time"

	"github.com/bufferscope/bufferscope/wasm/grid"
	"github.com/chromedp/chromedp"
)

// These tests open the drop lab as a reader does, with nothing in the address but the lab,
// and read what its canvas shows: up to 20GB the lab races the policy chosen (PostgreSQL 14's)
// against PostgreSQL 13's full scan, each on its own copy of the pool, in two panes.

// paneRect is one pane of bufferscope.view().panes.
type paneRect struct {
	Index             int
	Key, Label        string
	X, Y, Width, Head int
	Height            int
}

// panes returns the panes the canvas shows, in CSS pixels of the viewport: each pane's
// rectangle moved by where the canvas is.
func (p *page) panes() []paneRect {
	p.t.Helper()
	ps := eval[[]paneRect](p, `(bufferscope.view().panes || []).map(q => ({Index: q.index, Key: q.key, Label: q.label, X: q.x, Y: q.y, Width: q.width, Height: q.height, Head: q.head}))`)
	c := p.elementRect("#grid canvas")
	for i := range ps {
		ps[i].X += int(c.X + 0.5)
		ps[i].Y += int(c.Y + 0.5)
	}
	return ps
}

// layout is the pane's layout at the fitting zoom, as the app computes it (wasm/app), for a
// pool of nbuffers with the drop lab's lane under it.
func (q paneRect) layout(nbuffers int) grid.Layout {
	return grid.FitBelow(nbuffers, q.Width, q.Height, grid.LaneHeight)
}

// cells returns where the pane's pool is drawn in a screenshot.
func (q paneRect) cells(nbuffers int) image.Rectangle {
	l := q.layout(nbuffers)
	w, h := l.MapSize()
	return image.Rect(q.X+l.OX, q.Y+l.OY, q.X+l.OX+w, q.Y+l.OY+h)
}

// lane returns where the pane's lane is: the scan's progress over the lookups' tape.
func (q paneRect) lane(nbuffers int) image.Rectangle {
	r := q.layout(nbuffers).Lane()
	return image.Rect(q.X+r.X0, q.Y+r.Y0, q.X+r.X1, q.Y+r.Y1)
}

// leftRuler is the strip left of the cells where the scan's cursor has its marker, a
// triangle pointing at its row (x from 4 to 9 in the pane), clear of the rings around cells
// in the first column.
func (q paneRect) leftRuler(nbuffers int) image.Rectangle {
	c := q.cells(nbuffers)
	return image.Rect(q.X+3, c.Min.Y, q.X+grid.Ruler-1, c.Max.Y)
}

// dropped reports whether c is one of the dropped relations' warm shades on the light theme
// (sim/labs/drop Legend), faded or not: not the grey of the other relations, the empty
// colour, the blue of the probes nor the red of a burn.
func dropped(c rgb) bool {
	r, g, b := int(c.R), int(c.G), int(c.B)
	return r >= 150 && r-b >= 90 && g >= 55 && g <= r-40
}

// count counts the pixels of r in img for which ok holds.
func countPixels(img image.Image, r image.Rectangle, ok func(rgb) bool) int {
	r = r.Intersect(img.Bounds())
	n := 0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if ok(at(img, x, y)) {
				n++
			}
		}
	}
	return n
}

// raceCounters is what each pane's counters hold, as far as the tests read them.
type raceCounters struct {
	Done               bool    `json:"done"`
	Path               string  `json:"path"`
	PathSoFar          string  `json:"pathSoFar"`
	ResultPath         string  `json:"resultPath"`
	Cursor             int     `json:"cursor"`
	DescriptorsChecked uint64  `json:"descriptorsChecked"`
	Lookups            uint64  `json:"lookups"`
	Invalidated        uint64  `json:"invalidated"`
	ModelledSeconds    float64 `json:"modelledSeconds"`
}

const paneCountersJS = `bufferscope.stats().panes.map(p => p.counters)`

// TestDropRaceOnTheCanvas opens ?lab=drop cold at 1280×800 and reads its canvas: two panes
// side by side, PostgreSQL 14+ and PostgreSQL 13, both filled with the dropped relations'
// colours at the start; while the first scan is under way, the scan's cursor has its marker
// in the ruler of PostgreSQL 13's pane only, and the lookups' tape shows in PostgreSQL 14's
// lane only; later PostgreSQL 14's pool is empty of the dropped relations while 13's still
// holds some, and the page says 14 finished first.
func TestDropRaceOnTheCanvas(t *testing.T) {
	p := openPageSized(t, "/?lab=drop", 1280, 800)
	panes := p.panes()
	if len(panes) != 2 || panes[0].Key != "pg14" || panes[1].Key != "pg13" {
		t.Fatalf("?lab=drop shows panes %+v; want PostgreSQL 14+ and 13", panes)
	}
	a, b := panes[0], panes[1]
	if a.Y != b.Y || b.X < a.X+a.Width || a.Width < 300 || a.Height < 200 {
		t.Fatalf("at 1280×800 the panes are %+v and %+v; want them side by side", a, b)
	}
	for i, q := range panes {
		label := eval[string](p, fmt.Sprintf(`document.querySelector("#pane-label-%d").textContent`, i))
		if !strings.HasPrefix(label, q.Label) || !strings.Contains(label, " dropped") {
			t.Errorf("pane %d's label says %q", i, label)
		}
	}

	// The opening picture: the run at its first step, before anything was dropped.
	eval[any](p, `bufferscope.pause()`)
	eval[any](p, `bufferscope.seek(0)`)
	waitJS[bool](p, 30*time.Second, "the seek to step 0", `(s => s.step === 0 && !s.time.job)(bufferscope.stats())`)
	p.waitFrames(20, 700*time.Millisecond)
	img := p.screenshot()
	const nbuffers = 16384
	for i, q := range panes {
		area := q.cells(nbuffers).Dx() * q.cells(nbuffers).Dy()
		if n := countPixels(img, q.cells(nbuffers), dropped); n < area/2 {
			t.Errorf("at the start pane %d (%s) shows %d pixels of the dropped relations' colours of %d; want half or more (they fill three quarters of the pool)", i, q.Key, n, area)
			p.saveImage("start", img)
		}
	}

	// Half way through the first full scan.
	waitJS[bool](p, 60*time.Second, "the scan to reach half the pool", `(() => {
		const n = bufferscope.stats().nbuffers;
		for (let i = 0; i < 200; i++) {
			const c = bufferscope.stats().panes[1].counters;
			if (c.path === "scan" && c.cursor > n / 2) return true;
			bufferscope.step(500);
		}
		return false;
	})()`)
	p.waitFrames(10, 300*time.Millisecond)
	img = p.screenshot()
	hand := toRGB(grid.Light.Hand)
	ink := func(c rgb) bool { return c.dist(hand) < 40 }
	if m0, m1 := countPixels(img, a.leftRuler(nbuffers), ink), countPixels(img, b.leftRuler(nbuffers), ink); m0 != 0 || m1 < 5 {
		t.Errorf("the scan cursor's ruler marker: %d pixels in PostgreSQL 14's pane, %d in 13's; want it in 13's only", m0, m1)
	}
	if t0, t1 := countPixels(img, a.lane(nbuffers), dropped), countPixels(img, b.lane(nbuffers), dropped); t0 < 20 || t1 != 0 {
		t.Errorf("the lookups' tape: %d pixels in PostgreSQL 14's lane, %d in 13's; want it in 14's only", t0, t1)
	}
	c := eval[[]raceCounters](p, paneCountersJS)
	if c[0].PathSoFar != "lookup" || c[0].Lookups == 0 || c[0].DescriptorsChecked != 0 || c[1].Path != "scan" || c[1].Lookups != 0 {
		t.Errorf("the panes' counters: %+v", c)
	}

	// On until PostgreSQL 14 is done: its pool is empty of the relations it dropped, 13's is not.
	waitJS[bool](p, 60*time.Second, "PostgreSQL 14 to finish", `(() => {
		for (let i = 0; i < 100; i++) {
			if (bufferscope.stats().panes[0].counters.done) return true;
			bufferscope.step(20000);
		}
		return false;
	})()`)
	c = eval[[]raceCounters](p, paneCountersJS)
	if !c[0].Done || c[1].Done {
		t.Fatalf("when PostgreSQL 14 is done: %+v", c)
	}
	waitJS[bool](p, waitTimeout, "the page to say who finished first", `document.querySelector("#d-race").dataset.value === "pg14"`)
	p.waitFrames(40, 1200*time.Millisecond) // the burns of the last drops fade
	img = p.screenshot()
	left0, left1 := countPixels(img, a.cells(nbuffers), dropped), countPixels(img, b.cells(nbuffers), dropped)
	if left0 != 0 || left1 < 100 {
		t.Errorf("after PostgreSQL 14 finished: %d pixels of dropped relations left in its pane, %d in 13's; want none and some", left0, left1)
		p.saveImage("finished", img)
	}
}

// TestDropRaceBadgesAreSteady samples the replay card's badges four times a second while
// the race plays at the page's speed: each says the path its side's drops take — lookups for
// PostgreSQL 14, full scan for 13 — and never falls back to "not started" between drops, as
// the badge of the path under way did.
func TestDropRaceBadgesAreSteady(t *testing.T) {
	p := openPage(t, "/?lab=drop")
	type badge struct{ Value, Text string }
	var seen [2][]badge
	for range 16 {
		got := eval[[]badge](p, `["#d-path", "#d-path-1"].map(s => document.querySelector(s)).map(b => b ? {Value: b.dataset.value, Text: b.textContent} : {Value: "missing", Text: ""})`)
		for i := range 2 {
			if n := len(seen[i]); n == 0 || seen[i][n-1] != got[i] {
				seen[i] = append(seen[i], got[i])
			}
		}
		time.Sleep(250 * time.Millisecond)
	}
	for i, want := range []badge{{"lookup", "PG 14+ · lookups"}, {"scan", "PG 13 · full scan"}} {
		s := seen[i]
		if s[0].Value == "none" { // the first sample may come before the first drop began
			s = s[1:]
		}
		if len(s) != 1 || s[0] != want {
			t.Errorf("badge %d showed %v while the race played; want %v throughout", i, seen[i], want)
		}
	}
}

// TestDropRaceOnAPhone opens ?lab=drop at 390×844: the two panes stack, each as wide as the
// screen, and a tap on the lower pane inspects PostgreSQL 13's pool and says so.
func TestDropRaceOnAPhone(t *testing.T) {
	p := openPageSized(t, "/?lab=drop", 390, 844)
	eval[any](p, `bufferscope.pause()`)
	panes := p.panes()
	if len(panes) != 2 {
		t.Fatalf("%d panes", len(panes))
	}
	a, b := panes[0], panes[1]
	if a.X != b.X || b.Y < a.Y+a.Height || a.Width < 330 || a.Height < 150 {
		t.Fatalf("at 390×844 the panes are %+v and %+v; want them stacked, as wide as the screen", a, b)
	}
	// Each pane shows its whole pool with a pixel or more per buffer, the play bar still on
	// the first screen (TestPhoneOpensWithTheIntroAndPlayBar); zooming in makes cells to tap.
	if v := eval[string](p, `bufferscope.view().label`); !strings.HasSuffix(v, " px per buffer") {
		t.Errorf("at 390×844 each pane shows %s; want a pixel or more per buffer", v)
	}
	if v := eval[string](p, `document.querySelector("#grid").dataset.panes`); v != "2" {
		t.Errorf("#grid data-panes = %q", v)
	}
	c := b.cells(eval[int](p, `bufferscope.stats().nbuffers`))
	x, y := float64((c.Min.X+c.Max.X)/2), float64((c.Min.Y+c.Max.Y)/2)
	p.do(waitTimeout, "a touch screen", chromedp.EmulateViewport(390, 844, chromedp.EmulateTouch))
	p.do(waitTimeout, "a tap on the lower pane", chromedp.TapXY(x, y))
	got := waitJS[string](p, waitTimeout, "the inspector to show the buffer tapped", `(t => t.includes("Pool") && t)(document.querySelector("#inspector").innerText)`)
	if !strings.Contains(got, "PostgreSQL 13") {
		t.Errorf("after a tap on the lower pane the inspector says:\n%s", got)
	}
	info := eval[map[string]any](p, fmt.Sprintf(`bufferscope.inspect(%g, %g)`, x, y))
	if pane, _ := info["pane"].(map[string]any); pane == nil || pane["key"] != "pg13" {
		t.Errorf("inspect at the tap: %v", info)
	}
}
