package sim

import "sync/atomic"

// A Pacer hears from the loops that build a large pool: NewPool as it sets up the
// descriptors, Prewarm as it loads pages, and a lab's own loops that call Pace. It is called
// every paceEvery units of work with what the loop is doing and how far it has got, so that
// a host that runs on one thread (the page's WebAssembly) can pause a long build between
// slices, let the browser draw its progress and answer the page, and cancel it. Natively
// nothing sets one.
type Pacer func(stage string, done, total int)

// paceEvery is how many units of work (descriptors, pages) a loop does between calls of
// the pacer: under a millisecond in WebAssembly once the memory is in use, and tens of them
// while a 100GB pool's pages are first touched (32,768 took 440 ms), and a negligible cost
// when no pacer is set.
const paceEvery = 1 << 11

var pacer atomic.Pointer[Pacer]

// SetPacer makes f the pacer, or sets none when f is nil, and returns the one it replaced.
// There is one for the process: the page builds one pool at a time.
func SetPacer(f Pacer) Pacer {
	var old *Pacer
	if f == nil {
		old = pacer.Swap(nil)
	} else {
		old = pacer.Swap(&f)
	}
	if old == nil {
		return nil
	}
	return *old
}

// Pace tells the pacer, if one is set, that the loop doing stage has done done of its
// total units; a loop calls it when done is a multiple of paceEvery (PaceDue).
func Pace(stage string, done, total int) {
	if f := pacer.Load(); f != nil {
		(*f)(stage, done, total)
	}
}

// PaceDue reports whether a loop that has done done units should call Pace now.
func PaceDue(done int) bool { return done%paceEvery == 0 }
