package sim

import (
	"fmt"
	"testing"
)

// BenchmarkAccess measures simulated buffer accesses per second of real time under the
// free-play workload (eight clients, a fifth of accesses updates), with uniform and Zipfian
// keys, at 128MB, 1GB and 20GB of shared buffers. Each step is one ReadBuffer, with its
// misses, evictions, writes and WAL flushes.
func BenchmarkAccess(b *testing.B) {
	for _, nb := range []int{16384, 131072, 2621440} {
		for _, d := range []Distribution{Uniform, Zipfian} {
			b.Run(fmt.Sprintf("nbuffers=%d/%s", nb, d), func(b *testing.B) {
				w := DefaultWorkload(nb)
				w.Distribution = d
				s, err := New(Config{NBuffers: nb, Seed: 1, Workload: &w})
				if err != nil {
					b.Fatal(err)
				}
				// Warm the pool so the measurement sees evictions, not an empty freelist.
				if err := s.Step(min(2*nb, 2_000_000)); err != nil {
					b.Fatal(err)
				}
				before := s.Stats().Accesses
				b.ResetTimer()
				if err := s.Step(b.N); err != nil {
					b.Fatal(err)
				}
				b.StopTimer()
				accesses := float64(s.Stats().Accesses - before)
				b.ReportMetric(accesses/b.Elapsed().Seconds(), "accesses/s")
				b.ReportMetric(s.Stats().HitRatio(), "hit-ratio")
			})
		}
	}
}
