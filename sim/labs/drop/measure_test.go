package drop

import (
	"testing"
	"time"
)

// TestMeasureDrop times both paths with the wall clock and checks the measurement's shape:
// every size measured with a positive time, a size too large refused, and progress able to
// stop the measurement.
func TestMeasureDrop(t *testing.T) {
	start := time.Now()
	clock := func() float64 { return time.Since(start).Seconds() }
	sizes := []int{64, 256, 1024, 4096}
	m, err := Measure(65536, sizes, clock, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Timings) != len(sizes) {
		t.Fatalf("%d timings for %d sizes", len(m.Timings), len(sizes))
	}
	for i, tm := range m.Timings {
		if tm.Blocks != sizes[i] || tm.Scan <= 0 || tm.Lookup <= 0 {
			t.Fatalf("timing %d: %+v", i, tm)
		}
	}
	if _, err := Measure(1024, []int{600}, clock, nil); err == nil {
		t.Fatal("a relation of more than half the pool was accepted")
	}
	stopped := 0
	m, _ = Measure(4096, []int{8, 16, 32}, clock, func(done, total int) bool { stopped = done; return done < 2 })
	if stopped != 2 || len(m.Timings) != 2 {
		t.Fatalf("progress returning false stopped after %d of 3 sizes with %d timings", stopped, len(m.Timings))
	}
}

// BenchmarkDropPaths reports this machine's time, per descriptor, of a full scan that drops
// one buffer, and per block of the lookup path (a lookup and an invalidation), at 1GB.
func BenchmarkDropPaths(b *testing.B) {
	start := time.Now()
	clock := func() float64 { return time.Since(start).Seconds() }
	for range b.N {
		m, err := Measure(131072, []int{1, 4096}, clock, nil)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(m.Timings[0].Scan/131072*1e9, "ns/descriptor")
		b.ReportMetric(m.Timings[1].Lookup/4096*1e9, "ns/lookup")
	}
}
