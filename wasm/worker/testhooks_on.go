//go:build js && bufferscope_testhooks

package main

import (
	"syscall/js"
	"time"
)

// The worker's test hooks: compiled only with the build tag bufferscope_testhooks, which
// only "go run ./build serve -test-hooks" passes (the browser tests' build); the site that
// readers get has none of this (testhooks_off.go has the empty stand-ins).

// dieArmed says the worker dies at the next progress of a job.
var dieArmed bool

// testMessage takes the tests' message {type: "__dieForTest", how: "panic"}: the next time
// a job reports progress, a goroutine panics, which nothing recovers, so the Go program
// exits mid-job as it would on a bug or on running out of memory. It reports whether msg was
// that message. (The worker script, site/js/worker/main.js, takes the other ways to die.)
func testMessage(typ string, msg js.Value) bool {
	if typ != "__dieForTest" || msg.Get("how").String() != "panic" {
		return false
	}
	dieArmed = true
	return true
}

// testHook runs at each progress of a job: it panics when asked to.
func testHook() {
	if !dieArmed {
		return
	}
	dieArmed = false
	go func() { panic("bufferscope test hook: the worker dies mid-job") }()
	time.Sleep(time.Millisecond) // let that goroutine run now
}
