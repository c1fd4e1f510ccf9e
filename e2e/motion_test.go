//go:build !js

package e2e

import (
	"testing"
	"time"

	"github.com/bufferscope/bufferscope/sim/labs"
)

// firstSeconds is how soon after a lab opens its mechanism must be seen moving (issue
// "the playground experience": something moves within five seconds of opening each lab).
const firstSeconds = 5 * time.Second

// motion is what TestEveryLabMovesAtOnce reads of stats().
type motion struct {
	Step   float64 `json:"step"`
	Frames float64 `json:"frames"`
	Done   bool    `json:"done"`
	// Evictions is free play's counter; the other labs have none, and it reads 0.
	Evictions float64 `json:"evictions"`
}

const motionJS = `(s => ({step: s.step, frames: s.frames, done: s.done, evictions: (s.counters && s.counters.evictions) || 0}))(bufferscope.stats())`

// TestEveryLabMovesAtOnce opens each lab by its bare address, as a new reader does, and
// checks that it plays at once and at a pace a person can follow: within a few seconds the
// simulation has stepped and the grid has been redrawn, and a lab with an end (the drop lab's
// replay) has not already finished by the time the page is ready. Free play reaches its
// first eviction in that time.
func TestEveryLabMovesAtOnce(t *testing.T) {
	for _, l := range labs.All {
		name := l.Info().Name
		t.Run(name, func(t *testing.T) {
			p := openPage(t, "/?lab="+name)
			first := eval[motion](p, motionJS)
			if first.Done {
				t.Fatalf("the %s lab had finished its run when the page became ready (step %v): nothing moved for the reader", name, first.Step)
			}
			deadline := time.Now().Add(firstSeconds)
			var now motion
			for time.Now().Before(deadline) {
				time.Sleep(250 * time.Millisecond)
				now = eval[motion](p, motionJS)
				moved := now.Step > first.Step && now.Frames > first.Frames
				if moved && (name != "free" || now.Evictions > 0) {
					return
				}
			}
			t.Errorf("%s: %v after the page was ready, step %v → %v, frames %v → %v, evictions %v", name, firstSeconds, first.Step, now.Step, first.Frames, now.Frames, now.Evictions)
		})
	}
}
