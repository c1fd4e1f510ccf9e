package free

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/bufferscope/bufferscope/sim"
)

// fakeSim is a stepper whose clock is a function of the step count. It refuses to run past
// limit steps (fakeLimit when zero), so a stepping loop that never ends fails instead of
// hanging the test.
type fakeSim struct {
	limit    uint64
	steps    uint64
	clock    func(steps uint64) sim.Duration
	calls    int
	maxBatch int
	err      error
}

const fakeLimit = 50_000_000

func (f *fakeSim) Step(n int) error {
	if f.err != nil {
		return f.err
	}
	limit := cmp.Or(f.limit, fakeLimit)
	if f.steps+uint64(n) > limit {
		return fmt.Errorf("runaway: more than %d steps", limit)
	}
	f.calls++
	f.maxBatch = max(f.maxBatch, n)
	f.steps += uint64(n)
	return nil
}

func (f *fakeSim) Now() sim.Duration { return f.clock(f.steps) }
func (f *fakeSim) Stats() sim.Stats  { return sim.Stats{Steps: f.steps} }

// TestStepUntilMatchesNaive checks the batched StepUntil against stepping one at a time, on
// clocks shaped like the simulation's: steady, tied at the start (every client starts at
// time 0), speeding up as the cache warms, and slowing down.
func TestStepUntilMatchesNaive(t *testing.T) {
	us := func(x float64) sim.Duration { return sim.Duration(x * float64(sim.Microsecond)) }
	clocks := map[string]func(n uint64) sim.Duration{
		"steady": func(n uint64) sim.Duration { return us(float64(n)) },
		"tied start": func(n uint64) sim.Duration {
			if n <= 8 {
				return 0
			}
			return us(float64(n-9)) + sim.Nanosecond
		},
		"speeding up":  func(n uint64) sim.Duration { return us(1000 * math.Sqrt(float64(n))) },
		"slowing down": func(n uint64) sim.Duration { return us(float64(n) * (1 + float64(n)/4e6)) },
	}
	for name, clock := range clocks {
		for _, target := range []sim.Duration{0, sim.Nanosecond, 50 * sim.Microsecond, 300 * sim.Millisecond, 2 * sim.Second} {
			var want uint64
			for clock(want) < target {
				want++
			}
			f := &fakeSim{clock: clock}
			if err := StepUntil(f, target); err != nil {
				t.Errorf("%s to %v: %v", name, target, err)
				continue
			}
			if f.steps != want {
				t.Errorf("%s to %v: stopped after %d steps, want %d", name, target, f.steps, want)
			}
			// Single steps near the start and the end (more when the clock speeds up and the
			// mean rate underestimates what remains), batches between.
			if bound := 4 * untilShare * untilMinBatch; f.calls > bound {
				t.Errorf("%s to %v: %d Step calls for %d steps; want at most %d", name, target, f.calls, want, bound)
			}
		}
	}
}

func TestStepUntilGivesUpWhenTheClockStops(t *testing.T) {
	for name, clock := range map[string]func(uint64) sim.Duration{
		"never moves":  func(uint64) sim.Duration { return 0 },
		"stops at 1ms": func(n uint64) sim.Duration { return sim.Duration(min(n, 1000)) * sim.Microsecond },
	} {
		f := &fakeSim{clock: clock}
		err := StepUntil(f, sim.Second)
		if err == nil || !strings.Contains(err.Error(), "stopped") {
			t.Errorf("%s: error %v, want one saying the clock stopped", name, err)
		}
	}
	boom := errors.New("boom")
	f := &fakeSim{clock: func(uint64) sim.Duration { return 0 }, err: boom}
	if err := StepUntil(f, sim.Second); !errors.Is(err, boom) {
		t.Errorf("error %v, want the Step error", err)
	}
}

func TestStepNSplitsLongRuns(t *testing.T) {
	const n = 2*sim.MaxStepsPerCommand + 5
	f := &fakeSim{clock: func(uint64) sim.Duration { return 0 }, limit: n}
	if err := StepN(f, n); err != nil {
		t.Fatal(err)
	}
	if f.steps != n || f.maxBatch > sim.MaxStepsPerCommand || f.calls != 3 {
		t.Errorf("%d steps in %d calls of at most %d; want %d in 3 of at most %d",
			f.steps, f.calls, f.maxBatch, n, sim.MaxStepsPerCommand)
	}
}
