//go:build !js

package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/bufferscope/bufferscope/sim/labs"
	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// These tests give the pages hostile and broken input on every path — the address of the
// page and of the embed, the JS bridge, a host page's messages — and hold them to one
// standard: the page runs with safe values, says what it refused (naming the key, the
// value cut short, and what is accepted), never throws, opens no dialog, and inserts
// nothing it was given as markup. The payloads try to run window.__pwned = 1.

// xss are markup and script payloads, one for each kind of value they are put in.
const (
	xssImg    = `<img src=x onerror=window.__pwned=1>`
	xssSVG    = `<svg/onload=window.__pwned=1>`
	xssScript = `<script>window.__pwned=1</script>`
	xssURL    = `javascript:window.__pwned=1`
)

// injectedJS lists what a payload would have left in the page: the flag it sets, and any
// element with an on… attribute, an image of x, an SVG with onload, an inline script, a
// frame with srcdoc or a javascript: link. The pages' own markup has none of these.
const injectedJS = `(() => {
	const out = [];
	if (window.__pwned !== undefined) out.push("window.__pwned is " + window.__pwned);
	for (const e of document.querySelectorAll("*")) {
		const on = [...e.attributes].filter((a) => /^on/i.test(a.name));
		if (on.length) out.push("<" + e.tagName.toLowerCase() + "> has " + on.map((a) => a.name).join(", "));
	}
	for (const e of document.querySelectorAll('img[src="x"], svg[onload], script:not([src]), iframe[srcdoc], a[href^="javascript:" i]')) {
		out.push(e.outerHTML.slice(0, 120));
	}
	return out;
})()`

// watchDialogs records every JavaScript dialog (alert, confirm, prompt) the tab opens, and
// dismisses it so the page goes on.
func watchDialogs(p *page) func() []string {
	var mu sync.Mutex
	var seen []string
	events := chromedp.Events(p.ctx, cdppage.JavascriptDialogOpening)
	go func() {
		for ev, err := range events {
			if err != nil {
				return
			}
			mu.Lock()
			seen = append(seen, fmt.Sprintf("%s %q", ev.Type, ev.Message))
			mu.Unlock()
			chromedp.Call(p.ctx, cdppage.HandleJavaScriptDialog, cdppage.HandleJavaScriptDialogParams{Accept: false})
		}
	}()
	return func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), seen...)
	}
}

// labField is what the tests read of a lab in bufferscope.labs().
type labField struct {
	Name   string `json:"name"`
	Params []struct {
		Key     string `json:"key"`
		Default string `json:"default"`
	} `json:"params"`
}

func (l labField) def(key string) string {
	for _, p := range l.Params {
		if p.Key == key {
			return p.Default
		}
	}
	return ""
}

// hostileAddress is one address to open and what the page must make of it.
type hostileAddress struct {
	path string
	say  []string          // each is part of a message in the error panel
	use  map[string]string // parameters in force afterwards (bufferscope.params())
	lab  string            // the lab shown
	at   map[string]string // other stats(): speedParam, step
}

// allLabs are the labs with their page parameters (sim/labs, as bufferscope.labs() lists
// them), known before a page opens: each test opens its first hostile address directly.
var allLabs = func() []labField {
	var out []labField
	for _, l := range labs.All {
		f := labField{Name: l.Info().Name}
		for _, p := range l.Params().Fields() {
			f.Params = append(f.Params, struct {
				Key     string `json:"key"`
				Default string `json:"default"`
			}{p.Key, p.Default})
		}
		out = append(out, f)
	}
	return out
}

// TestHostileAddresses opens, for every lab, an address with a script payload or a broken
// value in every kind of key, then addresses with a 100 kB value, duplicate keys, a cut-off
// escape and invisible characters, all in one tab: each page runs with the safe values, its
// error panel names each key and value, short, and nothing was injected.
func TestHostileAddresses(t *testing.T) {
	labs := allLabs()
	q := url.QueryEscape
	long := strings.Repeat("9", 100_000)
	var cases []hostileAddress
	for _, l := range labs {
		cases = append(cases, hostileAddress{
			path: "/?lab=" + l.Name + "&shared_buffers=" + q(xssImg) + "&step=1e30&speed=" + q(xssSVG) + "&tour=" + q(xssScript) +
				"&exercise=" + q(xssURL) + "&exseed=-1&play=" + q("<b>x</b>") + "&" + q("<i>k</i>") + "=1",
			say: []string{
				`shared_buffers "` + xssImg + `": not a size from 128kB to 100GB`,
				`step "1e30" is not a whole number from 0 to 1,099,511,627,776; starting at step 0`,
				`speed "` + xssSVG + `" is not a number of steps per second from 0.01 to`,
				`tour "` + xssScript + `"`,
				`exercise "` + xssURL + `" was ignored`,
				`exseed "-1"`,
				`play "<b>x</b>" is not 0 (open paused) or 1 (play); playing`,
				`"<i>k</i>" is not a setting of`,
			},
			use: map[string]string{"shared_buffers": l.def("shared_buffers")},
			lab: l.Name,
			at:  map[string]string{"step": "0"},
		})
	}
	cases = append(cases, hostileAddress{
		path: "/?lab=" + q(xssImg) + "&shared_buffers=" + long,
		say: []string{
			`lab "` + xssImg + `" is not a lab of this page`,
			`shared_buffers "` + strings.Repeat("9", 64) + `…" (100,000 characters): not a size from 128kB to 100GB`,
		},
		use: map[string]string{"shared_buffers": labs[0].def("shared_buffers")},
		lab: labs[0].Name,
	}, hostileAddress{
		// Duplicates, a value cut off inside an escape, invisible and right-to-left characters.
		path: "/?lab=" + labs[1].Name + "&lab=" + labs[0].Name + "&shared_buffers=" + q(xssImg) + "&shared_buffers=1MB&step=%E2%8&%E2%80%AE%E2%80%8B=1",
		say: []string{
			`"lab" is given 2 times; using the last, "` + labs[0].Name + `"`,
			`"shared_buffers" is given 2 times; using the last, "1MB"`,
			"step \"\ufffd%8\" is not a whole number",
			`"\u202e\u200b" is not a setting of`,
		},
		use: map[string]string{"shared_buffers": "1MB"},
		lab: labs[0].Name,
	})
	checkAddresses(t, cases)
}

// TestHostileEmbedAddresses opens the embed, for every lab, with a script payload in its
// own key origin=, in a parameter, a speed out of range and the main page's keys it does
// not read.
func TestHostileEmbedAddresses(t *testing.T) {
	q := url.QueryEscape
	var cases []hostileAddress
	for _, l := range allLabs() {
		cases = append(cases, hostileAddress{
			path: "/embed.html?lab=" + l.Name + "&origin=" + q(xssImg) + "&shared_buffers=" + q(xssSVG) + "&speed=1e-300&step=5&tour=" + q(xssScript),
			say: []string{
				`origin "` + xssImg + `" is not an http or https address, so no page may drive this embed`,
				`shared_buffers "` + xssSVG + `": not a size from 128kB to 100GB`,
				`speed "1e-300" is not a number of steps per second from 0.01 to`,
				`step "5" is a setting of the full page; the embed ignored it`,
				`tour "` + xssScript + `" is a setting of the full page`,
			},
			use: map[string]string{"shared_buffers": l.def("shared_buffers")},
			lab: l.Name,
			at:  map[string]string{"speedParam": "0.01", "step": "0"},
		})
	}
	checkAddresses(t, cases)
}

// checkAddresses opens each case's address in one tab and checks what the page made of it.
func checkAddresses(t *testing.T, cases []hostileAddress) {
	t.Helper()
	p := openPage(t, cases[0].path)
	dialogs := watchDialogs(p)
	for i, c := range cases {
		show := c.path
		if len(show) > 120 {
			show = show[:120] + "…"
		}
		if i > 0 {
			p.load(c.path)
		}
		type seen struct {
			Panel    []string          `json:"panel"`
			Params   map[string]string `json:"params"`
			Lab      string            `json:"lab"`
			Step     json.Number       `json:"step"`
			Speed    string            `json:"speedParam"`
			Frames   int               `json:"frames"`
			Injected []string          `json:"injected"`
		}
		s := eval[seen](p, `(() => {
			const st = bufferscope.stats();
			return {panel: document.getElementById("error-panel").hidden ? [] : [...document.querySelectorAll("#error-list li")].map((li) => li.textContent),
				params: bufferscope.params().params, lab: st.lab, step: st.step, speedParam: st.speedParam, frames: st.frames, injected: `+injectedJS+`};
		})()`)
		for _, want := range c.say {
			if !containsAny(s.Panel, want) {
				t.Errorf("%s: no message in the error panel says %s; it lists:\n\t%s", show, want, strings.Join(s.Panel, "\n\t"))
			}
		}
		for _, m := range s.Panel {
			if len(m) > 400 {
				t.Errorf("%s: a message of %d characters: %.200s…", show, len(m), m)
			}
		}
		if s.Lab != c.lab {
			t.Errorf("%s: the page shows lab %q, want %q", show, s.Lab, c.lab)
		}
		for k, want := range c.use {
			if s.Params[k] != want {
				t.Errorf("%s: the run has %s=%q, want the safe %q", show, k, s.Params[k], want)
			}
		}
		got := map[string]string{"step": s.Step.String(), "speedParam": s.Speed}
		for k, want := range c.at {
			if got[k] != want {
				t.Errorf("%s: stats().%s = %q, want %q", show, k, got[k], want)
			}
		}
		if len(s.Injected) > 0 || s.Frames < 1 {
			t.Errorf("%s: injected %v; frames drawn %d", show, s.Injected, s.Frames)
		}
		if r := eval[map[string]any](p, `bufferscope.step(2)`); r["ok"] != true {
			t.Errorf("%s: the run does not step: %v", show, r)
		}
	}
	if d := dialogs(); len(d) > 0 {
		t.Errorf("the pages opened dialogs: %v", d)
	}
}

// containsAny reports whether one of ss contains sub.
func containsAny(ss []string, sub string) bool {
	for _, s := range ss {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

// hostileCall is one bridge call and a part of what it must return (as JSON).
type hostileCall struct{ expr, want string }

// TestHostileBridgeCalls calls the JS bridge with arguments of every wrong kind: objects
// whose getters throw, Proxies that throw on every trap, BigInts, symbols, functions,
// NaN, huge counts, 100 kB strings. Each call returns a plain value, never throws, and
// says what it refused, short; the page keeps running.
func TestHostileBridgeCalls(t *testing.T) {
	p := openPage(t, "/?play=0&shared_buffers=1MB")
	const throwing = `new Proxy({}, {ownKeys() { throw new Error("ownKeys trap"); }, get() { throw new Error("get trap"); }, has() { throw new Error("has trap"); }, getOwnPropertyDescriptor() { throw new Error("gopd trap"); }, getPrototypeOf() { throw new Error("proto trap"); }})`
	calls := []hostileCall{
		{`bufferscope.load({get shared_buffers() { throw new Error("getter") }})`, `could not read its argument: reading \"shared_buffers\" threw \"getter\"; nothing changed`},
		{`bufferscope.load(` + throwing + `)`, `listing its keys threw \"ownKeys trap\"`},
		{`bufferscope.load(new Proxy({shared_buffers: "2MB"}, {get() { throw new Error("get trap") }}))`, `reading \"shared_buffers\" threw \"get trap\"`},
		{`bufferscope.load({shared_buffers: {toString() { throw new Error("toString") }}})`, `shared_buffers is an object, not a string, a number or a boolean; using `},
		{`bufferscope.load({shared_buffers: Symbol("s")})`, `shared_buffers is a symbol, not a string`},
		{`bufferscope.load({shared_buffers: 10n})`, `shared_buffers \"10\": not between 128kB and 100GB`},
		{`bufferscope.load({lab: {}, shared_buffers: () => 1})`, `lab is an object, not a string, a number or a boolean; using `},
		{`bufferscope.load(10n)`, `load takes an object such as`},
		{`bufferscope.load({["k".repeat(1e5)]: 1})`, `(100,000 characters) is not a parameter of the`},
		{`bufferscope.load(Object.fromEntries(Array.from({length: 1000}, (_, i) => ["k" + i, 1])))`, `it has 1000 keys, more than 256`},
		{`bufferscope.load({shared_buffers: "1MB"})`, `"ok":true`},
		{`bufferscope.step(1e18)`, `step takes a whole number of steps from 0 to 1,000,000, not 1000000000000000000`},
		{`bufferscope.step(10n)`, `not 10n`},
		{`bufferscope.step({valueOf() { throw new Error("valueOf") }})`, `not an object`},
		{`bufferscope.step(function secret() { return "source" })`, `not a function`},
		{`bufferscope.step("9".repeat(1e5))`, `(100,000 characters)`},
		{`bufferscope.step(NaN)`, `not NaN`},
		{`bufferscope.seek(2 ** 60)`, `a whole number from 0 to 1,099,511,627,776, not 1152921504606847000`},
		{`bufferscope.seek(10n)`, `not 10n`},
		{`bufferscope.seek(Symbol())`, `not a symbol`},
		{`bufferscope.pgBuffercache(0, 1e12)`, `returns 1 to 262,144 rows at a time, not 1000000000000`},
		{`bufferscope.pgBuffercache(10n)`, `not 10n`},
		{`bufferscope.pgBuffercache(-1)`, `not -1`},
		{`bufferscope.setSpeed(1e-300)`, `speed 1e-300 is not a number of steps per second from 0.01 to`},
		{`bufferscope.setSpeed(10n)`, `speed 10n is not a number of steps per second`},
		{`bufferscope.setSpeed("x".repeat(1e5))`, `(100,000 characters) is not a number of steps per second`},
		{`bufferscope.setSpeed(` + throwing + `)`, `speed an object is not`},
		{`bufferscope.setSeed(2n ** 60n)`, `"seed":"1152921504606846976"`},
		{`bufferscope.setSeed(Symbol())`, `seed a symbol: setSeed takes a whole number`},
		{`bufferscope.setSeed(-1)`, `seed -1: not a whole number from 0 to 2^53`},
		{`bufferscope.apply("x".repeat(1e5))`, `a command is one line of at most 1000 characters`},
		{`bufferscope.apply(Symbol())`, `not a symbol`},
		{`bufferscope.stats({get hash() { throw new Error("hash") }})`, `"step":`},
		{`bufferscope.stats(10n)`, `"step":`},
		{`bufferscope.subscribe(10n)`, `subscribe takes a function`},
		{`bufferscope.unsubscribe(10n)`, `"ok":false`},
		{`bufferscope.swatch({get role() { throw new Error("role") }})`, `swatch could not read its argument: reading \"role\" threw \"role\"`},
		{`bufferscope.swatch(` + throwing + `)`, `reading \"usage\" threw \"get trap\"`},
		{`bufferscope.swatch({mark: Symbol()})`, `not a symbol`},
		{`bufferscope.swatch({role: Symbol()})`, `swatch's role is an index or a key of legend().roles, not a symbol`},
		{`bufferscope.setTheme(Symbol())`, `setTheme takes \"light\" or \"dark\", not a symbol; the theme stays light`},
		{`bufferscope.setTheme({toString() { throw new Error("theme") }})`, `not an object`},
		{`bufferscope.setReducedMotion(10n)`, `"reducedMotion":true`},
		{`bufferscope.setReducedMotion(false)`, `"reducedMotion":false`},
		{`bufferscope.nextEvent(10n)`, `nextEvent takes the kind or label of an event`},
		{`bufferscope.nextEvent("x".repeat(1e5))`, `(100,000 characters) is not an event of the`},
		{`bufferscope.buffer(10n)`, `null`},
		{`bufferscope.highlight(10n)`, `"buffer":-1`},
		{`bufferscope.zoom(10n)`, `zoom takes a number of steps`},
		{`bufferscope.pan(10n, 1)`, `pan takes two numbers`},
		{`bufferscope.inspect(10n, 10n)`, `null`},
		{`bufferscope.cellAt(Symbol(), 1)`, `null`},
	}
	for _, c := range calls {
		got := eval[string](p, `(() => {
			let r;
			try { r = `+c.expr+`; } catch (e) { return "THREW " + e; }
			if (r instanceof Promise) return "A PROMISE";
			return JSON.stringify(r, (k, v) => (v instanceof Uint8ClampedArray ? "pixels" : v));
		})()`)
		show := c.expr
		if len(show) > 90 {
			show = show[:90] + "…"
		}
		if !strings.Contains(got, c.want) {
			t.Errorf("%s returned %.300s; want it to say %s", show, got, c.want)
		}
		var r struct {
			Error    string   `json:"error"`
			Warnings []string `json:"warnings"`
		}
		json.Unmarshal([]byte(got), &r)
		for _, m := range append(r.Warnings, r.Error) {
			if len(m) > 400 {
				t.Errorf("%s: a message of %d characters: %.200s…", show, len(m), m)
			}
		}
	}
	// A subscriber that is a Proxy throwing on every read is called like any function.
	id := eval[float64](p, `window.heard = 0; bufferscope.subscribe(new Proxy(() => { window.heard++; }, {get() { throw new Error("get trap"); }}))`)
	if params := eval[map[string]string](p, `bufferscope.params().params`); params["shared_buffers"] != "1MB" {
		t.Errorf("after the calls the run has shared_buffers %q, want the 1MB loaded last", params["shared_buffers"])
	}
	// The page keeps running: it plays, steps and draws.
	st := p.stats()
	eval[any](p, `bufferscope.setSpeed(1000), bufferscope.play()`)
	waitJS[bool](p, waitTimeout, "the run to play and draw after the calls",
		fmt.Sprintf(`(s => s.playing && s.step > %d && s.frames > %d && window.heard > 1)(bufferscope.stats())`, st.Step+10, st.Frames))
	eval[any](p, fmt.Sprintf(`bufferscope.pause(), bufferscope.unsubscribe(%v)`, id))
}

// TestHostileMessages posts malformed and hostile messages to the embed from the example
// host page: each is ignored with a warning that says what was wrong, a reply {ok: false}
// goes only to a request with a usable id, nothing is acted on, and no prototype is
// polluted. Well-formed requests with hostile values are answered with warnings and safe
// values.
func TestHostileMessages(t *testing.T) {
	p := openPage(t, "/embed-host.html?shared_buffers=1MB")
	eval[any](p, `(() => { window.got = []; addEventListener("message", (e) => { if (e.data && e.data.type === "reply") got.push({origin: e.origin, fromEmbed: e.source === `+frameJS+`, data: e.data}); }); })()`)
	type msgCase struct {
		msg, id, warn, reply string // reply: part of the reply's error or warnings, "" for no reply
	}
	long := `"x".repeat(1e5)`
	cases := []msgCase{
		{`{bufferscope: 1, type: "set", params: {shared_buffers: {}}, id: "m1"}`, "m1", `set: parameter "shared_buffers" must be a string, a finite number or a boolean, not an object`, `not an object`},
		{`{bufferscope: 1, type: "set", params: Object.fromEntries(Array.from({length: 500}, (_, i) => ["k" + i, "1"])), id: "m2"}`, "m2", `"params" may name at most 64 parameters, not 500`, `at most 64`},
		{`{bufferscope: 1, type: "set", params: {[` + long + `]: 1}, id: "m3"}`, "m3", "", `(100,000 characters) is not a setting of`},
		{`{bufferscope: 1, type: "step", n: 1e18, id: "m4"}`, "m4", `step: "n" must be a whole number from 1 to 1,000,000, not 1000000000000000000`, `not 1000000000000000000`},
		{`{bufferscope: 1, type: "step", n: ` + long + `, id: "m5"}`, "m5", `(100,000 characters)`, `(100,000 characters)`},
		{`{bufferscope: 1, type: "seek", step: -1, id: "m6"}`, "m6", `seek: "step" must be a whole number from 0 to 1,099,511,627,776, not -1`, `not -1`},
		{`{bufferscope: 1, type: "constructor", id: "m7"}`, "m7", `"type" is the string "constructor"; a host may send`, `a host may send`},
		{`{bufferscope: 1, type: "__proto__", id: "m8"}`, "m8", `"type" is the string "__proto__"`, `a host may send`},
		{`{bufferscope: 1, type: "play", id: "i".repeat(300)}`, "", `"id" must be a string of at most 256 characters or a finite number, not the string`, ""},
		{`{bufferscope: 1, type: "play", id: {}}`, "", `"id" must be a string of at most 256 characters or a finite number, not an object`, ""},
		{`{bufferscope: "1", type: "play", id: "m9"}`, "", `"bufferscope" is the string "1"; this embed speaks version 1`, ""},
		{`JSON.parse('{"bufferscope": 1, "type": "get", "id": "m10", "__proto__": {"type": "play", "polluted": 1}}')`, "m10", "", ""},
		{`{bufferscope: 1, type: "set", params: JSON.parse('{"__proto__": {"polluted": 1}}'), id: "m11"}`, "m11", `parameter "__proto__" must be a string`, `parameter \"__proto__\"`},
		{`{bufferscope: 1, type: "set", params: JSON.parse('{"__proto__": "1GB", "constructor": "1GB"}'), id: "m12"}`, "m12", "", `\"__proto__\" is not a setting of`},
		{`{bufferscope: 1, type: "set", params: {shared_buffers: "` + xssImg + `", speed: "` + xssSVG + `"}, id: "m13"}`, "m13", "",
			`shared_buffers \"` + xssImg + `\": not a size from 128kB to 100GB`},
		{`{bufferscope: 1, type: "set", params: {lab: "` + xssScript + `"}, id: "m14"}`, "m14", "", `lab \"` + xssScript + `\" is not a lab of this page`},
		{long, "", `the message is the string "` + strings.Repeat("x", 64) + `…" (100,000 characters), not an object`, ""},
		{`undefined`, "", `the message is undefined, not an object`, ""},
		{`{bufferscope: 1, type: "get", id: "m15", pad: "x".repeat(2e7)}`, "m15", "", ""},
	}
	for _, c := range cases {
		eval[any](p, frameJS+`.postMessage(`+c.msg+`, "*")`)
	}
	// The requests run in order: a last get answers once all before it have.
	eval[any](p, frameJS+`.postMessage({bufferscope: 1, type: "get", id: "last"}, "*")`)
	waitJS[bool](p, waitTimeout, "the reply to the last request", `got.some((g) => g.data.id === "last")`)
	p.console.sync(p.ctx)
	type reply struct {
		Origin    string `json:"origin"`
		FromEmbed bool   `json:"fromEmbed"`
		Data      struct {
			ID       any      `json:"id"`
			OK       bool     `json:"ok"`
			Error    string   `json:"error"`
			Warnings []string `json:"warnings"`
		} `json:"data"`
	}
	replies := eval[[]reply](p, `got`)
	byID := map[string]reply{}
	for _, r := range replies {
		id, _ := r.Data.ID.(string)
		if !r.FromEmbed || r.Origin+"/" != suite.baseURL {
			t.Errorf("a reply %v came from %s (from the embed: %v)", r.Data.ID, r.Origin, r.FromEmbed)
		}
		byID[id] = r
	}
	for _, c := range cases {
		show := c.msg
		if len(show) > 90 {
			show = show[:90] + "…"
		}
		if c.warn != "" && !p.console.has("warning", "bufferscope embed: ignored a message from", c.warn) {
			t.Errorf("%s: no console warning says %s", show, c.warn)
		}
		r, ok := byID[c.id]
		switch {
		case c.id == "" && ok:
			t.Errorf("%s: a reply to a message without a usable id", show)
		case c.id != "" && !ok:
			t.Errorf("%s: no reply", show)
		case c.reply != "":
			all := r.Data.Error + " " + strings.Join(r.Data.Warnings, " ")
			if !strings.Contains(all, strings.ReplaceAll(c.reply, `\"`, `"`)) || len(all) > 2000 {
				t.Errorf("%s: the reply says %.300s; want %s", show, all, c.reply)
			}
		}
	}
	if len(byID) != len(replies) {
		t.Errorf("%d replies for %d ids: one request was answered twice", len(replies), len(byID))
	}
	// Nothing was acted on: the embed is where it was, no prototype gained a key.
	type state struct {
		Step     float64 `json:"step"`
		Playing  bool    `json:"playing"`
		Lab      string  `json:"lab"`
		Polluted []any   `json:"polluted"`
	}
	s := eval[state](p, `(() => { const w = `+frameJS+`, st = w.bufferscope.stats();
		return {step: st.step, playing: st.playing, lab: st.lab, polluted: [({}).polluted, w.Object.prototype.polluted, w.Object.prototype.type].filter((x) => x !== undefined)}; })()`)
	if s.Step != 0 || s.Playing || len(s.Polluted) > 0 {
		t.Errorf("after the messages the embed is at step %v, playing %v, prototypes polluted %v", s.Step, s.Playing, s.Polluted)
	}
	if inj := eval[[]string](p, `(() => { const d = `+frameJS+`.document; return [...d.querySelectorAll('img[src="x"], svg[onload], script:not([src])')].map((e) => e.outerHTML.slice(0, 80)); })()`); len(inj) > 0 {
		t.Errorf("the embed holds injected elements: %v", inj)
	}
}

// TestHostileMessagesReplyToSender: a page of another origin frames the embed beside two
// frames of its own, one sandboxed (origin "null") and one not, which send requests. Each
// sender gets its replies, malformed or not, and the page that frames the embed gets only
// the events: a reply goes to the window that asked, never to another.
func TestHostileMessagesReplyToSender(t *testing.T) {
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
	p.do(loadTimeout, "loading "+other, chromedp.Navigate(other+"/no-such-page")) // a page with no policy of its own
	// Each sender asks for the state (get) and sends a malformed step, both with ids, and
	// passes whatever it receives to the top page, marked with its name.
	sender := func(name string) string {
		return fmt.Sprintf(`<script>
			addEventListener("message", (e) => parent.postMessage({relay: %[1]q, data: e.data}, "*"));
			setTimeout(() => {
				parent.frames[0].postMessage({bufferscope: 1, type: "get", id: %[1]q + "-get"}, "*");
				parent.frames[0].postMessage({bufferscope: 1, type: "step", n: "many", id: %[1]q + "-bad"}, "*");
			}, 0);
		</script>`, name)
	}
	eval[any](p, fmt.Sprintf(`(() => {
		window.direct = []; window.relayed = [];
		addEventListener("message", (e) => (e.data && e.data.relay ? relayed : direct).push(e.data));
		const embed = document.createElement("iframe");
		embed.src = %q; embed.width = 400; embed.height = 300;
		document.body.append(embed);
	})()`, site+"/embed.html?shared_buffers=1MB"))
	// The senders' requests load the simulator: the embed has only shown its still.
	waitJS[bool](p, loadTimeout, "the embed's still event", `direct.some((m) => m.type === "still")`)
	eval[any](p, fmt.Sprintf(`(() => {
		for (const [name, sandbox, html] of [["sandboxed", "allow-scripts", %q], ["sibling", "", %q]]) {
			const f = document.createElement("iframe");
			if (sandbox) f.sandbox = sandbox;
			f.srcdoc = html;
			document.body.append(f);
		}
	})()`, sender("sandboxed"), sender("sibling")))
	waitJS[bool](p, loadTimeout, "each sender's two replies", `["sandboxed", "sibling"].every((n) => relayed.filter((r) => r.relay === n && r.data.type === "reply").length === 2)`)
	type msg struct {
		Relay string `json:"relay"`
		Data  struct {
			Type string `json:"type"`
			ID   string `json:"id"`
			OK   bool   `json:"ok"`
		} `json:"data"`
		Type string `json:"type"`
		ID   string `json:"id"`
	}
	relayed := eval[[]msg](p, `relayed`)
	for _, r := range relayed {
		if r.Data.Type == "reply" && !strings.HasPrefix(r.Data.ID, r.Relay+"-") {
			t.Errorf("the %s frame received the reply meant for %s", r.Relay, r.Data.ID)
		}
		if r.Data.Type == "reply" && r.Data.OK != strings.HasSuffix(r.Data.ID, "-get") {
			t.Errorf("the reply to %s says ok %v", r.Data.ID, r.Data.OK)
		}
		if r.Data.Type != "reply" {
			t.Errorf("the %s frame, not the embed's parent, received a %s event", r.Relay, r.Data.Type)
		}
	}
	for _, m := range eval[[]msg](p, `direct`) {
		if m.Type == "reply" {
			t.Errorf("the page that frames the embed received the reply to %s, which it did not send", m.ID)
		}
	}
}
