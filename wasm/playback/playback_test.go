package playback

import (
	"math"
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
	}{{100, 100, false}, {0.25, 0.25, false}, {Max, Max, false}, {0, 1, true}, {-3, 1, true}, {math.NaN(), 1, true}, {5e7, MaxFinite, true}, {math.Inf(-1), 1, true}} {
		got, warn := Clamp(c.in)
		if got != c.want || (warn != "") != c.warn {
			t.Errorf("Clamp(%v) = %v, %q", c.in, got, warn)
		}
	}
	for s, want := range map[string]float64{"1000": 1000, " max ": Max, "Infinity": Max, "2.5": 2.5} {
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
