package lab

import (
	"strings"
	"testing"
)

type inner struct {
	A uint64 `counter:"a" label:"A" format:"count"`
}

type outer struct {
	inner
	B float64 `counter:"b" label:"B" format:"ratio" of:"a" sub:"true"`
	C string  `counter:"c" format:"text" hidden:"true"`
}

func TestDescribeAndValues(t *testing.T) {
	d := Describe(&outer{})
	if len(d) != 3 || d[0].Key != "a" || d[1].Of != "a" || !d[1].Sub || !d[2].Hidden || d[2].Label != "c" || d[1].Type != "number" || d[2].Type != "string" {
		t.Fatalf("described %+v", d)
	}
	v := CounterValues(outer{inner{7}, 0.5, "x"})
	if v["a"] != uint64(7) || v["b"] != 0.5 || v["c"] != "x" || len(v) != 3 {
		t.Fatalf("values %v", v)
	}
}

// hiding embeds inner with its counter a kept off the panel.
type hiding struct {
	inner `hidden:"a"`
	B     uint64 `counter:"b" format:"count"`
}

func TestDescribeHidesEmbeddedCounters(t *testing.T) {
	d := Describe(hiding{})
	if len(d) != 2 || d[0].Key != "a" || !d[0].Hidden || d[1].Hidden {
		t.Fatalf("described %+v; want a hidden, b shown", d)
	}
	if v := CounterValues(hiding{inner{3}, 4}); v["a"] != uint64(3) {
		t.Errorf("a hidden counter still crosses the bridge: values %v", v)
	}
	// Every lab's pool counters are hidden by name: a name the struct lost is refused.
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(string), `"gone"`) {
			t.Errorf("hiding a key inner lacks: no panic naming it (%v)", r)
		}
	}()
	Describe(struct {
		inner `hidden:"a,gone"`
	}{})
}

func TestDescribeRefusesBadTags(t *testing.T) {
	for _, c := range []any{
		struct {
			X int `label:"no key"`
		}{},
		struct {
			X int `counter:"x" format:"percent"`
		}{},
		struct {
			X []int `counter:"x" format:"count"`
		}{},
	} {
		func() {
			defer func() {
				if r := recover(); r == nil || !strings.HasPrefix(r.(string), "lab:") {
					t.Errorf("%T: no panic with a reason (%v)", c, r)
				}
			}()
			Describe(c)
		}()
	}
}

func TestPerRelationLegend(t *testing.T) {
	l := PerRelation([]string{"a", "b", "c", "d", "e", "f", "g", "h", "i"})
	if len(l.Roles) != 9 || l.RoleOf(8) != 8 || l.RoleOf(-1) != -1 || l.Roles[8].Light != l.Roles[0].Light {
		t.Fatalf("legend %+v", l)
	}
	if _, ok := l.Mark("hand"); !ok {
		t.Error("free play's legend lacks the clock hand")
	}
}

func TestTargets(t *testing.T) {
	var ts Targets
	ts.Add(true, "one", "fine")
	if !ts.Passed() {
		t.Error("one passing target did not pass")
	}
	ts.Add(false, "two", "missed")
	var b strings.Builder
	ts.WriteMarkdown(&b)
	if ts.Passed() || b.String() != "- **pass** one: fine\n- **FAIL** two: missed\n" {
		t.Errorf("passed %v, markdown %q", ts.Passed(), b.String())
	}
}

func TestSharedBuffersDefaultJoinsTheSizesInOrder(t *testing.T) {
	p := SharedBuffersDefault("doc", "256MB")
	var got []string
	for _, o := range p.Presets {
		got = append(got, o.Label)
	}
	want := "128kB · 16 buffers|1MB · 128 buffers|8MB · 1,024 buffers|128MB · 16,384 buffers|256MB · 32,768 buffers|512MB · 65,536 buffers|1GB · 131,072 buffers|4GB · 524,288 buffers|20GB · 2.6M buffers|100GB · 13.1M buffers"
	if p.Default != "256MB" || strings.Join(got, "|") != want {
		t.Errorf("default %s, sizes %s; want 256MB among %s", p.Default, strings.Join(got, "|"), want)
	}
	if len(SharedBuffers("doc").Presets) != 9 {
		t.Error("SharedBuffersDefault changed the sizes every other lab offers")
	}
	if p := SharedBuffersDefault("doc", "1GB"); len(p.Presets) != 9 || p.Default != "1GB" {
		t.Errorf("a default already offered is offered twice: %v", p.Presets)
	}
	if p := SharedBuffersDefault("doc", "64GB"); p.Presets[8].Value != "64GB" || p.Presets[9].Value != "100GB" {
		t.Errorf("64GB is not offered between 20GB and 100GB: %v", p.Presets)
	}
}
