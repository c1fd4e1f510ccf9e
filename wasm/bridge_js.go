//go:build js

package main

import (
	"fmt"
	"math"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall/js"

	"github.com/bufferscope/bufferscope/sim"
	"github.com/bufferscope/bufferscope/sim/labs/drop"
	"github.com/bufferscope/bufferscope/wasm/grid"
	"github.com/bufferscope/bufferscope/wasm/playback"
	"github.com/hajimehoshi/ebiten/v2"
)

// The bridge is the app's one JavaScript API: the global object bufferscope, documented with
// its types for page authors in site/js/bufferscope.d.ts. Every method returns a plain value and never throws: bad
// arguments give {ok: false, error} or a warning and a safe value, and a Go panic inside a
// call is recovered and returned as {ok: false, error}.
//
//	bufferscope.version                     "0.1.0"
//	bufferscope.load(params)                {ok, warnings, problems, params}; params: {lab: "free", shared_buffers: "1GB", seed: "7", …}
//	                                        or {lab: "drop", shared_buffers: "20GB", tables: "1xNB/32", policy: "pg14", …}
//	bufferscope.play() / pause()            {ok, playing}; play on a finished drop lab starts it again
//	bufferscope.step(n = 1)                 {ok, step}: exactly n steps (drop lab: units, until the replay ends), also while paused
//	bufferscope.setSpeed(stepsPerSecond)    {ok, speed, label, warnings}; Infinity or "max" for max
//	bufferscope.speeds()                    [{value, label, param}]: the slider's ladder for the lab loaded
//	bufferscope.reset()                     {ok}: same parameters, same seed
//	bufferscope.setSeed(n)                  {ok, seed}
//	bufferscope.apply(commandText)          {ok, error}: one sim.ParseCommand line
//	bufferscope.stats()                     counters, positions, playback and hash; lab, and drop: {…} in the drop lab
//	bufferscope.subscribe(fn) → id          fn(stats) about 10×/s while anything changes
//	bufferscope.unsubscribe(id)             {ok}
//	bufferscope.inspect(clientX, clientY)   buffer info or null; cellAt(x, y) in canvas pixels
//	bufferscope.buffer(id)                  buffer info or null
//	bufferscope.relations()                 [{index, name, color, blocks, permanent}]
//	bufferscope.snapshotHash()              Sim.Hash as 16 hex digits
//	bufferscope.zoom(steps, clientX?, clientY?) / pan(dx, dy) / fit() / view()
//	bufferscope.highlight(id | null)        ring one buffer, as the inspector does
//	bufferscope.setTheme("light" | "dark") / setReducedMotion(bool)
//	bufferscope.swatch({rel, usage, dirty, pinned, hand, read, write, drop, size} | {mark, size})  legend pixels
//
// When the object is installed the bridge calls window.bufferscopeReady() if the page
// defined it and dispatches "bufferscope:ready" on window. Errors that stop playback are
// dispatched as "bufferscope:error" with {message} in detail; the end of a drop lab's replay
// as "bufferscope:done" with the stats in detail. Callbacks into page code (subscribers,
// events) run from microtasks, never inside a Go call.
type bridge struct {
	app  *App
	host host

	subs    map[int]js.Value
	nextSub int
	dirty   bool // something subscribers have not seen yet
	ticks   int
	failure string // the failure last reported as an event

	hashAt   uint64 // app.changes when hash was computed
	hash     string
	lastStep uint64
	done     bool // the drop lab's replay was over at the last tick
}

// version is the app's version, shown in the page footer and in bug reports.
const version = "0.1.0"

// notifyEvery is how many ticks pass between subscriber notifications: 10 per second.
const notifyEvery = ticksPerSecond / 10

type method struct {
	name string
	fn   func(args []js.Value) any
}

// installBridge creates the global bufferscope object and announces it.
func installBridge(a *App, h host) *bridge {
	b := &bridge{app: a, host: h, subs: map[int]js.Value{}, nextSub: 1, hashAt: math.MaxUint64}
	obj := global.Get("Object").New()
	for _, m := range []method{
		{"load", b.load}, {"play", b.play}, {"pause", b.pause}, {"step", b.step},
		{"setSpeed", b.setSpeed}, {"speeds", b.speeds}, {"reset", b.reset}, {"setSeed", b.setSeed},
		{"apply", b.apply}, {"stats", b.stats}, {"subscribe", b.subscribe}, {"unsubscribe", b.unsubscribe},
		{"inspect", b.inspect}, {"cellAt", b.cellAt}, {"buffer", b.buffer}, {"relations", b.relations},
		{"snapshotHash", b.snapshotHash}, {"zoom", b.zoom}, {"pan", b.pan}, {"fit", b.fit},
		{"view", b.view}, {"highlight", b.highlight}, {"setTheme", b.setTheme},
		{"setReducedMotion", b.setReducedMotion}, {"swatch", b.swatch},
	} {
		obj.Set(m.name, js.FuncOf(b.guard(m)))
	}
	obj.Set("version", version)
	global.Set("bufferscope", obj)
	later(global.Get("bufferscopeReady"))
	dispatch("bufferscope:ready", map[string]any{"version": version})
	return b
}

// guard turns a method into a js.Func body that never lets a panic escape.
func (b *bridge) guard(m method) func(js.Value, []js.Value) any {
	return func(_ js.Value, args []js.Value) (result any) {
		defer func() {
			if r := recover(); r != nil {
				msg := fmt.Sprintf("bufferscope.%s failed: %v", m.name, r)
				consoleError(msg + "\n" + string(debug.Stack()))
				result = map[string]any{"ok": false, "error": msg}
			}
		}()
		return m.fn(args)
	}
}

// tick runs once per Ebiten tick after the app's: it notifies subscribers about 10 times a
// second while anything changes, and reports a new failure.
func (b *bridge) tick() {
	b.ticks++
	if s := b.app.sim.Stats().Steps; s != b.lastStep {
		b.lastStep, b.dirty = s, true
	}
	if f := b.app.failure; f != b.failure {
		b.failure = f
		if f != "" {
			dispatch("bufferscope:error", map[string]any{"message": "The simulation stopped: " + f})
		}
		b.dirty = true
	}
	if ended := b.finishedNow(); ended || b.dirty && b.ticks%notifyEvery == 0 {
		b.notify()
	}
}

// finishedNow reports whether the drop lab's replay ended since the last call, and then
// announces it: subscribers hear of it at once, with "bufferscope:done".
func (b *bridge) finishedNow() bool {
	done := b.app.finished()
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
	b.lastStep = b.app.sim.Stats().Steps
	b.finishedNow()
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

// Arguments.

func arg(args []js.Value, i int) js.Value {
	if i < len(args) {
		return args[i]
	}
	return js.Undefined()
}

func missing(v js.Value) bool { return v.IsUndefined() || v.IsNull() }

// number reads a number, or a string that holds one.
func number(v js.Value) (float64, bool) {
	switch v.Type() {
	case js.TypeNumber:
		return v.Float(), true
	case js.TypeString:
		x, err := strconv.ParseFloat(strings.TrimSpace(v.String()), 64)
		return x, err == nil
	}
	return 0, false
}

// text reads any value as JavaScript's String() would write it.
func text(v js.Value) string {
	if v.Type() == js.TypeString {
		return v.String()
	}
	return global.Call("String", v).String()
}

func fail(err string) map[string]any { return map[string]any{"ok": false, "error": err} }

func strs(s []string) []any {
	out := make([]any, len(s))
	for i, v := range s {
		out[i] = v
	}
	return out
}

// Methods.

func (b *bridge) load(args []js.Value) any {
	p := arg(args, 0)
	values := map[string]string{}
	var warnings []any
	lab := ""
	switch {
	case p.Type() == js.TypeObject:
		if v := p.Get("lab"); !missing(v) {
			lab = text(v)
		}
		keys := sim.ParamKeys
		if kind, _ := parseLab(lab); kind == labDrop {
			keys = drop.DropParamKeys
		}
		for _, k := range keys {
			if v := p.Get(k); !missing(v) {
				values[k] = text(v)
			}
		}
	case !missing(p):
		warnings = append(warnings, "load takes an object such as {shared_buffers: \"1GB\"} or {lab: \"drop\"}; using the defaults")
	}
	problems, err := b.app.load(lab, values)
	var details []any
	for _, e := range problems {
		warnings = append(warnings, e.Error())
		details = append(details, map[string]any{"key": e.Key, "value": e.Value, "problem": e.Problem, "used": e.Used})
	}
	b.changed()
	res := map[string]any{"ok": err == nil, "warnings": warnings, "problems": details, "params": b.params()}
	if err != nil {
		res["error"] = err.Error()
	}
	return res
}

func (b *bridge) params() map[string]any {
	out := map[string]any{}
	for k, v := range b.app.values() {
		out[k] = v
	}
	return out
}

func (b *bridge) play([]js.Value) any {
	a := b.app
	if a.failure != "" {
		return fail("the simulation stopped: " + a.failure + "; reset to start again")
	}
	if a.finished() {
		// The replay is over: play it again from the start, as a media player does.
		if err := a.reset(); err != nil {
			return fail(err.Error())
		}
	}
	a.playing = true
	b.changed()
	return map[string]any{"ok": true, "playing": true}
}

func (b *bridge) pause([]js.Value) any {
	b.app.playing = false
	b.changed()
	return map[string]any{"ok": true, "playing": false}
}

func (b *bridge) step(args []js.Value) any {
	n := 1.0
	if v := arg(args, 0); !missing(v) {
		x, ok := number(v)
		if !ok || x != math.Trunc(x) || x < 0 || x > sim.MaxStepsPerCommand {
			return fail(fmt.Sprintf("step takes a whole number of steps from 0 to %d, not %s", sim.MaxStepsPerCommand, text(v)))
		}
		n = x
	}
	_, err := b.app.step(int(n), noDeadline)
	b.changed()
	res := map[string]any{"ok": err == nil, "step": b.app.sim.Stats().Steps}
	if err != nil {
		res["error"] = err.Error()
	}
	return res
}

func (b *bridge) setSpeed(args []js.Value) any {
	v := arg(args, 0)
	var warnings []any
	x, ok := number(v)
	if v.Type() == js.TypeString {
		x, ok = 0, false
		if p, err := playback.Parse(v.String()); err == nil {
			x, ok = p, true
		}
	}
	if ok {
		if w := b.app.setSpeed(x); w != "" {
			warnings = append(warnings, w)
		}
	} else {
		warnings = append(warnings, fmt.Sprintf("speed %q is not a number of steps per second or \"max\"; keeping %s", text(v), playback.Label(b.app.speed)))
	}
	b.changed()
	return map[string]any{"ok": true, "speed": b.app.speed, "label": playback.Label(b.app.speed), "param": playback.Format(b.app.speed), "warnings": warnings}
}

func (b *bridge) speeds([]js.Value) any {
	ladder := b.app.speedRange().Ladder
	out := make([]any, len(ladder))
	for i, s := range ladder {
		out[i] = map[string]any{"value": s, "label": playback.Label(s), "param": playback.Format(s)}
	}
	return out
}

func (b *bridge) reset([]js.Value) any {
	if err := b.app.reset(); err != nil {
		return fail(err.Error())
	}
	b.changed()
	return map[string]any{"ok": true}
}

func (b *bridge) setSeed(args []js.Value) any {
	v := arg(args, 0)
	var seed uint64
	var err error
	switch v.Type() {
	case js.TypeNumber:
		x := v.Float()
		if x != math.Trunc(x) || x < 0 || x > 1<<53 {
			err = fmt.Errorf("not a whole number from 0 to 2^53; pass larger seeds as strings")
		}
		seed = uint64(x)
	case js.TypeString:
		seed, err = strconv.ParseUint(strings.TrimSpace(v.String()), 10, 64)
		if err != nil {
			err = fmt.Errorf("not a whole number from 0 to %d", uint64(math.MaxUint64))
		}
	default:
		err = fmt.Errorf("setSeed takes a whole number, or a string of digits for seeds above 2^53")
	}
	if err != nil {
		return fail(fmt.Sprintf("seed %q: %v", text(v), err))
	}
	if err := b.app.setSeed(seed); err != nil {
		return fail(err.Error())
	}
	b.changed()
	var warnings []any
	if b.app.lab == labDrop {
		warnings = append(warnings, "the drop lab draws no random numbers: a new seed replays the same run")
	}
	return map[string]any{"ok": true, "seed": strconv.FormatUint(seed, 10), "warnings": warnings}
}

func (b *bridge) apply(args []js.Value) any {
	v := arg(args, 0)
	if v.Type() != js.TypeString {
		return fail("apply takes one command as text, such as \"checkpoint\" or \"pin b=0 rel=pgbench_branches blk=0\"")
	}
	err := b.app.apply(v.String())
	b.changed()
	if err != nil {
		return fail(err.Error())
	}
	return map[string]any{"ok": true}
}

func (b *bridge) stats([]js.Value) any { return b.statsMap(true) }

// statsMap returns the counters; withHash adds Sim.Hash, which reads the whole pool and is
// left out of the 10-per-second notifications.
func (b *bridge) statsMap(withHash bool) map[string]any {
	a := b.app
	s := a.sim
	st := s.Stats()
	var failure any
	if a.failure != "" {
		failure = a.failure
	}
	m := map[string]any{
		"step":              st.Steps,
		"now":               s.Now().Seconds(),
		"nbuffers":          s.Pool.NBuffers,
		"sharedBuffers":     sim.FormatSize(int64(s.Pool.NBuffers) * sim.BLCKSZ),
		"seed":              strconv.FormatUint(a.params.Seed, 10),
		"version":           int(s.Pool.Version),
		"accesses":          st.Accesses,
		"hits":              st.Hits,
		"misses":            st.Misses,
		"hitRatio":          st.HitRatio(),
		"readsOSCache":      st.ReadsOSCache,
		"readsDisk":         st.ReadsDisk,
		"evictions":         st.Evictions,
		"dirtyWrites":       st.DirtyWrites,
		"bgwriterWrites":    st.BgWriterWrites,
		"checkpointWrites":  st.CheckpointWrites,
		"updates":           st.Updates,
		"walFlushes":        st.WALFlushes,
		"walFlushesBackend": st.WALFlushesBackend,
		"walFlushesWriter":  st.WALFlushesWriter,
		"walInsert":         s.Pool.WAL.Insert.String(),
		"walFlushed":        s.Pool.WAL.Flushed.String(),
		"clockHand":         s.Pool.ClockHand(),
		"sweepPasses":       st.SweepPasses,
		"playing":           a.playing,
		"speed":             a.speed,
		"speedLabel":        playback.Label(a.speed),
		"speedParam":        playback.Format(a.speed),
		"rate":              math.Round(a.rate.rate),
		"frames":            theGame.frames,
		"fps":               math.Round(ebiten.ActualFPS()*10) / 10,
		"tps":               math.Round(ebiten.ActualTPS()*10) / 10,
		"updateMs":          math.Round(theGame.timing.updateMs*100) / 100,
		"paintMs":           math.Round(theGame.timing.paintMs*100) / 100,
		"error":             failure,
		"lab":               a.lab.String(),
	}
	if a.watch != nil {
		m["drop"] = b.dropMap()
	}
	if withHash {
		m["hash"] = b.snapshotHash(nil)
	}
	return m
}

// dropMap returns the drop lab's counters. Once the replay is done, descriptorsChecked,
// lookups, invalidated, modelledSeconds and resultPath are what bufferscope drop prints for
// the same parameters.
func (b *bridge) dropMap() map[string]any {
	a := b.app
	s := a.sim
	p := drop.ProgressOf(s)
	r := p.Result
	name := ""
	if rels := s.Relations(); p.Relation < a.watch.Relations() && p.Relation < len(rels) {
		name = rels[p.Relation].Name
	}
	return map[string]any{
		"done":               p.Done,
		"path":               p.Path.String(),
		"resultPath":         r.Path,
		"relation":           p.Relation,
		"relationName":       name,
		"relations":          a.watch.Relations(),
		"cursor":             p.Cursor,
		"descriptorsChecked": r.DescriptorsChecked,
		"lookups":            r.Lookups,
		"lookupMisses":       a.watch.Misses,
		"invalidated":        r.Invalidated,
		"drops":              r.Drops,
		"modelledSeconds":    r.Time.Seconds(),
		"dropSeconds":        r.DropTime.Seconds(),
		"thresholdBlocks":    s.Pool.BufDropFullScanThreshold(),
		"timeScale":          a.watch.TimeScale(),
	}
}

func (b *bridge) subscribe(args []js.Value) any {
	fn := arg(args, 0)
	if fn.Type() != js.TypeFunction {
		return fail("subscribe takes a function, which is called with the stats")
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

// infoMap turns a bufferInfo into the object inspect and buffer return.
func infoMap(info bufferInfo) map[string]any {
	var tag, rel, fork, block any
	if !info.Empty {
		tag, rel, fork, block = info.Tag, info.Relation, info.Fork, info.Block
	}
	m := map[string]any{
		"buffer": info.Buffer, "empty": info.Empty, "tag": tag, "relation": rel, "fork": fork, "block": block,
		"flags": strs(info.Flags), "usage": info.Usage, "pins": info.Pins, "pinnedBy": strs(info.PinnedBy),
		"lsn": info.LSN, "dirty": info.Dirty, "valid": info.Valid,
	}
	if d := info.Drop; d != nil {
		m["drop"] = map[string]any{"target": d.Target, "checked": d.Checked}
	}
	if g := info.Group; g != nil {
		m["group"] = map[string]any{
			"first": g.First, "side": g.Side, "count": g.Count, "empty": g.Empty, "dirty": g.Dirty,
			"pinned": g.Pinned, "relation": g.Relation, "relationCount": g.RelationCount, "usage0": g.Usage0,
		}
	}
	return m
}

func (b *bridge) inspect(args []js.Value) any {
	x, ok1 := number(arg(args, 0))
	y, ok2 := number(arg(args, 1))
	v := &b.app.view
	cx, cy, ok := b.host.clientToCanvas(x, y, v.w, v.h)
	if !ok1 || !ok2 || !ok {
		return nil
	}
	return b.infoAt(cx, cy)
}

func (b *bridge) cellAt(args []js.Value) any {
	x, ok1 := number(arg(args, 0))
	y, ok2 := number(arg(args, 1))
	if !ok1 || !ok2 || math.IsNaN(x) || math.IsNaN(y) || math.Abs(x) > 1e9 || math.Abs(y) > 1e9 {
		return nil
	}
	return b.infoAt(int(math.Floor(x)), int(math.Floor(y)))
}

func (b *bridge) infoAt(x, y int) any {
	info, ok := b.app.inspectAt(x, y)
	if !ok {
		return nil
	}
	return infoMap(info)
}

func (b *bridge) buffer(args []js.Value) any {
	x, ok := number(arg(args, 0))
	if !ok || x != math.Trunc(x) || x < 0 || x > math.MaxInt32 {
		return nil
	}
	info, ok := b.app.inspect(int(x))
	if !ok {
		return nil
	}
	return infoMap(info)
}

func (b *bridge) relations([]js.Value) any {
	v := &b.app.view
	var out []any
	for i, r := range b.app.sim.Relations() {
		m := map[string]any{
			"index": i, "name": r.Name, "color": v.relColor(i).Hex(),
			"blocks": uint32(r.NBlocks[sim.MainForkNum]), "permanent": r.Permanent,
		}
		if w := b.app.watch; w != nil {
			m["dropped"] = i < w.Relations()
		}
		out = append(out, m)
	}
	return out
}

func (b *bridge) snapshotHash([]js.Value) any {
	a := b.app
	if a.changes != b.hashAt || b.hash == "" {
		b.hash, b.hashAt = fmt.Sprintf("%016x", a.sim.Hash()), a.changes
	}
	return b.hash
}

// viewMap describes zoom and pan for the page's zoom buttons and gestures.
func (b *bridge) viewMap() map[string]any {
	l := b.app.view.layout
	z := l.Zoom()
	return map[string]any{
		"zoomed": l.Zoomed(), "label": z.String(), "cell": z.Cell, "block": z.Block,
		"canZoomIn": l.Level < len(grid.Zooms)-1, "canZoomOut": l.Zoomed(),
		"width": l.W, "height": l.H, "cols": l.Cols, "rows": l.Rows,
	}
}

func (b *bridge) zoom(args []js.Value) any {
	steps, ok := number(arg(args, 0))
	if !ok || math.IsNaN(steps) {
		return fail("zoom takes a number of steps: positive zooms in, negative out")
	}
	steps = min(max(math.Trunc(steps), -100), 100)
	v := &b.app.view
	x, okx := number(arg(args, 1))
	y, oky := number(arg(args, 2))
	if cx, cy, ok := b.host.clientToCanvas(x, y, v.w, v.h); okx && oky && ok {
		v.setLayout(v.layout.ZoomAt(int(steps), cx, cy))
	} else {
		v.setLayout(v.layout.ZoomCentre(int(steps)))
	}
	return b.moved()
}

func (b *bridge) pan(args []js.Value) any {
	dx, ok1 := number(arg(args, 0))
	dy, ok2 := number(arg(args, 1))
	if !ok1 || !ok2 || math.IsNaN(dx) || math.IsNaN(dy) {
		return fail("pan takes two numbers of pixels, dx and dy")
	}
	clampPx := func(d float64) int { return int(min(max(math.Round(d), -1e6), 1e6)) }
	v := &b.app.view
	v.setLayout(v.layout.PanBy(clampPx(dx), clampPx(dy)))
	return b.moved()
}

func (b *bridge) fit([]js.Value) any {
	v := &b.app.view
	v.setLayout(grid.FitBelow(v.layout.N, max(v.w, 1), max(v.h, 1), v.layout.Below))
	return b.moved()
}

func (b *bridge) view([]js.Value) any { return b.viewMap() }

// moved returns the new view after zoom, pan or fit; subscribers hear of it with the next
// notification.
func (b *bridge) moved() any {
	b.dirty = true
	return b.viewMap()
}

func (b *bridge) highlight(args []js.Value) any {
	x, ok := number(arg(args, 0))
	if !ok || x != math.Trunc(x) || x < 0 || x > math.MaxInt32 {
		x = -1
	}
	b.app.view.setHighlight(int(x))
	return map[string]any{"ok": true, "buffer": b.app.view.hilite}
}

func (b *bridge) setTheme(args []js.Value) any {
	name := text(arg(args, 0))
	t, ok := grid.ThemeByName(name)
	b.app.view.setTheme(t)
	if !ok {
		return map[string]any{"ok": false, "error": fmt.Sprintf("theme %q is not light or dark; using light", name), "theme": t.Name}
	}
	return map[string]any{"ok": true, "theme": t.Name}
}

func (b *bridge) setReducedMotion(args []js.Value) any {
	reduced := arg(args, 0).Truthy()
	b.app.view.setReduced(reduced)
	return map[string]any{"ok": true, "reducedMotion": reduced}
}

// swatch paints one legend cell with the grid's own painter, so the legend always matches
// the grid: {rel: index or -1, usage, dirty, pinned, hand, read: 0–1, write: 0–1, drop: 0–1,
// size}, or one of the drop lab's marks: {mark: "cursor", size} (grid.Marks).
func (b *bridge) swatch(args []js.Value) any {
	spec := arg(args, 0)
	get := func(k string, def float64) float64 {
		if spec.Type() != js.TypeObject {
			return def
		}
		if x, ok := number(spec.Get(k)); ok && !math.IsNaN(x) {
			return x
		}
		return def
	}
	flag := func(k string) bool { return spec.Type() == js.TypeObject && spec.Get(k).Truthy() }
	v := &b.app.view
	size := int(min(max(get("size", 24), 8), 128))
	var px []byte
	if spec.Type() == js.TypeObject && !missing(spec.Get("mark")) {
		theme := v.theme.DropLab()
		var ok bool
		if px, ok = grid.PaintMark(theme, text(spec.Get("mark")), size); !ok {
			return fail(fmt.Sprintf("mark %q is not one of %s", text(spec.Get("mark")), strings.Join(grid.Marks, ", ")))
		}
	} else {
		rel := int(min(max(get("rel", 0), -1), math.MaxInt32))
		if rel >= 0 {
			rel = min(v.relIndex(rel), grid.MaxRelCode-1)
		}
		usage := int(min(max(get("usage", 5), 0), 5))
		sw := grid.Swatch{
			Code:  grid.MakeCode(rel, usage, flag("dirty"), flag("pinned")),
			Read:  min(max(get("read", 0), 0), 1),
			Write: min(max(get("write", 0), 0), 1),
			Drop:  min(max(get("drop", 0), 0), 1),
			Hand:  flag("hand"),
		}
		px = grid.PaintSwatch(v.theme, v.nrel, sw, size)
	}
	data := global.Get("Uint8ClampedArray").New(len(px))
	js.CopyBytesToJS(global.Get("Uint8Array").New(data.Get("buffer")), px)
	return map[string]any{"width": size, "height": size, "data": data}
}
