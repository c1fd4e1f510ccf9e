package pins

import (
	"math"

	"github.com/bufferscope/bufferscope/sim"
)

// Result is what one run of the pins lab measured.
type Result struct {
	TPS      float64 // commits per second of the server's (simulated) time
	SliceTPS []float64
	// FirstSlice is the number of the slice SliceTPS starts with, from 0: 1 when the first
	// was left out as warm-up. Slice i ends at (i+1) slice lengths of server time.
	FirstSlice int
	// SliceLen is the length of a slice in server time.
	SliceLen   sim.Duration
	SliceCV    float64 // coefficient of variation of SliceTPS
	HintsSet   uint64
	HintsLost  uint64
	DeadItems  int // index items whose heap tuples are dead, at the end
	LPDead     int // of which LP_DEAD
	Splits     uint64
	VacuumWait sim.Duration
	// DeadFetches and HintableFetches are the Index's counters of the same names.
	DeadFetches, HintableFetches uint64
	Events                       uint64
}

// Run runs cfg for duration of server time, sliced for per-slice TPS, and returns what it
// measured. The first slice is left out of SliceTPS as warm-up when there are more than two.
func Run(cfg Config, nbuffers int, duration, slice sim.Duration) (Result, error) {
	s, err := NewServer(cfg, nbuffers, slice)
	if err != nil {
		return Result{}, err
	}
	var n uint64
	for s.Now() < duration && s.Step() {
		n++
	}
	return s.Result(duration, n), nil
}

// Result summarises the server's run so far, of duration server time.
func (s *Server) Result(duration sim.Duration, events uint64) Result {
	if s.vac != nil && s.vac.waitFrom >= 0 && s.vacWait >= 0 {
		s.VacuumWait += s.now - s.vac.waitFrom // the wait under way counts too
		s.vac.waitFrom = s.now
	}
	ix := s.Index
	r := Result{
		TPS: float64(s.Commits) / duration.Seconds(), HintsSet: ix.HintsSet,
		HintsLost: ix.HintsLost + ix.HintsLostSplit, Splits: ix.Splits, VacuumWait: s.VacuumWait, Events: events,
		DeadFetches: ix.DeadFetches, HintableFetches: ix.HintableFetches,
	}
	r.DeadItems, r.LPDead = ix.DeadItems()
	full := int(duration / s.SliceLen)
	for i := range full {
		c := uint64(0)
		if i < len(s.SliceCommits) {
			c = s.SliceCommits[i]
		}
		r.SliceTPS = append(r.SliceTPS, float64(c)/s.SliceLen.Seconds())
	}
	r.SliceLen = s.SliceLen
	if len(r.SliceTPS) > 2 {
		r.SliceTPS = r.SliceTPS[1:]
		r.FirstSlice = 1
	}
	r.SliceCV = cv(r.SliceTPS)
	return r
}

// cv returns the coefficient of variation (population standard deviation over mean).
func cv(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	m := 0.0
	for _, x := range xs {
		m += x
	}
	m /= float64(len(xs))
	if m == 0 {
		return 0
	}
	v := 0.0
	for _, x := range xs {
		v += (x - m) * (x - m)
	}
	return math.Sqrt(v/float64(len(xs))) / m
}
