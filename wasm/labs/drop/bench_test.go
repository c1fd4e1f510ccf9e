package drop

import (
	"testing"

	"github.com/bufferscope/bufferscope/sim"
	"github.com/bufferscope/bufferscope/sim/lab"
	simdrop "github.com/bufferscope/bufferscope/sim/labs/drop"
	"github.com/bufferscope/bufferscope/wasm/labview"
)

// BenchmarkStepScan: units per second of a full scan of a 1 GB pool, stepped as the page
// steps it (Watch.Step, in chunks) and in one sim.Step call, to show what the chunks cost.
func BenchmarkStepScan(b *testing.B) {
	p, _ := simdrop.Lab{}.Params().Parse(map[string]string{"shared_buffers": "1GB", "tables": "1xNB/32", "policy": "pg13"})
	nbuffers := lab.NBuffers(p)
	run := func(b *testing.B, step func(s *sim.Sim, w *Watch)) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			b.StopTimer()
			s, _ := simdrop.NewReplay(simdrop.ExperimentOf(p))
			w := NewWatch(s, s.Pool.NBuffers)
			b.StartTimer()
			step(s, w)
		}
		b.ReportMetric(float64(b.N)*float64(nbuffers)/b.Elapsed().Seconds(), "units/s")
	}
	b.Run("watch", func(b *testing.B) {
		run(b, func(s *sim.Sim, w *Watch) { w.Step(s, sim.MaxStepsPerCommand, nil, nil) })
	})
	b.Run("one-call", func(b *testing.B) {
		run(b, func(s *sim.Sim, w *Watch) { s.Step(sim.MaxStepsPerCommand) })
	})
}

// BenchmarkStepRace: units per second of the race at a 1 GB pool, PostgreSQL 14's lookups
// against 13's full scans of 96 tables of NBuffers/128 blocks, stepped as the page steps it
// (View.Step, in chunks that suit both panes, with each pane's watch) and in sim.Step calls of
// the same size, to show what the two panes cost beside the race itself.
func BenchmarkStepRace(b *testing.B) {
	l := simdrop.Lab{}
	p, _ := l.Params().Parse(map[string]string{"shared_buffers": "1GB"})
	const units = 4_000_000
	run := func(b *testing.B, step func(run lab.Run, v labview.View)) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			b.StopTimer()
			r, _ := l.New(p)
			v := NewView()
			v.Attach(r, r.Legend(), func(int, int32) int { return -1 })
			b.StartTimer()
			step(r, v)
		}
		b.ReportMetric(float64(b.N)*units/b.Elapsed().Seconds(), "units/s")
	}
	b.Run("view", func(b *testing.B) {
		run(b, func(r lab.Run, v labview.View) {
			for done := 0; done < units; done += 100_000 {
				v.Step(r, 100_000, func() bool { return false }, nil)
			}
		})
	})
	b.Run("one-call", func(b *testing.B) {
		run(b, func(r lab.Run, _ labview.View) {
			for done := 0; done < units; done += 100_000 {
				r.Sim().Step(100_000)
			}
		})
	})
}
