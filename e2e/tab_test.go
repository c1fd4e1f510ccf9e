//go:build !js

package e2e

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	cdpnetwork "github.com/chromedp/cdproto/network"
	cdppage "github.com/chromedp/cdproto/page"
	cdpstorage "github.com/chromedp/cdproto/storage"
	"github.com/chromedp/chromedp"
)

// page is one tab of the shared browser, showing a page of the site. Its methods fail the
// test, with the page's state in the message, when a step fails or a wait times out.
type page struct {
	t       *testing.T
	ctx     context.Context // the tab
	base    string          // the site's address, "http://127.0.0.1:PORT/"
	console consoleLog
	network requestLog
	logFrom int // where Chromium's output was when the tab opened
}

// pollInterval is how often a wait re-evaluates its condition in the page.
const pollInterval = 50 * time.Millisecond

// openPage opens a new tab of the shared browser at path (with its query, such as
// "/?seed=1"), with the exact viewport, and waits until the page has drawn its first
// frame. It skips the test when the browser tests are off. When the test ends, the tab's
// console must hold no uncaught exception and no error, and a failed test leaves a
// screenshot and the console log in failureDir.
func openPage(t *testing.T, path string) *page {
	t.Helper()
	return openPageSized(t, path, viewportW, viewportH)
}

// openPageSized is openPage with a viewport of w×h CSS pixels.
func openPageSized(t *testing.T, path string, w, h int64) *page {
	t.Helper()
	return openPageWith(t, tabOptions{width: w, height: h}, path)
}

// tabOptions are how a tab is opened; zero values take the suite's.
type tabOptions struct {
	base          string // the site, "http://127.0.0.1:PORT/"; the suite's by default
	width, height int64  // the viewport; viewportW×viewportH by default
	// serviceWorker lets the site's service worker answer the tab's requests. Other tabs
	// bypass it, so that each test sees the server (and its faults) as it is, whatever an
	// earlier test's visit left in the browser's caches.
	serviceWorker bool
	// limit bounds the tab's whole life; testTimeout by default.
	limit time.Duration
}

// openPageWith opens a tab as openPage does, as o says. Besides the console, every tab
// records its requests: a test fails when its page asked for anything outside the site's
// origin, or broke its Content-Security-Policy (which the page logs as an error).
func openPageWith(t *testing.T, o tabOptions, path string) *page {
	t.Helper()
	p := newTabWith(t, o)
	p.load(path)
	return p
}

// newTab opens a new tab of the shared browser with a viewport of w×h CSS pixels and
// nothing in it, for a test that prepares the tab before it opens a page (p.navigate). It
// skips the test when the browser tests are off, and checks the console and the requests
// when the test ends, as openPage does.
func newTab(t *testing.T, w, h int64) *page {
	t.Helper()
	return newTabWith(t, tabOptions{width: w, height: h})
}

// newTabWith is newTab as o says.
func newTabWith(t *testing.T, o tabOptions) *page {
	t.Helper()
	if suite == nil {
		t.Skipf("browser tests are off: run them with %s=1 go test -count=1 ./e2e/... or make test (they need chromium)", enableVar)
	}
	if o.base == "" {
		o.base = suite.baseURL
	}
	if o.width == 0 {
		o.width, o.height = viewportW, viewportH
	}
	if o.limit == 0 {
		o.limit = testTimeout
	}
	limit, stopLimit := context.WithTimeout(suite.browser, o.limit)
	ctx, closeTab := chromedp.NewContext(limit)
	p := &page{t: t, ctx: ctx, base: o.base, logFrom: suite.browserLog.Len()}
	t.Cleanup(func() {
		p.console.sync(p.ctx)
		if bad := p.console.problems(); len(bad) > 0 {
			var b strings.Builder
			for _, m := range bad {
				fmt.Fprintf(&b, "\n  %s", formatConsole(m))
			}
			t.Errorf("the page logged %d uncaught exceptions or console errors:%s", len(bad), b.String())
		}
		for _, e := range p.console.unseen() {
			t.Errorf("the page never logged the error the test expects: %s", e)
		}
		if away := p.network.offOrigin(); len(away) > 0 {
			t.Errorf("the page asked for %d addresses outside %s:\n  %s", len(away), p.base, strings.Join(away, "\n  "))
		}
		if t.Failed() {
			p.saveFailure()
		}
		closeTab()
		stopLimit()
		p.console.wait()
	})
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("opening a tab: %v", err)
	}
	p.console.collect(ctx)
	if err := p.network.collect(ctx, o.base); err != nil {
		t.Fatalf("watching the tab's requests: %v", err)
	}
	p.do(waitTimeout, "preparing the tab", forgetChoices(o.base), chromedp.EmulateViewport(o.width, o.height), emulateMedia,
		watchWebGL, watchCSP, watchNetwork(o.serviceWorker))
	return p
}

// watchCSP makes every page of the tab log an error when its Content-Security-Policy blocks
// something, with what was blocked and by which directive, so that no test passes with a
// part of the page silently refused.
var watchCSP = chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
	_, err := cdp.Call(ctx, t, cdppage.AddScriptToEvaluateOnNewDocument, cdppage.AddScriptToEvaluateOnNewDocumentParams{
		Source: `addEventListener("securitypolicyviolation", (e) => console.error("bufferscope-e2e: Content-Security-Policy violation: " +
			e.effectiveDirective + " blocked " + (e.blockedURI || "an inline script or style") + " in " + e.documentURI), true);`,
	})
	return err
})

// watchNetwork turns on the tab's Network domain, which requestLog listens to, and bypasses the
// service worker unless serviceWorker is true.
func watchNetwork(serviceWorker bool) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		if _, err := cdp.Call(ctx, t, cdpnetwork.Enable, cdpnetwork.EnableParams{}); err != nil {
			return err
		}
		_, err := cdp.Call(ctx, t, cdpnetwork.SetBypassServiceWorker, cdpnetwork.SetBypassServiceWorkerParams{Bypass: !serviceWorker})
		return err
	})
}

// forgetChoices clears what an earlier test's page stored for the site (the theme the reader
// chose), so that every tab opens as a first visit does: a test that leaves the dark theme on
// must not change the colours the next test reads from the canvas.
func forgetChoices(base string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, cdpstorage.ClearDataForOrigin, cdpstorage.ClearDataForOriginParams{
			Origin: strings.TrimSuffix(base, "/"), StorageTypes: "local_storage",
		})
		return err
	})
}

// emulateMedia pins the media features the page adapts to, whatever the machine prefers:
// the light theme, and motion (flashes) on.
var emulateMedia = chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
	_, err := cdp.Call(ctx, t, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
		Features: []*emulation.MediaFeature{
			{Name: "prefers-color-scheme", Value: "light"},
			{Name: "prefers-reduced-motion", Value: "no-preference"},
		},
	})
	return err
})

// watchWebGL makes every page of the tab log a console warning when a WebGL context is lost
// or restored, which is otherwise silent: a lost context leaves a blank canvas while the
// app keeps counting frames.
var watchWebGL = chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
	_, err := cdp.Call(ctx, t, cdppage.AddScriptToEvaluateOnNewDocument, cdppage.AddScriptToEvaluateOnNewDocumentParams{
		Source: `for (const type of ["webglcontextlost", "webglcontextrestored"]) {
			addEventListener(type, (e) => console.warn("bufferscope-e2e: " + type + " on " + e.target.tagName), true);
		}`,
	})
	return err
})

// load navigates the tab to path and waits for the first frame.
func (p *page) load(path string) {
	p.t.Helper()
	start := time.Now()
	p.navigate(path)
	p.waitReady()
	p.t.Logf("%s ready in %.1fs", path, time.Since(start).Seconds())
}

// navigate navigates the tab to path and waits for the document to load, not for the app.
func (p *page) navigate(path string) {
	p.t.Helper()
	url := p.base + strings.TrimPrefix(path, "/")
	p.do(loadTimeout, "loading "+url, chromedp.Navigate(url))
}

// reload reloads the page and waits for the first frame.
func (p *page) reload() {
	p.t.Helper()
	p.do(loadTimeout, "reloading", chromedp.Reload())
	p.waitReady()
}

// waitReady waits until the app says it has drawn its first frame. An embed that shows its
// still (js/still.js) is first clicked, as its reader would, outside its Play button, so that
// it loads the simulator and stays paused; TestEmbedStill tests the still itself.
func (p *page) waitReady() {
	p.t.Helper()
	waitJS[bool](p, loadTimeout, "the first frame or the embed's still",
		`document.body?.dataset.ready === "1" || document.body?.dataset.still === "1"`)
	eval[any](p, `document.body.dataset.still === "1" && document.querySelector("#still img").dispatchEvent(new PointerEvent("pointerdown", {bubbles: true})), 0`)
	waitJS[bool](p, loadTimeout, "the first frame", `document.body?.dataset.ready === "1"`)
}

// do runs steps in the tab within timeout.
func (p *page) do(timeout time.Duration, what string, steps ...chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, timeout)
	defer cancel()
	if err := chromedp.Do(ctx, steps...); err != nil {
		p.fatalf("%s: %v", what, err)
	}
}

// run runs one action in the tab of p within timeout and returns its value.
func run[T any](p *page, timeout time.Duration, what string, a chromedp.Action[T]) T {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, timeout)
	defer cancel()
	v, err := chromedp.Run(ctx, a)
	if err != nil {
		p.fatalf("%s: %v", what, err)
	}
	return v
}

// eval evaluates a JavaScript expression in the page, awaits it if it is a promise, and
// decodes its value into T.
func eval[T any](p *page, expr string) T {
	p.t.Helper()
	return run(p, waitTimeout, "evaluating "+expr, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
}

// waitJS waits until the JavaScript expression cond is truthy, for at most timeout, and
// returns its value.
func waitJS[T any](p *page, timeout time.Duration, what, cond string) T {
	p.t.Helper()
	poll := chromedp.Poll[T](cond, chromedp.WithPollingTimeout(timeout), chromedp.WithPollingInterval(pollInterval))
	return run(p, timeout+5*time.Second, fmt.Sprintf("waiting %v for %s (%s)", timeout, what, cond), poll)
}

// waitFrames waits until the page has run n animation frames and at least d has passed,
// so whatever runs once a frame (Ebiten's Update and Draw) has had its chances.
func (p *page) waitFrames(n int, d time.Duration) {
	p.t.Helper()
	// A loaded machine draws a few frames a second: wait for them as long as that takes.
	limit := waitTimeout + d + time.Duration(n)*250*time.Millisecond
	expr := fmt.Sprintf(`new Promise(done => {
		let left = %d;
		const t0 = performance.now();
		const tick = () => (--left <= 0 && performance.now() - t0 >= %d) ? done() : requestAnimationFrame(tick);
		requestAnimationFrame(tick);
	})`, n, d.Milliseconds())
	run(p, limit, fmt.Sprintf("waiting for %d frames and %v", n, d), chromedp.Evaluate[chromedp.Void](expr, chromedp.EvalAwaitPromise))
}

// fatalf fails the test with the message and the page's state.
func (p *page) fatalf(format string, args ...any) {
	p.t.Helper()
	p.t.Fatalf("%s\npage: %s", fmt.Sprintf(format, args...), p.state())
}

// stateJS describes the page for a failure message; it must not throw.
const stateJS = `(() => {
	const out = [location.href, "ready=" + (document.body && document.body.dataset.ready)];
	const panel = document.getElementById("error-panel");
	if (panel && !panel.hidden) out.push("error panel: " + JSON.stringify(panel.innerText.trim()));
	try {
		const s = bufferscope.stats();
		out.push("stats: " + JSON.stringify({step: s.step, nbuffers: s.nbuffers, playing: s.playing, frames: s.frames, error: s.error}));
	} catch (e) {
		out.push("stats: " + e);
	}
	return out.join("; ");
})()`

// state describes the page: its URL, readiness, error panel and stats.
func (p *page) state() string {
	ctx, cancel := context.WithTimeout(p.ctx, 3*time.Second)
	defer cancel()
	s, err := chromedp.Run(ctx, chromedp.Evaluate[string](stateJS))
	if err != nil {
		return fmt.Sprintf("(unknown: %v)", err)
	}
	return s
}

// failurePath returns where a file about the test's failure goes, and makes the directory.
func (p *page) failurePath(suffix string) (string, error) {
	name := strings.NewReplacer("/", "_", " ", "_").Replace(p.t.Name()) + suffix
	abs, err := filepath.Abs(filepath.Join(failureDir, name))
	if err != nil {
		return "", err
	}
	return abs, os.MkdirAll(failureDir, 0o755)
}

// saveImage writes img next to the test's failure screenshot, as <test>.<what>.png, and logs
// its path.
func (p *page) saveImage(what string, img image.Image) {
	path, err := p.failurePath("." + what + ".png")
	if err == nil {
		var b bytes.Buffer
		if err = png.Encode(&b, img); err == nil {
			err = os.WriteFile(path, b.Bytes(), 0o644)
		}
	}
	if err != nil {
		p.t.Logf("saving %s: %v", what, err)
		return
	}
	p.t.Logf("%s: %s", what, path)
}

// saveFailure writes a screenshot of the tab and its console log to failureDir and logs
// their paths and the console log.
func (p *page) saveFailure() {
	base, err := p.failurePath("")
	if err != nil {
		p.t.Logf("saving the failure: %v", err)
		return
	}
	console := p.console.String()
	p.t.Logf("console of the tab:\n%s", console)
	if err := os.WriteFile(base+".console.txt", []byte(console), 0o644); err != nil {
		p.t.Logf("saving the console log: %v", err)
	}
	var out []string
	for _, line := range strings.Split(suite.browserLog.Since(p.logFrom), "\n") {
		if strings.TrimSpace(line) != "" && !harmless(line) {
			out = append(out, line)
		}
	}
	if len(out) > 0 {
		p.t.Logf("Chromium's output while the test ran:\n%s", strings.Join(out, "\n"))
	}
	ctx, cancel := context.WithTimeout(p.ctx, 5*time.Second)
	defer cancel()
	shot, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err == nil {
		err = os.WriteFile(base+".png", shot, 0o644)
	}
	if err != nil {
		p.t.Logf("no screenshot: %v", err)
		return
	}
	p.t.Logf("screenshot: %s.png", base)
}

// elementRect returns where the first element matching sel is, in CSS pixels of the
// viewport.
func (p *page) elementRect(sel string) rect {
	p.t.Helper()
	return eval[rect](p, fmt.Sprintf(`(r => ({X: r.x, Y: r.y, W: r.width, H: r.height}))(document.querySelector(%q).getBoundingClientRect())`, sel))
}

// screenshot captures the viewport; a pixel is a CSS pixel.
func (p *page) screenshot() image.Image {
	p.t.Helper()
	b := run(p, waitTimeout, "taking a screenshot", chromedp.CaptureScreenshot())
	img, err := decodePNG(b)
	if err != nil {
		p.fatalf("%v", err)
	}
	return img
}

// click clicks the element matching sel, as a user does.
func (p *page) click(sel string) {
	p.t.Helper()
	p.do(waitTimeout, "clicking "+sel, chromedp.Click(chromedp.CSS(sel)))
}

// choose sets a form control to value and fires the input and change events a user's
// choice fires.
func (p *page) choose(sel, value string) {
	p.t.Helper()
	eval[chromedp.Void](p, fmt.Sprintf(`(el => {
		el.value = %q;
		if (el.value !== %[1]q) throw new Error(%[2]q + " has no value " + %[1]q);
		el.dispatchEvent(new Event("input", {bubbles: true}));
		el.dispatchEvent(new Event("change", {bubbles: true}));
	})(document.querySelector(%[2]q))`, value, sel))
}
