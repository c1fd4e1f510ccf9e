//go:build js

package main

import (
	"errors"
	"fmt"
	"runtime/debug"
)

// A crash is a Go panic the app recovered: in a bridge call (bridge.guard), in Ebiten's
// Update or in its Draw (game.go). A panic is a bug, and after one nothing the simulator
// holds can be trusted, so the app stops for good: Update returns errCrashed, which ends
// Ebiten's game loop (the canvas keeps its last frame); the bridge refuses the calls that
// would change the run or its drawing and still answers the ones that read; and the page
// hears of it once, as a fatal "bufferscope:error" whose detail says where it happened and
// holds the panic and the Go stack, for the error panel's report. Only the first crash is
// reported: what follows it is its consequence.
type crash struct {
	where string // "update", "draw" or "call bufferscope.NAME"
	value string // the panic's value, as fmt prints it
	stack string // the Go stack of the goroutine that panicked
}

// crashed is the first crash, nil while all is well.
var crashed *crash

// errCrashed is what Update returns after a crash, to end Ebiten's game loop.
var errCrashed = errors.New("bufferscope: the game loop stopped after a Go panic")

// whereWords says in the reader's words what the app was doing at where.
func whereWords(where string) string {
	switch where {
	case "update":
		return "while it ran the simulation"
	case "draw":
		return "while it drew the grid"
	}
	return "while it answered the page (" + where + ")"
}

// recovered records r, a value recover returned at where, as the crash, and reports it. It
// must be called from the deferred function that recovered, so the stack it records is the
// one that panicked.
func recovered(where string, r any) {
	if crashed != nil {
		return
	}
	c := &crash{where: where, value: fmt.Sprint(r), stack: string(debug.Stack())}
	crashed = c
	if theGame != nil {
		theGame.app.Pause()
	}
	msg := "The simulator hit an internal error (a bug in bufferscope) " + whereWords(where) +
		", and stopped. Reload the page to start again; Copy details gives what a bug report needs."
	consoleError(fmt.Sprintf("bufferscope: Go panic %s: %s\n%s", whereWords(where), c.value, c.stack))
	dispatch("bufferscope:error", map[string]any{
		"message": msg, "fatal": true, "where": where, "panic": c.value, "stack": c.stack,
	})
}
