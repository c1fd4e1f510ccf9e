//go:build !js

package e2e

import (
	"context"
	"fmt"
	"net/http"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bufferscope/bufferscope/sim/labs"
	"github.com/chromedp/chromedp"
)

// These tests drive the embed page (site/embed.html) as a host page does: the example host
// page (site/embed-host.html) frames it at 700×450 and sends it the postMessage requests of
// docs/embed.md. What the embed answers is held against the full page's bridge run with the
// same parameters.

// frameJS is the embed's window, seen from the host page (same origin in the tests).
const frameJS = `document.getElementById("embed").contentWindow`

// embedReply is the embed's reply to a request, as far as the tests read it.
type embedReply struct {
	Type     string            `json:"type"`
	ID       string            `json:"id"`
	Request  string            `json:"request"`
	OK       bool              `json:"ok"`
	Error    string            `json:"error"`
	Warnings []string          `json:"warnings"`
	Lab      string            `json:"lab"`
	Params   map[string]string `json:"params"`
	Step     uint64            `json:"step"`
	Playing  bool              `json:"playing"`
	Counters map[string]any    `json:"counters"`
}

// send sends a request through the host page's embedHost.send and returns the reply.
func send(p *page, request string) embedReply {
	p.t.Helper()
	r := eval[embedReply](p, fmt.Sprintf(`embedHost.send(%s)`, request))
	if r.Type != "reply" || r.ID == "" {
		p.fatalf("embedHost.send(%s) resolved with %+v, not a reply with the request's id", request, r)
	}
	return r
}

// fullPageCounters opens the full page with query, paused, runs steps through its bridge
// and returns stats().counters.
func fullPageCounters(t *testing.T, query string, steps int) map[string]any {
	t.Helper()
	p := openPage(t, "/?"+query+"&play=0")
	if steps > 0 {
		p.step(steps)
	}
	return eval[map[string]any](p, `bufferscope.stats().counters`)
}

// sameCounters fails the test for every counter that differs between got and want.
func sameCounters(t *testing.T, what string, got, want map[string]any) {
	t.Helper()
	if len(want) == 0 {
		t.Fatalf("%s: the full page reported no counters", what)
	}
	keys := make([]string, 0, len(want))
	for k := range want {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if !reflect.DeepEqual(got[k], want[k]) {
			t.Errorf("%s: counter %s = %v, the full page's bridge says %v", what, k, got[k], want[k])
		}
	}
	for k := range got {
		if _, ok := want[k]; !ok {
			t.Errorf("%s: counter %s, which the full page does not have", what, k)
		}
	}
}

// TestEmbedDrivenByHost: the host page frames the embed at 700×450; the embed fits it with
// Play in view, does not play or take the focus by itself, and does what the host's
// messages ask: set a parameter, step, play, pause, seek. Its counters are the full page's
// for the same parameters and steps, and a malformed message is ignored with a warning.
func TestEmbedDrivenByHost(t *testing.T) {
	const query = "shared_buffers=1MB&seed=42"
	p := openPage(t, "/embed-host.html?"+query)

	// The frame: 700×450, the grid and Play in view, nothing to scroll.
	type box struct {
		InnerW, InnerH, ScrollW, ScrollH float64
		Play, Canvas, Link               rect
	}
	b := eval[box](p, `(() => {
		const w = `+frameJS+`, d = w.document;
		const r = (e) => { const b = e.getBoundingClientRect(); return {X: b.x, Y: b.y, W: b.width, H: b.height}; };
		return {InnerW: w.innerWidth, InnerH: w.innerHeight, ScrollW: d.documentElement.scrollWidth, ScrollH: d.documentElement.scrollHeight,
			Play: r(d.getElementById("play")), Canvas: r(d.querySelector("#grid canvas")), Link: r(d.getElementById("embed-open"))};
	})()`)
	if b.InnerW != 700 || b.InnerH != 450 {
		t.Fatalf("the host page frames the embed at %g×%g, want 700×450", b.InnerW, b.InnerH)
	}
	if b.ScrollW > b.InnerW || b.ScrollH > b.InnerH {
		t.Errorf("the embed's content is %g×%g in a %g×%g frame: it scrolls", b.ScrollW, b.ScrollH, b.InnerW, b.InnerH)
	}
	inFrame := func(name string, r rect) {
		if r.W <= 0 || r.H <= 0 || r.X < 0 || r.Y < 0 || r.X+r.W > b.InnerW || r.Y+r.H > b.InnerH {
			t.Errorf("%s is at %+v, not wholly inside the %g×%g frame", name, r, b.InnerW, b.InnerH)
		}
	}
	inFrame("Play", b.Play)
	inFrame("the grid", b.Canvas)
	inFrame(`"Open in the full playground"`, b.Link)
	if b.Canvas.H < 200 || b.Canvas.W < 350 {
		t.Errorf("the grid is %g×%g in the 700×450 frame; want at least 350×200", b.Canvas.W, b.Canvas.H)
	}

	// Smaller and larger frames keep Play and the grid in view too (docs/embed.md: from
	// 320×240 up).
	for _, size := range [][2]int{{320, 240}, {480, 320}, {960, 600}, {700, 450}} {
		sb := eval[box](p, fmt.Sprintf(`new Promise((done) => {
			const f = document.getElementById("embed");
			f.style.maxWidth = "none"; // the host page fits the frame in its column
			f.width = %d; f.height = %d;
			const w = f.contentWindow, d = w.document;
			const r = (e) => { const b = e.getBoundingClientRect(); return {X: b.x, Y: b.y, W: b.width, H: b.height}; };
			const measure = () => (w.innerWidth === %[1]d && w.innerHeight === %[2]d)
				? done({InnerW: w.innerWidth, InnerH: w.innerHeight, ScrollW: d.documentElement.scrollWidth, ScrollH: d.documentElement.scrollHeight,
					Play: r(d.getElementById("play")), Canvas: r(d.querySelector("#grid canvas")), Link: r(d.getElementById("embed-open"))})
				: w.requestAnimationFrame(measure);
			w.requestAnimationFrame(() => w.requestAnimationFrame(measure));
		})`, size[0], size[1]))
		for name, r := range map[string]rect{"Play": sb.Play, "the grid": sb.Canvas} {
			if r.W <= 0 || r.H <= 0 || r.X < 0 || r.Y < 0 || r.X+r.W > sb.InnerW || r.Y+r.H > sb.InnerH {
				t.Errorf("in a %d×%d frame %s is at %+v, not wholly inside it", size[0], size[1], name, r)
			}
		}
		if sb.ScrollW > sb.InnerW || sb.ScrollH > sb.InnerH {
			t.Errorf("in a %d×%d frame the embed's content is %g×%g: it scrolls", size[0], size[1], sb.ScrollW, sb.ScrollH)
		}
	}

	// No autoplay, no focus taken.
	st := eval[stats](p, frameJS+`.bufferscope.stats()`)
	if st.Playing || st.Step != 0 {
		t.Errorf("the embed opened playing=%v at step %d; it must wait for the reader or the host", st.Playing, st.Step)
	}
	if focus := eval[string](p, `document.activeElement.tagName + " " + `+frameJS+`.document.hasFocus()`); focus != "BODY false" {
		t.Errorf("after loading, the host page's focus is on %q (active element, embed has focus); the embed must not take it", focus)
	}
	// Keys go to the host page until the reader clicks into the embed; then the embed's
	// shortcuts work ("." runs one step).
	p.do(waitTimeout, "pressing Space and . on the host page", chromedp.KeyEvent(" "), chromedp.KeyEvent("."))
	if s := eval[stats](p, frameJS+`.bufferscope.stats()`); s.Playing || s.Step != 0 {
		t.Errorf("keys pressed on the host page reached the embed: it is at step %d, playing %v", s.Step, s.Playing)
	}
	frameAt := p.elementRect("#embed")
	x, y := b.Canvas.centre()
	p.do(waitTimeout, "clicking the embed's grid", chromedp.MouseClickXY(frameAt.X+x, frameAt.Y+y))
	waitJS[bool](p, waitTimeout, "the embed to have the focus", frameJS+`.document.hasFocus()`)
	p.do(waitTimeout, "pressing . in the embed", chromedp.KeyEvent("."))
	waitJS[bool](p, waitTimeout, "the embed's step shortcut", frameJS+`.bufferscope.stats().step === 1`)

	ready := eval[embedReply](p, `embedHost.events.find((e) => e.type === "ready")`)
	if ready.Lab == "" || ready.Params["shared_buffers"] != "1MB" || ready.Params["seed"] != "42" {
		t.Errorf("the ready event says lab %q, params %v; want the address's shared_buffers=1MB, seed=42", ready.Lab, ready.Params)
	}

	// Set a parameter: the run is rebuilt with it, the open link carries it.
	r := send(p, `{type: "set", params: {seed: 7}}`)
	if !r.OK || r.Params["seed"] != "7" || r.Params["shared_buffers"] != "1MB" || r.Step != 0 {
		t.Fatalf("set seed=7 replied %+v; want ok, seed 7, shared_buffers still 1MB, step 0", r)
	}
	href := eval[string](p, frameJS+`.document.getElementById("embed-open").getAttribute("href")`)
	if !strings.Contains(href, "seed=7") || !strings.Contains(href, "shared_buffers=1MB") {
		t.Errorf(`"Open in the full playground" links to %q; want the embed's settings, seed=7 and shared_buffers=1MB`, href)
	}

	// Step: the reply's counters, and the counters event after it, are the full page's.
	const steps = 300
	r = send(p, fmt.Sprintf(`{type: "step", n: %d}`, steps))
	if !r.OK || r.Step != steps || r.Playing {
		t.Fatalf("step n=%d replied %+v; want ok at step %d, paused", steps, r, steps)
	}
	want := fullPageCounters(t, "shared_buffers=1MB&seed=7", steps)
	sameCounters(t, fmt.Sprintf("the reply to step n=%d", steps), r.Counters, want)
	ev := waitJS[embedReply](p, waitTimeout, "a counters event at the step", fmt.Sprintf(`embedHost.events.findLast((e) => e.type === "counters" && e.step === %d)`, steps))
	sameCounters(t, fmt.Sprintf("the counters event at step %d", steps), ev.Counters, want)

	// One step with the host page's button.
	p.click("#host-step")
	waitJS[bool](p, waitTimeout, "the step button's reply", fmt.Sprintf(`embedHost.events.some((e) => e.type === "reply" && e.request === "step" && e.step === %d)`, steps+1))

	// Play and pause with the host page's buttons: events say so, and counters arrive.
	p.click("#host-play")
	waitJS[bool](p, waitTimeout, "a state event: playing", `embedHost.events.some((e) => e.type === "state" && e.playing)`)
	waitJS[bool](p, waitTimeout, "counters while playing", fmt.Sprintf(`embedHost.events.some((e) => e.type === "counters" && e.playing && e.step > %d)`, steps+1))
	p.click("#host-pause")
	waitJS[bool](p, waitTimeout, "a state event: paused", `(() => { const s = embedHost.events.findLast((e) => e.type === "state"); return s && !s.playing; })()`)
	final := waitJS[uint64](p, waitTimeout, "the last counters event at the paused step",
		`(() => { const c = embedHost.events.findLast((e) => e.type === "counters"); const s = `+frameJS+`.bufferscope.stats(); return !s.playing && c && c.step === s.step && c.step; })()`)
	if st := p.stepText("#host-status-step"); st != fmt.Sprint(final) {
		t.Errorf("the host page shows step %s, the embed is at step %d", st, final)
	}

	// Seek back: the state at the step is the full page's.
	const back = 120
	r = send(p, fmt.Sprintf(`{type: "seek", step: %d}`, back))
	if !r.OK || r.Step != back {
		t.Fatalf("seek step=%d replied %+v; want ok at step %d", back, r, back)
	}
	sameCounters(t, fmt.Sprintf("the reply to seek step=%d", back), r.Counters, fullPageCounters(t, "shared_buffers=1MB&seed=7", back))

	// Malformed messages: ignored, each with a warning that says what was wrong.
	p.click("#host-bad") // {bufferscope: 1, type: "step", n: "many"}
	eval[any](p, frameJS+`.postMessage({bufferscope: 2, type: "play"}, "*")`)
	eval[any](p, frameJS+`.postMessage("play", "*")`)
	eval[any](p, frameJS+`.postMessage({bufferscope: 1, type: "fly"}, "*")`)
	bad := send(p, `{type: "seek"}`)
	if bad.OK || !strings.Contains(bad.Error, `"step" is missing`) {
		t.Errorf(`a seek without a step replied %+v; want ok false and an error saying "step" is missing`, bad)
	}
	p.console.sync(p.ctx)
	for _, want := range []string{`"n" must be a whole number from 1 to 1,000,000, not the string "many"`, `"bufferscope" is 2; this embed speaks version 1`,
		`the message is the string "play", not an object`, `"type" is the string "fly"; a host may send`, `seek: "step" is missing`} {
		if !p.console.has("warning", "bufferscope embed: ignored a message from", want) {
			t.Errorf("no console warning says %q; the console:\n%s", want, p.console.String())
		}
	}
	if s := eval[stats](p, frameJS+`.bufferscope.stats()`); s.Playing || s.Step != back {
		t.Errorf("after the malformed messages the embed is at step %d, playing %v; want step %d, paused: they must be ignored", s.Step, s.Playing, back)
	}
}

// TestEmbedEveryLab: the host page switches the embed to each lab in turn with a set
// request and steps it; the counters are the full page's for that lab at that step.
func TestEmbedEveryLab(t *testing.T) {
	const steps = 50
	p := openPage(t, "/embed-host.html")
	labs := eval[[]struct {
		Name string `json:"name"`
	}](p, `embedHost.events.find((e) => e.type === "ready").labs`)
	if len(labs) < 2 {
		t.Fatalf("the ready event lists %d labs", len(labs))
	}
	for _, l := range labs {
		r := send(p, fmt.Sprintf(`{type: "set", params: {lab: %q}}`, l.Name))
		if !r.OK || r.Lab != l.Name || r.Step != 0 {
			t.Fatalf("set lab=%s replied %+v; want ok, lab %s at step 0", l.Name, r, l.Name)
		}
		if title := eval[string](p, frameJS+`.document.getElementById("embed-lab").textContent`); title == "" {
			t.Errorf("lab %s: the embed shows no title", l.Name)
		}
		r = send(p, fmt.Sprintf(`{type: "step", n: %d}`, steps))
		if !r.OK || r.Step != steps {
			t.Fatalf("lab %s: step n=%d replied %+v", l.Name, steps, r)
		}
		sameCounters(t, "lab "+l.Name, r.Counters, fullPageCounters(t, "lab="+l.Name, steps))
	}
	if bad := send(p, `{type: "set", params: {lab: "no-such-lab"}}`); bad.OK || !strings.Contains(bad.Error, `lab "no-such-lab" is not a lab of this page`) {
		t.Errorf("set lab=no-such-lab replied %+v; want ok false, saying it is not a lab", bad)
	}
}

// TestEmbedOrigin: an embed opened with origin= hears only that page. Framed by the host
// page (127.0.0.1), an embed for another origin ignores its messages with a warning, one
// for the host's own origin answers them, and one with an origin= that is no address says
// so and answers nobody.
func TestEmbedOrigin(t *testing.T) {
	p := openPage(t, "/embed-host.html?shared_buffers=1MB")
	site := strings.TrimSuffix(suite.baseURL, "/")
	// frame adds an embed opened with origin=origin and waits until it is ready.
	frame := func(origin string) string {
		id := fmt.Sprintf("f%d", eval[int](p, `document.querySelectorAll("iframe").length`))
		eval[any](p, fmt.Sprintf(`(() => {
			const f = document.createElement("iframe");
			f.id = %q; f.width = 700; f.height = 450;
			f.src = "embed.html?shared_buffers=1MB&origin=" + encodeURIComponent(%q);
			document.body.append(f);
		})()`, id, origin))
		// An embed that hears nobody is loaded by its reader: a click in the frame.
		doc := fmt.Sprintf(`document.getElementById(%q).contentDocument`, id)
		waitJS[bool](p, loadTimeout, "the still of the embed with origin="+origin, doc+`?.body?.dataset.still === "1"`)
		eval[any](p, doc+`.querySelector("#still img").dispatchEvent(new PointerEvent("pointerdown", {bubbles: true})), 0`)
		waitJS[bool](p, loadTimeout, "the embed with origin="+origin, doc+`?.body?.dataset.ready === "1"`)
		return fmt.Sprintf(`document.getElementById(%q).contentWindow`, id)
	}
	// ask sends a get request with id to the embed w and returns a promise of its reply.
	ask := func(w, id string) string {
		return fmt.Sprintf(`new Promise((done) => {
			addEventListener("message", (e) => { if (e.data && e.data.id === %q) done(e.data); });
			%s.postMessage({bufferscope: 1, type: "get", id: %[1]q}, "*");
		})`, id, w)
	}

	w := frame(site)
	if r := eval[embedReply](p, ask(w, "mine")); !r.OK || r.Request != "get" || r.Params["shared_buffers"] != "1MB" {
		t.Errorf("the embed for origin=%s replied %+v to its host's get", site, r)
	}

	w = frame("https://docs.example.org/some/page")
	eval[any](p, w+`.postMessage({bufferscope: 1, type: "play", id: "theirs"}, "*")`)
	want := "this embed was opened with origin=https://docs.example.org, so only that page may drive it"
	deadline := time.Now().Add(waitTimeout)
	for !p.console.has("warning", "bufferscope embed: ignored a message from "+site, want) {
		if time.Now().After(deadline) {
			t.Fatalf("no console warning says %q; the console:\n%s", want, p.console.String())
		}
		time.Sleep(pollInterval)
	}
	if eval[bool](p, w+`.bufferscope.stats().playing`) {
		t.Errorf("the embed for another origin played at its host's request")
	}

	w = frame("javascript:alert(1)")
	panel := eval[string](p, w+`.document.getElementById("error-panel").hidden ? "" : `+w+`.document.getElementById("error-list").textContent`)
	if !strings.Contains(panel, `origin "javascript:alert(1)" is not an http or https address, so no page may drive this embed`) {
		t.Errorf("an embed opened with origin=javascript:alert(1) shows %q; want it to say no page may drive it", panel)
	}
}

// TestEmbedSnippet: the main page's Embed dialog writes an iframe of embed.html with the
// page's address at the chosen size, and that address opens the same view in the embed.
func TestEmbedSnippet(t *testing.T) {
	const query = "shared_buffers=1MB&seed=42"
	p := openPage(t, "/?"+query+"&play=0")
	p.click("#embed-button")
	code := waitJS[string](p, waitTimeout, "the snippet", `document.getElementById("embed-dialog").open && document.getElementById("embed-code").value`)
	src := suite.baseURL + "embed.html?" + query
	if !strings.Contains(code, `src="`+strings.ReplaceAll(src, "&", "&amp;")) || !strings.Contains(code, `width="700" height="450"`) {
		t.Errorf("the snippet is %s; want an iframe of %s at 700×450", code, src)
	}
	if strings.Contains(code, "play=") {
		t.Errorf("the snippet %s carries play=, which means nothing to the embed", code)
	}
	// The dialog links the guide to embedding as the site serves it, not a path in the
	// repository.
	guide := eval[struct {
		Href   string
		Status int
		Title  string
	}](p, `(async () => {
		const a = document.querySelector("#embed-dialog a[href]");
		if (!a) return {Href: "", Status: 0, Title: ""};
		const res = await fetch(a.href);
		const doc = new DOMParser().parseFromString(await res.text(), "text/html");
		return {Href: a.getAttribute("href"), Status: res.status, Title: doc.title};
	})()`)
	if guide.Status != 200 || !strings.HasPrefix(guide.Title, "Embedding bufferscope") {
		t.Errorf("the Embed dialog links %q: status %d, title %q; want the guide to embedding", guide.Href, guide.Status, guide.Title)
	}
	// The dialog owns the keys: "." on its Copy button does not step the run behind it.
	eval[any](p, `document.getElementById("embed-copy").focus()`)
	p.do(waitTimeout, "pressing . in the dialog", chromedp.KeyEvent("."))
	if st := p.stats(); st.Step != 0 {
		t.Errorf(`"." pressed in the Embed dialog stepped the run to step %d`, st.Step)
	}
	p.choose("#embed-size", "960x600")
	if code := eval[string](p, `document.getElementById("embed-code").value`); !strings.Contains(code, `width="960" height="600"`) {
		t.Errorf("after choosing 960 × 600 the snippet is %s", code)
	}
	p.choose("#embed-size", "custom")
	p.choose("#embed-width", "5000")
	p.choose("#embed-height", "480")
	code = eval[string](p, `document.getElementById("embed-code").value`)
	note := eval[string](p, `document.getElementById("embed-note").textContent`)
	if !strings.Contains(code, `width="2560" height="480"`) || !strings.Contains(note, "from 320 to 2560; using 2560") {
		t.Errorf("a custom width of 5000 gave the snippet %s and the note %q; want the width clamped to 2560, said so", code, note)
	}
	p.click("#embed-close")

	// The snippet's address opens the embed on the same view.
	p.load("/embed.html?" + query)
	st := eval[struct {
		SharedBuffers string `json:"sharedBuffers"`
		Seed          string `json:"seed"`
		Playing       bool   `json:"playing"`
	}](p, `bufferscope.stats()`)
	if st.SharedBuffers != "1MB" || st.Seed != "42" || st.Playing {
		t.Errorf("the snippet's embed runs shared_buffers %s, seed %s, playing %v; want 1MB, 42, paused", st.SharedBuffers, st.Seed, st.Playing)
	}
	if href := eval[string](p, `document.getElementById("embed-open").getAttribute("href")`); !strings.HasPrefix(href, "./?"+query) {
		t.Errorf(`the embed's "Open in the full playground" links to %q; want ./?%s…`, href, query)
	}
}

// TestEmbedHeaders: the served site lets any site frame embed.html (also as /embed) and
// only itself frame every other page.
func TestEmbedHeaders(t *testing.T) {
	if suite == nil {
		t.Skipf("browser tests are off: run them with %s=1", enableVar)
	}
	client := &http.Client{Timeout: waitTimeout}
	for _, tc := range []struct{ path, want string }{
		{"embed.html", "frame-ancestors *"},
		{"embed", "frame-ancestors *"},
		{"", "frame-ancestors 'self'"},
		{"index.html", "frame-ancestors 'self'"},
		{"embed-host.html", "frame-ancestors 'self'"},
	} {
		res, err := client.Get(suite.baseURL + tc.path)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		csp := res.Header.Get("Content-Security-Policy")
		if res.StatusCode != http.StatusOK || !strings.HasSuffix(csp, "; "+tc.want) {
			t.Errorf("GET /%s: %d, Content-Security-Policy %q; want 200 and %s", tc.path, res.StatusCode, csp, tc.want)
		}
		if x := res.Header.Get("X-Frame-Options"); x != "" {
			t.Errorf("GET /%s: X-Frame-Options %q; frame-ancestors says who may frame a page", tc.path, x)
		}
	}
}

// TestEmbedFramedByAnotherSite: a page of another origin (localhost instead of 127.0.0.1,
// a page with no policy of its own) frames embed.html and drives it, while the browser
// refuses to show index.html in the same place.
func TestEmbedFramedByAnotherSite(t *testing.T) {
	if suite == nil {
		t.Skipf("browser tests are off: run them with %s=1", enableVar)
	}
	site := strings.TrimSuffix(suite.baseURL, "/")
	if !strings.Contains(site, "127.0.0.1") {
		t.Skipf("the site is served at %s; the test needs 127.0.0.1 to make localhost another origin", site)
	}
	other := strings.Replace(site, "127.0.0.1", "localhost", 1)
	limit, stop := context.WithTimeout(suite.browser, testTimeout)
	defer stop()
	ctx, closeTab := chromedp.NewContext(limit)
	defer closeTab()
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("opening a tab: %v", err)
	}
	p := &page{t: t, ctx: ctx}
	p.console.collect(ctx)
	// Any page of the other origin will do: a missing one is a page with no policy. Its
	// console gets the 404s, which this test does not count.
	p.do(loadTimeout, "loading "+other, chromedp.Navigate(other+"/no-such-page"))
	frame := func(path string) {
		eval[any](p, fmt.Sprintf(`(() => {
			window.received = window.received || [];
			if (!window.listening) addEventListener("message", (e) => received.push({origin: e.origin, data: e.data}));
			window.listening = true;
			const f = document.createElement("iframe");
			f.src = %q; f.width = 700; f.height = 450;
			document.body.append(f);
		})()`, site+path))
	}
	blocked := func() bool {
		return p.console.has("error", "Framing '"+site+"/' violates", "frame-ancestors 'self'")
	}

	frame("/embed.html?shared_buffers=1MB&seed=42")
	// The embed shows its still and says so; the host's first request loads the simulator,
	// and is answered once it is ready.
	waitJS[bool](p, loadTimeout, "the embed's still event", fmt.Sprintf(`received.some((m) => m.origin === %q && m.data.type === "still")`, site))
	if blocked() {
		t.Errorf("the browser refused to frame embed.html in a page of another origin:\n%s", p.console.String())
	}
	eval[any](p, fmt.Sprintf(`document.querySelector("iframe").contentWindow.postMessage({bufferscope: 1, type: "step", n: 5, id: "x"}, %q)`, site))
	waitJS[bool](p, loadTimeout, "the embed's ready event", fmt.Sprintf(`received.some((m) => m.origin === %q && m.data.type === "ready")`, site))
	r := waitJS[embedReply](p, waitTimeout, "the reply to a step", `(received.find((m) => m.data.type === "reply" && m.data.id === "x") || {}).data`)
	if !r.OK || r.Step != 5 {
		t.Errorf("the embed framed by another site replied %+v to step n=5; want ok at step 5", r)
	}

	frame("/index.html?play=0")
	deadline := time.Now().Add(loadTimeout)
	for !blocked() {
		if time.Now().After(deadline) {
			t.Fatalf("index.html framed by a page of another origin: the browser did not report blocking it (frame-ancestors 'self') within %v; console:\n%s", loadTimeout, p.console.String())
		}
		time.Sleep(pollInterval)
	}
}

// stepText returns the text of the element matching sel.
func (p *page) stepText(sel string) string {
	p.t.Helper()
	return eval[string](p, fmt.Sprintf(`document.querySelector(%q).textContent`, sel))
}

// has reports whether the log holds a message of type typ (a chromedp console type, such
// as "warning") whose text contains every one of parts.
func (l *consoleLog) has(typ string, parts ...string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, m := range l.msgs {
		if string(m.Type) != typ {
			continue
		}
		all := true
		for _, s := range parts {
			all = all && strings.Contains(m.Text, s)
		}
		if all {
			return true
		}
	}
	return false
}

// TestHostPageHasMargins: the example host page keeps its text off the window's edge at
// every width a reader tries, 700 px (its frame's width) included: the phone layout of the
// playground (its masthead opened into the page's column) is not the host page's.
func TestHostPageHasMargins(t *testing.T) {
	p := openPageSized(t, "/embed-host.html", 700, 900)
	for _, w := range []int64{1280, 1024, 700, 390} {
		p.do(waitTimeout, "resizing", chromedp.EmulateViewport(w, 900))
		flush := eval[[]string](p, `[...document.querySelectorAll("h1, h2, p, label, dt, dd")]
			.filter((e) => e.getClientRects().length && e.getBoundingClientRect().left < 8)
			.map((e) => e.tagName.toLowerCase() + " \"" + e.textContent.trim().slice(0, 40) + "\" at x=" + e.getBoundingClientRect().left.toFixed(0))`)
		if len(flush) > 0 {
			t.Errorf("at %d px these start within 8 px of the window's left edge:\n  %s", w, strings.Join(flush, "\n  "))
		}
	}
}

// TestEmbedStill: an embed opens on a still of its lab, drawn at build time, with the lab's
// title and a Play button, and fetches nothing of the simulator, in each lab, until the
// reader presses Play; then it loads, with progress, and plays. A host page hears a still
// event first.
func TestEmbedStill(t *testing.T) {
	for _, l := range labs.All {
		name, title := l.Info().Name, l.Info().Title
		t.Run(name, func(t *testing.T) {
			p := newTab(t, 700, 450)
			wire := p.countBytes()
			p.navigate("/embed.html?lab=" + name)
			waitJS[bool](p, loadTimeout, "the still", `document.body.dataset.still === "1" && document.querySelector("#still img").complete`)
			type shown struct {
				Title, Alt, Note  string
				Width             int
				Canvas, Progress  bool
				Ready, PlayButton bool
			}
			look := func() shown {
				return eval[shown](p, `(() => {
					const img = document.querySelector("#still img");
					return {Title: document.getElementById("embed-lab").textContent, Alt: img ? img.alt : "", Width: img ? img.naturalWidth : 0,
						Note: (document.getElementById("still-note") || {}).textContent || "",
						Canvas: Boolean(document.querySelector("#grid canvas")), Progress: !document.getElementById("progress").hidden,
						Ready: document.body.dataset.ready === "1", PlayButton: Boolean(document.getElementById("still-play"))};
				})()`)
			}
			s := look()
			if s.Title != title || s.Width == 0 || !strings.Contains(s.Alt, title) || !s.PlayButton || s.Canvas || s.Progress || s.Ready {
				t.Errorf("before Play the embed shows %+v; want the %s lab's title, its still, a Play button, and no simulator", s, title)
			}
			p.waitFrames(10, time.Second) // nothing starts by itself
			if w := wire(); w.WASMGets != 0 || look().Ready {
				t.Fatalf("the embed asked for wasm %d times (ready %v) before its reader played it", w.WASMGets, look().Ready)
			}
			p.click("#still-play")
			waitJS[bool](p, loadTimeout, "the simulator's first frame", `document.body.dataset.ready === "1"`)
			if w := wire(); w.WASMGets == 0 {
				t.Error("the embed played without asking for the wasm")
			}
			st := p.stats()
			if st.Lab != name || !st.Playing {
				t.Errorf("after Play the embed runs lab %s, playing %v; want %s, playing", st.Lab, st.Playing, name)
			}
			if s := look(); s.PlayButton || s.Progress || !s.Canvas || eval[bool](p, `Boolean(document.getElementById("still"))`) {
				t.Errorf("once it plays the embed still shows %+v", s)
			}
		})
	}
}
