package app

import (
	"fmt"
	"runtime"
	"time"

	"github.com/bufferscope/bufferscope/sim"
	"github.com/bufferscope/bufferscope/sim/lab"
	"github.com/bufferscope/bufferscope/sim/param"
)

// PacedBuffers is the pool, in buffers (4GB), from which a new run is built as a job, a
// slice each tick, instead of at once: building 100GB takes WebAssembly several seconds,
// which in one turn would hold the page, its controls and its animation for all of them.
// Below it a build takes under about 100 ms and happens at once.
const PacedBuffers = 1 << 19

// builder builds one run in a goroutine of its own, a slice at a time. The pool's long
// loops call sim.Pace (NewPool's descriptors, Prewarm's pages); its pacer notes how far they
// have got and, once the slice's time is up, hands control back to the tick and waits to be
// woken for the next slice. Only one side ever runs: the tick waits while the builder works,
// and the builder waits while the tick and the page run, so App stays single-threaded, and
// the pacer is set only while the builder works, so that nothing else built in between
// (a small run, a still) is paced.
type builder struct {
	wake   chan deadline // the tick's turn ends: work until the deadline, or stop if zero
	paused chan struct{} // the builder's slice ends: it waits, or it has finished

	// Written by the builder, read by the tick once paused has fired.
	stage       string
	done, total int
	finished    bool
	run         lab.Run
	err         error
	panicked    any // a panic of the lab's New, raised again on the tick's side

	cancelled bool // set by the tick before it wakes the builder to stop
	until     deadline
}

// startBuild starts building lab l from values v; nothing runs until the first slice.
func startBuild(l lab.Lab, v param.Values) *builder {
	b := &builder{wake: make(chan deadline), paused: make(chan struct{}), stage: "Allocating the pool"}
	go b.work(l, v)
	return b
}

func (b *builder) work(l lab.Lab, v param.Values) {
	defer func() {
		// The last word, also when the pacer ended the goroutine (cancel) or New panicked.
		if p := recover(); p != nil {
			b.panicked = p
		}
		sim.SetPacer(nil)
		b.finished = true
		b.paused <- struct{}{}
	}()
	if !b.resume() {
		return
	}
	b.run, b.err = l.New(v)
}

// resume waits for the tick to give the builder a slice, and reports false when it was
// told to stop instead.
func (b *builder) resume() bool {
	b.until = <-b.wake
	if b.cancelled {
		return false
	}
	sim.SetPacer(b.pace)
	return true
}

// pace is the builder's sim.Pacer: it notes the progress and, once the slice's time has
// passed, pauses until the next. Told to stop, it ends the goroutine (runtime.Goexit):
// the half-built pool is garbage, and the deferred last word in work still runs.
func (b *builder) pace(stage string, done, total int) {
	b.stage, b.done, b.total = stage, done, total
	if !b.until.passed() {
		return
	}
	sim.SetPacer(nil)
	b.paused <- struct{}{}
	if !b.resume() {
		runtime.Goexit()
	}
}

// slice lets the builder work until deadline d (a zero deadline: to the end), and reports
// whether it has finished.
func (b *builder) slice(d deadline) bool {
	if b.finished {
		return true
	}
	b.wake <- d
	<-b.paused
	if b.panicked != nil {
		panic(b.panicked)
	}
	return b.finished
}

// stop ends the builder where it is and lets what it built go.
func (b *builder) stop() {
	if b.finished {
		return
	}
	b.cancelled = true
	b.wake <- deadline{}
	<-b.paused
	b.run = nil
}

// fraction is how far the loop under way has got, 0 to 1.
func (b *builder) fraction() float64 {
	if b.total <= 0 {
		return 0
	}
	return min(float64(b.done)/float64(b.total), 1)
}

// paced reports whether building lab l at values v is large enough to run as a job.
func paced(l lab.Lab, v param.Values) bool {
	return l.Params().Param("shared_buffers") != nil && lab.NBuffers(v) >= PacedBuffers
}

// startPaced starts building lab l from values v as a job, a slice each tick. The run in
// force stays until the new one is ready, when it is of the same lab and small enough to
// keep beside it; otherwise lab l at its defaults stands in meanwhile, so that everything
// the page asks is answered by the lab it shows. The timeline starts again when the new
// run takes over (runBuild).
func (a *App) startPaced(l lab.Lab, v param.Values) error {
	a.cancelBuild()
	if a.run == nil || a.lab.Info().Name != l.Info().Name || a.buffers() >= PacedBuffers {
		// Let the old pool go before a large one is built: two 100GB pools do not fit in
		// WebAssembly's 4GiB.
		if a.run != nil && a.buffers() >= PacedBuffers {
			a.run, a.lv = nil, nil
			a.view.release()
			runtime.GC()
		}
		d, _ := l.Params().Parse(nil)
		if err := a.construct(l, d); err != nil {
			return err
		}
		a.newTimeline()
		a.runs++
	}
	a.playing = false
	a.timeMsg = ""
	a.job = &job{kind: "build", label: "Building a pool of " + v.Text("shared_buffers"),
		build: startBuild(l, v), buildLab: l, buildValues: v, started: time.Now()}
	return nil
}

// runBuild gives the build under way a slice until deadline d; once it has finished, its
// run takes over, with a new timeline.
func (a *App) runBuild(d deadline) error {
	j := a.job
	if !j.build.slice(d) {
		a.changes++ // its progress moved: the page hears of it
		return nil
	}
	run, err := j.build.run, j.build.err
	a.job = nil
	a.changes++
	if err != nil {
		// The run in force stays, as when a small pool could not be built.
		a.timeMsg = fmt.Sprintf("The pool of %s could not be built: %v.", j.buildValues.Text("shared_buffers"), err)
		a.runs++ // the page showed the build's values; it reads the run's again
		return err
	}
	was := a.at()
	a.attach(j.buildLab, j.buildValues, run)
	a.newTimeline()
	a.runs++
	a.timeMsg = fmt.Sprintf("Built a pool of %s in %.1f s.", j.buildValues.Text("shared_buffers"), time.Since(j.started).Seconds())
	if was > 0 {
		a.timeMsg += fmt.Sprintf(" The run starts at step 0 (it was at step %s).", group(was))
	}
	if j.then != nil {
		a.job = j.then
		if a.job.kind == "seek" && a.job.target == 0 {
			a.job = nil // already there
		}
	}
	return nil
}

// building reports whether a pool is being built (a job of kind "build").
func (a *App) building() bool { return a.job != nil && a.job.build != nil }

// queue keeps seek or search j to start once the build under way has finished, from step
// 0 of the new run, and reports whether there was a build to wait for.
func (a *App) queue(j *job) bool {
	if !a.building() {
		return false
	}
	j.from = 0
	a.job.then = j
	return true
}

// cancelBuild stops the build under way, if there is one, and reports whether there was.
func (a *App) cancelBuild() bool {
	if !a.building() {
		return false
	}
	j := a.job
	j.build.stop()
	a.job = nil
	a.changes++
	// The page showed the values of the build; the run in force is another one, so it
	// counts as new, and the page reads its values again.
	a.runs++
	a.timeMsg = fmt.Sprintf("Cancelled building the pool of %s: the %s lab stays at shared_buffers %s.",
		j.buildValues.Text("shared_buffers"), a.lab.Info().Name, a.values.Text("shared_buffers"))
	return true
}

// SetMemoryBudget sets the most memory a run's pool may take (sim.PoolBytes), in bytes, and
// says in why where the figure comes from ("a quarter of the 4 GB this device reports"):
// Load refuses a larger pool before allocating it, and the run in force stays. 0 sets none.
func (a *App) SetMemoryBudget(bytes int64, why string) { a.budget, a.budgetWhy = bytes, why }

// overBudget returns why lab l at values v may not be built under the memory budget, or nil.
func (a *App) overBudget(l lab.Lab, v param.Values) error {
	if a.budget <= 0 || l.Params().Param("shared_buffers") == nil {
		return nil
	}
	n := lab.NBuffers(v)
	need := sim.PoolBytes(n)
	if need <= a.budget {
		return nil
	}
	// The largest pool that fits, in whole gigabytes (megabytes below one).
	step := 1 << 30 / sim.BLCKSZ
	if sim.PoolBytes(step) > a.budget {
		step = 1 << 20 / sim.BLCKSZ
	}
	fits := 0
	for k := step; sim.PoolBytes(k) <= a.budget; k += step {
		fits = k
	}
	choose := "a smaller pool"
	if fits >= sim.MinNBuffers {
		choose = sim.FormatSize(int64(fits)*sim.BLCKSZ) + " or less"
	}
	return fmt.Errorf("a pool of %s needs about %s of memory, more than the %s this simulator may use here (%s); nothing was allocated: choose %s",
		v.Text("shared_buffers"), megabytes(need), megabytes(a.budget), a.budgetWhy, choose)
}

// megabytes writes a byte count as "980 MB" or "1.9 GB".
func megabytes(b int64) string {
	if b >= 1<<30 {
		return fmt.Sprintf("%.1f GB", float64(b)/(1<<30))
	}
	return fmt.Sprintf("%d MB", (b+1<<19)>>20)
}
