package sim

import (
	"testing"
	"time"
)

// TestMeasureDrop times both paths with the wall clock and checks the measurement's shape:
// every size measured, lookups growing with the relation while the scan does not, and a
// crossover computed from the per-item times.
func TestMeasureDrop(t *testing.T) {
	start := time.Now()
	clock := func() float64 { return time.Since(start).Seconds() }
	sizes := []int{64, 256, 1024, 4096}
	m, err := MeasureDrop(65536, sizes, clock, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Timings) != len(sizes) || m.PerDescriptor <= 0 || m.PerLookup <= 0 {
		t.Fatalf("incomplete measurement: %+v", m)
	}
	if want := m.PerDescriptor * 65536 / m.PerLookup; m.Crossover != want {
		t.Fatalf("crossover %v, want %v", m.Crossover, want)
	}
	if _, err := MeasureDrop(1024, []int{600}, clock, nil); err == nil {
		t.Fatal("a relation of more than half the pool was accepted")
	}
	stopped := 0
	m, _ = MeasureDrop(4096, []int{8, 16, 32}, clock, func(done, total int) bool { stopped = done; return done < 2 })
	if stopped != 2 || len(m.Timings) != 2 {
		t.Fatalf("progress returning false stopped after %d of 3 sizes with %d timings", stopped, len(m.Timings))
	}
}

// BenchmarkDropPaths reports this machine's time per descriptor of a full scan and per block
// of the lookup path, and the relation size where they cross (PostgreSQL uses NBuffers/32).
func BenchmarkDropPaths(b *testing.B) {
	start := time.Now()
	clock := func() float64 { return time.Since(start).Seconds() }
	for range b.N {
		m, err := MeasureDrop(131072, []int{4096}, clock, nil)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(m.PerDescriptor*1e9, "ns/descriptor")
		b.ReportMetric(m.PerLookup*1e9, "ns/lookup")
		b.ReportMetric(float64(m.NBuffers)/m.Crossover, "NBuffers/crossover")
	}
}
