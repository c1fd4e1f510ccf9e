package sim

import (
	"fmt"
	"strconv"
	"strings"
)

// Threshold is a number of blocks given absolutely or relative to the pool (NB/k), as the
// drop lab's threshold is. The zero value means PostgreSQL's NBuffers/32; NB/k resolves to
// zero blocks when k exceeds NBuffers, and then no drop takes the lookup path.
type Threshold struct {
	Blocks  uint64
	Divisor int
}

// ParseThreshold parses a block count ("512") or a share of the pool ("NB/32").
func ParseThreshold(s string) (Threshold, error) {
	if k, ok := strings.CutPrefix(strings.TrimSpace(s), "NB/"); ok {
		d, err := strconv.Atoi(k)
		if err != nil || d < 1 || d > MaxNBuffers {
			return Threshold{}, &ValueError{Value: s, Problem: "not NB/k with a whole k ≥ 1"}
		}
		return Threshold{Divisor: d}, nil
	}
	n, err := strconv.ParseUint(strings.TrimSpace(s), 10, 64)
	if err != nil || n < 1 || n > 1<<32 {
		return Threshold{}, &ValueError{Value: s, Problem: "not a block count from 1 to 2^32 or NB/k"}
	}
	return Threshold{Blocks: n}, nil
}

// Resolve returns the threshold in blocks for a pool of nbuffers buffers; zero stands for
// NBuffers/32 (BUF_DROP_FULL_SCAN_THRESHOLD).
func (t Threshold) Resolve(nbuffers int) uint64 {
	switch {
	case t.Divisor > 0:
		return uint64(nbuffers / t.Divisor)
	case t.Blocks > 0:
		return t.Blocks
	}
	return uint64(nbuffers / 32)
}

// String writes the threshold as ParseThreshold reads it.
func (t Threshold) String() string {
	switch {
	case t.Divisor > 0:
		return fmt.Sprintf("NB/%d", t.Divisor)
	case t.Blocks > 0:
		return strconv.FormatUint(t.Blocks, 10)
	}
	return "NB/32"
}
