package sim

import (
	"math"
	"math/bits"
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
func zipfian(r *rand.Rand, n int64, s float64) int64 { return newZipfRejection(s).draw(r, n) }

// zipfRejection holds the constants computeIterativeZipfian derives from the skew s alone, so
// a workload that draws many keys with one skew computes b = 2^(s−1), one of the few pow calls
// that make up most of a draw's cost, once instead of on every draw.
type zipfRejection struct {
	s, b, exp float64
}

func newZipfRejection(s float64) zipfRejection {
	return zipfRejection{s: s, b: detPow(2, s-1), exp: -1 / (s - 1)}
}

// draw is zipfian with the constants of z.
func (z zipfRejection) draw(r *rand.Rand, n int64) int64 {
	if n <= 1 {
		return 1
	}
	for {
		u := 1 - r.Float64() // (0, 1]: pg_prng_double may return 0, whose pow is +Inf and rejected
		v := r.Float64()
		x := math.Floor(detPow(u, z.exp))
		t := detPow(1+1/x, z.s-1)
		if v*x*(t-1)/(z.b-1) <= t/z.b && x <= float64(n) {
			return int64(x)
		}
	}
}

// zipfAliasMax is the largest relation whose Zipfian law gets an alias table; larger ones
// draw with zipfian, whose rejection loop needs no memory.
const zipfAliasMax = 1 << 20

// zipfAlias draws from the same law as zipfian — k in [1, n] with probability proportional to
// k^−s — in constant time, by Walker's alias method (Vose's construction). The weights come
// from detPow, so the table, and every draw, is the same natively and in WebAssembly.
type zipfAlias struct {
	prob  []float64 // chance of keeping column i rather than taking its alias
	alias []int32
}

func newZipfAlias(n int, s float64) *zipfAlias {
	z := &zipfAlias{prob: make([]float64, n), alias: make([]int32, n)}
	sum := 0.0
	for k := range n {
		z.prob[k] = detPow(float64(k+1), -s)
		sum += z.prob[k]
	}
	small, large := make([]int32, 0, n), make([]int32, 0, n)
	for k := range n {
		z.prob[k] = z.prob[k] * float64(n) / sum
		if z.prob[k] < 1 {
			small = append(small, int32(k))
		} else {
			large = append(large, int32(k))
		}
	}
	for len(small) > 0 && len(large) > 0 {
		l, g := small[len(small)-1], large[len(large)-1]
		small, large = small[:len(small)-1], large[:len(large)-1]
		z.alias[l] = g
		z.prob[g] = (z.prob[g] + z.prob[l]) - 1
		if z.prob[g] < 1 {
			small = append(small, g)
		} else {
			large = append(large, g)
		}
	}
	for _, k := range append(small, large...) {
		z.prob[k] = 1 // what is left holds a whole column, up to rounding
	}
	return z
}

// draw maps one 64-bit random value to k in [1, n]: the high word of r·n picks the column
// and the low word, the position within it, decides between the column and its alias.
func (z *zipfAlias) draw(r uint64) int64 {
	col, frac := bits.Mul64(r, uint64(len(z.prob)))
	if float64(frac>>11)*0x1p-53 < z.prob[col] {
		return int64(col) + 1
	}
	return int64(z.alias[col]) + 1
}
