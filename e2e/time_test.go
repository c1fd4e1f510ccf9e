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

// TestLargePoolIsBuiltOverFrames: a pool of several gigabytes is built a slice each frame,
// in every lab: the run in force stays drawn under a band that says what is being built,
// with its progress and Cancel, and the page keeps drawing and answering meanwhile. Cancel
// leaves the run in force and the form showing its values; a second try builds the pool,
// the band goes and the form shows the new size. Coming back to a lab whose remembered
// pool is large builds it again the same way.
func TestLargePoolIsBuiltOverFrames(t *testing.T) {
	const size, nbuffers = "20GB", 20 << 30 / 8192
	for _, name := range []string{"free", "drop", "ring", "pins"} {
		t.Run(name, func(t *testing.T) {
			p := openPage(t, "/?lab="+name+"&shared_buffers=128MB&play=0")
			small := eval[float64](p, `bufferscope.stats().nbuffers`)
			// Frames drawn and labels shown while the build is under way. Armed (cancelAt),
			// the same frame loop presses Cancel in the first frame that shows the build's
			// progress and notes the buffers in force then: a build takes only a few frames
			// on a fast machine, too few to be sure that a click sent from here would land
			// before it ends.
			count := func() {
				eval[bool](p, `(window.during = {frames: 0, said: []}, (function count() {
					const j = bufferscope.stats().time.job, cancel = document.querySelector("#progress-cancel");
					if (j && j.kind === "build") {
						during.frames++;
						if (!document.querySelector("#progress").hidden) during.said.push(document.querySelector("#progress-text").textContent);
						if (window.cancelAt === null && j.done > 0 && !cancel.hidden) {
							window.cancelAt = bufferscope.stats().nbuffers;
							cancel.click();
						}
					}
					requestAnimationFrame(count);
				})(), true)`)
			}
			// cancelled arms the loop, lets start begin a build and waits for the loop to
			// have pressed Cancel; it returns the buffers in force when it did.
			cancelled := func(what string, start func()) float64 {
				t.Helper()
				eval[bool](p, `(window.cancelAt = null, true)`)
				start()
				return waitJS[float64](p, waitTimeout, what+": the build to show its progress and Cancel to be pressed",
					`window.cancelAt !== null && window.cancelAt`)
			}
			count()
			if got := cancelled("chosen in the form", func() { p.choose("#p-shared_buffers", size) }); got != small {
				t.Errorf("while building, the run in force has %v buffers, want the %v it had", got, small)
			}
			waitJS[bool](p, waitTimeout, "Cancel to stop the build and take the band away",
				`!bufferscope.stats().time.job && document.querySelector("#progress").hidden`)
			if got, form := eval[float64](p, `bufferscope.stats().nbuffers`), eval[string](p, `document.querySelector("#p-shared_buffers").value`); got != small || form != "128MB" {
				t.Errorf("after Cancel: %v buffers, the form says %q; want %v and 128MB", got, form, small)
			}
			if msg := eval[string](p, `document.querySelector("#time-status").textContent`); !strings.HasPrefix(msg, "Cancelled building the pool of "+size) {
				t.Errorf("after Cancel the page says %q", msg)
			}

			p.choose("#p-shared_buffers", size)
			built := func(how string) {
				t.Helper()
				waitJS[bool](p, 2*time.Minute, how+": the pool to be built and the band to go",
					fmt.Sprintf(`bufferscope.stats().nbuffers === %d && !bufferscope.stats().time.job && document.querySelector("#progress").hidden`, nbuffers))
				d := eval[map[string]any](p, `(d => (window.during = {frames: 0, said: []}, d))(during)`)
				frames, _ := d["frames"].(float64)
				said, _ := d["said"].([]any)
				// A frame that saw the build under way shows that it went on across frames: a
				// build done in one task would start and end between two frames. How many
				// frames it spans is the machine's speed (one on a fast one), so that is not asked.
				if frames < 1 {
					t.Errorf("%s: no frame was drawn while the pool was built; the page stood still", how)
				}
				if len(said) == 0 || !strings.HasPrefix(fmt.Sprint(said[len(said)-1]), "Building a pool of "+size+": ") {
					t.Errorf("%s: the band said %q, want \"Building a pool of %s: …\"", how, said, size)
				}
				if form := eval[string](p, `document.querySelector("#p-shared_buffers").value`); form != size {
					t.Errorf("%s: the form says %q, want %s", how, form, size)
				}
			}
			built("chosen in the form")
			if name != "free" {
				return
			}
			// Leaving the large pool for the drop lab's small one may start the simulator again
			// to give the memory back (a reload): free play keeps its 20GB either way.
			toDrop := func() {
				p.click("#lab-drop")
				p.waitAcrossReload(waitTimeout, "the drop lab", `document.body.dataset.ready === "1" && !document.body.dataset.restarting && bufferscope.stats().lab === "drop"`)
				count()
			}
			toDrop()
			p.click("#lab-free")
			built("back to free play")
			// Cancelled there, the lab stays at its defaults, which stood in while it was built.
			toDrop()
			cancelled("back to free play", func() { p.click("#lab-free") })
			waitJS[bool](p, waitTimeout, "Cancel to leave free play at its defaults",
				`!bufferscope.stats().time.job && bufferscope.stats().sharedBuffers === "128MB" && document.querySelector("#p-shared_buffers").value === "128MB" && document.querySelector("#progress").hidden`)
		})
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

// TestMemoryComesBack: after a 100GB pool, a return to a small one starts the simulator
// again (WebAssembly memory never shrinks, a new Go program in a new memory gives it back):
// the page reloads at its address, with the small pool, and the lab left before keeps its
// settings.
func TestMemoryComesBack(t *testing.T) {
	p := openPage(t, "/?lab=ring&shared_buffers=256MB&play=0")
	p.click("#lab-free")
	waitJS[bool](p, waitTimeout, "free play", `bufferscope.stats().lab === "free"`)
	eval[any](p, `(bufferscope.load({...bufferscope.params().params, shared_buffers: "100GB"}), 0)`)
	waitJS[bool](p, 3*time.Minute, "the 100GB pool", `bufferscope.stats().nbuffers === 13107200 && !bufferscope.stats().time.job`)
	eval[any](p, `(window.before = true, 0)`)
	p.choose("#p-shared_buffers", "128MB")
	p.waitAcrossReload(loadTimeout, "the page to start again at 128MB",
		`document.body.dataset.ready === "1" && !document.body.dataset.restarting && bufferscope.stats().nbuffers === 16384`)
	if eval[bool](p, `Boolean(window.before)`) {
		t.Error("the page kept the memory of the 100GB pool: it did not start the simulator again")
	}
	if got := eval[string](p, `location.search`); !strings.Contains(got, "shared_buffers=128MB") {
		t.Errorf("the address after the restart is %q", got)
	}
	p.click("#lab-ring")
	waitJS[bool](p, waitTimeout, "the ring lab", `bufferscope.stats().lab === "ring"`)
	if got := eval[string](p, `bufferscope.stats().sharedBuffers`); got != "256MB" {
		t.Errorf("the ring lab left at 256MB is at %s after the restart", got)
	}
}
