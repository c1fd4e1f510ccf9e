package free

import (
	"fmt"

	"github.com/bufferscope/bufferscope/sim"
)

// Stepper is the part of *sim.Sim that stepping needs; tests give a stand-in.
type Stepper interface {
	Step(n int) error
	Now() sim.Duration
	Stats() sim.Stats
}

// Batching of StepUntil.
const (
	// A batch is 1/untilShare of the steps the mean rate so far says remain, so it overshoots
	// only if the clock runs untilShare times faster than its mean so far.
	untilShare = 8
	// untilMinBatch is the smallest batch; below it StepUntil takes single steps.
	untilMinBatch = 512
	// maxStalledSteps is how many steps may pass without the virtual clock moving before
	// StepUntil gives up rather than loop for ever.
	maxStalledSteps = 1 << 20
)

// StepUntil steps s until its virtual clock reaches t. It steps in batches, each at most
// 1/untilShare of the steps the mean rate so far says remain and at most the steps taken so
// far (the first steps say little about the rate), and singly when the batch would be below
// untilMinBatch, so it stops at the first step that reaches t, or in rare cases just after;
// the steps taken reproduce the run through --steps. It fails if the clock stops moving.
func StepUntil(s Stepper, t sim.Duration) error {
	stalled := 0
	for s.Now() < t {
		now := s.Now()
		n := 1
		if steps := s.Stats().Steps; now > 0 {
			est := float64(t-now) / float64(now) * float64(steps) / untilShare
			if est >= untilMinBatch {
				n = int(min(est, float64(steps), sim.MaxStepsPerCommand))
			}
		}
		if err := s.Step(n); err != nil {
			return err
		}
		if s.Now() > now {
			stalled = 0
			continue
		}
		if stalled += n; stalled >= maxStalledSteps {
			return fmt.Errorf("the virtual clock stopped at %v: %d steps without it moving", now, stalled)
		}
	}
	return nil
}
