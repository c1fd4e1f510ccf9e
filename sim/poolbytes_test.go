package sim

import (
	"runtime"
	"testing"
)

// TestPoolBytesIsWhatAPoolTakes: PoolBytes, from the pool's parts, is within 5% of the heap a
// new pool of 1M buffers adds, so a host can refuse a pool before allocating it.
func TestPoolBytesIsWhatAPoolTakes(t *testing.T) {
	const n = 1 << 20
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	p, err := NewPool(n, 17, CostModel{})
	if err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	grew := float64(after.HeapAlloc) - float64(before.HeapAlloc)
	runtime.KeepAlive(p)
	if est := float64(PoolBytes(n)); est < 0.95*grew || est > 1.05*grew {
		t.Errorf("PoolBytes(%d) = %.0f, but the pool took %.0f bytes", n, est, grew)
	}
}
