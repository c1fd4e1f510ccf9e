// Package playback holds the pure parts of playing a simulation in real time: the speed
// ladder the site's slider offers, the plain-word labels of speeds, and the Pacer that turns a
// speed into whole simulation steps per tick. It knows nothing of Ebiten or the browser.
package playback

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/bufferscope/bufferscope/sim/param"
)

// Max is the speed that runs as many steps as a frame's time budget allows.
var Max = math.Inf(1)

// MaxFinite is the fastest speed one can ask for in steps per second, short of Max.
const MaxFinite = 1e7

// Ladder is the speeds free play's slider offers, in steps per second: 1, 2, 5, 10, … 1M,
// then Max.
var Ladder = ladder(1e6)

// ladder returns 1, 2, 5, 10, … top (a power of ten), then Max.
func ladder(top float64) []float64 {
	var l []float64
	for d := 1.0; d <= top; d *= 10 {
		l = append(l, d, 2*d, 5*d)
	}
	return append(l[:len(l)-2], Max)
}

// Range is what one kind of simulation can be played at: the slider's ladder and the
// fastest finite speed one can ask for.
type Range struct {
	Ladder    []float64
	MaxFinite float64
}

// FreePlay is free play's range: up to 1M steps per second on the slider, 10M on request.
// LabRange is the drop lab's, whose steps are single descriptors checked or blocks looked
// up — a full scan of a 100 GB pool is 13.1M of them: up to 100M per second on the slider
// and on request. Both also offer Max.
var (
	FreePlay = Range{Ladder: Ladder, MaxFinite: MaxFinite}
	LabRange = Range{Ladder: ladder(1e8), MaxFinite: 1e8}
)

// Default is the speed a page starts at; DefaultReduced is the calmer one for readers who
// ask for reduced motion.
const (
	Default        = 1000.0
	DefaultReduced = 100.0
)

// Label writes a speed in plain words: "1 step/s", "500 steps/s", "20,000 steps/s",
// "1M steps/s", "max".
func Label(speed float64) string {
	switch {
	case math.IsInf(speed, 1):
		return "max"
	case speed == 1:
		return "1 step/s"
	case speed >= 1e6 && math.Mod(speed, 1e5) == 0:
		return strconv.FormatFloat(speed/1e6, 'f', -1, 64) + "M steps/s"
	case speed >= 1000:
		return Group(int64(math.Round(speed))) + " steps/s"
	}
	return strconv.FormatFloat(speed, 'f', -1, 64) + " steps/s"
}

// Group writes n with commas between groups of three digits: 1,000,000.
func Group(n int64) string {
	s := strconv.FormatInt(n, 10)
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// Clamp returns the speed to use for a request of x steps per second in free play
// (FreePlay.Clamp).
func Clamp(x float64) (float64, string) { return FreePlay.Clamp(x) }

// MinFinite is the slowest speed one can ask for: a step every 100 seconds. A slower one
// would never be seen to move, and its label ran to hundreds of digits (1e-300 steps/s).
const MinFinite = 0.01

// Accepts says in words what one can ask r for: "a number of steps per second from 0.01
// to 10,000,000, or max".
func (r Range) Accepts() string {
	return fmt.Sprintf("a number of steps per second from %s to %s, or max", Format(MinFinite), Group(int64(r.MaxFinite)))
}

// Clamp returns the speed to use for a request of x steps per second: x itself when
// MinFinite ≤ x ≤ r.MaxFinite or x is +Inf, otherwise the nearest allowed speed (the
// ladder's first for no positive number) and a sentence saying what was asked, what r
// accepts and what was used.
func (r Range) Clamp(x float64) (float64, string) { return r.ClampAs(x, number(x)) }

// ClampAs is Clamp for a speed given as text, which the sentence names as what (quoted):
// "1e400" rather than the number it was read as.
func (r Range) ClampAs(x float64, what string) (float64, string) {
	used := x
	switch {
	case math.IsInf(x, 1):
		return Max, ""
	case math.IsNaN(x) || x <= 0:
		used = r.Ladder[0]
	case x < MinFinite:
		used = MinFinite
	case x > r.MaxFinite:
		used = r.MaxFinite
	default:
		return x, ""
	}
	return used, fmt.Sprintf("speed %s is not %s; using %s", what, r.Accepts(), Label(used))
}

// number writes a requested speed for a message: 1e-300, 50000000, NaN, -Infinity.
func number(x float64) string {
	switch {
	case math.IsInf(x, 1):
		return "Infinity"
	case math.IsInf(x, -1):
		return "-Infinity"
	case x != 0 && (math.Abs(x) < 1e-4 || math.Abs(x) >= 1e15):
		return strconv.FormatFloat(x, 'g', -1, 64)
	}
	return strconv.FormatFloat(x, 'f', -1, 64)
}

// Parse reads a speed as a URL writes one: a number of steps per second, or "max". A
// number too large to hold (1e400) reads as the largest one, which Clamp brings down to
// the fastest finite speed; max is the way to ask for no limit.
func Parse(s string) (float64, error) {
	t := strings.TrimSpace(strings.ToLower(s))
	if t == "max" || t == "infinity" {
		return Max, nil
	}
	x, err := strconv.ParseFloat(t, 64)
	if errors.Is(err, strconv.ErrRange) && math.IsInf(x, 0) {
		return math.Copysign(math.MaxFloat64, x), nil
	}
	if err != nil || math.IsNaN(x) {
		return 0, fmt.Errorf("speed %s is not a number of steps per second or max", param.Quote(s))
	}
	return x, nil
}

// Format writes a speed as Parse reads it back: "1000", "max".
func Format(speed float64) string {
	if math.IsInf(speed, 1) {
		return "max"
	}
	return strconv.FormatFloat(speed, 'f', -1, 64)
}

// Nearest returns the index of the ladder step closest to speed on a logarithmic scale.
func Nearest(speed float64) int {
	if math.IsInf(speed, 1) {
		return len(Ladder) - 1
	}
	best, bestD := 0, math.Inf(1)
	for i, v := range Ladder[:len(Ladder)-1] {
		if d := math.Abs(math.Log(v) - math.Log(max(speed, 1e-9))); d < bestD {
			best, bestD = i, d
		}
	}
	return best
}

// Pacer turns a speed in steps per second into whole steps per frame from the wall time that
// passed, carrying fractions over, so 1 step/s runs one step a second whatever the frame
// rate. The zero value is ready to use.
type Pacer struct{ carry float64 }

// MaxElapsed is the most wall time one call of Due accounts for: after a pause in frames (a
// hidden tab, a slow frame) playback resumes instead of running a burst to catch up.
const MaxElapsed = 0.25

// Due returns the steps to run now at speed steps per second, elapsed seconds after the
// last call. It must not be used for Max, whose steps are bounded by time instead.
func (p *Pacer) Due(speed, elapsed float64) int {
	if !(speed > 0) || math.IsInf(speed, 1) || !(elapsed > 0) {
		return 0
	}
	p.carry += speed * min(elapsed, MaxElapsed)
	n := math.Floor(p.carry)
	p.carry -= n
	return int(n)
}

// Drop forgets the fraction carried over, when steps that were due could not be run or the
// speed changed.
func (p *Pacer) Drop() { p.carry = 0 }
