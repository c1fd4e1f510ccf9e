package playback

import (
	"math"
	"strings"
	"testing"
)

func TestLadder(t *testing.T) {
	if len(Ladder) != 20 || Ladder[0] != 1 || Ladder[18] != 1e6 || !math.IsInf(Ladder[19], 1) {
		t.Fatalf("Ladder = %v", Ladder)
	}
	for i := 1; i < len(Ladder); i++ {
		if Ladder[i] <= Ladder[i-1] {
			t.Fatalf("Ladder is not increasing at %d: %v", i, Ladder)
		}
	}
}

func TestLabRange(t *testing.T) {
	l := LabRange.Ladder
	if len(l) != 26 || l[0] != 1 || l[24] != 1e8 || !math.IsInf(l[25], 1) {
		t.Fatalf("LabRange.Ladder = %v", l)
	}
	if got, warn := LabRange.Clamp(5e7); got != 5e7 || warn != "" {
		t.Errorf("LabRange.Clamp(5e7) = %v, %q", got, warn)
	}
	if got, warn := LabRange.Clamp(2e8); got != 1e8 || warn == "" {
		t.Errorf("LabRange.Clamp(2e8) = %v, %q", got, warn)
	}
	if Label(1e8) != "100M steps/s" {
		t.Errorf("Label(1e8) = %q", Label(1e8))
	}
}

func TestLabel(t *testing.T) {
	for speed, want := range map[float64]string{
		1: "1 step/s", 2: "2 steps/s", 0.5: "0.5 steps/s", 500: "500 steps/s",
		1000: "1,000 steps/s", 20000: "20,000 steps/s", 500000: "500,000 steps/s",
		1e6: "1M steps/s", 2.5e6: "2.5M steps/s", 1e7: "10M steps/s", 1234567: "1,234,567 steps/s",
		Max: "max",
	} {
		if got := Label(speed); got != want {
			t.Errorf("Label(%v) = %q, want %q", speed, got, want)
		}
	}
}

func TestClampAndParse(t *testing.T) {
	for _, c := range []struct {
		in   float64
		want float64
		warn bool
	}{{100, 100, false}, {0.25, 0.25, false}, {Max, Max, false}, {0, 1, true}, {-3, 1, true}, {math.NaN(), 1, true}, {5e7, MaxFinite, true}, {math.Inf(-1), 1, true},
		{MinFinite, MinFinite, false}, {1e-300, MinFinite, true}} {
		got, warn := Clamp(c.in)
		if got != c.want || (warn != "") != c.warn {
			t.Errorf("Clamp(%v) = %v, %q", c.in, got, warn)
		}
	}
	for s, want := range map[string]float64{"1000": 1000, " max ": Max, "Infinity": Max, "2.5": 2.5, "1e400": math.MaxFloat64, "-1e400": -math.MaxFloat64} {
		if got, err := Parse(s); err != nil || got != want {
			t.Errorf("Parse(%q) = %v, %v", s, got, err)
		}
	}
	for _, s := range []string{"", "fast", "NaN", "1e"} {
		if _, err := Parse(s); err == nil {
			t.Errorf("Parse(%q) accepted", s)
		}
	}
	for _, v := range []float64{1000, 0.5, Max} {
		if got, _ := Parse(Format(v)); got != v {
			t.Errorf("Format(%v) does not round-trip", v)
		}
	}
}

func TestNearest(t *testing.T) {
	for speed, want := range map[float64]int{1: 0, 1000: 9, 1500: 10, 3000: 10, 4000: 11, 1e6: 18, 1e7: 18, Max: 19, 0.001: 0} {
		if got := Nearest(speed); got != want {
			t.Errorf("Nearest(%v) = %d (%v), want %d (%v)", speed, got, Ladder[got], want, Ladder[want])
		}
	}
}

func TestPacer(t *testing.T) {
	var p Pacer
	total := 0
	for range 600 {
		total += p.Due(1, 1.0/60)
	}
	if total != 10 {
		t.Errorf("1 step/s for 10 s of 60 Hz frames ran %d steps", total)
	}
	total = 0
	for range 15 {
		total += p.Due(1000, 1.0/15) // a slow machine drawing 15 frames a second
	}
	if total != 1000 {
		t.Errorf("1,000 steps/s for one second of 15 Hz frames ran %d steps", total)
	}
	if n := p.Due(1000, 10); n != 250 {
		t.Errorf("after a 10 s gap Due gives %d steps, want MaxElapsed's worth, 250", n)
	}
	if p.Due(Max, 1) != 0 || p.Due(0, 1) != 0 || p.Due(10, 0) != 0 || p.Due(10, -1) != 0 {
		t.Error("Due must give 0 for Max, zero speed and no elapsed time")
	}
}

// TestClampSaysTheRange checks what a reader is told about a speed out of range: the speed
// asked for, the range, and the speed used. A speed of 1e-300 was taken as it was, and its
// label ran to 310 characters.
func TestClampSaysTheRange(t *testing.T) {
	for x, want := range map[float64]string{
		1e-300:          "speed 1e-300 is not a number of steps per second from 0.01 to 10,000,000, or max; using 0.01 steps/s",
		math.Inf(-1):    "speed -Infinity is not a number of steps per second from 0.01 to 10,000,000, or max; using 1 step/s",
		math.NaN():      "speed NaN is not a number of steps per second from 0.01 to 10,000,000, or max; using 1 step/s",
		5e7:             "speed 50000000 is not a number of steps per second from 0.01 to 10,000,000, or max; using 10M steps/s",
		math.MaxFloat64: "speed 1.7976931348623157e+308 is not a number of steps per second from 0.01 to 10,000,000, or max; using 10M steps/s",
	} {
		if _, got := Clamp(x); got != want {
			t.Errorf("Clamp(%v):\n got %s\nwant %s", x, got, want)
		}
	}
	if _, err := Parse(strings.Repeat("x", 100_000)); err == nil || len(err.Error()) > 200 {
		t.Errorf("Parse of 100 kB: %.300v", err)
	}
}
