//go:build !js

package e2e

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// screenshotsVar names a directory: when it is set, TestScreenshots saves full-page
// screenshots of the labs there, light and dark, at desktop and phone widths, for people to
// look at (the README's and a review's pictures). It asserts nothing else.
const screenshotsVar = "BUFFERSCOPE_SCREENSHOTS"

func TestScreenshots(t *testing.T) {
	dir := os.Getenv(screenshotsVar)
	if dir == "" {
		t.Skipf("set %s=DIR to save screenshots of the labs in DIR", screenshotsVar)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	shoot := func(p *page, name string) {
		t.Helper()
		eval[any](p, `window.scrollTo(0, 0)`) // clicks scroll, and the grid is sticky
		b := run(p, waitTimeout, "a full-page screenshot", chromedp.FullScreenshot(100))
		path := filepath.Join(dir, name+".png")
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("%s", path)
	}
	// PostgreSQL 13's full scans, slowly enough to catch one under way; the page's chart and
	// a measurement of this machine below.
	const drop = "/?lab=drop&shared_buffers=128MB&tables=20x40&op=truncate&policy=pg13&speed=10000"
	for _, tc := range []struct {
		name, path string
		w, h       int64
		dark       bool
	}{
		{"drop-light", drop, viewportW, viewportH, false},
		{"drop-dark", drop, viewportW, viewportH, true},
		{"drop-phone", drop, 390, 844, false},
		{"free-light", "/?shared_buffers=8MB&seed=3", viewportW, viewportH, false},
		{"pins-light", "/?lab=pins&clients=40", viewportW, viewportH, false},
		{"ring-light", "/?lab=ring", 1280, 800, false},
		{"ring-phone", "/?lab=ring", 390, 844, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// Opened at its size, as a phone opens the page: a lab's view may open zoomed in
			// where cells would be too small.
			p := openPageSized(t, tc.path, tc.w, tc.h)
			if tc.dark {
				p.click("#theme")
				defer p.click("#theme") // the choice is remembered by the browser's profile
			}
			switch {
			case tc.name == "pins-light":
				p.click("#pins-compare-run")
				waitJS[bool](p, 90*time.Second, "the comparison", `!document.getElementById('pins-compare-csv').disabled`)
			case tc.name == "ring-light" || tc.name == "ring-phone":
				// The chart the lab computes as it opens, then VACUUM some way through its
				// table, paused, so the ring and the WAL bar show a run under way.
				start := time.Now()
				waitJS[bool](p, 100*time.Second, "the chart", `document.querySelector("#ring-card").dataset.state === "done"`)
				t.Logf("the chart was drawn %.1fs after the page was ready", time.Since(start).Seconds())
				eval[any](p, `bufferscope.setSpeed("max")`)
				eval[any](p, `bufferscope.play()`)
				waitJS[bool](p, 60*time.Second, "VACUUM under way", `bufferscope.stats().counters.pagesVacuumed >= 3000`)
				eval[any](p, `bufferscope.pause()`)
				p.waitFrames(30, time.Second)
			case tc.name != "free-light":
				waitJS[bool](p, 60*time.Second, "the chart", `document.querySelector("#curve-card").dataset.state === "done"`)
				p.choose("#measure-pool", "16384")
				p.click("#measure-run")
				waitJS[bool](p, 60*time.Second, "the measurement", `document.querySelector("#measure-card").dataset.state === "done"`)
				eval[any](p, `bufferscope.play()`)
				waitJS[bool](p, 60*time.Second, "a scan under way", `(d => d.relation >= 3 && d.cursor > 4000)(bufferscope.stats().counters)`)
				eval[any](p, `bufferscope.pause()`)
			default:
				p.waitFrames(30, time.Second)
			}
			shoot(p, tc.name)
		})
	}
}
