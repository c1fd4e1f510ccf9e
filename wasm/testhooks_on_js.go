//go:build js && bufferscope_testhooks

package main

import (
	"fmt"
	"syscall/js"
)

// The test hooks: compiled only with the build tag bufferscope_testhooks, which only
// "go run ./build serve -test-hooks" passes (the browser tests' build). The site that
// readers get is built without it (build dist has no such flag), so these files are not in
// its wasm at all: nothing to reach by accident, and nothing to pay (testhooks_off_js.go
// has the empty stand-ins, which the compiler inlines away).

// armed is where the next panic asked by __panicForTest happens: "update" or "draw"; "" for
// none.
var armed string

// testHook panics when a panic was asked for at where.
func testHook(where string) {
	if armed == where {
		armed = ""
		panic(fmt.Sprintf("bufferscope test hook: a panic asked for in %s", where))
	}
}

// testMethods returns the bridge methods of the tests:
//
//	bufferscope.__panicForTest(where)   {ok, where}: a Go panic where the tests ask for one:
//	                                      "call" at once, inside this bridge call; "update" or
//	                                      "draw" in the next Update or Draw of Ebiten's loop;
//	                                      "goroutine" in a goroutine of its own, which nothing
//	                                      can recover: the Go program exits
func testMethods(*bridge) []method {
	return []method{{"__panicForTest", func(args []js.Value) any {
		where, _ := text(arg(args, 0))
		switch where {
		case "call":
			panic("bufferscope test hook: a panic asked for in a bridge call")
		case "update", "draw":
			armed = where
		case "goroutine":
			go func() { panic("bufferscope test hook: a panic asked for in a goroutine") }()
		default:
			return fail(fmt.Sprintf("__panicForTest takes \"call\", \"update\", \"draw\" or \"goroutine\", not %q", where))
		}
		return map[string]any{"ok": true, "where": where}
	}}}
}
