//go:build js

package main

import "time"

// ticksPerSecond is Ebiten's default TPS, which the app keeps.
const ticksPerSecond = 60

// stepBudget is the wall time one tick may spend on simulation steps, leaving the rest of a
// 60 Hz frame to painting and the browser.
const stepBudget = 9 * time.Millisecond

// deadline is a wall-clock time after which a loop of steps stops; the zero value never
// passes. Wall time decides only how many steps run per frame, never what a step does, so
// runs stay deterministic.
type deadline struct{ at time.Time }

// noDeadline lets a loop run to the end.
var noDeadline deadline

func newDeadline(d time.Duration) deadline { return deadline{time.Now().Add(d)} }

func (d deadline) passed() bool { return !d.at.IsZero() && time.Now().After(d.at) }

// rateMeter measures simulation steps per second of wall time, over windows of about a
// second.
type rateMeter struct {
	steps uint64
	at    time.Time
	rate  float64
}

func (m *rateMeter) reset(steps uint64) { *m = rateMeter{steps: steps, at: time.Now()} }

// observe takes the step counter now and updates the rate once a window is over.
func (m *rateMeter) observe(steps uint64) {
	now := time.Now()
	if m.at.IsZero() || steps < m.steps {
		m.reset(steps)
		return
	}
	if dt := now.Sub(m.at); dt >= time.Second {
		m.rate = float64(steps-m.steps) / dt.Seconds()
		m.steps, m.at = steps, now
	}
}
