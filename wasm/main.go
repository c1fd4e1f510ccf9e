//go:build js

// Command wasm is bufferscope's browser app: the shared buffer pool drawn by Ebiten as a
// grid, one cell per buffer (or one pixel per block of buffers in very large pools), and the
// JavaScript API the page's controls use (bridge_js.go, site/js/bufferscope.d.ts).
//
// The app's state — lab, parameters, run, playback, the grid's view model — is package app,
// which runs any lab of sim/labs through the lab's view (wasm/labview, registered in
// wasm/labs) and never asks which lab is running; nor does this package. The simulation is
// package sim; the pixels come from package grid; this package wires them to Ebiten
// (game.go) and the browser (bridge_js.go, host_js.go). Ebiten's browser port is written for a canvas that fills the
// page: it sizes the canvas from document.body and reads pointer positions from the whole
// window. The site's loader (site/js/host.js) therefore points document.body at the grid's
// container while Go runs, and the page, not Ebiten, handles keyboard, pointer and wheel
// input, calling the bridge's zoom, pan and inspect.
//
// Build with GOOS=js GOARCH=wasm go build -trimpath -ldflags="-s -w -buildid=" ./wasm.
package main

import (
	"errors"
	"fmt"

	"github.com/bufferscope/bufferscope/wasm/app"
	"github.com/bufferscope/bufferscope/wasm/labs"
	"github.com/hajimehoshi/ebiten/v2"
)

func main() {
	a := app.New(labs.Views)
	a.SetMemoryBudget(memoryBudget())
	g := newGame(a)
	theGame = g
	g.bridge = installBridge(a, findHost())
	ebiten.SetScreenClearedEveryFrame(false)
	ebiten.SetRunnableOnUnfocused(true)
	// One Update per frame drawn: at a fixed 60 TPS Ebiten catches up after a slow frame with
	// up to four Updates in one frame, each with its own StepBudget of simulation or build,
	// so a slow frame made the next one slower. Tick measures the time since the last one.
	ebiten.SetTPS(ebiten.SyncWithFPS)
	err := ebiten.RunGameWithOptions(g, &ebiten.RunGameOptions{ScreenTransparent: true})
	switch {
	case errors.Is(err, errCrashed):
		// Reported when it happened (crash_js.go).
	case err != nil:
		noGrid(err)
	}
	select {} // keep the bridge answering
}

// noGrid reports that Ebiten could not start drawing. Without WebGL2, which is all Ebiten
// draws with in a browser, RunGame returns at once with an error ("opengl: getContext for
// webgl2 failed"); the reader is told what the browser lacks and what to do, not the error.
func noGrid(err error) {
	msg := "The grid could not be drawn. Reload the page to try again; if it keeps failing, copy the details below into a bug report."
	if !hasWebGL2() {
		msg = "This browser cannot draw the grid: it needs WebGL2, which is switched off or not available here. " +
			"Turn on hardware acceleration (or WebGL) in the browser's settings, or open the page in a recent Firefox, Chrome, Edge or Safari, then reload."
	}
	consoleWarn(fmt.Sprintf("bufferscope: %s (%v)", msg, err))
	dispatch("bufferscope:error", map[string]any{"message": msg, "fatal": true, "detail": err.Error()})
}
