//go:build !js

package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/bufferscope/bufferscope/wasm/app"
	wlabs "github.com/bufferscope/bufferscope/wasm/labs"
	"github.com/chromedp/chromedp"
)

// These tests move through a run's time on the page: a link to a step, step back, the
// timeline, next event, and the form and address following calls through the bridge. Each
// state the page reaches is held against a native run of the same lab stepped to the same
// step (package app, natively).

// nativeHash returns the state hash of lab with values after steps steps, run natively.
func nativeHash(t *testing.T, lab string, values map[string]string, steps int) string {
	t.Helper()
	a := app.New(wlabs.Views)
	if _, err := a.Load(lab, values); err != nil {
		t.Fatal(err)
	}
	for left := steps; left > 0; {
		n := min(left, app.MaxStepsPerCall)
		if _, err := a.Step(n); err != nil {
			t.Fatal(err)
		}
		left -= n
	}
	if got := a.Stats().Step; got != uint64(steps) {
		t.Fatalf("the native %s run ended at step %d, before %d", lab, got, steps)
	}
	return a.Hash()
}

// timeStats is what the tests read of stats() beside stats.
type timeStats struct {
	Step    uint64 `json:"step"`
	Hash    string `json:"hash"`
	Playing bool   `json:"playing"`
	Time    struct {
		End     uint64 `json:"end"`
		Message string `json:"message"`
		Job     *struct {
			Kind string `json:"kind"`
		} `json:"job"`
	} `json:"time"`
}

// still waits until the page stands still at step (no job, not playing) and returns its
// stats.
func still(p *page, step uint64) timeStats {
	p.t.Helper()
	waitJS[bool](p, waitTimeout, fmt.Sprintf("the run to stand at step %d", step),
		fmt.Sprintf(`(s => s.step === %d && !s.playing && !s.time.job)(bufferscope.stats())`, step))
	return eval[timeStats](p, `bufferscope.stats({hash: true})`)
}

// urlStep waits until the address names step.
func urlStep(p *page, step uint64) {
	p.t.Helper()
	waitJS[bool](p, waitTimeout, fmt.Sprintf("the address to say step=%d", step),
		fmt.Sprintf(`new URLSearchParams(location.search).get("step") === "%d"`, step))
}

// TestPermalinkToAStep opens a link to step N of a run: the page opens paused there, in the
// state a native run reaches in N steps, and its timeline and address say so. A link with a
// bad step is explained and opens at step 0.
func TestPermalinkToAStep(t *testing.T) {
	const n = 4321
	p := openPage(t, fmt.Sprintf("/?shared_buffers=1MB&seed=11&step=%d", n))
	st := still(p, n)
	if want := nativeHash(t, "free", map[string]string{"shared_buffers": "1MB", "seed": "11"}, n); st.Hash != want {
		t.Errorf("opened at step %d: hash %s, a native run of %d steps %s", n, st.Hash, n, want)
	}
	waitJS[bool](p, waitTimeout, fmt.Sprintf("the timeline to show step %d", n),
		fmt.Sprintf(`document.querySelector("#timeline").value === "%d" && document.querySelector("#step-label").textContent === %q`, n, "4,321"))
	urlStep(p, n)
	// The same link again, after a reload: the same state.
	p.reload()
	if again := still(p, n); again.Hash != st.Hash {
		t.Errorf("after a reload at step %d: hash %s, first %s", n, again.Hash, st.Hash)
	}

	p.load("/?shared_buffers=1MB&seed=11&step=12abc")
	p.do(waitTimeout, "waiting for #error-panel to show", chromedp.WaitVisible(chromedp.CSS("#error-panel")))
	if msg := eval[string](p, `document.querySelector("#error-panel").innerText`); !strings.Contains(msg, `step "12abc"`) {
		t.Errorf("#error-panel does not name the bad step:\n%s", msg)
	}
	if s := p.stats(); s.Step != 0 {
		t.Errorf("a bad step opened at step %d, want 0", s.Step)
	}
}

// TestStepBackScrubAndNextEvent steps a lab on, then back with the button and the comma
// key, scrubs the timeline back and forth, and finds the next event: after each the page
// holds the state a native run of as many steps holds, and the address names the step.
func TestStepBackScrubAndNextEvent(t *testing.T) {
	values := map[string]string{"shared_buffers": "1MB", "seed": "5"}
	p := openPage(t, "/?shared_buffers=1MB&seed=5&play=0")
	native := func(steps uint64) string { return nativeHash(t, "free", values, int(steps)) }
	p.step(600)
	urlStep(p, 600)

	p.click("#step-back")
	if st := still(p, 599); st.Hash != native(599) {
		t.Errorf("step back to 599: hash %s, native %s", st.Hash, native(599))
	}
	urlStep(p, 599)
	eval[chromedp.Void](p, `document.querySelector("#grid canvas").focus()`)
	p.do(waitTimeout, "pressing comma", chromedp.KeyEvent(","))
	if st := still(p, 598); st.Hash != native(598) {
		t.Errorf("comma to 598: hash %s, native %s", st.Hash, native(598))
	}

	// Scrub: the timeline's input events, as a drag makes them, back and then forward past
	// where the run has been.
	scrub := func(v int) {
		eval[chromedp.Void](p, fmt.Sprintf(`(t => { t.value = "%d"; t.dispatchEvent(new Event("input", {bubbles: true})); t.dispatchEvent(new Event("change", {bubbles: true})); })(document.querySelector("#timeline"))`, v))
	}
	scrub(123)
	if st := still(p, 123); st.Hash != native(123) || st.Time.End != 600 {
		t.Errorf("scrubbed to 123: hash %s (native %s), timeline end %d (want 600)", st.Hash, native(123), st.Time.End)
	}
	urlStep(p, 123)
	scrub(600)
	if st := still(p, 600); st.Hash != native(600) {
		t.Errorf("scrubbed to 600: hash %s, native %s", st.Hash, native(600))
	}

	// Next event: the button names the lab's first event and stops just after one.
	label := eval[string](p, `document.querySelector("#next-event").textContent`)
	if !strings.HasPrefix(label, "Next ") || label == "Next event" {
		t.Errorf("the next-event button says %q, want it to name the lab's event", label)
	}
	p.click("#next-event")
	st := waitJS[timeStats](p, waitTimeout, "the search to end", `(s => !s.time.job && s.time.message && s)(bufferscope.stats({hash: true}))`)
	if !strings.HasPrefix(st.Time.Message, "Next ") || st.Step <= 600 {
		t.Fatalf("next event from 600: at %d, %q", st.Step, st.Time.Message)
	}
	if st.Hash != native(st.Step) {
		t.Errorf("next event at %d: hash %s, native %s", st.Step, st.Hash, native(st.Step))
	}
	if status := eval[string](p, `document.querySelector("#time-status").textContent`); status != st.Time.Message {
		t.Errorf("#time-status says %q, stats %q", status, st.Time.Message)
	}
	urlStep(p, st.Step)
}

// TestCallsThroughTheBridgeUpdateFormAndAddress: a seed, parameters and a speed set through
// window.bufferscope, as a host page or the console would, show in the form, the speed
// slider and the address.
func TestCallsThroughTheBridgeUpdateFormAndAddress(t *testing.T) {
	p := openPage(t, "/?shared_buffers=1MB&seed=5&play=0")
	eval[chromedp.Void](p, `bufferscope.setSeed(42)`)
	waitJS[bool](p, waitTimeout, "the seed control to say 42", `document.querySelector("#p-seed").value === "42"`)
	waitJS[bool](p, waitTimeout, "the address to say seed=42", `new URLSearchParams(location.search).get("seed") === "42"`)

	eval[chromedp.Void](p, `bufferscope.load({shared_buffers: "2MB", seed: "42", clients: "3"})`)
	waitJS[bool](p, waitTimeout, "the form to show 2MB and 3 clients",
		`document.querySelector("#p-shared_buffers").value === "2MB" && document.querySelector("#p-clients").value === "3"`)
	waitJS[bool](p, waitTimeout, "the address to say clients=3 and shared_buffers=2MB",
		`(q => q.get("clients") === "3" && q.get("shared_buffers") === "2MB")(new URLSearchParams(location.search))`)

	eval[chromedp.Void](p, `bufferscope.setSpeed(10)`)
	waitJS[bool](p, waitTimeout, "the speed slider to say 10 steps/s", `document.querySelector("#speed-label").textContent.includes("10 steps/s")`)
	waitJS[bool](p, waitTimeout, "the address to say speed=10", `new URLSearchParams(location.search).get("speed") === "10"`)

	// Another lab, loaded through the bridge: its tab and form follow.
	eval[chromedp.Void](p, `bufferscope.load({lab: bufferscope.labs()[1].name})`)
	waitJS[bool](p, waitTimeout, "the second lab's tab to be current",
		`document.querySelector("#lab-" + bufferscope.labs()[1].name).getAttribute("aria-current") === "page"`)
	waitJS[bool](p, waitTimeout, "the address to name the second lab",
		`new URLSearchParams(location.search).get("lab") === bufferscope.labs()[1].name`)
}

// TestLongSeekShowsProgressAndCancels: a seek too long for one call goes on a slice per
// frame with a progress bar, the page keeps drawing, and Cancel stops it where it got to.
func TestLongSeekShowsProgressAndCancels(t *testing.T) {
	p := openPage(t, "/?shared_buffers=1MB&seed=5&play=0")
	res := eval[struct {
		OK   bool `json:"ok"`
		Busy bool `json:"busy"`
	}](p, `bufferscope.seek(1e12)`)
	if !res.OK || !res.Busy {
		t.Fatalf("seek(1e12): ok %v busy %v, want a job under way", res.OK, res.Busy)
	}
	waitJS[bool](p, waitTimeout, "the progress bar to show the seek",
		`!document.querySelector("#job").hidden && document.querySelector("#job-text").textContent.startsWith("Going to step")`)
	frames := eval[int](p, `bufferscope.stats().frames`)
	waitJS[bool](p, waitTimeout, "the grid to keep drawing during the seek", fmt.Sprintf(`bufferscope.stats().frames > %d`, frames))
	p.click("#job-cancel")
	st := waitJS[timeStats](p, waitTimeout, "the seek to stop", `(s => !s.time.job && s)(bufferscope.stats())`)
	if !strings.HasPrefix(st.Time.Message, "Cancelled at step") || st.Step == 0 {
		t.Errorf("after cancel: at step %d, %q", st.Step, st.Time.Message)
	}
	waitJS[bool](p, waitTimeout, "the progress bar to go", `document.querySelector("#job").hidden`)
	if bad := eval[map[string]any](p, `bufferscope.seek(-1)`); bad["ok"] != false || !strings.Contains(fmt.Sprint(bad["error"]), "whole number") {
		t.Errorf("seek(-1) gave %v", bad)
	}
}

// TestLargePoolIsAnnouncedFirst: building a pool of several gigabytes keeps WebAssembly busy
// for a moment, so the page first says over the grid that it is building it, whether the
// reader chose the size in the form or comes back to a lab whose remembered pool is large;
// then the pool is the size asked for and the word is gone.
func TestLargePoolIsAnnouncedFirst(t *testing.T) {
	const size, nbuffers = "20GB", 20 << 30 / 8192
	p := openPage(t, "/?shared_buffers=128MB&play=0")
	eval[bool](p, `(window.announced = [], new MutationObserver(() => {
		const o = document.querySelector("#progress");
		if (!o.hidden) announced.push(document.querySelector("#progress-text").textContent);
	}).observe(document.querySelector("#progress"), {attributes: true, childList: true, subtree: true}), true)`)
	built := func(how string) {
		t.Helper()
		waitJS[bool](p, waitTimeout, how+": the pool to be built and the word to go",
			fmt.Sprintf(`bufferscope.stats().nbuffers === %d && document.querySelector("#progress").hidden`, nbuffers))
		said := eval[[]string](p, `announced.splice(0)`)
		if len(said) == 0 || !strings.Contains(said[len(said)-1], "Building a pool of "+size) {
			t.Errorf("%s: the grid said %q, want \"Building a pool of %s…\"", how, said, size)
		}
	}
	p.choose("#p-shared_buffers", size)
	built("chosen in the form")
	p.click("#lab-drop")
	waitJS[bool](p, waitTimeout, "the drop lab", `bufferscope.stats().lab === "drop"`)
	p.click("#lab-free")
	built("back to free play")
	if st := eval[map[string]any](p, `bufferscope.stats()`); st["lab"] != "free" || st["sharedBuffers"] != size {
		t.Errorf("back in free play: lab %v, shared_buffers %v", st["lab"], st["sharedBuffers"])
	}
}

// TestLeavingALabAbandonsItsJobs leaves the drop lab while its chart is being computed in
// the worker: the job is abandoned, and what the worker still says of it must not reach
// the page that has gone (openPage fails the test on any exception in the console).
func TestLeavingALabAbandonsItsJobs(t *testing.T) {
	p := openPage(t, "/?lab=drop&shared_buffers=4GB&play=0")
	waitJS[bool](p, waitTimeout, "the chart's experiments to be under way",
		`document.querySelector("#curve-progress-text").textContent.startsWith("Experiment ")`)
	p.click("#lab-free")
	waitJS[bool](p, waitTimeout, "free play", `bufferscope.stats().lab === "free"`)
	// The worker answers in order: once the drop lab's chart is computed again, whatever it
	// had to say about the abandoned job has reached the page.
	p.click("#lab-drop")
	waitJS[bool](p, waitTimeout, "the drop lab's chart to be computed again", `document.querySelector("#curve-card")?.dataset.state === "done"`)
}

// TestStepBackLogsWhereItLands: a step back replays the run from step 0 over many frames; the
// event log says once where the run landed, not a step the replay passed through, and writes
// no entry for the replayed steps after it.
func TestStepBackLogsWhereItLands(t *testing.T) {
	const n = 1_000_000
	p := openPage(t, "/?shared_buffers=128MB&seed=5&play=0")
	eval[any](p, fmt.Sprintf(`bufferscope.seek(%d)`, n))
	still(p, n)
	p.click("#step-back")
	still(p, n-1)
	p.waitFrames(5, 300*time.Millisecond) // the log hears a notification after the landing
	entries := eval[[]string](p, `[...document.querySelectorAll("#event-log li")].map((li) => li.textContent)`)
	want := "Went back to step 999,999."
	if len(entries) == 0 || entries[0] != want {
		t.Fatalf("the event log's newest entry is %q, want %q; log: %q", first(entries), want, entries)
	}
	for _, e := range entries[1:] {
		if strings.HasPrefix(e, "Went back") {
			t.Errorf("the event log has %q beside %q: a step the replay passed through was logged", e, want)
		}
	}
}

func first(s []string) string {
	if len(s) == 0 {
		return ""
	}
	return s[0]
}
