package app

import (
	"testing"
	"time"

	wlabs "github.com/bufferscope/bufferscope/wasm/labs"
)

// TestPlayingMakesNoGarbage checks that a frame of free play and of the drop lab, playing at
// the page's speed on a 1GB pool, allocates nothing once the grid is drawn: WebAssembly
// memory never shrinks, so garbage made every frame raises the tab's memory until the
// first collection, and that collection's heap stays.
func TestPlayingMakesNoGarbage(t *testing.T) {
	if testing.Short() {
		t.Skip("plays hundreds of frames")
	}
	for _, name := range []string{"free", "drop"} {
		a := New(wlabs.Views)
		a.Resize(1280, 800)
		if _, err := a.Load(name, map[string]string{"shared_buffers": "1GB"}); err != nil {
			t.Fatal(err)
		}
		a.SetSpeed(pageSpeed[name])
		if err := a.Play(); err != nil {
			t.Fatal(err)
		}
		now := time.Now()
		frame := func() {
			if a.Done() {
				return // a reset builds a new run, which is not a frame's garbage
			}
			now = now.Add(time.Second / TicksPerSecond)
			a.Tick(now)
			a.Paint()
			a.BuildOverlay()
			takeDamage(a)
		}
		for range 120 {
			frame() // the first frames size the painter's buffers and the relations' pages
		}
		if got := testing.AllocsPerRun(100, frame); got > 0.5 {
			t.Errorf("%s: a frame allocates %.1f values, want none", name, got)
		}
	}
}
