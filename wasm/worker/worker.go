//go:build js

package main

import (
	"errors"
	"fmt"
	"runtime/debug"
	"sync/atomic"
	"syscall/js"
	"time"
)

// errCancelled is what a job returns when the page cancelled it.
var errCancelled = errors.New("cancelled")

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
	var run func(*job) (map[string]any, error)
	var err error
	switch typ {
	case "cancel":
		for jid, j := range w.jobs {
			if id == 0 || jid == id {
				j.cancelled.Store(true)
			}
		}
		return
	case "curve":
		var req curveRequest
		if req, err = parseCurveRequest(msg); err == nil {
			run = func(j *job) (map[string]any, error) { return runCurve(req, j.progress) }
		}
	case "measure":
		var req measureRequest
		if req, err = parseMeasureRequest(msg); err == nil {
			run = func(j *job) (map[string]any, error) { return runMeasure(req, clock, j.progress) }
		}
	default:
		err = fmt.Errorf("unknown message type %q", typ)
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
		case errors.Is(err, errCancelled) || err == nil && j.cancelled.Load():
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
		return nil, errCancelled
	}
	return run(j)
}

// progress posts how far the job is (at most every postEvery, and always at the end),
// gives the event loop a turn when the job has held it for yieldEvery or force is set, and
// reports whether the job should go on.
func (j *job) progress(done, total int, label string, force bool) bool {
	now := time.Now()
	if done == total || now.Sub(j.lastPost) >= postEvery || force {
		j.lastPost = now
		j.post(map[string]any{"type": "progress", "id": j.id, "kind": j.kind, "done": done, "total": total, "label": label})
	}
	if force || now.Sub(j.lastYield) >= yieldEvery {
		time.Sleep(time.Millisecond) // parks the goroutine: the worker's event loop runs
		j.lastYield = time.Now()
	}
	return !j.cancelled.Load()
}

// performance is the worker's performance object, whose now() is the clock of measurements.
var performance = js.Global().Get("performance")

// clock returns performance.now() in seconds.
func clock() float64 { return performance.Call("now").Float() / 1000 }

// Reading requests.

// intField reads a whole number field of msg within [lo, hi].
func intField(msg js.Value, name string, lo, hi int) (int, error) {
	v := msg.Get(name)
	if v.Type() != js.TypeNumber {
		return 0, fmt.Errorf("%s must be a number", name)
	}
	f := v.Float()
	if f != float64(int64(f)) || f < float64(lo) || f > float64(hi) {
		return 0, fmt.Errorf("%s %v is not a whole number from %d to %d", name, f, lo, hi)
	}
	return int(f), nil
}

// stringField reads a string field of msg, or def when it is missing.
func stringField(msg js.Value, name, def string) (string, error) {
	v := msg.Get(name)
	switch v.Type() {
	case js.TypeUndefined, js.TypeNull:
		return def, nil
	case js.TypeString:
		return v.String(), nil
	}
	return "", fmt.Errorf("%s must be a string", name)
}

// intsField reads an array of whole numbers, each within [lo, hi], or def when it is missing.
func intsField(msg js.Value, name string, lo, hi int, def []int) ([]int, error) {
	v := msg.Get(name)
	if v.IsUndefined() || v.IsNull() {
		return def, nil
	}
	if !js.Global().Get("Array").Call("isArray", v).Bool() {
		return nil, fmt.Errorf("%s must be an array", name)
	}
	n := v.Length()
	if n == 0 || n > maxPoints {
		return nil, fmt.Errorf("%s must have 1 to %d entries", name, maxPoints)
	}
	out := make([]int, n)
	for i := range out {
		x := v.Index(i)
		if x.Type() != js.TypeNumber || x.Float() != float64(int64(x.Float())) || x.Float() < float64(lo) || x.Float() > float64(hi) {
			return nil, fmt.Errorf("%s[%d] is not a whole number from %d to %d", name, i, lo, hi)
		}
		out[i] = x.Int()
	}
	return out, nil
}

// maxPoints bounds the sizes of one job.
const maxPoints = 64
