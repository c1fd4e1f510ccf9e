//go:build js

package main

import (
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
	"syscall/js"
	"time"

	"github.com/bufferscope/bufferscope/sim/param"
	"github.com/bufferscope/bufferscope/wasm/app"
	"github.com/hajimehoshi/ebiten/v2"
)

// The bridge is the app's one JavaScript API: the global object bufferscope. It converts
// JavaScript arguments to Go values, calls package app, and converts the typed results to
// plain JavaScript values (app.Plain); it never asks which lab is running. Every method
// returns a plain value and never throws: bad arguments give {ok: false, error} or a warning
// and a safe value, with a message that names the argument short (describe) and what is
// accepted. Arguments are read only through args_js.go, so a getter or a Proxy that throws,
// a BigInt or a symbol is an argument like another, never an exception through Go. A Go
// panic inside a call is a bug: it is recovered, returned as {ok: false, error} and reported
// as a crash (crash_js.go), as one in Ebiten's Update or Draw is; after a crash the
// simulator has stopped, and only the methods that read (stats, labs, params, view, legend,
// inspect, the exports…) still answer; the others return {ok: false, error} saying so.
//
//	bufferscope.version                 "0.1.0"
//	bufferscope.labs()                  [{name, title, summary, command, params: [Field…], counters: [Counter…],
//	                                      events: [{kind, label, plural, doc}]}]: every lab, static (sim/param.Field, sim/lab.Counter)
//	bufferscope.load(params)            {ok, warnings: [string], problems: [{key, value, problem, used, clamped}],
//	                                      unknown: [key], params: {lab, …normalised}, limits: {key: {min, max}}, error?}
//	                                      params is an object; its lab picks the lab (the first when absent);
//	                                      anything else gives a warning and the first lab's defaults
//	bufferscope.play() / pause()        {ok, playing}; play on a finished run starts it again
//	bufferscope.step(n = 1)             {ok, step, error?}: exactly n steps (fewer if the run ends), also while
//	                                      paused; at most 1,000,000 at a time (app.MaxStepsPerCall)
//	bufferscope.setSpeed(x | "max")     {ok, speed, label, param, warnings}; Infinity or "max" for max
//	bufferscope.speeds()                [{value, label, param}]: the slider's ladder for the lab loaded
//	bufferscope.seek(step)              {ok, step, busy, message, error?}: go to a step of the run, back by
//	                                      replaying it from its start, on by stepping; playback pauses. Work
//	                                      that does not end within 50 ms goes on a slice per frame (busy: true,
//	                                      progress in stats().time.job) until done or cancel()
//	bufferscope.stepBack()              seek(step - 1)
//	bufferscope.nextEvent(kind?)        as seek, running on until just after the next event of kind (a kind or
//	                                      label of stats().time.events; the first when absent)
//	bufferscope.cancel()                {ok, step, busy: false, message}: stop a seek or search where it got to
//	bufferscope.params()                {params, limits}: the values in force, as load returns them
//	bufferscope.reset()                 {ok}: same lab, same parameters, same seed
//	bufferscope.setSeed(n | "digits" | bigint)  {ok, seed, warnings}
//	bufferscope.apply(commandText)      {ok, error?}: one sim.ParseCommand line
//	bufferscope.stats({hash}?)          {lab, step, now, nbuffers, sharedBuffers, seed, seeded, done, playing, speed,
//	                                      speedLabel, speedParam, rate, frames, fps, tps, updateMs, paintMs, drawMs, error, events,
//	                                      counters: {…the lab's counters by key…}, view?: {…}, hash (only when asked),
//	                                      time: {end, rewind, events: [{kind, label, doc}], message, job, run},
//	                                      panes?: [{index, key, label, doc, now, counters}] when the run races pools
//	                                      (and paneHashes, one per pane, only when asked)}
//	bufferscope.subscribe(fn) → id      fn(stats without hash) about 10×/s while anything changes, at once when a
//	                                      run ends
//	bufferscope.unsubscribe(id)         {ok}
//	bufferscope.legend()                {roles: [{key, label, doc, color, pattern, relations: [name]}], marks: [{key, label,
//	                                      doc, color}], empty: {color, edge}}, in the theme the grid is drawn in
//	bufferscope.relations()             [{index, name, color, role, blocks, permanent}]
//	bufferscope.inspect(clientX, clientY)  buffer info or null; cellAt(x, y) in canvas pixels; buffer(id, pane = 0)
//	                                      {buffer, empty, tag, relation, fork, block, flags, usage, pins, pinnedBy, lsn,
//	                                      dirty, valid, group?: {…}, lab?: {…what the lab's view adds…},
//	                                      pane?: {index, key, label} when the canvas shows several pools}
//	bufferscope.snapshotHash()          Sim.Hash as 16 hex digits
//	bufferscope.zoom(steps, clientX?, clientY?) / pan(dx, dy) / fit() / view()   {zoomed, label, cell, block,
//	                                      canZoomIn, canZoomOut, width, height, cols, rows, panes?: [{index, key,
//	                                      label, doc, x, y, width, height, head}]}: every pane zooms and pans alike;
//	                                      view() adds {inset, labels}
//	bufferscope.fitHeight(width, height)  the canvas height (at most height) that shows the whole pool on a
//	                                      canvas width wide with nothing to spare (app.FitHeight)
//	bufferscope.highlight(id | null, pane = 0)  {ok, buffer}: ring one buffer, as the inspector does
//	bufferscope.setTheme("light" | "dark")  {ok, theme, error?}; setReducedMotion(bool) {ok, reducedMotion}
//	bufferscope.swatch({role, usage, dirty, pinned, hand, read, write, burn, size} | {mark, shape?, size})
//	                                      {width, height, data: Uint8ClampedArray}: legend pixels; role is an index
//	                                      in legend().roles or its key, -1 for empty; mark a key of legend().marks
//	bufferscope.pgBuffercache(from = 0, count = 65536)  {ok, csv, from, next, total, dirty, valid, error?}: rows
//	                                      from+1 … next of the pool as the pg_buffercache view (header first when
//	                                      from is 0), at most 262,144 at a time (app.PgBuffercache)
//	bufferscope.pgStatIO()              {ok, columns, rows: [[string]], csv, notModelled}: the pool's I/O as
//	                                      pg_stat_io rows, "" for NULL (app.PgStatIO)
//	bufferscope.gridPNG()               {ok, width, height, data: Uint8Array, error?}: the grid as the canvas shows
//	                                      it, a PNG in CSS pixels
//
// Stats, stats' view and buffer info's lab hold what the lab and its view declare: the page
// learns their keys from labs() (counters) and reads the others as they come. Built with the
// tag bufferscope_testhooks (build serve -test-hooks, for the browser tests only), the object
// also has __panicForTest(where) (testhooks_on_js.go); the site readers get does not.
//
// When the object is installed the bridge calls window.bufferscopeReady() if the page
// defined it and dispatches "bufferscope:ready" on window. Errors that stop playback are
// dispatched as "bufferscope:error" with {message} in detail; {message, fatal: true} when
// the simulator cannot go on: the grid cannot be drawn at all (no WebGL2), or after a crash,
// whose detail adds where (the place of the panic: "update", "draw" or "call
// bufferscope.NAME"), panic (its value) and stack (the Go stack), for the page's error
// report. The end of a run that has an end as "bufferscope:done"
// with the stats in detail. Callbacks into page code (subscribers, events) run from
// microtasks, never inside a Go call.
type bridge struct {
	app  *app.App
	host host

	subs    map[int]js.Value
	nextSub int
	dirty   bool // something subscribers have not seen yet
	ticks   int
	failure string       // the failure last reported as an event
	changes uint64       // app.Changes at the last notification
	layout  app.ViewInfo // app.View at the last tick: a resized canvas or a new pool refits the grid
	done    bool         // the run was over at the last tick
}

// version is the app's version, shown in the page footer and in bug reports.
const version = "0.1.0"

// notifyEvery is how many frames pass between subscriber notifications: 10 per second at
// 60 frames a second.
const notifyEvery = app.TicksPerSecond / 10

type method struct {
	name string
	fn   func(args []js.Value) any
}

// installBridge creates the global bufferscope object and announces it.
func installBridge(a *app.App, h host) *bridge {
	b := &bridge{app: a, host: h, subs: map[int]js.Value{}, nextSub: 1}
	obj := global.Get("Object").New()
	for _, m := range []method{
		{"labs", b.labs}, {"load", b.load}, {"play", b.play}, {"pause", b.pause}, {"step", b.step},
		{"setSpeed", b.setSpeed}, {"speeds", b.speeds}, {"reset", b.reset}, {"setSeed", b.setSeed},
		{"apply", b.apply}, {"stats", b.stats}, {"subscribe", b.subscribe}, {"unsubscribe", b.unsubscribe},
		{"legend", b.legend}, {"relations", b.relations},
		{"inspect", b.inspect}, {"cellAt", b.cellAt}, {"buffer", b.buffer},
		{"snapshotHash", b.snapshotHash}, {"zoom", b.zoom}, {"pan", b.pan}, {"fit", b.fit},
		{"view", b.view}, {"fitHeight", b.fitHeight}, {"highlight", b.highlight}, {"setTheme", b.setTheme},
		{"setReducedMotion", b.setReducedMotion}, {"swatch", b.swatch},
		{"seek", b.seek}, {"stepBack", b.stepBack}, {"nextEvent", b.nextEvent}, {"cancel", b.cancel},
		{"params", b.params},
		{"pgBuffercache", b.pgBuffercache}, {"pgStatIO", b.pgStatIO}, {"gridPNG", b.gridPNG},
		{"showRealPool", b.showRealPool}, {"showSimulatedPool", b.showSimulatedPool},
	} {
		obj.Set(m.name, js.FuncOf(b.guard(m)))
	}
	for _, m := range testMethods(b) {
		obj.Set(m.name, js.FuncOf(b.guard(m)))
	}
	obj.Set("version", version)
	global.Set("bufferscope", obj)
	later(global.Get("bufferscopeReady"), js.Undefined())
	dispatch("bufferscope:ready", map[string]any{"version": version})
	return b
}

// guard turns a method into a js.Func body that never lets a panic escape. A panic is a
// bug, not a bad argument (those give {ok: false, error}): it is reported as a crash
// (crash_js.go), which stops the simulator, and the call returns {ok: false, error}. After a
// crash only the methods that read (readsOnly) still answer.
func (b *bridge) guard(m method) func(js.Value, []js.Value) any {
	where := "call bufferscope." + m.name
	return func(_ js.Value, args []js.Value) (result any) {
		if crashed != nil && !readsOnly[m.name] {
			return fail(fmt.Sprintf("bufferscope.%s: the simulator stopped after an internal error (%s); reload the page to start again", m.name, crashed.value))
		}
		defer func() {
			if r := recover(); r != nil {
				recovered(where, r)
				result = fail(fmt.Sprintf("bufferscope.%s failed: %v", m.name, r))
			}
		}()
		return m.fn(args)
	}
}

// readsOnly names the methods that change neither the run nor its drawing: they still
// answer after a crash, so the page can show what it last had and export it.
var readsOnly = map[string]bool{
	"labs": true, "stats": true, "params": true, "speeds": true, "legend": true, "relations": true,
	"inspect": true, "cellAt": true, "buffer": true, "snapshotHash": true, "view": true,
	"subscribe": true, "unsubscribe": true, "pause": true, "swatch": true,
	"pgBuffercache": true, "pgStatIO": true, "gridPNG": true,
}

// tick runs once per Ebiten tick after the app's: it notifies subscribers about 10 times a
// second while anything changes, and reports a new failure and the end of a run.
func (b *bridge) tick() {
	b.ticks++
	if c := b.app.Changes(); c != b.changes {
		b.changes, b.dirty = c, true
	}
	if v := b.app.View(); !reflect.DeepEqual(v, b.layout) {
		b.layout, b.dirty = v, true // the page shows the scale, even while the run stands still
	}
	if f := b.app.Failure(); f != b.failure {
		b.failure = f
		if f != "" {
			dispatch("bufferscope:error", map[string]any{"message": "The simulation stopped: " + f})
		}
		b.dirty = true
	}
	if ended := b.endedNow(); ended || b.dirty && b.ticks%notifyEvery == 0 {
		b.notify()
	}
}

// endedNow reports whether the run ended since the last call, and then announces it:
// subscribers hear of it at once, with "bufferscope:done".
func (b *bridge) endedNow() bool {
	done := b.app.Done()
	if done == b.done {
		return false
	}
	b.done = done
	if done {
		dispatch("bufferscope:done", b.statsMap(false))
	}
	return done
}

// changed notifies subscribers at once, after a call that changed the state.
func (b *bridge) changed() {
	b.changes = b.app.Changes()
	b.endedNow()
	b.notify()
}

func (b *bridge) notify() {
	b.dirty = false
	if len(b.subs) == 0 {
		return
	}
	st := js.ValueOf(b.statsMap(false))
	for _, fn := range b.subs {
		later(fn, st)
	}
}

// Results. Arguments are read with the helpers of args_js.go.

func fail(err string) map[string]any { return map[string]any{"ok": false, "error": err} }

// object returns a Go result as a JavaScript-ready object, with more keys added.
func object(v any, more map[string]any) map[string]any {
	m, _ := app.Plain(v).(map[string]any)
	if m == nil {
		m = map[string]any{}
	}
	for k, x := range more {
		m[k] = x
	}
	return m
}

// strs returns strings as a JavaScript-ready array, never nil.
func strs(s []string) []any {
	out := make([]any, len(s))
	for i, v := range s {
		out[i] = v
	}
	return out
}

// Methods.

func (b *bridge) labs([]js.Value) any { return app.Plain(b.app.Labs()) }

func (b *bridge) load(args []js.Value) any {
	p := arg(args, 0)
	values := map[string]string{}
	var warnings []string
	var refused []string // keys whose value is no text: an object, a symbol, a function
	labName := ""
	switch kind(p) {
	case "object":
		ks, err := keys(p)
		if err != nil {
			return fail(fmt.Sprintf("load could not read its argument, an object: %v; nothing changed", err))
		}
		for _, k := range ks {
			v, err := get(p, k)
			if err != nil {
				return fail(fmt.Sprintf("load could not read its argument: %v; nothing changed", err))
			}
			if missing(v) {
				continue
			}
			s, ok := text(v)
			switch {
			case !ok:
				refused = append(refused, k, describe(v))
			case k == "lab":
				labName = s
			default:
				values[k] = s
			}
		}
	case "undefined", "null":
	default:
		warnings = append(warnings, fmt.Sprintf("load takes an object such as {lab: \"free\", shared_buffers: \"1GB\"}, not %s; using the defaults", describe(p)))
	}
	res, err := b.app.Load(labName, values)
	b.changed()
	warnings = append(warnings, res.Warnings...)
	for i := 0; i < len(refused); i += 2 {
		k, what := refused[i], refused[i+1]
		if used, ok := res.Params[k]; ok {
			warnings = append(warnings, fmt.Sprintf("%s is %s, not a string, a number or a boolean; using %s", k, what, used))
		} else {
			warnings = append(warnings, fmt.Sprintf("%s is %s, not a string, a number or a boolean; ignored", param.Quote(k), what))
		}
	}
	out := object(res, map[string]any{"ok": err == nil, "warnings": strs(warnings)})
	if err != nil {
		out["error"] = err.Error()
	}
	return out
}

func (b *bridge) play([]js.Value) any {
	if err := b.app.Play(); err != nil {
		return fail(err.Error())
	}
	b.changed()
	return map[string]any{"ok": true, "playing": b.app.Playing()}
}

func (b *bridge) pause([]js.Value) any {
	b.app.Pause()
	b.changed()
	return map[string]any{"ok": true, "playing": false}
}

func (b *bridge) step(args []js.Value) any {
	n := 1.0
	if v := arg(args, 0); !missing(v) {
		x, ok := whole(v, 0, app.MaxStepsPerCall)
		if !ok {
			return fail(fmt.Sprintf("step takes a whole number of steps from 0 to %s, not %s; play runs longer", group(app.MaxStepsPerCall), describe(v)))
		}
		n = x
	}
	_, err := b.app.Step(int(n))
	b.changed()
	res := map[string]any{"ok": err == nil, "step": float64(b.app.Stats().Step)}
	if err != nil {
		res["error"] = err.Error()
	}
	return res
}

func (b *bridge) setSpeed(args []js.Value) any {
	var s app.Speed
	var w string
	switch v := arg(args, 0); kind(v) {
	case "number":
		s, w = b.app.SetSpeed(v.Float())
	case "string":
		s, w = b.app.SetSpeedText(v.String())
	default:
		s, w = b.app.NotASpeed(describe(v))
	}
	warnings := []string{}
	if w != "" {
		warnings = append(warnings, w)
	}
	b.changed()
	return map[string]any{"ok": true, "speed": s.Value, "label": s.Label, "param": s.Param, "warnings": strs(warnings)}
}

func (b *bridge) speeds([]js.Value) any { return app.Plain(b.app.Speeds()) }

func (b *bridge) reset([]js.Value) any {
	if err := b.app.Reset(); err != nil {
		return fail(err.Error())
	}
	b.changed()
	return map[string]any{"ok": true}
}

func (b *bridge) setSeed(args []js.Value) any {
	v := arg(args, 0)
	var seed uint64
	var err error
	switch kind(v) {
	case "number":
		x := v.Float()
		if x != math.Trunc(x) || x < 0 || x > 1<<53 {
			err = fmt.Errorf("not a whole number from 0 to 2^53; pass larger seeds as strings or BigInts")
		}
		seed = uint64(x)
	case "string", "bigint":
		t, _ := text(v)
		seed, err = strconv.ParseUint(strings.TrimSpace(t), 10, 64)
		if err != nil {
			err = fmt.Errorf("not a whole number from 0 to %d", uint64(math.MaxUint64))
		}
	default:
		err = fmt.Errorf("setSeed takes a whole number from 0 to %d: a number, a string of digits or a BigInt", uint64(math.MaxUint64))
	}
	if err != nil {
		return fail(fmt.Sprintf("seed %s: %v", describe(v), err))
	}
	warnings, err := b.app.SetSeed(seed)
	if err != nil {
		return fail(err.Error())
	}
	b.changed()
	return map[string]any{"ok": true, "seed": strconv.FormatUint(seed, 10), "warnings": strs(warnings)}
}

func (b *bridge) apply(args []js.Value) any {
	v := arg(args, 0)
	if kind(v) != "string" {
		return fail(fmt.Sprintf("apply takes one command as text, such as \"checkpoint\" or \"pin b=0 rel=pgbench_branches blk=0\", not %s", describe(v)))
	}
	err := b.app.Apply(v.String())
	b.changed()
	if err != nil {
		return fail(err.Error())
	}
	return map[string]any{"ok": true}
}

// stats returns the stats; stats({hash: true}) adds Sim.Hash. The hash reads every
// descriptor (seconds at 100 GB), so the page, which asks for stats many times a second,
// never pays for it; the tests that compare runs ask for it.
func (b *bridge) stats(args []js.Value) any {
	o := arg(args, 0)
	if missing(o) {
		return b.statsMap(false)
	}
	if !isObject(o) {
		consoleWarn("bufferscope.stats takes nothing or {hash: true}; ignored " + describe(o))
		return b.statsMap(false)
	}
	h, err := get(o, "hash")
	if err != nil {
		consoleWarn(fmt.Sprintf("bufferscope.stats takes nothing or {hash: true}; ignored its argument: %v", err))
	}
	return b.statsMap(truthy(h))
}

// statsMap returns the stats; withHash adds Sim.Hash.
func (b *bridge) statsMap(withHash bool) map[string]any {
	m := object(b.app.Stats(), map[string]any{
		"frames":   theGame.frames,
		"fps":      math.Round(ebiten.ActualFPS()*10) / 10,
		"tps":      math.Round(ebiten.ActualTPS()*10) / 10,
		"updateMs": math.Round(theGame.timing.updateMs*100) / 100,
		"paintMs":  math.Round(theGame.timing.paintMs*100) / 100,
		"drawMs":   math.Round(theGame.timing.drawMs*100) / 100,
	})
	if withHash {
		m["hash"] = b.app.Hash()
		if h := b.app.PaneHashes(); h != nil {
			m["paneHashes"] = strs(h)
		}
	}
	return m
}

func (b *bridge) subscribe(args []js.Value) any {
	fn := arg(args, 0)
	if kind(fn) != "function" {
		return fail("subscribe takes a function, which is called with the stats, not " + describe(fn))
	}
	id := b.nextSub
	b.nextSub++
	b.subs[id] = fn
	later(fn, js.ValueOf(b.statsMap(false)))
	return id
}

func (b *bridge) unsubscribe(args []js.Value) any {
	x, _ := number(arg(args, 0))
	_, ok := b.subs[int(x)]
	delete(b.subs, int(x))
	return map[string]any{"ok": ok}
}

func (b *bridge) legend([]js.Value) any { return app.Plain(b.app.Legend()) }

func (b *bridge) relations([]js.Value) any { return app.Plain(b.app.Relations()) }

// info returns buffer info, or null.
func info(i *app.BufferInfo) any {
	if i == nil {
		return nil
	}
	return app.Plain(i)
}

func (b *bridge) inspect(args []js.Value) any {
	x, ok1 := number(arg(args, 0))
	y, ok2 := number(arg(args, 1))
	w, h := b.app.CanvasSize()
	cx, cy, ok := b.host.clientToCanvas(x, y, w, h)
	if !ok1 || !ok2 || !ok {
		return nil
	}
	return info(b.app.InspectAt(cx, cy))
}

func (b *bridge) cellAt(args []js.Value) any {
	x, ok1 := finite(arg(args, 0))
	y, ok2 := finite(arg(args, 1))
	if !ok1 || !ok2 || math.Abs(x) > 1e9 || math.Abs(y) > 1e9 {
		return nil
	}
	return info(b.app.InspectAt(int(math.Floor(x)), int(math.Floor(y))))
}

func (b *bridge) buffer(args []js.Value) any {
	x, ok := number(arg(args, 0))
	if !ok || x != math.Trunc(x) || x < 0 || x > math.MaxInt32 {
		return nil
	}
	return info(b.app.Inspect(int(x), pane(arg(args, 1))))
}

// pane reads an optional pane index: 0 when absent, -1 (no pane) when it is not one.
func pane(v js.Value) int {
	if missing(v) {
		return 0
	}
	x, ok := number(v)
	if !ok || x != math.Trunc(x) || x < 0 || x > 64 {
		return -1
	}
	return int(x)
}

func (b *bridge) snapshotHash([]js.Value) any { return b.app.Hash() }

func (b *bridge) zoom(args []js.Value) any {
	steps, ok := finite(arg(args, 0))
	if !ok {
		return fail("zoom takes a number of steps: positive zooms in, negative out")
	}
	steps = min(max(math.Trunc(steps), -100), 100)
	x, okx := number(arg(args, 1))
	y, oky := number(arg(args, 2))
	w, h := b.app.CanvasSize()
	cx, cy, ok := b.host.clientToCanvas(x, y, w, h)
	return b.moved(b.app.Zoom(int(steps), cx, cy, okx && oky && ok))
}

func (b *bridge) pan(args []js.Value) any {
	dx, ok1 := finite(arg(args, 0))
	dy, ok2 := finite(arg(args, 1))
	if !ok1 || !ok2 {
		return fail("pan takes two numbers of pixels, dx and dy")
	}
	clampPx := func(d float64) int { return int(min(max(math.Round(d), -1e6), 1e6)) }
	return b.moved(b.app.Pan(clampPx(dx), clampPx(dy)))
}

func (b *bridge) fit([]js.Value) any { return b.moved(b.app.Fit()) }

func (b *bridge) fitHeight(args []js.Value) any {
	w, ok1 := finite(arg(args, 0))
	h, ok2 := finite(arg(args, 1))
	if !ok1 || !ok2 || w < 1 || h < 1 {
		return fail(fmt.Sprintf("fitHeight takes a canvas width and the height it may have at most, in CSS pixels, both 1 or more; not %s and %s",
			describe(arg(args, 0)), describe(arg(args, 1))))
	}
	return b.app.FitHeight(int(min(w, 1<<15)), int(min(h, 1<<15)))
}

func (b *bridge) view([]js.Value) any { return app.Plain(b.app.ViewDetail()) }

// moved returns the new view after zoom, pan or fit; subscribers hear of it with the next
// notification.
func (b *bridge) moved(v app.ViewInfo) any {
	b.dirty = true
	return app.Plain(v)
}

func (b *bridge) highlight(args []js.Value) any {
	x, ok := number(arg(args, 0))
	if !ok || x != math.Trunc(x) || x < 0 || x > math.MaxInt32 {
		x = -1
	}
	return map[string]any{"ok": true, "buffer": b.app.Highlight(int(x), pane(arg(args, 1)))}
}

func (b *bridge) setTheme(args []js.Value) any {
	v := arg(args, 0)
	if kind(v) != "string" {
		return map[string]any{"ok": false, "theme": b.app.Theme().Name,
			"error": fmt.Sprintf("setTheme takes \"light\" or \"dark\", not %s; the theme stays %s", describe(v), b.app.Theme().Name)}
	}
	name, err := b.app.SetTheme(v.String())
	if err != nil {
		return map[string]any{"ok": false, "error": err.Error(), "theme": name}
	}
	return map[string]any{"ok": true, "theme": name}
}

func (b *bridge) setReducedMotion(args []js.Value) any {
	reduced := truthy(arg(args, 0))
	b.app.SetReducedMotion(reduced)
	return map[string]any{"ok": true, "reducedMotion": reduced}
}

// swatch paints one legend cell or mark with the grid's own painter, so the legend always
// matches the grid (app.SwatchSpec).
func (b *bridge) swatch(args []js.Value) any {
	spec := arg(args, 0)
	obj := isObject(spec)
	var bad error // the first field that could not be read
	field := func(k string) js.Value {
		if !obj || bad != nil {
			return js.Undefined()
		}
		v, err := get(spec, k)
		if err != nil {
			bad = err
		}
		return v
	}
	num := func(k string, def float64) float64 {
		if x, ok := finite(field(k)); ok {
			return x
		}
		return def
	}
	flag := func(k string) bool { return truthy(field(k)) }
	sp := app.SwatchSpec{
		Usage: int(min(max(num("usage", 5), -1), 1000)), Dirty: flag("dirty"), Pinned: flag("pinned"), Hand: flag("hand"),
		Read: num("read", 0), Write: num("write", 0), Burn: num("burn", 0),
		Size: int(min(max(num("size", 24), 8), 128)),
	}
	if mark := field("mark"); !missing(mark) {
		sp.Mark, _ = text(mark)
		if sp.Mark == "" {
			return fail("swatch's mark is a key of legend().marks, not " + describe(mark))
		}
		if s := field("shape"); !missing(s) {
			sp.Shape, _ = text(s)
		}
	} else if role := field("role"); kind(role) == "string" {
		sp.RoleKey = role.String()
	} else if x, ok := finite(role); ok || missing(role) {
		sp.Role = int(min(max(x, -1), math.MaxInt32))
	} else if bad == nil {
		return fail("swatch's role is an index or a key of legend().roles, not " + describe(role))
	}
	if bad != nil {
		return fail(fmt.Sprintf("swatch could not read its argument: %v", bad))
	}
	px, size, err := b.app.Swatch(sp)
	if err != nil {
		return fail(err.Error())
	}
	data := global.Get("Uint8ClampedArray").New(len(px))
	js.CopyBytesToJS(global.Get("Uint8Array").New(data.Get("buffer")), px)
	return map[string]any{"width": size, "height": size, "data": data}
}

// Time travel.

// jobNow is how long seek, stepBack and nextEvent work before they return; what is left
// goes on a slice per frame, with progress in the stats.
const jobNow = 50 * time.Millisecond

func (b *bridge) seek(args []js.Value) any {
	v := arg(args, 0)
	x, ok := whole(v, 0, app.MaxSeek)
	if !ok {
		return fail(fmt.Sprintf("seek takes a step: a whole number from 0 to %s, not %s", group(app.MaxSeek), describe(v)))
	}
	return b.started(b.app.Seek(uint64(x)))
}

func (b *bridge) stepBack([]js.Value) any { return b.started(b.app.StepBack()) }

func (b *bridge) nextEvent(args []js.Value) any {
	k := ""
	if v := arg(args, 0); !missing(v) {
		if kind(v) != "string" {
			return fail("nextEvent takes the kind or label of an event of stats().time.events, not " + describe(v))
		}
		k = v.String()
	}
	return b.started(b.app.NextEvent(k))
}

func (b *bridge) cancel([]js.Value) any {
	b.app.CancelJob()
	b.changed()
	return b.timeResult(nil)
}

// started works on a job just started for up to jobNow and reports where it stands.
func (b *bridge) started(err error) any {
	if err == nil {
		_, err = b.app.Work(jobNow)
	}
	b.changed()
	return b.timeResult(err)
}

func (b *bridge) timeResult(err error) map[string]any {
	t := b.app.Time()
	res := map[string]any{"ok": err == nil, "step": float64(b.app.Stats().Step), "busy": b.app.Busy(), "message": t.Message}
	if err != nil {
		res["error"] = err.Error()
	}
	return res
}

func (b *bridge) params([]js.Value) any {
	return map[string]any{"params": app.Plain(b.app.Params()), "limits": app.Plain(b.app.Limits())}
}

// Exports.

func (b *bridge) pgBuffercache(args []js.Value) any {
	from, count := 0.0, float64(app.BufferCacheRows)
	if v := arg(args, 0); !missing(v) {
		x, ok := whole(v, 0, math.MaxInt32)
		if !ok {
			return fail(fmt.Sprintf("pgBuffercache starts at a buffer: a whole number from 0 to the pool's size, not %s", describe(v)))
		}
		from = x
	}
	if v := arg(args, 1); !missing(v) {
		x, ok := whole(v, 1, app.MaxBufferCacheRows)
		if !ok {
			return fail(fmt.Sprintf("pgBuffercache returns 1 to %s rows at a time, not %s", group(app.MaxBufferCacheRows), describe(v)))
		}
		count = x
	}
	page, err := b.app.PgBuffercache(int(from), int(count))
	if err != nil {
		return fail(err.Error())
	}
	return object(page, map[string]any{"ok": true})
}

func (b *bridge) pgStatIO([]js.Value) any {
	return object(b.app.PgStatIO(), map[string]any{"ok": true})
}

// The real pool.

// showRealPool draws a real server's pool, as its pg_buffercache showed it, in place of the
// simulated one, or beside it (app.ShowReal): {server, nbuffers, relations, rows, beside},
// relations and rows CSV text.
func (b *bridge) showRealPool(args []js.Value) any {
	const shape = "showRealPool takes {server, nbuffers, relations, rows}: the server's name, its shared_buffers in buffers, and CSV text of its relations and of pg_buffercache's rows"
	spec := arg(args, 0)
	if !isObject(spec) {
		return fail(shape + ", not " + describe(spec))
	}
	var p app.RealPool
	for _, f := range []struct {
		key string
		dst *string
	}{{"server", &p.Server}, {"relations", &p.Relations}, {"rows", &p.Rows}} {
		v, err := get(spec, f.key)
		if err != nil {
			return fail(fmt.Sprintf("showRealPool could not read its argument: %v", err))
		}
		if missing(v) && f.key != "rows" {
			continue
		}
		if kind(v) != "string" {
			return fail(fmt.Sprintf("%s; its %s is text, not %s", shape, f.key, describe(v)))
		}
		*f.dst = v.String()
	}
	v, err := get(spec, "nbuffers")
	if err != nil {
		return fail(fmt.Sprintf("showRealPool could not read its argument: %v", err))
	}
	n, ok := whole(v, 0, math.MaxInt32)
	if !ok {
		return fail(fmt.Sprintf("%s; its nbuffers is a whole number of buffers, not %s", shape, describe(v)))
	}
	p.NBuffers = int(n)
	beside, err := get(spec, "beside")
	if err != nil {
		return fail(fmt.Sprintf("showRealPool could not read its argument: %v", err))
	}
	shown, err := b.app.ShowReal(p, truthy(beside))
	if err != nil {
		return fail(err.Error())
	}
	b.changed()
	return object(shown, map[string]any{"ok": true})
}

// showSimulatedPool brings the simulated pool back on the grid.
func (b *bridge) showSimulatedPool([]js.Value) any {
	was := b.app.ShowSimulated()
	b.changed()
	return map[string]any{"ok": true, "wasReal": was}
}

func (b *bridge) gridPNG([]js.Value) any {
	png, err := b.app.GridPNG()
	if err != nil {
		return fail(err.Error())
	}
	w, h := b.app.CanvasSize()
	data := global.Get("Uint8Array").New(len(png))
	js.CopyBytesToJS(data, png)
	return map[string]any{"ok": true, "width": w, "height": h, "data": data}
}
