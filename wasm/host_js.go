//go:build js

package main

import (
	"math"
	"syscall/js"
)

var (
	global   = js.Global()
	document = global.Get("document")
	promise  = global.Get("Promise")
)

// host is the element Ebiten's canvas lives in, and the canvas. Ebiten's browser port
// appends its canvas to document.body while the package initialises and sizes it to the
// body. The site's loader (site/js/host.js) makes document.body answer with the grid's
// container while Go runs, so the canvas lands in the page layout and takes the container's
// size; without that loader the canvas simply fills the page.
type host struct {
	container js.Value
	canvas    js.Value
}

// findHost finds Ebiten's canvas. It must run while Go runs inside the loader, as main does.
func findHost() host {
	c := document.Get("body")
	h := host{container: c}
	if c.Truthy() {
		h.canvas = c.Call("querySelector", "canvas")
	}
	return h
}

// clientToCanvas converts client (viewport) coordinates to canvas pixels of a w×h canvas.
func (h host) clientToCanvas(x, y float64, w, hgt int) (int, int, bool) {
	if !h.canvas.Truthy() || math.IsNaN(x) || math.IsNaN(y) {
		return 0, 0, false
	}
	r := h.canvas.Call("getBoundingClientRect")
	rw, rh := r.Get("width").Float(), r.Get("height").Float()
	if rw <= 0 || rh <= 0 {
		return 0, 0, false
	}
	cx := (x - r.Get("left").Float()) * float64(w) / rw
	cy := (y - r.Get("top").Float()) * float64(hgt) / rh
	if cx < 0 || cy < 0 || cx >= float64(w) || cy >= float64(hgt) {
		return 0, 0, false
	}
	return int(cx), int(cy), true
}

// later calls fn with arg from a microtask, once the current JavaScript task is done, so
// page code never runs inside a Go call and an exception in it cannot unwind Go. It reads
// nothing of fn: a subscriber that is a Proxy throwing on every read (fn.bind) is called
// like any function, and what it throws is its own page's unhandled rejection.
func later(fn js.Value, arg any) {
	if kind(fn) != "function" {
		return
	}
	promise.Call("resolve", arg).Call("then", fn)
}

// dispatch fires a CustomEvent named name with detail on window, from a microtask.
func dispatch(name string, detail any) {
	ev := global.Get("CustomEvent").New(name, map[string]any{"detail": detail})
	later(global.Get("dispatchEvent").Call("bind", global), ev)
}

// hasWebGL2 reports whether the browser gives a canvas a WebGL2 context, the one Ebiten
// draws with.
func hasWebGL2() bool {
	if !global.Get("WebGL2RenderingContext").Truthy() {
		return false
	}
	return document.Call("createElement", "canvas").Call("getContext", "webgl2").Truthy()
}

// consoleError logs to the browser console.
func consoleError(args ...any) { global.Get("console").Call("error", args...) }

func consoleWarn(args ...any) { global.Get("console").Call("warn", args...) }
