package grid

import (
	"fmt"
	"testing"

	"github.com/bufferscope/bufferscope/sim"
)

// benchCanvas is a typical desktop grid: the page's grid column on a 1440×900 window.
const benchW, benchH = 1040, 720

// warmSim returns a simulation of n buffers run long enough to fill the pool.
func warmSim(b *testing.B, n int) *sim.Sim {
	b.Helper()
	s, err := sim.New(sim.Config{NBuffers: n, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	if err := s.Step(3 * n); err != nil {
		b.Fatal(err)
	}
	return s
}

// BenchmarkPaint measures the Go time of one frame's painting at the fitting zoom and four
// steps closer, for the pools that get one cell per buffer.
func BenchmarkPaint(b *testing.B) {
	for _, n := range []int{16384, 131072} {
		s := warmSim(b, n)
		codes := make([]Code, n)
		var r Refresher
		r.RefreshAll(s, codes)
		var fl Flashes
		fl.Reset(n)
		for i := 0; i < n; i += 50 {
			fl.Note(FlashRead, i)
		}
		for _, zoom := range []int{0, 4} {
			f := &Frame{Layout: Fit(n, benchW, benchH).ZoomCentre(zoom), Codes: codes, NumRel: len(s.Relations()), Theme: testDark, Hand: s.Pool.ClockHand(), Highlight: 10, Flashes: &fl}
			b.Run(fmt.Sprintf("n=%d/%s", n, f.Layout.Zoom()), func(b *testing.B) {
				var p Painter
				p.Paint(f)
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					p.Paint(f)
				}
			})
		}
	}
}

// BenchmarkPaintAggregated measures painting 20 GB and 100 GB pools at the fitting zoom,
// where each pixel stands for a block of buffers.
func BenchmarkPaintAggregated(b *testing.B) {
	for _, n := range []int{2621440, 13107200} {
		codes := make([]Code, n)
		for i := range codes {
			codes[i] = MakeCode(i%7%4, i%6, i%11 == 0, i%997 == 0)
		}
		f := &Frame{Layout: Fit(n, benchW, benchH), Codes: codes, NumRel: 4, Theme: testLight, Hand: n / 3, Highlight: -1}
		b.Run(fmt.Sprintf("n=%d/%s", n, f.Layout.Zoom()), func(b *testing.B) {
			var p Painter
			p.Paint(f)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				p.Paint(f)
			}
		})
	}
}

// BenchmarkRefresh measures copying the pool out of the simulation into codes, which a
// frame does before painting whenever the simulation has moved.
func BenchmarkRefresh(b *testing.B) {
	for _, n := range []int{16384, 131072} {
		s := warmSim(b, n)
		codes := make([]Code, n)
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			var r Refresher
			r.RefreshAll(s, codes)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				r.RefreshAll(s, codes)
			}
		})
	}
}

// BenchmarkFrame measures the Go time of one whole frame as the app runs it while playing:
// the steps due at a speed (one 60 Hz tick's worth), keeping the codes in step (Tracker),
// aging the flashes and repainting what changed (Painter.Update). The step time itself is
// the simulation's; the rest is the cost of drawing.
func BenchmarkFrame(b *testing.B) {
	for _, n := range []int{16384, 131072} {
		for _, speed := range []int{1000, 100000} {
			s := warmSim(b, n)
			var tr Tracker
			tr.Reset(s, n, s.Pool.ClockHand())
			var fl Flashes
			fl.Reset(n)
			f := &Frame{Layout: Fit(n, benchW, benchH), NumRel: len(s.Relations()), Theme: testLight, Highlight: -1, Flashes: &fl}
			var p Painter
			f.Codes, f.Hand = tr.Codes, s.Pool.ClockHand()
			p.Paint(f)
			perTick := max(speed/60, 1)
			b.Run(fmt.Sprintf("n=%d/%d_steps_per_s", n, speed), func(b *testing.B) {
				for i := 0; i < b.N; i++ {
					for done := 0; done < perTick; done += 2048 {
						s.Step(min(2048, perTick-done))
						tr.Note(s.Events(), &fl)
					}
					fl.Tick()
					tr.Sync(s, s.Pool.ClockHand(), 1<<17)
					f.Codes, f.Hand = tr.Codes, s.Pool.ClockHand()
					p.Update(f)
					p.TakeDamage()
				}
			})
		}
	}
}

// BenchmarkPaintPanes measures painting a canvas of two 20 GB pools side by side, as the drop
// lab races them, against one pool on the same canvas: each pane is painted as a canvas of its
// own, at the zoom that shows its whole pool in its half (grid.Arrange).
func BenchmarkPaintPanes(b *testing.B) {
	const n = 2621440
	codes := make([]Code, n)
	for i := range codes {
		codes[i] = MakeCode(i%7%4, i%6, i%11 == 0, i%997 == 0)
	}
	for _, panes := range []int{1, 2} {
		rects := Arrange(panes, benchW, benchH)
		w, h := rects[0].Size()
		f := &Frame{Layout: FitBelow(n, w, h, LaneHeight), Codes: codes, NumRel: 4, Theme: testLight, Hand: -1, Highlight: -1}
		b.Run(fmt.Sprintf("panes=%d/%s", panes, f.Layout.Zoom()), func(b *testing.B) {
			painters := make([]Painter, panes)
			for i := range painters {
				painters[i].Paint(f)
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				for j := range painters {
					painters[j].Paint(f)
				}
			}
		})
	}
}
