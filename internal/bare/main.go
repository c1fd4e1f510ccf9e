//go:build js

// Command bare is the baseline of issue #16's first-view target: the least an
// Ebiten game can be (it fills the screen with one colour and draws one
// rectangle), built with exactly the flags of the app's wasm by
// build serve -test-hooks (served at bench/bare/), so that a browser benchmark can compare the bytes
// and the time to first frame of the page with what Ebiten alone costs.
//
// On its first Draw it stamps document.body.dataset.firstFrame with
// performance.now(), the same stamp the app sets on its first drawn frame.
package main

import (
	"image/color"
	"strconv"
	"syscall/js"

	"github.com/hajimehoshi/ebiten/v2"
)

// game draws one rectangle on a coloured screen.
type game struct {
	drawn bool
	rect  *ebiten.Image
}

// Update does nothing: the picture never changes.
func (g *game) Update() error { return nil }

// Draw fills the screen and draws the rectangle, and stamps the first frame.
func (g *game) Draw(screen *ebiten.Image) {
	screen.Fill(color.RGBA{0x20, 0x30, 0x40, 0xff})
	if g.rect == nil {
		g.rect = ebiten.NewImage(64, 32)
		g.rect.Fill(color.RGBA{0xe0, 0x80, 0x20, 0xff})
	}
	var op ebiten.DrawImageOptions
	op.GeoM.Translate(16, 16)
	screen.DrawImage(g.rect, &op)
	if !g.drawn {
		g.drawn = true
		perf := js.Global().Get("performance")
		js.Global().Get("document").Get("body").Get("dataset").Set("firstFrame", strconv.FormatFloat(perf.Call("now").Float(), 'f', 1, 64))
	}
}

// Layout keeps the screen the size of the canvas.
func (g *game) Layout(w, h int) (int, int) { return w, h }

func main() {
	if err := ebiten.RunGame(&game{}); err != nil {
		js.Global().Get("console").Call("error", err.Error())
	}
}
