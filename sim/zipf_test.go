package sim

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestZipfRejectionMatchesDirect checks that drawing with constants computed once gives the
// same keys, from the same random draws, as computeIterativeZipfian written out with its
// constants computed on every draw.
func TestZipfRejectionMatchesDirect(t *testing.T) {
	direct := func(r *rand.Rand, n int64, s float64) int64 {
		if n <= 1 {
			return 1
		}
		b := detPow(2, s-1)
		exp := -1 / (s - 1)
		for {
			u := 1 - r.Float64()
			v := r.Float64()
			x := math.Floor(detPow(u, exp))
			t := detPow(1+1/x, s-1)
			if v*x*(t-1)/(b-1) <= t/b && x <= float64(n) {
				return int64(x)
			}
		}
	}
	for _, s := range []float64{MinZipfianParam, 1.1, 1.5, 3, MaxZipfianParam} {
		z := newZipfRejection(s)
		want, got := rand.New(rand.NewPCG(8, 9)), rand.New(rand.NewPCG(8, 9))
		for i := range 20_000 {
			n := int64(1 + i%7*1_000_003)
			if w, g := direct(want, n, s), z.draw(got, n); w != g {
				t.Fatalf("s=%v draw %d of [1, %d]: got %d, the direct method %d", s, i, n, g, w)
			}
		}
	}
}
