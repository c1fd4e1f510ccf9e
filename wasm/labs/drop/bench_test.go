package drop

import (
	"testing"

	"github.com/bufferscope/bufferscope/sim"
	"github.com/bufferscope/bufferscope/sim/lab"
	simdrop "github.com/bufferscope/bufferscope/sim/labs/drop"
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
