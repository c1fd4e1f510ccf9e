//go:build !js

package e2e

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/network"
	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// These tests make the app fail on purpose and check what the reader is left with: a Go
// panic wherever Go runs in the page, a wasm that cannot be downloaded or started, a browser
// without WebAssembly or WebGL2, and the experiment worker dying under a job. Each failure
// must end in the error panel, saying what happened and what to do, never in a blank grid,
// a hang or a Go stack in the page's text. The panics and the worker's death come from the
// test hooks that "build serve -test-hooks" compiles in (bufferscope.__panicForTest,
// bufferscopeTest.killWorker); the site readers get has none (build/testhooks_test.go).

// panelState is what the error panel shows.
type panelState struct {
	Visible   bool   `json:"visible"`
	Fatal     bool   `json:"fatal"`
	Title     string `json:"title"`
	Text      string `json:"text"`    // the panel's text without its folded details
	Details   string `json:"details"` // the report in the <pre>
	Reload    bool   `json:"reload"`  // the Reload button is shown
	Copy      bool   `json:"copy"`    // the Copy details button is shown
	Dismiss   bool   `json:"dismiss"` // the Dismiss button is shown
	Progress  string `json:"progress"`
	Still     bool   `json:"still"` // the grid's last frame stands in for the canvas
	PlayOff   bool   `json:"playOff"`
	StoppedOn bool   `json:"stoppedOn"` // body[data-stopped]
}

// panelJS reads panelState in the page (or in the document of an expression's window).
const panelJS = `(() => {
	const $ = (id) => document.getElementById(id);
	const panel = $("error-panel");
	const shown = (el) => Boolean(el) && !el.hidden && el.getClientRects().length > 0;
	const list = $("error-list");
	return {
		visible: shown(panel), fatal: panel.dataset.fatal === "1",
		title: ($("error-title") || {}).textContent || "",
		text: [$("error-title"), list, $("error-actions")].filter(Boolean).map((e) => e.innerText).join("\n"),
		details: ($("error-text") || {}).textContent || "",
		reload: shown($("error-reload")), copy: shown($("error-copy")), dismiss: shown($("error-dismiss")),
		progress: shown($("progress")) ? $("progress-text").textContent : "",
		still: shown(document.querySelector("#grid .grid-still")),
		playOff: $("play").disabled,
		stoppedOn: document.body.dataset.stopped === "1",
	};
})()`

// fatalPanel waits until the page shows a fatal report and returns what the panel shows.
func (p *page) fatalPanel(timeout time.Duration) panelState {
	p.t.Helper()
	waitJS[bool](p, timeout, "the error panel's fatal report", `document.getElementById("error-panel").dataset.fatal === "1" && !document.getElementById("error-panel").hidden &&
		[...document.querySelectorAll("#grid .grid-still")].every((img) => img.complete)`)
	return eval[panelState](p, panelJS)
}

// checkPanel checks what every fatal report must show: the panel with Reload and Copy
// details, the message words, no Go stack in the page's text, and the grid's area taken by
// its last frame or by a message.
func checkPanel(t *testing.T, got panelState, words ...string) {
	t.Helper()
	if !got.Visible || !got.Fatal || !got.Reload || !got.Copy || got.Dismiss {
		t.Errorf("the panel shows visible=%v fatal=%v Reload=%v Copy details=%v Dismiss=%v; want a fatal report with Reload and Copy details, without Dismiss",
			got.Visible, got.Fatal, got.Reload, got.Copy, got.Dismiss)
	}
	for _, w := range words {
		if !strings.Contains(got.Text, w) {
			t.Errorf("the panel does not say %q:\n%s", w, got.Text)
		}
	}
	for _, raw := range []string{"goroutine ", ".go:", "panic(", "wasm-function"} {
		if strings.Contains(got.Text+got.Progress, raw) {
			t.Errorf("the page's text shows technical detail %q outside the folded details:\n%s\n%s", raw, got.Text, got.Progress)
		}
	}
	if !got.Still && got.Progress == "" {
		t.Errorf("the grid shows neither its last frame nor a message")
	}
	if !got.PlayOff || !got.StoppedOn {
		t.Errorf("after the failure Play is disabled=%v and the page is marked stopped=%v; want both", got.PlayOff, got.StoppedOn)
	}
}

// checkReport checks the copyable report holds each of want.
func checkReport(t *testing.T, report string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(report, w) {
			t.Errorf("the report does not hold %q:\n%s", w, report)
		}
	}
}

// checkStill checks that the grid's area is not blank: its last frame (or the canvas) shows
// several colours.
func checkStill(t *testing.T, p *page) {
	t.Helper()
	r := p.elementRect("#grid").pixels(2)
	if n := colours(p.screenshot(), r, 3); n < 3 {
		t.Errorf("the grid's area shows %d colours after the failure: blank", n)
	}
}

// panicReport is the report of a Go panic in the free-play lab opened with panicQuery after
// panicSteps steps.
const (
	panicQuery = "lab=free&shared_buffers=1MB&clients=3&seed=7&play=0"
	panicSteps = 40
)

// TestGoPanicShowsReport makes Go panic in the page where it runs, through the test hook:
// in Ebiten's Update and Draw (recovered in the adapter, which ends the game loop), in a
// bridge call (recovered by its guard), on the full page and in the embed; and in a goroutine
// of its own, which nothing can recover, so the Go program exits. Each time the error panel
// says the simulator stopped with Reload and Copy details, the report holds the lab, the
// parameters, seed, step, version, browser and the Go stack, the grid keeps its last frame or
// a message, playback is disabled, and Reload brings back a page that runs.
func TestGoPanicShowsReport(t *testing.T) {
	for _, tc := range []struct {
		name, path, where string
		stack             string // a line the Go stack or output holds
		still             bool   // the grid's last frame stands in for the canvas
	}{
		{"page/update", "/?" + panicQuery, "update", "main.(*game).Update", true},
		{"page/draw", "/?" + panicQuery, "draw", "main.(*game).Draw", true},
		{"page/call", "/?" + panicQuery, "call", "(*bridge).guard", true},
		{"embed/update", "/embed.html?" + panicQuery, "update", "main.(*game).Update", true},
		{"embed/call", "/embed.html?" + panicQuery, "call", "(*bridge).guard", true},
		{"page/goroutine", "/?" + panicQuery, "goroutine", "panic: bufferscope test hook: a panic asked for in a goroutine", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := openPage(t, tc.path)
			if !eval[bool](p, `typeof bufferscope.__panicForTest === "function"`) {
				t.Fatal("bufferscope.__panicForTest is missing: the site was not built with build serve -test-hooks")
			}
			p.step(panicSteps)
			if tc.where != "goroutine" {
				// The bridge logs a recovered panic with its stack, as the bug it is.
				p.console.expect(`bufferscope: Go panic while it`, "the test asks for a Go panic")
			}
			res := eval[struct {
				OK    bool   `json:"ok"`
				Error string `json:"error"`
			}](p, fmt.Sprintf(`bufferscope.__panicForTest(%q)`, tc.where))
			if tc.where == "call" && (res.OK || !strings.Contains(res.Error, "bufferscope.__panicForTest failed")) {
				t.Errorf("a panic in a call returned %+v; want ok false and the error", res)
			}
			got := p.fatalPanel(waitTimeout)
			if tc.where == "goroutine" {
				checkPanel(t, got, "The simulator stopped unexpectedly", "Reload the page")
			} else {
				checkPanel(t, got, "The simulator stopped", "an internal error", "Reload")
			}
			checkReport(t, got.Details, "bufferscope error report", "Lab: free", "shared_buffers=1MB", "clients=3", "Seed: 7",
				fmt.Sprintf("Step: %d", panicSteps), "App version: 0.1.0", "Browser: Mozilla/", tc.stack)
			if tc.where != "goroutine" {
				checkReport(t, got.Details, "Go stack:", "Panic: bufferscope test hook")
			}
			if got.Still != tc.still {
				t.Errorf("the grid's last frame stands in for the canvas: %v, want %v (progress says %q)", got.Still, tc.still, got.Progress)
			}
			if got.Still {
				checkStill(t, p)
			}
			if tc.where != "goroutine" {
				// The simulator has stopped: calls that change the run are refused, reads answer.
				if r := eval[map[string]any](p, `bufferscope.play()`); r["ok"] != false || !strings.Contains(fmt.Sprint(r["error"]), "reload the page") {
					t.Errorf("play after the crash returned %v; want it refused, saying to reload", r)
				}
				if st := p.stats(); st.Step != panicSteps {
					t.Errorf("stats after the crash say step %d, want %d", st.Step, panicSteps)
				}
			}

			p.clickToLoad("#error-reload")
			p.waitReady()
			if after := eval[panelState](p, panelJS); after.Visible || after.StoppedOn {
				t.Errorf("after Reload the panel shows %q (stopped=%v)", after.Text, after.StoppedOn)
			}
			p.step(5) // fails the test unless exactly five steps ran
			p.waitFrames(3, 0)
			checkStill(t, p)
		})
	}
}

// TestCopyDetails puts a report on the clipboard with Copy details and reads it back; the
// page with the report open passes axe-core's checks.
func TestCopyDetails(t *testing.T) {
	p := openPage(t, "/?"+panicQuery)
	p.step(panicSteps)
	p.console.expect(`bufferscope: Go panic while it`, "the test asks for a Go panic")
	eval[map[string]any](p, `bufferscope.__panicForTest("draw")`)
	want := p.fatalPanel(waitTimeout).Details
	eval[bool](p, `document.getElementById("error-details").open = true`)
	p.axeCheck("the error panel's report of a Go panic")
	p.do(waitTimeout, "granting the clipboard", chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		for _, name := range []string{"clipboard-read", "clipboard-write"} {
			if _, err := chromedp.CallBrowser(ctx, browser.SetPermission, browser.SetPermissionParams{
				Permission: &browser.PermissionDescriptor{Name: name},
				Setting:    browser.PermissionSettingGranted,
				Origin:     strings.TrimSuffix(suite.baseURL, "/"),
			}); err != nil {
				return err
			}
		}
		_, err := cdp.Call(ctx, tg, emulation.SetFocusEmulationEnabled, emulation.SetFocusEmulationEnabledParams{Enabled: true})
		return err
	}))
	p.click("#error-copy")
	said := waitJS[string](p, waitTimeout, "Copy details to answer", `document.getElementById("error-copied").textContent`)
	if !strings.HasPrefix(said, "Copied") {
		t.Fatalf("Copy details says %q", said)
	}
	if got := eval[string](p, `navigator.clipboard.readText()`); got != want {
		t.Errorf("the clipboard holds:\n%s\nwant the report:\n%s", got, want)
	}
}

// clickToLoad clicks the element matching sel and waits for the page it loads.
func (p *page) clickToLoad(sel string) {
	p.t.Helper()
	run(p, loadTimeout, "clicking "+sel+" and waiting for the page to load",
		chromedp.WaitEvent(cdppage.LoadEventFired, nil, chromedp.Click(chromedp.CSS(sel))))
}

// intercept answers the page's requests for the app's wasm with answer, through the
// DevTools Fetch domain, from before the page loads.
func intercept(p *page, answer func(ctx context.Context, ev fetch.EventRequestPaused) error) {
	p.t.Helper()
	paused := chromedp.Events(p.ctx, fetch.RequestPaused)
	p.do(waitTimeout, "intercepting the wasm", chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, fetch.Enable, fetch.EnableParams{Patterns: []*fetch.RequestPattern{{URLPattern: "*/assets/wasm/bufferscope.*.wasm"}}})
		return err
	}))
	go func() {
		for ev, err := range paused {
			if err != nil {
				return
			}
			if err := answer(p.ctx, ev); err != nil {
				p.t.Logf("answering %s: %v", ev.Request.URL, err)
			}
		}
	}()
}

// onNewDocument runs script in every document of the tab before the page's own scripts.
func (p *page) onNewDocument(script string) {
	p.t.Helper()
	p.do(waitTimeout, "adding a script", chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, cdppage.AddScriptToEvaluateOnNewDocument, cdppage.AddScriptToEvaluateOnNewDocumentParams{Source: script})
		return err
	}))
}

// fulfill answers a paused request with status and body.
func fulfill(ctx context.Context, ev fetch.EventRequestPaused, status int64, body []byte) error {
	_, err := chromedp.Call(ctx, fetch.FulfillRequest, fetch.FulfillRequestParams{
		RequestID:       ev.RequestID,
		ResponseCode:    status,
		ResponseHeaders: []*fetch.HeaderEntry{{Name: "Content-Type", Value: "application/wasm"}},
		Body:            body,
	})
	return err
}

// TestLoadFailuresExplained opens the page when its wasm cannot be downloaded (a 404, a
// network failure) or started (garbage, a truncated file), and in a browser without
// WebAssembly or without WebGL2: the page says what happened and what to do, the grid's
// area shows a message, and no Go stack reaches the page's text.
func TestLoadFailuresExplained(t *testing.T) {
	for _, tc := range []struct {
		name    string
		prepare func(p *page)
		words   []string
		console string // a console error the browser logs for this failure
	}{
		{"404", func(p *page) {
			intercept(p, func(ctx context.Context, ev fetch.EventRequestPaused) error {
				return fulfill(ctx, ev, http.StatusNotFound, []byte("not found"))
			})
		}, []string{"could not be downloaded", "the server answered 404", "Reload the page"}, `404`},
		{"network", func(p *page) {
			intercept(p, func(ctx context.Context, ev fetch.EventRequestPaused) error {
				_, err := chromedp.Call(ctx, fetch.FailRequest, fetch.FailRequestParams{RequestID: ev.RequestID, ErrorReason: network.ErrorReasonConnectionReset})
				return err
			})
		}, []string{"could not be downloaded", "connection", "reload the page"}, `ERR_CONNECTION_RESET`},
		{"garbage", func(p *page) {
			intercept(p, func(ctx context.Context, ev fetch.EventRequestPaused) error {
				return fulfill(ctx, ev, http.StatusOK, []byte("<!doctype html><p>This is not the wasm you are looking for.</p>"))
			})
		}, []string{"arrived damaged", "not a WebAssembly program", "Reload the page"}, ""},
		{"truncated", func(p *page) {
			intercept(p, func(ctx context.Context, ev fetch.EventRequestPaused) error {
				res, err := (&http.Client{Timeout: waitTimeout}).Get(ev.Request.URL)
				if err != nil {
					return err
				}
				defer res.Body.Close()
				whole, err := io.ReadAll(res.Body)
				if err != nil {
					return err
				}
				return fulfill(ctx, ev, http.StatusOK, whole[:len(whole)/3])
			})
		}, []string{"arrived damaged", "Reload the page"}, ""},
		{"no-webassembly", func(p *page) {
			p.onNewDocument(`delete globalThis.WebAssembly;`)
		}, []string{"needs WebAssembly", "recent Firefox, Chrome, Edge or Safari"}, ""},
		{"no-webgl2", func(p *page) {
			p.onNewDocument(`{
				const getContext = HTMLCanvasElement.prototype.getContext;
				HTMLCanvasElement.prototype.getContext = function (type, ...rest) {
					return type === "webgl2" ? null : getContext.call(this, type, ...rest);
				};
			}`)
		}, []string{"cannot draw the grid: it needs WebGL2", "hardware acceleration", "reload"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := newTab(t, viewportW, viewportH)
			tc.prepare(p)
			if tc.console != "" {
				p.console.expect(tc.console, "the test makes the wasm's download fail")
			}
			p.navigate("/?" + panicQuery)
			got := p.fatalPanel(loadTimeout)
			checkPanel(t, got, tc.words...)
			if got.Title != "The simulator could not run" || got.Progress != "The simulator is not running." {
				t.Errorf("the panel's title is %q and the grid says %q; want the simulator could not run", got.Title, got.Progress)
			}
			checkReport(t, got.Details, "bufferscope error report", "Browser: Mozilla/", "Address: "+suite.baseURL)
		})
	}
}

// TestWorkerDiesMidExperiment starts the pins lab's comparison of both policies, the
// cheapest experiment, with the worker set to die at the job's first progress: its Go
// program panics, its script fails (an error event), or it closes itself without a word
// (found by the silence check, shortened for the test). The card says the experiment
// stopped and to run it again; running it again starts a fresh worker, which completes it.
func TestWorkerDiesMidExperiment(t *testing.T) {
	for _, tc := range []struct {
		how    string
		silent int // the silence check's limit in ms, 0 for the page's own
		words  string
	}{
		{"panic", 0, "the experiment worker crashed (panic: bufferscope test hook: the worker dies mid-job)"},
		{"error", 0, "the experiment worker failed"},
		{"close", 1500, "the experiment worker stopped answering"},
	} {
		t.Run(tc.how, func(t *testing.T) {
			p := openPage(t, "/?lab=pins&clients=12&duration=10s&naptime=2s&seed=5&play=0")
			if !eval[bool](p, `typeof bufferscopeTest === "object"`) {
				t.Fatal("bufferscopeTest is missing: the site was not built with build serve -test-hooks")
			}
			eval[bool](p, fmt.Sprintf(`bufferscopeTest.killWorker(%q, %d)`, tc.how, tc.silent))
			p.click("#pins-compare-run")
			said := waitJS[string](p, 30*time.Second, "the card to say the experiment stopped",
				`(t => t.startsWith("The experiment stopped") && t)(document.getElementById("pins-compare-summary").textContent)`)
			if !strings.Contains(said, tc.words) || !strings.HasSuffix(said, "Run it again.") {
				t.Errorf("the card says %q; want it to say %q and to run it again", said, tc.words)
			}
			if eval[bool](p, `!document.getElementById("pins-compare-job").hidden`) {
				t.Errorf("the card still shows its progress after the worker died")
			}
			p.click("#pins-compare-run")
			waitJS[bool](p, 60*time.Second, "the comparison run again", `!document.getElementById("pins-compare-csv").disabled`)
			if n := eval[int](p, `bufferscopeTest.workersStarted()`); n != 2 {
				t.Errorf("%d workers were started; want 2, a fresh one for the run again", n)
			}
			if s := eval[string](p, `document.getElementById("pins-compare-summary").textContent`); !strings.HasPrefix(s, "Dropping the pin gives") {
				t.Errorf("after the run again the card says %q", s)
			}
		})
	}
}
