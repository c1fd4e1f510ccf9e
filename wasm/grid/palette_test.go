package grid

import (
	"math"
	"testing"
)

func distance(a, b RGBA) float64 {
	dr, dg, db := float64(a.R)-float64(b.R), float64(a.G)-float64(b.G), float64(a.B)-float64(b.B)
	return math.Sqrt(dr*dr + dg*dg + db*db)
}

func TestRelationColoursAreDistinct(t *testing.T) {
	for _, th := range []*Theme{testLight, testDark} {
		for i, a := range th.Roles {
			for j, b := range th.Roles[:i] {
				if d := distance(a, b); d < 60 {
					t.Errorf("%s: relations %d and %d are too close (%.0f)", th.Name, i, j, d)
				}
			}
			// Every usage count, even zero, must stand apart from an empty buffer.
			for u := range 6 {
				if d := distance(th.Fill(i, u), th.Empty); d < 25 {
					t.Errorf("%s: relation %d at usage %d is close to empty (%.0f)", th.Name, i, u, d)
				}
			}
		}
	}
}

func TestMarksContrastWithEveryFill(t *testing.T) {
	for _, th := range []*Theme{testLight, testDark} {
		for i := range th.Roles {
			for u := range 6 {
				f := th.Fill(i, u)
				if c := Contrast(f, th.InkOn(f)); c < 3 {
					t.Errorf("%s: relation %d usage %d: ink contrast %.2f, want ≥ 3", th.Name, i, u, c)
				}
			}
		}
		if c := Contrast(th.Hand, th.Background); c < 7 {
			t.Errorf("%s: clock hand contrast %.2f with the background", th.Name, c)
		}
		if c := Contrast(th.Highlight, th.Background); c < 3 {
			t.Errorf("%s: highlight contrast %.2f with the background", th.Name, c)
		}
	}
}

func TestUsageBrightens(t *testing.T) {
	for _, th := range []*Theme{testLight, testDark} {
		for i := range th.Roles {
			for u := 1; u < 6; u++ {
				if distance(th.Fill(i, u), th.Background) <= distance(th.Fill(i, u-1), th.Background) {
					t.Errorf("%s: relation %d at usage %d is no further from the background than at %d", th.Name, i, u, u-1)
				}
			}
		}
	}
}

func TestThemeByName(t *testing.T) {
	if th, ok := ThemeByName("dark"); !ok || th != &Dark {
		t.Error("dark")
	}
	if th, ok := ThemeByName("purple"); ok || th != &Light {
		t.Error("an unknown theme must give Light and false")
	}
	if got := hex("#0a0B0c").Hex(); got != "#0a0b0c" {
		t.Errorf("Hex = %s", got)
	}
}
