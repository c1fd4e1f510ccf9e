//go:build js

package main

import (
	"errors"
	"fmt"
	"math"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"syscall/js"
	"time"

	"github.com/bufferscope/bufferscope/sim/lab"
	"github.com/bufferscope/bufferscope/sim/labs"
)

// worker runs the page's jobs one at a time, in the order they came, and posts their
// messages.
type worker struct {
	post func(map[string]any)
	jobs map[int]*job // by id: the jobs waiting or running
	last *job         // the job that came last; the next waits for it
}

func newWorker(post func(map[string]any)) *worker {
	return &worker{post: post, jobs: map[int]*job{}}
}

// job is one request of the page, running in its own goroutine.
type job struct {
	id        int
	kind      string
	post      func(map[string]any)
	cancelled atomic.Bool
	done      chan struct{} // closed when the job has ended

	lastYield, lastPost time.Time
}

// Pacing of a job: it gives the event loop a turn at least every yieldEvery, so a cancel
// message gets through, and posts progress at most every postEvery (and at the end).
const (
	yieldEvery = 30 * time.Millisecond
	postEvery  = 50 * time.Millisecond
)

// handle takes one message from the page. It returns at once: jobs run in goroutines.
func (w *worker) handle(msg js.Value) {
	if msg.Type() != js.TypeObject {
		w.post(map[string]any{"type": "error", "id": 0, "message": "a message to the worker must be an object"})
		return
	}
	typ := ""
	if t := msg.Get("type"); t.Type() == js.TypeString {
		typ = t.String()
	}
	id := 0
	if v := msg.Get("id"); v.Type() == js.TypeNumber {
		id = v.Int()
	}
	if testMessage(typ, msg) {
		return
	}
	if typ == "cancel" {
		for jid, j := range w.jobs {
			if id == 0 || jid == id {
				j.cancelled.Store(true)
			}
		}
		return
	}
	var run func(*job) (map[string]any, error)
	fn, err := findJob(msg, typ)
	if err == nil {
		args := argsOf(msg)
		run = func(j *job) (map[string]any, error) { return fn(args, clock, j.progress) }
	}
	if _, busy := w.jobs[id]; busy && err == nil {
		err = fmt.Errorf("job %d is already waiting or running", id)
	}
	if err != nil {
		w.post(map[string]any{"type": "error", "id": id, "kind": typ, "message": err.Error()})
		return
	}
	w.start(id, typ, run)
}

// start runs a job once the jobs before it have ended, so that two large pools are never
// held at once and a measurement never shares the device with an experiment.
func (w *worker) start(id int, kind string, run func(*job) (map[string]any, error)) {
	prev := w.last
	j := &job{id: id, kind: kind, post: w.post, done: make(chan struct{})}
	w.last = j
	w.jobs[id] = j
	go func() {
		defer close(j.done)
		defer delete(w.jobs, id)
		if prev != nil {
			<-prev.done
		}
		j.lastYield = time.Now()
		res, err := j.guard(run)
		switch {
		case errors.Is(err, lab.ErrCancelled) || err == nil && j.cancelled.Load():
			w.post(map[string]any{"type": "cancelled", "id": id, "kind": kind})
		case err != nil:
			w.post(map[string]any{"type": "error", "id": id, "kind": kind, "message": err.Error()})
		default:
			res["type"], res["id"], res["kind"] = "result", id, kind
			w.post(res)
		}
		debug.FreeOSMemory() // return a large pool's pages before the next job
	}()
}

// guard runs the job, turning a panic (such as running out of memory in a huge pool) into
// an error the page can show.
func (j *job) guard(run func(*job) (map[string]any, error)) (res map[string]any, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("the experiment failed: %v", r)
		}
	}()
	if j.cancelled.Load() {
		return nil, lab.ErrCancelled
	}
	return run(j)
}

// progress posts how far the job is (at most every postEvery, and always at the end),
// gives the event loop a turn when the job has held it for yieldEvery or force is set, and
// reports whether the job should go on.
func (j *job) progress(done, total int, label string, force bool) bool {
	testHook()
	now := time.Now()
	if done == total || now.Sub(j.lastPost) >= postEvery || force {
		j.lastPost = now
		j.post(map[string]any{"type": "progress", "id": j.id, "kind": j.kind, "done": done, "total": total, "label": label})
	}
	if force || now.Sub(j.lastYield) >= yieldEvery {
		yieldToEventLoop()
		j.lastYield = time.Now()
	}
	return !j.cancelled.Load()
}

// yieldToEventLoop parks the calling goroutine until the worker's event loop has run the
// tasks waiting in it (a cancel message among them). Most turns wake through a
// MessageChannel, not a timer: time.Sleep becomes a setTimeout, and a setTimeout set from
// inside another one is held back to at least 4 ms once they nest five deep (the HTML
// standard's timer clamping), which cost a long job about a tenth of its time at one yield
// every 30 ms. But a loop of port messages can keep other task sources waiting (node drains
// up to a thousand port messages before it looks at its timers, and the job runs inside each
// one), so at least every timerEvery the turn is a timer's, which lets every source through.
func yieldToEventLoop() {
	wakeOnce.Do(func() {
		ch := js.Global().Get("MessageChannel").New()
		wakePort = ch.Get("port2")
		ch.Get("port1").Set("onmessage", js.FuncOf(func(js.Value, []js.Value) any {
			select {
			case woken <- struct{}{}:
			default:
			}
			return nil
		}))
	})
	if now := time.Now(); now.Sub(lastTimerTurn) >= timerEvery {
		time.Sleep(time.Millisecond)
		lastTimerTurn = time.Now()
		return
	}
	wakePort.Call("postMessage", nil)
	<-woken
}

// timerEvery is how long yields may go through the MessageChannel alone: a timer's turn
// (about 4 ms when clamped) at this interval costs a job under 2% of its time.
const timerEvery = 250 * time.Millisecond

// The channel yieldToEventLoop wakes through, made at its first use.
var (
	wakeOnce sync.Once
	wakePort js.Value
	woken    = make(chan struct{}, 1)

	lastTimerTurn time.Time // when a yield last went through a timer
)

// performance is the worker's performance object, whose now() is the clock of measurements.
var performance = js.Global().Get("performance")

// clock returns performance.now() in seconds.
func clock() float64 { return performance.Call("now").Float() / 1000 }

// Reading requests.

// findJob returns the job a message asks for: its lab's job named typ.
func findJob(msg js.Value, typ string) (lab.Job, error) {
	name := ""
	if v := msg.Get("lab"); v.Type() == js.TypeString {
		name = v.String()
	}
	l, ok := labs.ByName(name)
	if !ok {
		return nil, fmt.Errorf("message %q names no lab (lab %q is not one of %v)", typ, name, labs.Names())
	}
	j, ok := l.(lab.Jobber)
	if ok {
		if fn, ok := j.Jobs()[typ]; ok {
			return fn, nil
		}
	}
	return nil, fmt.Errorf("lab %q has no job %q", name, typ)
}

// argsOf reads a message's fields as a job's arguments: numbers, strings, booleans, and
// arrays of numbers; fields of other types are left out, and the job reports what it lacks.
func argsOf(msg js.Value) lab.Args {
	args := lab.Args{}
	keys := js.Global().Get("Object").Call("keys", msg)
	for i := range keys.Length() {
		k := keys.Index(i).String()
		v := msg.Get(k)
		switch v.Type() {
		case js.TypeNumber:
			args[k] = v.Float()
		case js.TypeString:
			args[k] = v.String()
		case js.TypeBoolean:
			args[k] = v.Bool()
		case js.TypeObject:
			if !js.Global().Get("Array").Call("isArray", v).Bool() || v.Length() > 1024 {
				continue
			}
			list := make([]float64, v.Length())
			for j := range list {
				if x := v.Index(j); x.Type() == js.TypeNumber {
					list[j] = x.Float()
				} else {
					list[j] = math.NaN() // not a number: the job refuses it
				}
			}
			args[k] = list
		}
	}
	return args
}
