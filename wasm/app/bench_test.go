package app

import (
	"testing"
	"time"

	"github.com/bufferscope/bufferscope/sim/labs"

	wlabs "github.com/bufferscope/bufferscope/wasm/labs"
	"github.com/bufferscope/bufferscope/wasm/playback"
)

// BenchmarkDropFrame measures one frame of the drop lab playing as fast as it goes, with 96
// tables of NBuffers/128 blocks each dropped under PostgreSQL 14's policy (lookups) and 13's
// (full scans), as the Ebiten adapter runs it (game.Update): Tick, which steps the replay until the
// frame's StepBudget has passed and keeps the grid's codes in step, then Paint and
// BuildOverlay, on the canvas of a 1280×800 window. A frame whose ms/frame stays near
// StepBudget (9 ms) plus a few ms of drawing leaves the page its 60 Hz; units/frame is how far
// the replay moves in one. The pools are the large ones a reader may choose: 20GB, which races
// two pools, and 100GB, which runs one.
func BenchmarkDropFrame(b *testing.B) {
	for _, size := range []string{"20GB", "100GB"} {
		for _, policy := range []string{"pg14", "pg13"} {
			b.Run(size+"/"+policy, func(b *testing.B) {
				a := New(wlabs.Views)
				a.Resize(876, 394)
				if _, err := a.Load("drop", map[string]string{"shared_buffers": size, "tables": "96xNB/128", "policy": policy}); err != nil {
					b.Fatal(err)
				}
				a.SetSpeed(playback.Max)
				now := time.Now()
				frame := func() {
					now = now.Add(time.Second / TicksPerSecond)
					a.Tick(now)
					a.Paint()
					a.BuildOverlay()
				}
				// The first frames paint the whole pool; measure the frames of a replay under way.
				if err := a.Play(); err != nil {
					b.Fatal(err)
				}
				for range 5 {
					frame()
				}
				start := a.Stats().Step
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					if a.Done() {
						b.StopTimer()
						a.Reset()
						a.Play()
						b.StartTimer()
					}
					frame()
				}
				b.StopTimer()
				b.ReportMetric(float64(a.Stats().Step-start)/float64(b.N), "units/frame")
				b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/frame")
			})
		}
	}
}

// pageSpeed is the speed each lab's page picks for a 1GB pool (each lab's speed() in
// site/js/labs/*/index.js), for the frames BenchmarkLabFrame and TestPlayingMakesNoGarbage play.
var pageSpeed = map[string]float64{"free": 500000, "drop": 200000, "ring": 20000, "pins": 20000}

// BenchmarkLabFrame measures one frame of each lab playing on a 1GB pool (131,072 cells) at
// the speed the page picks for it there (each lab's speed() in site/js/labs/*/index.js), as
// game.Update runs it: the Go time per frame that the browser benchmark reads from
// stats().updateMs, here natively and, under make bench, as WebAssembly in node.
func BenchmarkLabFrame(b *testing.B) {
	for _, name := range labs.Names() {
		b.Run(name, func(b *testing.B) {
			a := New(wlabs.Views)
			a.Resize(1280, 800)
			if _, err := a.Load(name, map[string]string{"shared_buffers": "1GB"}); err != nil {
				b.Fatal(err)
			}
			if v, ok := pageSpeed[name]; ok {
				a.SetSpeed(v)
			}
			now := time.Now()
			frame := func() {
				now = now.Add(time.Second / TicksPerSecond)
				a.Tick(now)
				a.Paint()
				a.BuildOverlay()
				takeDamage(a)
			}
			if err := a.Play(); err != nil {
				b.Fatal(err)
			}
			for range 30 {
				frame()
			}
			start, steps := a.Stats().Step, int64(0)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if a.Done() {
					b.StopTimer()
					steps += int64(a.Stats().Step - start)
					a.Reset()
					start = a.Stats().Step
					a.Play()
					b.StartTimer()
				}
				frame()
			}
			b.StopTimer()
			steps += int64(a.Stats().Step - start)
			b.ReportMetric(float64(steps)/float64(b.N), "steps/frame")
			b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/frame")
		})
	}
}

// takeDamage forgets what the frame repainted, as the Ebiten adapter's upload does once it
// has sent the rectangles to the screen's images; a benchmark that kept them would time an
// ever longer list.
func takeDamage(a *App) {
	for i := range a.Panes() {
		a.PanePainter(i).TakeDamage()
	}
}
