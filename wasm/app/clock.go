package app

import "time"

// TicksPerSecond is the app's clock: Tick counts the time since the last one in ticks of a
// sixtieth of a second, whatever the browser's frame rate.
const TicksPerSecond = 60

// StepBudget is the wall time one tick may spend on simulation steps, leaving the rest of a
// 60 Hz frame to painting and the browser.
const StepBudget = 9 * time.Millisecond

// deadline is a wall-clock time after which a loop of steps stops; the zero value never
// passes. Wall time decides only how many steps run per frame, never what a step does, so
// runs stay deterministic.
type deadline struct{ at time.Time }

// noDeadline lets a loop run to the end.
var noDeadline deadline

func newDeadline(d time.Duration) deadline { return deadline{time.Now().Add(d)} }

func (d deadline) passed() bool { return !d.at.IsZero() && time.Now().After(d.at) }

// stop returns passed as a stop function for labview.View.Step, nil for no deadline (which
// tells the view the reader stepped by hand).
func (d deadline) stop() func() bool {
	if d.at.IsZero() {
		return nil
	}
	return d.passed
}

// rateMeter measures simulation steps per second of wall time, over windows of about a
// second.
type rateMeter struct {
	steps uint64
	at    time.Time
	rate  float64
}

func (m *rateMeter) reset(steps uint64, now time.Time) { *m = rateMeter{steps: steps, at: now} }

// observe takes the step counter at wall time now and updates the rate once a window is
// over.
func (m *rateMeter) observe(steps uint64, now time.Time) {
	if m.at.IsZero() || steps < m.steps {
		m.reset(steps, now)
		return
	}
	if dt := now.Sub(m.at); dt >= time.Second {
		m.rate = float64(steps-m.steps) / dt.Seconds()
		m.steps, m.at = steps, now
	}
}
