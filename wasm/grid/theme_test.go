package grid

import (
	"testing"

	"github.com/bufferscope/bufferscope/sim/lab"
	"github.com/bufferscope/bufferscope/sim/labs/drop"
)

// The tests paint with themes built as the app builds them, from a lab's legend: free play's
// (a colour per relation) and the drop lab's (roles, an Empty swatch, a fade and marks).
var (
	perRelation = lab.PerRelation([]string{"a", "b", "c", "d", "e", "f", "g", "h"})
	testLight   = ThemeFor(&Light, perRelation)
	testDark    = ThemeFor(&Dark, perRelation)
	dropLegend  = dropLab()
	dropLight   = ThemeFor(&Light, dropLegend)
	dropDark    = ThemeFor(&Dark, dropLegend)
)

// dropLab returns the legend of a drop lab of two relations.
func dropLab() lab.Legend {
	l := drop.Lab{}
	v, _ := l.Params().Parse(map[string]string{"shared_buffers": "128kB", "tables": "2x3"})
	r, err := l.New(v)
	if err != nil {
		panic(err)
	}
	return r.Legend()
}

func TestThemeFor(t *testing.T) {
	for _, c := range []struct {
		base *Theme
		dark bool
	}{{&Light, false}, {&Dark, true}} {
		th := ThemeFor(c.base, dropLegend)
		if th.Name != c.base.Name || th.Base() != c.base || ThemeFor(th, dropLegend).Base() != c.base {
			t.Errorf("%s: built theme %q from base %q", c.base.Name, th.Name, th.Base().Name)
		}
		for i, r := range dropLegend.Roles {
			want := r.Light
			if c.dark {
				want = r.Dark
			}
			if got := th.Rel(i).Hex(); got != want {
				t.Errorf("%s: role %d is %s, the legend says %s", c.base.Name, i, got, want)
			}
		}
		probe, ok := th.Mark("checked")
		m, _ := dropLegend.Mark("checked")
		if want := map[bool]string{false: m.Light, true: m.Dark}[c.dark]; !ok || probe.Hex() != want {
			t.Errorf("%s: probe %s, want %s", c.base.Name, probe.Hex(), want)
		}
		burn, _ := dropLegend.Mark("burn")
		if want := map[bool]string{false: burn.Light, true: burn.Dark}[c.dark]; th.Burn.Hex() != want {
			t.Errorf("%s: the drop mark %s does not colour the burn (%s)", c.base.Name, want, th.Burn.Hex())
		}
		if th.Empty == c.base.Empty || th.FadeFrom != dropLegend.FadeFrom {
			t.Errorf("%s: Empty and FadeFrom not taken from the legend", c.base.Name)
		}
		if len(c.base.Roles) != 0 || len(c.base.Marks) != 0 {
			t.Errorf("%s: ThemeFor changed its base", c.base.Name)
		}
	}
	if m := RelMap(perRelation, 3); m != nil {
		t.Errorf("a legend without Role gave the relation map %v", m)
	}
	want := []int32{1, 2, 0} // two dropped relations in two shades, then others
	m := RelMap(dropLegend, 3)
	for i := range want {
		if m[i] != want[i] {
			t.Fatalf("RelMap = %v, want %v", m, want)
		}
	}
}
