package sim

import "math"

// The workload draws skewed keys with pow, which needs exp and log. Go's math.Exp and
// math.Log are assembly on amd64 and pure Go in WebAssembly, and may differ in the last bit,
// which would make a seeded run differ between the headless command and the browser. These
// versions use only +, −, ×, ÷ and exact bit manipulation, so they round identically
// everywhere. They are accurate to a few units in the last place, which is plenty for drawing
// keys.

const (
	ln2Hi = 6.93147180369123816490e-01 // high bits of ln 2, exact in k*ln2Hi for |k| < 2^20
	ln2Lo = 1.90821492927058770002e-10 // ln 2 − ln2Hi
)

// logCoeffs are 1/21, 1/19, …, 1/3, 1 for Horner's rule on the atanh series.
var logCoeffs = func() []float64 {
	c := make([]float64, 0, 11)
	for k := 21; k >= 1; k -= 2 {
		c = append(c, 1/float64(k))
	}
	return c
}()

// expCoeffs are 1/13!, 1/12!, …, 1/1!, 1/0! for Horner's rule on the exponential series.
var expCoeffs = func() []float64 {
	c := make([]float64, 14)
	f := 1.0
	for n := 0; n < 14; n++ {
		if n > 0 {
			f /= float64(n)
		}
		c[13-n] = f
	}
	return c
}()

// detLog returns the natural logarithm of x > 0.
func detLog(x float64) float64 {
	if x <= 0 || math.IsInf(x, 0) || math.IsNaN(x) {
		return math.NaN()
	}
	m, e := math.Frexp(x) // x = m·2^e, m in [0.5, 1)
	if m < math.Sqrt2/2 {
		m *= 2
		e--
	}
	// ln m = 2·atanh(f) = 2(f + f³/3 + f⁵/5 + …) with f = (m−1)/(m+1), |f| < 0.1716: eleven
	// terms leave an error below 1e-17.
	f := (m - 1) / (m + 1)
	f2 := f * f
	sum := 0.0
	for _, c := range logCoeffs {
		sum = float64(sum*f2) + c // the conversion forbids a fused multiply-add
	}
	sum *= f
	k := float64(e)
	return k*ln2Hi + (2*sum + k*ln2Lo)
}

// detExp returns e^x.
func detExp(x float64) float64 {
	switch {
	case math.IsNaN(x):
		return x
	case x > 709.78:
		return math.Inf(1)
	case x < -745.2:
		return 0
	}
	// x = k·ln2 + r with |r| ≤ ln2/2; e^x = 2^k·e^r.
	k := math.Floor(x/math.Ln2 + 0.5)
	r := (x - k*ln2Hi) - k*ln2Lo
	// e^r = Σ rⁿ/n!, fourteen terms for |r| ≤ 0.35.
	sum := 0.0
	for _, c := range expCoeffs {
		sum = float64(sum*r) + c
	}
	return math.Ldexp(sum, int(k))
}

// detPow returns x^y for x > 0.
func detPow(x, y float64) float64 { return detExp(y * detLog(x)) }
