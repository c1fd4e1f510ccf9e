package sim

import (
	"encoding/binary"
	"math/bits"
)

// pcg is math/rand/v2's PCG generator written out: 128 bits of state advanced by a 128-bit
// linear congruential step, and the DXSM output function (as in pcg-cpp and NumPy's PCG64DXSM).
// It draws the same numbers as rand.PCG from the same seeds and marshals to the same bytes
// (TestPCGMatchesMathRand). The simulation keeps its own copy because in WebAssembly each
// rand.PCG draw is two Go calls, Uint64 and next, and a step draws up to three times; this
// Uint64 is small enough for the compiler to inline. The zero value is the state of
// rand.NewPCG(0, 0).
type pcg struct {
	hi, lo uint64
}

// newPCG returns the generator rand.NewPCG(seed1, seed2) would.
func newPCG(seed1, seed2 uint64) pcg { return pcg{hi: seed1, lo: seed2} }

// Uint64 advances the state and returns 64 uniformly distributed bits.
func (p *pcg) Uint64() uint64 {
	// The LCG's multiplier and increment, 128 bits each (pcg-cpp's defaults).
	const (
		mulHi = 2549297995355413924
		mulLo = 4865540595714422341
		incHi = 6364136223846793005
		incLo = 1442695040888963407
	)
	// state = state*mul + inc, modulo 2^128: the low words' full product, the cross products
	// in the high word, then the increment with the carry out of the low word.
	hi, lo := bits.Mul64(p.lo, mulLo)
	hi += p.hi*mulLo + p.lo*mulHi + incHi
	lo += incLo
	if lo < incLo {
		hi++
	}
	p.hi, p.lo = hi, lo
	// DXSM, "double xorshift multiply", of the new state.
	const cheapMul = 0xda942042e4dd58b5
	hi = (hi ^ hi>>32) * cheapMul
	return (hi ^ hi>>48) * (lo | 1)
}

// MarshalBinary encodes the state as rand.PCG does: "pcg:" and the two words, big-endian.
func (p *pcg) MarshalBinary() ([]byte, error) {
	b := append(make([]byte, 0, 20), "pcg:"...)
	b = binary.BigEndian.AppendUint64(b, p.hi)
	return binary.BigEndian.AppendUint64(b, p.lo), nil
}
