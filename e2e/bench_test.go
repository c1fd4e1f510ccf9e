//go:build !js

package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bufferscope/bufferscope/internal/benchdata"
	"github.com/bufferscope/bufferscope/sim/lab"
	"github.com/bufferscope/bufferscope/sim/labs"
	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/heapprofiler"
	cdpnetwork "github.com/chromedp/cdproto/network"
	cdppage "github.com/chromedp/cdproto/page"
	cdpruntime "github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// The browser benchmark: make bench runs TestBrowserBench with BUFFERSCOPE_BENCH_OUT naming
// the file it writes (internal/benchdata), which build bench-report turns into
// docs/benchmarks.md. It measures; it asserts nothing about speed. Without the variable it
// skips, so make test never pays for it.
const (
	benchOutVar      = "BUFFERSCOPE_BENCH_OUT"
	benchDurationVar = "BUFFERSCOPE_BENCH_ENDURANCE" // each lab's endurance series, 30m for the figure
	benchRunsVar     = "BUFFERSCOPE_BENCH_RUNS"      // cold loads of each page
)

// benchScript runs in every page of a benchmark tab before the page's own scripts. It keeps
// in window.__bench the Long Tasks API's entries, weak references to every WebAssembly
// memory the page instantiates (so that a dropped instance can be collected and stops
// counting), the moment of the first frame (the page's data-first-frame stamp, or its
// data-ready), and the worker's jobs: when each was posted, whether progress came, when its
// answer did.
const benchScript = `(() => {
  const b = window.__bench = { longTasks: [], mems: [], firstFrame: 0, jobs: [], workerReady: 0 };
  try {
    new PerformanceObserver((l) => { for (const e of l.getEntries()) b.longTasks.push(e.duration); })
      .observe({ type: 'longtask', buffered: true });
  } catch (e) {}
  const keep = (r) => {
    const inst = r && (r.instance || r);
    const m = inst && inst.exports && inst.exports.mem;
    if (m instanceof WebAssembly.Memory) b.mems.push(new WeakRef(m));
    return r;
  };
  for (const f of ['instantiate', 'instantiateStreaming']) {
    const orig = WebAssembly[f];
    if (orig) WebAssembly[f] = function (...a) { return orig.apply(this, a).then(keep); };
  }
  const look = () => {
    const d = document.body && document.body.dataset;
    if (d && (d.firstFrame || d.ready)) { b.firstFrame = Number(d.firstFrame) || performance.now(); return; }
    requestAnimationFrame(look);
  };
  requestAnimationFrame(look);
  const W = window.Worker;
  if (typeof W === 'function') window.Worker = class extends W {
    constructor(...a) {
      super(...a);
      this.addEventListener('message', (e) => {
        const d = e.data || {};
        if (d.type === 'ready') b.workerReady = performance.now();
        const j = b.jobs.find((j) => j.id === d.id && !j.end);
        if (!j) return;
        if (d.type === 'progress') j.progress = true;
        if (d.type === 'result' || d.type === 'error' || d.type === 'cancelled') { j.end = performance.now(); j.reply = d.type; }
      });
    }
    postMessage(m, ...r) {
      if (m && typeof m === 'object' && m.lab && m.id) b.jobs.push({ id: m.id, kind: m.type, args: JSON.parse(JSON.stringify(m)), start: performance.now() });
      return super.postMessage(m, ...r);
    }
  };
})();`

// benchTab opens a tab for the benchmark: the page's HTTP cache off, so every load is a
// first visit, and benchScript in every document.
func benchTab(t *testing.T) *page {
	t.Helper()
	p := newTabWith(t, tabOptions{limit: 3 * time.Hour})
	p.do(waitTimeout, "preparing the benchmark tab", chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		if _, err := cdp.Call(ctx, tg, cdpnetwork.SetCacheDisabled, cdpnetwork.SetCacheDisabledParams{CacheDisabled: true}); err != nil {
			return err
		}
		_, err := cdp.Call(ctx, tg, cdppage.AddScriptToEvaluateOnNewDocument, cdppage.AddScriptToEvaluateOnNewDocumentParams{Source: benchScript})
		return err
	}))
	return p
}

// transferred is what the page's document and resources came to over the wire: headers and
// compressed bodies as Resource Timing counts them, the part of it that was WebAssembly, and
// when the last WebAssembly byte arrived (responseEnd, ms from navigation).
const transferred = `(() => {
  const all = performance.getEntriesByType('navigation').concat(performance.getEntriesByType('resource'));
  let bytes = 0, wasm = 0, wasmEnd = 0;
  for (const e of all) {
    bytes += e.transferSize;
    if (/\.wasm(\?|$)/.test(e.name)) { wasm += e.transferSize; wasmEnd = Math.max(wasmEnd, e.responseEnd); }
  }
  return [bytes, wasm, wasmEnd];
})()`

// wire is what a tab has fetched since countBytes.
type wire struct {
	Bytes float64 // documents and resources, its frames' too: headers and compressed bodies
	WASM  float64 // of which WebAssembly fetched (a HEAD request for its size is not)
	// WASMGets counts the requests for WebAssembly, whether the network or a cache answered.
	WASMGets int
}

// countBytes counts what the tab fetches from now on (Network.loadingFinished's encoded
// lengths) and returns a function that reads the totals so far.
func (p *page) countBytes() func() wire {
	var mu sync.Mutex
	urls := map[cdpnetwork.RequestID]string{}
	sizes := map[cdpnetwork.RequestID]float64{}
	sent := chromedp.Events(p.ctx, cdpnetwork.RequestWillBeSent)
	done := chromedp.Events(p.ctx, cdpnetwork.LoadingFinished)
	go func() {
		for e, err := range sent {
			if err != nil {
				return
			}
			if e.Request != nil {
				mu.Lock()
				urls[e.RequestID] = e.Request.Method + " " + e.Request.URL
				mu.Unlock()
			}
		}
	}()
	go func() {
		for e, err := range done {
			if err != nil {
				return
			}
			mu.Lock()
			sizes[e.RequestID] += e.EncodedDataLength
			mu.Unlock()
		}
	}()
	isWASM := func(u string) bool { return strings.HasPrefix(u, "GET ") && strings.Contains(u, ".wasm") }
	return func() (w wire) {
		mu.Lock()
		defer mu.Unlock()
		for id, n := range sizes {
			w.Bytes += n
			if isWASM(urls[id]) {
				w.WASM += n
			}
		}
		for _, u := range urls {
			if isWASM(u) {
				w.WASMGets++
			}
		}
		return w
	}
}

// jsonOf writes v as JSON, for a script.
func jsonOf(v any) string {
	b, _ := json.Marshal(v) // the tests' own values
	return string(b)
}

// memory forces a garbage collection and returns the page's live WebAssembly memories and
// its JS heap in use, in bytes.
func (p *page) memory() (wasm, js float64) {
	p.t.Helper()
	p.do(waitTimeout, "collecting garbage", chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, heapprofiler.CollectGarbage, cdp.Empty{})
		return err
	}))
	wasm = eval[float64](p, `window.__bench.mems.map((w) => w.deref()).filter(Boolean).reduce((s, m) => s + m.buffer.byteLength, 0)`)
	var heap cdpruntime.GetHeapUsageResult
	p.do(waitTimeout, "reading the heap", chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		var err error
		heap, err = cdp.Call(ctx, tg, cdpruntime.GetHeapUsage, cdp.Empty{})
		return err
	}))
	return wasm, heap.UsedSize
}

// longTasks returns the long tasks seen since the last call.
func (p *page) longTasks() []float64 {
	return eval[[]float64](p, `window.__bench.longTasks.splice(0)`)
}

func benchDuration(t *testing.T) time.Duration {
	d := 2 * time.Minute
	if s := os.Getenv(benchDurationVar); s != "" {
		var err error
		if d, err = time.ParseDuration(s); err != nil || d < 10*time.Second {
			t.Fatalf("%s=%q: want a duration of at least 10s, such as 30m", benchDurationVar, s)
		}
	}
	return d
}

// TestBrowserBench measures the site in headless Chromium for make bench.
func TestBrowserBench(t *testing.T) {
	out := os.Getenv(benchOutVar)
	if out == "" {
		t.Skipf("the browser benchmark runs from make bench (%s names its output)", benchOutVar)
	}
	runs := 3
	if s := os.Getenv(benchRunsVar); s != "" {
		fmt.Sscan(s, &runs)
		runs = max(runs, 1)
	}
	d := benchDuration(t)
	r := &benchdata.Browser{
		Date:     time.Now().UTC().Format(time.DateOnly),
		Machine:  fmt.Sprintf("%s/%s, %d CPUs", runtime.GOOS, runtime.GOARCH, runtime.NumCPU()),
		Duration: d.String(),
	}
	if v, err := chromedp.CallBrowser(suite.browser, browser.GetVersion, cdp.Empty{}); err == nil {
		r.Browser = v.Product
	}
	names := labs.Names()

	// The bare Ebiten app is built with the app's flags and served beside it by
	// build serve -test-hooks (build/bare.go).
	pages := []struct{ name, path string }{{"page", "/"}, {"bare", "/bench/bare/"}}
	for _, pg := range pages {
		r.FirstView = append(r.FirstView, benchdata.Load{Name: pg.name, Path: pg.path})
	}
	for range runs { // alternately, so that both see the machine alike
		for i, pg := range pages {
			t.Run("firstview-"+pg.name, func(t *testing.T) {
				p := benchTab(t)
				p.navigate(pg.path) // the bare app has no data-ready: wait for the first frame's stamp
				ms := waitJS[float64](p, loadTimeout, "the first frame", `window.__bench.firstFrame`)
				bw := eval[[]float64](p, transferred)
				time.Sleep(time.Second) // the tasks right after the first frame belong to the open too
				longest := 0.0
				for _, d := range p.longTasks() {
					longest = max(longest, d)
				}
				l := &r.FirstView[i]
				l.MS, l.Bytes, l.WASM = append(l.MS, ms), append(l.Bytes, bw[0]), append(l.WASM, bw[1])
				l.LongestTask = append(l.LongestTask, longest)
				l.WASMEndMS = append(l.WASMEndMS, bw[2])
			})
		}
	}
	t.Run("embed", func(t *testing.T) {
		l := benchdata.Load{Name: "embed", Path: "/embed.html"}
		for range runs {
			p := benchTab(t)
			wire := p.countBytes()
			p.navigate(l.Path)
			waitJS[bool](p, loadTimeout, "the still", `document.body.dataset.still === "1" && document.querySelector("#still img").complete`)
			p.waitFrames(30, 2*time.Second) // settled, with nothing clicked
			w := wire()
			l.Bytes, l.WASM = append(l.Bytes, w.Bytes), append(l.WASM, w.WASM)
			// Then the reader plays it: the time from the click to the simulator's first frame.
			clicked := eval[float64](p, `(document.querySelector("#still-play").click(), performance.now())`)
			p.waitReady()
			l.MS = append(l.MS, eval[float64](p, `window.__bench.firstFrame`)-clicked)
			w = wire()
			l.PlayedBytes, l.PlayedWASM = append(l.PlayedBytes, w.Bytes), append(l.PlayedWASM, w.WASM)
		}
		r.Embeds = append(r.Embeds, l)
	})
	t.Run("embed-host", func(t *testing.T) {
		// A documentation page with an embed of each lab, as the Embed dialog writes them, but
		// loaded at once: the dialog's loading=lazy would load only those in view, and the
		// target is the page whose reader has scrolled past all four. The host is a missing
		// page of the site, whose own bytes are not counted: about:blank is no site, and the
		// embed's frame-ancestors * does not let it frame; a page of another site would put
		// the frames in processes of their own, whose requests this tab does not see.
		l := benchdata.Load{Name: fmt.Sprintf("host page with %d embeds", len(names)), Path: "a page + " + strings.Join(names, ", ")}
		for range runs {
			p := benchTab(t)
			p.console.expect(`404 \(Not Found\)`, "the host is a missing page")
			p.navigate("/no-such-page")
			wire := p.countBytes()
			eval[any](p, fmt.Sprintf(`(() => {
				window.stills = 0;
				addEventListener("message", (e) => { if (e.data && e.data.type === "still") stills++; });
				for (const name of %s) {
					const f = document.createElement("iframe");
					f.src = %q + "embed.html?lab=" + name; f.width = 700; f.height = 450;
					document.body.append(f);
				}
			})()`, jsonOf(names), p.base))
			waitJS[bool](p, loadTimeout, "every embed's still", fmt.Sprintf(`stills === %d`, len(names)))
			p.waitFrames(30, 2*time.Second)
			w := wire()
			l.Bytes, l.WASM = append(l.Bytes, w.Bytes), append(l.WASM, w.WASM)
		}
		r.Embeds = append(r.Embeds, l)
	})
	t.Run("real", func(t *testing.T) {
		for range runs {
			r.Real = append(r.Real, benchReal(t))
		}
	})
	for _, name := range names {
		t.Run("pool-"+name, func(t *testing.T) { benchPools(t, r, name) })
		t.Run("frames-"+name, func(t *testing.T) { benchFrames(t, r, name) })
		t.Run("experiments-"+name, func(t *testing.T) { benchExperiments(t, r, name) })
	}
	// The endurance series run side by side, each lab in a tab of its own, so that 30 minutes
	// of each take 30 minutes: each series compares its lab's speed and memory at the end with
	// its own at the start, on the same shared machine.
	var mu sync.Mutex
	t.Run("endurance", func(t *testing.T) {
		for _, name := range names {
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				e := benchEndurance(t, name, d)
				mu.Lock()
				defer mu.Unlock()
				r.Endurance = append(r.Endurance, e)
			})
		}
	})
	slices.SortFunc(r.Endurance, func(a, b benchdata.Endurance) int { return slices.Index(names, a.Lab) - slices.Index(names, b.Lab) })
	r.SideBySide = true
	if err := r.Write(out); err != nil {
		t.Fatal(err)
	}
}

// Pool sizes of the long-task and memory series: the default, and the largest the page takes.
const (
	benchSmall = "128MB"
	benchBig   = "100GB"
)

// benchReal opens the page, lets it settle and starts the real PostgreSQL 18 panel, as a
// reader pressing Start would: the bytes fetched from the click on and the time to ready.
func benchReal(t *testing.T) benchdata.Real {
	p := benchTab(t)
	p.load("/?play=0")
	if eval[bool](p, `document.getElementById('real-card').hidden || document.getElementById('real-start').disabled`) {
		t.Skip("this build has no real PostgreSQL (PGlite could not be fetched)")
	}
	p.waitFrames(30, 2*time.Second)
	// The tab's cache is off, but a dedicated worker fetches through the browser's HTTP cache,
	// which an earlier run filled: empty it, so every run counts a first start's bytes.
	p.do(waitTimeout, "emptying the browser's cache", chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, cdpnetwork.ClearBrowserCache, cdp.Empty{})
		return err
	}))
	clicked := eval[float64](p, `(document.getElementById('real-start').click(), performance.now())`)
	ready := waitJS[float64](p, 3*time.Minute, "PostgreSQL 18 to start in the panel", `(() => {
		if (!document.getElementById('real-version').textContent.includes('PostgreSQL 18.')) return false;
		return window.realReady ??= performance.now();
	})()`)
	// The worker's fetches are its own Resource Timing's (the tab's network events do not
	// see them); the worker's script is the page's.
	page := eval[float64](p, fmt.Sprintf(`performance.getEntriesByType('resource').filter((e) => e.startTime >= %v).reduce((n, e) => n + e.transferSize, 0)`, clicked))
	card := eval[map[string]string](p, `({...document.getElementById('real-card').dataset})`)
	var worker, ms float64
	fmt.Sscan(card["transferred"], &worker)
	fmt.Sscan(card["startMs"], &ms)
	if worker == 0 {
		t.Errorf("the worker reports no bytes fetched (%v)", card)
	}
	return benchdata.Real{Bytes: page + worker, MS: ready - clicked, WorkerMS: ms}
}

// benchPools opens a lab at 128MB, builds a 100GB pool, plays it and goes back, recording
// the long tasks of each state and the tab's memory at 128MB, at 100GB and back.
func benchPools(t *testing.T, r *benchdata.Browser, name string) {
	p := benchTab(t)
	p.load("/?lab=" + name + "&shared_buffers=" + benchSmall)
	var origin float64 // the document's performance.timeOrigin at the last state: a reload changes it
	tasks := func(state string) {
		p.waitFrames(10, time.Second)
		o := eval[float64](p, `performance.timeOrigin`)
		r.LongTasks = append(r.LongTasks, benchdata.LongTasks{Lab: name, State: state, MS: p.longTasks(), Opens: o != origin})
		origin = o
	}
	m := benchdata.Memory{Lab: name}
	p.waitFrames(60, 3*time.Second)
	tasks("open at " + benchSmall + " and play 3 s")
	m.Fresh.WASM, m.Fresh.JS = p.memory()
	size := func(to string) {
		// From a timer, so that a load that holds the thread shows as a long task rather than as
		// a call that outlasts the test's wait. The page may start the simulator again to give
		// memory back (a reload): the wait reads whichever document is there.
		eval[any](p, fmt.Sprintf(`(setTimeout(() => bufferscope.load({...bufferscope.params().params, shared_buffers: %q})), 0)`, to))
		p.waitAcrossReload(5*time.Minute, "the pool of "+to, fmt.Sprintf(
			`document.body?.dataset.ready === "1" && !document.body.dataset.restarting && bufferscope.stats().sharedBuffers === %q && document.querySelector("#progress").hidden || !document.querySelector("#error-panel").hidden`, to))
	}
	size(benchBig)
	tasks("build " + benchBig)
	m.BigNB = eval[float64](p, `bufferscope.stats().nbuffers`)
	eval[any](p, `(bufferscope.play(), 0)`)
	p.waitFrames(60, 3*time.Second)
	tasks("play at " + benchBig + " for 3 s")
	m.Big.WASM, m.Big.JS = p.memory()
	size(benchSmall)
	tasks("back to " + benchSmall)
	p.waitFrames(30, 2*time.Second)
	m.Back.WASM, m.Back.JS = p.memory()
	r.Memory = append(r.Memory, m)
}

// waitAcrossReload waits until cond is true in the tab, for at most timeout, through
// reloads: an evaluation that fails because the document went is tried again.
func (p *page) waitAcrossReload(timeout time.Duration, what, cond string) {
	p.t.Helper()
	end := time.Now().Add(timeout)
	var last error
	for time.Now().Before(end) {
		ctx, cancel := context.WithTimeout(p.ctx, 10*time.Second)
		ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => { try { return Boolean(`+cond+`); } catch { return false; } })()`))
		cancel()
		if err == nil && ok {
			return
		}
		last = err
		time.Sleep(pollInterval)
	}
	p.fatalf("waiting %v for %s (%s): %v", timeout, what, cond, last)
}

// benchFrameCells is the pool of the frame-time series: 1GB, 131,072 buffers, each a cell.
const benchFrameCells = 131072

// benchFrames plays a lab at 131,072 buffers for 10 s at its default speed and samples the
// Go time of a frame, as the page averages it each second: one tick's Update (the
// simulation and, when it paints, the painting; updateMs includes paintMs) plus one Draw.
func benchFrames(t *testing.T, r *benchdata.Browser, name string) {
	p := benchTab(t)
	p.load("/?lab=" + name + "&shared_buffers=1GB")
	eval[any](p, `(bufferscope.play(), 0)`)
	p.waitFrames(30, 2*time.Second)
	f := benchdata.Frames{Lab: name, Cells: int(eval[float64](p, `bufferscope.stats().nbuffers`))}
	for range 10 {
		p.waitFrames(1, time.Second)
		ms := eval[[]float64](p, `(s => [s.updateMs + s.drawMs, s.paintMs + s.drawMs])(bufferscope.stats())`)
		f.MS, f.PaintMS = append(f.MS, ms[0]), append(f.PaintMS, ms[1])
		eval[any](p, `(bufferscope.stats().playing || bufferscope.play(), 0)`)
	}
	r.Frames = append(r.Frames, f)
}

// benchEndurance plays a lab at full speed for d, sampling its speed and the tab's memory
// every 30 s (or d/4 when d is shorter than 2 minutes). A run that ends is started again.
func benchEndurance(t *testing.T, name string, d time.Duration) benchdata.Endurance {
	p := newTabWith(t, tabOptions{limit: d + 10*time.Minute})
	p.do(waitTimeout, "preparing the tab", chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, cdppage.AddScriptToEvaluateOnNewDocument, cdppage.AddScriptToEvaluateOnNewDocumentParams{Source: benchScript})
		return err
	}))
	p.load("/?lab=" + name)
	eval[any](p, `(bufferscope.setSpeed("max"), bufferscope.play(), 0)`)
	every := 30 * time.Second
	if d < 2*time.Minute {
		every = d / 4
	}
	e := benchdata.Endurance{Lab: name}
	start := time.Now()
	steps, last, lastAt := 0.0, eval[float64](p, `bufferscope.stats().step`), time.Now()
	next := start.Add(every)
	for time.Since(start) < d {
		// Often enough that a lab whose run ends (the drop lab's ends within a second at full
		// speed) sits idle at its end for little of the time.
		time.Sleep(100 * time.Millisecond)
		// A run that has ended starts again from its start, as the reader's Reset and Play would.
		st := eval[[]any](p, `(s => (s.done && (bufferscope.reset(), bufferscope.play()), [s.step, s.playing, s.done]))(bufferscope.stats())`)
		step, _ := st[0].(float64)
		steps += max(step-last, 0)
		last = step
		if done, _ := st[2].(bool); done {
			last = 0
		} else if playing, _ := st[1].(bool); !playing {
			eval[any](p, `(bufferscope.play(), 0)`)
		}
		if time.Now().Before(next) {
			continue
		}
		s := benchdata.Sample{T: time.Since(start).Seconds(), Step: step, StepsSec: steps / time.Since(lastAt).Seconds()}
		s.WASM, s.JS = p.memory()
		e.Samples = append(e.Samples, s)
		steps, lastAt, next = 0, time.Now(), next.Add(every)
	}
	return e
}

// benchExperiments opens a lab and lets its headline chart be computed in the worker
// (starting it when the lab waits to be asked), then runs every job the page asked for
// natively, here, with the same arguments.
func benchExperiments(t *testing.T, r *benchdata.Browser, name string) {
	p := benchTab(t)
	p.load("/?lab=" + name + "&play=0")
	posted := `new Promise((ok) => setTimeout(() => ok(window.__bench.jobs.length > 0), 5000))`
	if !eval[bool](p, posted) {
		// The lab waits to be asked: press its charts' run buttons.
		eval[float64](p, `(bs => (bs.forEach((b) => b.click()), bs.length))([...document.querySelectorAll(".job-start:not([hidden]) button, .chart-card button[id$='-run']:not([disabled])")])`)
		if !eval[bool](p, posted) {
			return // a lab without a chart of its own (free play)
		}
	}
	type job struct {
		Kind     string         `json:"kind"`
		Args     map[string]any `json:"args"`
		Start    float64        `json:"start"`
		End      float64        `json:"end"`
		Reply    string         `json:"reply"`
		Progress bool           `json:"progress"`
	}
	waitJS[bool](p, 15*time.Minute, "the lab's jobs to end", `window.__bench.jobs.length > 0 && window.__bench.jobs.every((j) => j.end)`)
	var jobs []job
	raw := eval[string](p, `JSON.stringify(window.__bench.jobs)`)
	if err := json.Unmarshal([]byte(raw), &jobs); err != nil {
		t.Fatal(err)
	}
	ready := eval[float64](p, `window.__bench.workerReady`)
	l, _ := labs.ByName(name)
	jobber, ok := l.(lab.Jobber)
	if !ok {
		return
	}
	for _, j := range jobs {
		if j.Reply != "result" {
			continue
		}
		fn := jobber.Jobs()[j.Kind]
		if fn == nil {
			t.Errorf("the page asked lab %s for job %q, which it does not have", name, j.Kind)
			continue
		}
		args := lab.Args{}
		for k, v := range j.Args {
			switch v := v.(type) {
			case []any:
				list := make([]float64, len(v))
				for i, x := range v {
					list[i], _ = x.(float64)
				}
				args[k] = list
			default:
				args[k] = v
			}
		}
		t0 := time.Now()
		clock := func() float64 { return time.Since(t0).Seconds() }
		if _, err := fn(args, clock, func(int, int, string, bool) bool { return true }); err != nil {
			t.Errorf("lab %s job %s natively: %v", name, j.Kind, err)
			continue
		}
		native := time.Since(t0).Seconds()
		delete(j.Args, "id")
		r.Experiments = append(r.Experiments, benchdata.Experiment{Lab: name, Job: j.Kind, Args: j.Args,
			BrowserS: (j.End - max(j.Start, ready)) / 1000, NativeS: native, Progress: j.Progress})
	}
}
