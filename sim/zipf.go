package sim

import (
	"math"
	"math/rand/v2"
)

// MinZipfianParam and MaxZipfianParam mirror pgbench's limits on random_zipfian's skew.
const (
	MinZipfianParam = 1.001
	MaxZipfianParam = 1000.0
)

// zipfian mirrors computeIterativeZipfian in pgbench.c (Devroye's rejection method, in
// "Non-Uniform Random Variate Generation", p. 550): it draws k in [1, n] with probability
// proportional to k^−s.
func zipfian(r *rand.Rand, n int64, s float64) int64 {
	if n <= 1 {
		return 1
	}
	b := detPow(2, s-1)
	exp := -1 / (s - 1)
	for {
		u := 1 - r.Float64() // (0, 1]: pg_prng_double may return 0, whose pow is +Inf and rejected
		v := r.Float64()
		x := math.Floor(detPow(u, exp))
		t := detPow(1+1/x, s-1)
		if v*x*(t-1)/(b-1) <= t/b && x <= float64(n) {
			return int64(x)
		}
	}
}
