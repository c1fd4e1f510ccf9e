package labs

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/bufferscope/bufferscope/sim"
	"github.com/bufferscope/bufferscope/sim/lab"
)

// growthSizes are the pools BenchmarkGrowthBuffers builds, as shared_buffers at 8 kB pages:
// 16384 (128MB), 131072 (1GB), 1048576 (8GB) and 13107200 (100GB) buffers.
var growthSizes = []struct {
	nbuffers int
	setting  string
}{{16384, "128MB"}, {131072, "1GB"}, {1048576, "8GB"}, {13107200, "100GB"}}

// growthSteps is the fixed simulated work BenchmarkGrowthBuffers runs after building each
// pool, so that only the pool's size changes between its sizes.
const growthSteps = 20000

// buildLab builds lab l at its defaults with shared_buffers set, failing the benchmark on
// a parameter problem so a renamed setting cannot pass by measuring the default pool.
func buildLab(b *testing.B, l lab.Lab, setting string, nbuffers int) lab.Run {
	b.Helper()
	v, problems := l.Params().Parse(map[string]string{"shared_buffers": setting})
	if len(problems) > 0 {
		b.Fatalf("%s shared_buffers=%s: %v", l.Info().Name, setting, problems[0])
	}
	r, err := l.New(v)
	if err != nil {
		b.Fatalf("%s shared_buffers=%s: %v", l.Info().Name, setting, err)
	}
	if got := r.Sim().Pool.NBuffers; got != nbuffers {
		b.Fatalf("%s shared_buffers=%s built %d buffers, want %d", l.Info().Name, setting, got, nbuffers)
	}
	return r
}

// stepRun runs up to n steps of r, stopping early when the scenario ends.
func stepRun(b *testing.B, r lab.Run, n int) {
	b.Helper()
	for n > 0 && !r.Done() {
		k := min(n, 4096)
		if err := r.Sim().Step(k); err != nil {
			b.Fatal(err)
		}
		n -= k
	}
}

// heapMB reports the live heap after a collection, in MB: with the run still referenced it
// is what the lab at that size holds, which ns/op and B/op (all bytes ever allocated) do not
// show.
func heapMB(keep any) float64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	runtime.KeepAlive(keep)
	return float64(m.HeapAlloc) / 1e6
}

// BenchmarkGrowthBuffers measures, for every lab and each pool size from 128MB to 100GB,
// the time and bytes allocated to build the lab at its defaults and run growthSteps steps,
// and the live heap the run holds (MB-live). Growth no worse than linear in NBuffers shows
// as ns/op and B/op rising at most in proportion to nbuffers.
func BenchmarkGrowthBuffers(b *testing.B) {
	for _, l := range All {
		for _, size := range growthSizes {
			b.Run(fmt.Sprintf("%s/nbuffers=%d", l.Info().Name, size.nbuffers), func(b *testing.B) {
				b.ReportAllocs()
				var r lab.Run
				for range b.N {
					r = buildLab(b, l, size.setting, size.nbuffers)
					stepRun(b, r, growthSteps)
				}
				b.StopTimer()
				b.ReportMetric(heapMB(r), "MB-live")
				r = nil
			})
		}
	}
}

// touchSink keeps BenchmarkGrowthTouch's memory alive until it has been touched.
var touchSink []byte

// BenchmarkGrowthTouch is BenchmarkGrowthBuffers' baseline: for every lab and pool size it
// allocates as many bytes as one build of the lab there allocated and writes one byte at a
// random place in them for every buffer, with nothing else. A build's writes are scattered
// like that (each buffer's entry in the mapping table lands where its hash says), so this
// is about the least any build of those bytes pays: the allocation, the machine's faults on
// memory not touched yet, and a cache miss per buffer once the bytes outgrow the caches.
// Where its ns per buffer grows with the size, the labs' grows with it, and not because of
// the model.
func BenchmarkGrowthTouch(b *testing.B) {
	for _, l := range All {
		for _, size := range growthSizes {
			b.Run(fmt.Sprintf("%s/nbuffers=%d", l.Info().Name, size.nbuffers), func(b *testing.B) {
				var before, after runtime.MemStats
				runtime.ReadMemStats(&before)
				r := buildLab(b, l, size.setting, size.nbuffers)
				stepRun(b, r, growthSteps)
				runtime.ReadMemStats(&after)
				r = nil
				n := int(after.TotalAlloc - before.TotalAlloc)
				runtime.GC()
				b.ResetTimer()
				x := uint64(0x9e3779b97f4a7c15)
				for range b.N {
					// One buffer at a time: two of 100GB's would not fit in wasm's 4 GB.
					b.StopTimer()
					touchSink = nil
					runtime.GC()
					b.StartTimer()
					buf := make([]byte, n)
					for range size.nbuffers {
						x ^= x << 13 // xorshift64: a random place, cheaply
						x ^= x >> 7
						x ^= x << 17
						buf[x%uint64(n)]++
					}
					touchSink = buf
				}
				b.StopTimer()
				touchSink = nil
				b.ReportMetric(float64(n), "bytes")
			})
		}
	}
}

// growthSeconds are the simulated durations BenchmarkGrowthDuration runs.
var growthSeconds = []int{1, 4, 16}

// BenchmarkGrowthDuration measures, for every lab at 128MB, the time and bytes allocated to
// run a fresh lab for 1, 4 and 16 seconds of simulated time (or until its scenario ends,
// which sim-seconds reports). The build is outside the timer. Growth no worse than linear
// in simulated time shows as ns/op and B/op rising at most in proportion to the seconds.
func BenchmarkGrowthDuration(b *testing.B) {
	for _, l := range All {
		for _, secs := range growthSeconds {
			b.Run(fmt.Sprintf("%s/seconds=%d", l.Info().Name, secs), func(b *testing.B) {
				b.ReportAllocs()
				var r lab.Run
				for range b.N {
					b.StopTimer()
					r = buildLab(b, l, "128MB", 16384)
					b.StartTimer()
					s := r.Sim()
					for s.Now() < sim.Duration(secs)*sim.Second && !r.Done() {
						if err := s.Step(1024); err != nil {
							b.Fatal(err)
						}
					}
				}
				b.StopTimer()
				b.ReportMetric(r.Sim().Now().Seconds(), "sim-seconds")
				b.ReportMetric(float64(r.Sim().Stats().Accesses), "accesses")
				b.ReportMetric(heapMB(r), "MB-live")
			})
		}
	}
}
