//go:build !js

package e2e

import (
	"fmt"
	"math"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// These tests hold the page to issue 11's accessibility and layout points, for every lab the
// page offers (bufferscope.labs()): the play bar on screen at common window sizes, the text
// event log and its polite announcements, keyboard-only use, and axe-core's verdict.

// labNames returns the names of the labs the page offers, in order.
func labNames(p *page) []string {
	p.t.Helper()
	names := eval[[]string](p, `bufferscope.labs().map(l => l.name)`)
	if len(names) == 0 {
		p.fatalf("bufferscope.labs() lists no lab")
	}
	return names
}

// TestPlayBarOnScreen opens every lab at laptop, desktop and phone window sizes and checks
// that the play button is wholly inside the window, without scrolling; on a phone the grid
// comes before the counters and settings. Each lab loads at the first size and is then
// resized to the others (the page fits its stage the same way on load and on resize), to
// keep the suite's page loads few.
func TestPlayBarOnScreen(t *testing.T) {
	first := openPage(t, "/?play=0")
	names := labNames(first)
	sizes := []struct{ w, h int64 }{{1024, 768}, {1280, 800}, {1920, 1080}, {390, 844}}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			p := openPageSized(t, "/?play=0&lab="+name, sizes[0].w, sizes[0].h)
			for i, sz := range sizes {
				if i > 0 {
					p.do(waitTimeout, "resizing", chromedp.EmulateViewport(sz.w, sz.h))
				}
				p.waitFrames(3, 0) // the stage is fitted in an animation frame
				got := eval[struct {
					Play     rect
					ScrollY  float64
					W, H     float64
					GridTop  float64
					PanelTop float64
				}](p, `(() => {
					const r = document.getElementById("play").getBoundingClientRect();
					return {Play: {X: r.x, Y: r.y, W: r.width, H: r.height}, ScrollY: scrollY,
						W: innerWidth, H: innerHeight,
						GridTop: document.getElementById("grid").getBoundingClientRect().top,
						PanelTop: document.getElementById("controls").getBoundingClientRect().top};
				})()`)
				b := got.Play
				if got.ScrollY != 0 || b.W == 0 || b.X < 0 || b.Y < 0 || b.X+b.W > got.W || b.Y+b.H > got.H {
					t.Errorf("at %dx%d the play button is at %+v in a %vx%v viewport scrolled by %v: not wholly on screen",
						sz.w, sz.h, b, got.W, got.H, got.ScrollY)
				}
				if sz.w < 600 && got.GridTop > got.PanelTop {
					t.Errorf("on a phone the grid (top %v) comes after the panel of counters and settings (top %v)", got.GridTop, got.PanelTop)
				}
			}
		})
	}
}

// entryCount reads how many events of one kind a log sentence tells: "12 evictions",
// "1 eviction" or, for a kind without a plural, "hint lost × 12".
func entryCount(sentence, label, plural string) int {
	q := regexp.QuoteMeta
	pats := []string{`(?:^|[^\d,])(1) ` + q(label) + `\b`, q(label) + ` × ([\d,]+)`}
	if plural != "" {
		pats = append(pats, `([\d,]+) `+q(plural)+`\b`)
	}
	for _, pat := range pats {
		if m := regexp.MustCompile(pat).FindStringSubmatch(sentence); m != nil {
			n, _ := strconv.Atoi(strings.ReplaceAll(m[1], ",", ""))
			return n
		}
	}
	return 0
}

// TestEventLog steps every lab and checks that the event log tells, in words, exactly as
// many events of each kind as the run counted, that it keeps a bounded number of entries,
// and that the live region tells a summary. The inspector's details are not a live region:
// only choosing a buffer is announced, not every step that changes it.
func TestEventLog(t *testing.T) {
	first := openPage(t, "/?play=0")
	names := labNames(first)
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			p := openPage(t, "/?play=0&lab="+name)
			type spec struct{ Kind, Label, Plural string }
			specs := eval[[]spec](p, `bufferscope.labs().find(l => l.name === bufferscope.stats().lab).events`)
			// Step in bites, each followed by the notification it causes, so the paused log
			// writes one entry per bite: large bites until the first events (a large pool
			// fills for a while), then twelve small ones.
			run(p, time.Minute, "stepping", chromedp.Evaluate[chromedp.Void](`(async () => {
				const total = () => Object.values(bufferscope.stats().events).reduce((a, b) => a + b, 0);
				for (let i = 0, small = 0; small < 12 && i < 60 && !bufferscope.stats().done; i++) {
					const some = total() > 0;
					if (some) small++;
					bufferscope.step(some || i < 5 ? 100 : 50000);
					await new Promise(r => setTimeout(r, 20));
				}
			})()`, chromedp.EvalAwaitPromise))
			st := eval[struct {
				Events map[string]int
			}](p, `bufferscope.stats()`)
			entries := waitJS[[]string](p, waitTimeout, "the log's entries", `(() => {
				const e = [...document.querySelectorAll("#event-log li")].map(li => li.textContent);
				return e.length ? e : null;
			})()`)
			if len(entries) > 30 {
				t.Errorf("the event log keeps %d entries; it should keep at most 30", len(entries))
			}
			total := 0
			for _, e := range specs {
				total += st.Events[e.Kind]
			}
			if total == 0 {
				t.Fatalf("1,000s of steps of %s gave none of its events of interest %v: stats().events = %v", name, specs, st.Events)
			}
			// When the log kept every entry, its sentences add up to the counts.
			if len(entries) < 30 {
				for _, e := range specs {
					sum := 0
					for _, s := range entries {
						sum += entryCount(s, e.Label, e.Plural)
					}
					if sum != st.Events[e.Kind] {
						t.Errorf("the log's entries tell %d × %q, the run counted %d:\n%s", sum, e.Label, st.Events[e.Kind], strings.Join(entries, "\n"))
					}
				}
			}
			live := waitJS[string](p, 5*time.Second, "an announcement", `document.getElementById("event-live").textContent || null`)
			if !strings.Contains(live, "step") && !strings.Contains(live, "seconds") {
				t.Errorf("the live region says %q: no summary", live)
			}
		})
	}

	t.Run("inspector", func(t *testing.T) {
		p := openPage(t, "/?play=0&shared_buffers=1MB")
		if live := eval[string](p, `document.getElementById("inspector").getAttribute("aria-live") || ""`); live != "" {
			t.Errorf("#inspector is a live region (aria-live=%q): its details change with every step", live)
		}
		p.step(500)
		p.choose("#inspect-buffer", "3")
		said := waitJS[string](p, waitTimeout, "the inspector's announcement", `document.getElementById("inspector-live").textContent || null`)
		if !strings.HasPrefix(said, "Buffer 3:") {
			t.Errorf("choosing buffer 3 announced %q", said)
		}
		changes := eval[int](p, `new Promise(done => {
			let n = 0;
			const o = new MutationObserver(() => n++);
			o.observe(document.getElementById("inspector-live"), {childList: true, characterData: true, subtree: true});
			(async () => {
				for (let i = 0; i < 10; i++) { bufferscope.step(100); await new Promise(r => setTimeout(r, 50)); }
				o.disconnect();
				done(n);
			})();
		})`)
		if changes != 0 {
			t.Errorf("stepping the run changed the inspector's live region %d times; only the reader's choice should", changes)
		}
	})
}

// TestAnnouncementsArePaced plays free play fast and records every change of the events'
// live region: two announcements are never less than two seconds apart, however many
// notifications arrive.
func TestAnnouncementsArePaced(t *testing.T) {
	p := openPage(t, "/?play=0&shared_buffers=1MB&speed=max")
	times := eval[[]float64](p, `new Promise(done => {
		const at = [];
		const live = document.getElementById("event-live");
		const o = new MutationObserver(() => at.push(performance.now()));
		o.observe(live, {childList: true, characterData: true, subtree: true});
		bufferscope.play();
		setTimeout(() => { bufferscope.pause(); o.disconnect(); done(at); }, 7000);
	})`)
	if len(times) < 2 {
		t.Fatalf("7 s of play at max speed changed the live region %d times; want a summary every 2 s", len(times))
	}
	for i := 1; i < len(times); i++ {
		if gap := times[i] - times[i-1]; gap < 1990 {
			t.Errorf("announcements %d and %d came %.0f ms apart; at most one every 2 s", i-1, i, gap)
		}
	}
}

// activeID returns the id (or tag) of the focused element.
func activeID(p *page) string {
	p.t.Helper()
	return eval[string](p, `(e => e ? (e.id || e.className || e.tagName) : "")(document.activeElement)`)
}

// key presses one key in the tab, as the keyboard does.
func (p *page) key(k string) {
	p.t.Helper()
	p.do(waitTimeout, fmt.Sprintf("pressing %q", k), chromedp.KeyEvent(k))
}

// TestKeyboardOnly uses the page with the keyboard alone: the first Tab reaches the skip
// link; Tab reaches Play, Enter plays, Space pauses; S steps; ] speeds up; ? opens the
// shortcuts dialog, which keeps focus and lists every shortcut, and Esc closes it and gives
// focus back; G goes to the settings, where the arrow keys change a setting and the run and
// the address follow.
func TestKeyboardOnly(t *testing.T) {
	p := openPage(t, "/?play=0&shared_buffers=1MB")
	p.key(kb.Tab)
	if id := activeID(p); id != "skip" && !strings.Contains(id, "skip") {
		t.Fatalf("the first Tab focused %q, not the skip link", id)
	}
	for i := 0; i < 80 && activeID(p) != "play"; i++ {
		p.key(kb.Tab)
	}
	if activeID(p) != "play" {
		t.Fatalf("80 Tabs never reached the play button")
	}
	p.key(kb.Enter)
	waitJS[bool](p, waitTimeout, "playing after Enter on Play", `bufferscope.stats().playing`)
	p.key(" ")
	waitJS[bool](p, waitTimeout, "paused after Space on Pause", `!bufferscope.stats().playing`)
	before := p.stats().Step
	p.key("s")
	if st := p.stats(); st.Step != before+1 {
		t.Errorf("S stepped from %d to %d; want one step", before, st.Step)
	}
	speed := eval[string](p, `bufferscope.stats().speedParam`)
	p.key("]")
	if got := eval[string](p, `bufferscope.stats().speedParam`); got == speed {
		t.Errorf("] left the speed at %s", got)
	} else if !strings.Contains(eval[string](p, `location.search`), "speed="+got) {
		t.Errorf("] set speed %s but the address is %s", got, eval[string](p, `location.search`))
	}

	p.key("?")
	open := waitJS[bool](p, waitTimeout, "the shortcuts dialog", `document.getElementById("keys-dialog").open`)
	if !open {
		t.Fatal("? did not open the dialog")
	}
	rows := eval[int](p, `document.querySelectorAll("#keys-list tr").length`)
	if rows < 10 {
		t.Errorf("the dialog lists %d shortcuts", rows)
	}
	for i := 0; i < 3; i++ {
		p.key(kb.Tab)
		if in := eval[bool](p, `document.getElementById("keys-dialog").contains(document.activeElement)`); !in {
			t.Errorf("Tab %d moved focus out of the open dialog, to %q", i+1, activeID(p))
		}
	}
	step := p.stats().Step
	p.key("s") // shortcuts rest while the dialog is open
	if st := p.stats(); st.Step != step {
		t.Errorf("S stepped the run while the dialog was open")
	}
	p.key(kb.Escape)
	waitJS[bool](p, waitTimeout, "the dialog to close", `!document.getElementById("keys-dialog").open`)
	if id := activeID(p); id != "play" {
		t.Errorf("closing the dialog left focus on %q, not on the play button it came from", id)
	}

	p.key("g")
	field := eval[string](p, `(e => e && e.closest("#settings") ? (e.id || e.name) : "")(document.activeElement)`)
	if field == "" {
		t.Fatalf("G focused %q, not a setting", activeID(p))
	}
	search := eval[string](p, `location.search`)
	p.key(kb.ArrowDown)
	p.key(kb.Tab) // a number field commits on leaving it
	after := waitJS[string](p, waitTimeout, "the address to follow the setting", fmt.Sprintf(`location.search !== %q ? location.search : null`, search))
	t.Logf("%s changed by keys: %s → %s", field, search, after)

	// Every button has a name a screen reader can say.
	unnamed := eval[[]string](p, `[...document.querySelectorAll("button")].filter(b => !(b.getAttribute("aria-label") || b.textContent.trim() || b.getAttribute("aria-labelledby"))).map(b => b.id || b.outerHTML.slice(0, 80))`)
	if len(unnamed) > 0 {
		t.Errorf("buttons without a name: %v", unnamed)
	}
}

// TestPresenterMode turns presenter mode on with its key and off with Esc: the type grows,
// the button says so, and the play button stays on screen.
func TestPresenterMode(t *testing.T) {
	p := openPage(t, "/?play=0")
	size := eval[float64](p, `parseFloat(getComputedStyle(document.documentElement).fontSize)`)
	p.key("p")
	on := waitJS[bool](p, waitTimeout, "presenter mode", `document.documentElement.classList.contains("presenter")`)
	if !on {
		t.Fatal("P did not turn presenter mode on")
	}
	p.waitFrames(2, 0)
	if big := eval[float64](p, `parseFloat(getComputedStyle(document.documentElement).fontSize)`); big < size*1.25 {
		t.Errorf("presenter mode's type is %vpx, the page's %vpx: not large", big, size)
	}
	if pressed := eval[string](p, `document.getElementById("present").getAttribute("aria-pressed")`); pressed != "true" {
		t.Errorf("the Present button is not pressed (%s) in presenter mode", pressed)
	}
	b := p.elementRect("#play")
	if b.Y+b.H > float64(viewportH) {
		t.Errorf("in presenter mode the play button is at %+v, below the %d px window", b, viewportH)
	}
	p.key(kb.Escape)
	waitJS[bool](p, waitTimeout, "presenter mode off", `!document.documentElement.classList.contains("presenter")`)
}

// TestCrossOriginIsolated checks that the page is cross-origin isolated (COOP and COEP in
// netlify.toml), so the drop lab's measurement gets a fine clock, and that the simulator
// and the experiment worker still load under it.
func TestCrossOriginIsolated(t *testing.T) {
	if os.Getenv(urlVar) != "" {
		t.Skip("the headers of a site served elsewhere are its host's")
	}
	p := openPage(t, "/?play=0")
	if !eval[bool](p, `crossOriginIsolated`) {
		t.Errorf("the page is not cross-origin isolated: crossOriginIsolated is false")
	}
}

// TestLongValueStaysInPanel opens the page with a very long value in the address: the
// error panel, the settings and the terminal command wrap it instead of widening the page.
func TestLongValueStaysInPanel(t *testing.T) {
	long := strings.Repeat("9", 400)
	p := openPage(t, "/?play=0&seed="+long+"&shared_buffers="+long)
	waitJS[bool](p, waitTimeout, "the error panel", `!document.getElementById("error-panel").hidden`)
	wide := eval[[]string](p, `[...document.querySelectorAll(".card, .error-panel, #controls, main, body")]
		.filter(e => e.scrollWidth > e.clientWidth + 1)
		.map(e => (e.id || e.className || e.tagName) + ": " + e.scrollWidth + " > " + e.clientWidth)`)
	if len(wide) > 0 {
		t.Errorf("a long value overflows: %v", wide)
	}
	if w := eval[float64](p, `document.documentElement.scrollWidth - innerWidth`); w > 0 {
		t.Errorf("a long value makes the page %v px wider than the window", w)
	}
}

// drawnJS measures the pool as the grid draws it: the pixels its cells cover, and the
// grid's box, from bufferscope.view().
const drawnJS = `(() => {
	const v = bufferscope.view();
	const side = (n) => v.block > 1 ? Math.ceil(n / v.block) : n * v.cell;
	return {W: side(v.cols), H: side(v.rows), CanvasH: v.height, Need: bufferscope.fitHeight(v.width, v.height)};
})()`

// drawn is the pool as drawn: W×H pixels of cells on a canvas CanvasH high, which needs Need
// (the rulers, the rows and any lane under them).
type drawn struct{ W, H, CanvasH, Need float64 }

// TestGridFillsItsBox: the grid is no taller than the pool drawn in it needs (rulers, rows
// and a lab's lane; app.FitHeight, tested natively), in every lab at 1280×800; and presenter
// mode draws the pool larger than the page does, not smaller.
func TestGridFillsItsBox(t *testing.T) {
	p := openPageSized(t, "/?play=0", 1280, 800)
	for _, lab := range labNames(p) {
		p.load("/?play=0&lab=" + lab)
		p.waitFrames(3, 200*time.Millisecond)
		d := eval[drawn](p, drawnJS)
		if blank := d.CanvasH - d.Need; blank > 2 {
			t.Errorf("%s: the grid is %.0f px high and the pool drawn in it (%.0f px of cells) needs %.0f: %.0f px blank", lab, d.CanvasH, d.H, d.Need, blank)
		}
	}
	p.load("/?play=0")
	p.waitFrames(3, 200*time.Millisecond)
	page := eval[drawn](p, drawnJS)
	p.key("p")
	waitJS[bool](p, waitTimeout, "presenter mode", `document.documentElement.classList.contains("presenter")`)
	p.waitFrames(5, 300*time.Millisecond)
	shown := eval[drawn](p, drawnJS)
	if shown.W*shown.H <= page.W*page.H {
		t.Errorf("presenter mode draws the pool %.0f×%.0f px, the page %.0f×%.0f: not larger", shown.W, shown.H, page.W, page.H)
	}
	p.key(kb.Escape)
}

// TestFieldsFollowTheTheme: in the dark theme every field of every lab's form (text, number,
// choice) is drawn like the others, on the theme's surface in its text colour, not as the
// browser's grey box.
func TestFieldsFollowTheTheme(t *testing.T) {
	p := openPage(t, "/?play=0")
	p.click("#theme")
	waitJS[bool](p, waitTimeout, "the dark theme", `document.documentElement.dataset.theme === "dark"`)
	for _, lab := range labNames(p) {
		p.click("#lab-" + lab)
		waitJS[bool](p, waitTimeout, "the lab "+lab, fmt.Sprintf(`bufferscope.stats().lab === %q`, lab))
		odd := eval[[]string](p, `(() => {
			const fields = [...document.querySelectorAll("#settings-fields input:not([type=range]):not([type=radio]):not([type=checkbox]), #settings-fields select")];
			const ref = getComputedStyle(document.querySelector("#settings-fields select"));
			return fields.filter((f) => {
				const s = getComputedStyle(f);
				return s.backgroundColor !== ref.backgroundColor || s.color !== ref.color || s.borderTopColor !== ref.borderTopColor;
			}).map((f) => f.id + " (" + f.type + "): " + getComputedStyle(f).backgroundColor);
		})()`)
		if len(odd) > 0 {
			t.Errorf("%s: in the dark theme these fields are not drawn like the form's choices: %v", lab, odd)
		}
	}
}

// TestPhoneOpensWithTheIntroAndPlayBar: on a phone (390×844) every lab opens with its
// introduction under the tabs (its first lines, the rest a tap away), the canvas and the play
// bar on the first screen, and the step count on the line of its timeline.
func TestPhoneOpensWithTheIntroAndPlayBar(t *testing.T) {
	p := openPageSized(t, "/?play=0", 390, 844)
	for _, lab := range labNames(p) {
		p.load("/?play=0&lab=" + lab)
		got := eval[struct {
			Intro, Grid, Play, Step, Timeline rect
			More                              bool
		}](p, `(() => {
			const r = (sel) => (b => ({X: b.x, Y: b.y + scrollY, W: b.width, H: b.height}))(document.querySelector(sel).getBoundingClientRect());
			return {Intro: r("#lab-intro"), Grid: r("#grid"), Play: r("#play"), Step: r("#step-label"), Timeline: r("#timeline"),
				More: getComputedStyle(document.querySelector("#intro-more")).display !== "none"};
		})()`)
		if got.Intro.Y > got.Grid.Y || got.Intro.Y > 300 {
			t.Errorf("%s: the introduction starts at y=%.0f, the grid at y=%.0f; want the introduction near the top, above the grid", lab, got.Intro.Y, got.Grid.Y)
		}
		if got.Play.Y+got.Play.H > 844 {
			t.Errorf("%s: the play button ends at y=%.0f, below the phone's first screen", lab, got.Play.Y+got.Play.H)
		}
		if math.Abs((got.Step.Y+got.Step.H/2)-(got.Timeline.Y+got.Timeline.H/2)) > 12 {
			t.Errorf("%s: the step count (y=%.0f) is not on the line of its timeline (y=%.0f)", lab, got.Step.Y, got.Timeline.Y)
		}
		if got.Intro.H > 140 && !got.More {
			t.Errorf("%s: a %.0f px introduction with no way to fold or unfold it", lab, got.Intro.H)
		}
	}
	p.click("#intro-more")
	if open := eval[bool](p, `document.querySelector("#lab-intro").classList.contains("open") && document.querySelector("#intro-more").getAttribute("aria-expanded") === "true"`); !open {
		t.Error("More about this lab did not unfold the introduction")
	}
}

// ungroupedJS lists the numbers of five digits or more the page shows without digit groups
// ("16384" where the page writes "16,384" elsewhere), with the text around each, leaving out
// what is not a quantity: fields the reader types in, code, hashes and LSNs, and versions.
const ungroupedJS = `(() => {
	const skip = "input, textarea, select, code, pre, script, style, [hidden], .visually-hidden";
	const out = [];
	const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
	for (let n = walk.nextNode(); n; n = walk.nextNode()) {
		const el = n.parentElement;
		if (!el || el.closest(skip) || !el.getClientRects().length) continue;
		for (const m of n.data.matchAll(/(?<![\w.\/#:,-])\d{5,}(?![\w\/:])/g)) {
			out.push((el.id ? "#" + el.id : el.tagName.toLowerCase()) + ": …" + n.data.slice(Math.max(0, m.index - 30), m.index + m[0].length + 10).trim() + "…");
		}
	}
	return out;
})()`

// TestNumbersAreGrouped: after a second or two of play at full speed, every lab writes its
// numbers of five digits or more with digit groups, in its counters, notes, summaries and
// legends alike (format.js), not "16384" beside "16,384".
func TestNumbersAreGrouped(t *testing.T) {
	p := openPage(t, "/?play=0")
	// The scan finds what it looks for: a probe written without groups is reported.
	probe := eval[[]string](p, `(() => {
		const e = document.createElement("p");
		e.textContent = "1638400 descriptors, LSN 0/16384000, 1,638,400 buffers";
		document.querySelector("main").append(e);
		const found = `+ungroupedJS+`;
		e.remove();
		return found;
	})()`)
	if len(probe) != 1 || !strings.Contains(probe[0], "1638400 descr") {
		t.Fatalf("the scan for ungrouped numbers found %q in a probe with one", probe)
	}
	for _, lab := range labNames(p) {
		p.load("/?play=0&shared_buffers=128MB&lab=" + lab)
		eval[any](p, `bufferscope.setSpeed("max")`)
		p.click("#play")
		time.Sleep(1500 * time.Millisecond)
		p.click("#play")
		p.waitFrames(3, 200*time.Millisecond)
		if bad := eval[[]string](p, ungroupedJS); len(bad) > 0 {
			t.Errorf("%s: numbers without digit groups:\n  %s", lab, strings.Join(bad, "\n  "))
		}
	}
}
