package param

import (
	"errors"
	"strings"
	"testing"
)

var table = &Table{Params: []Param{
	{Key: "size", Kind: Int, Default: "100", Min: 10, Max: 1000},
	{Key: "clients", Kind: Int, Default: "8", Min: 0, Max: 1000,
		Bounds: func(v Values) (float64, float64, string) {
			return 0, float64(v.Int("size") / 2), "at most half of size"
		}},
	{Key: "skew", Kind: Float, Default: "1.1", Min: 1.001, Max: 1000},
	{Key: "seed", Kind: Uint, Default: "1"},
	{Key: "mode", Kind: Choice, Default: "a", Choices: []Option{{Value: "a"}, {Value: "b"}}},
	{Key: "name", Kind: Text, Default: "x", Parse: func(s string, _ Values) (string, error) {
		if s == "" || strings.ContainsAny(s, " ,") {
			return "", errors.New("not a name")
		}
		return strings.ToLower(s), nil
	}},
}}

func TestParse(t *testing.T) {
	for _, c := range []struct {
		in      map[string]string
		want    map[string]string
		problem string // the first problem's Error(), or ""
	}{
		{nil, map[string]string{"size": "100", "clients": "8", "skew": "1.1", "seed": "1", "mode": "a", "name": "x"}, ""},
		{map[string]string{"size": " 500 ", "name": "ABC", "skew": "2.5", "seed": "18446744073709551615"},
			map[string]string{"size": "500", "name": "abc", "skew": "2.5", "seed": "18446744073709551615"}, ""},
		{map[string]string{"size": "5000"}, map[string]string{"size": "1000"}, `size "5000": not between 10 and 1000; using 1000`},
		{map[string]string{"size": "1.5"}, map[string]string{"size": "100"}, `size "1.5": not a whole number from 10 to 1000; using 100`},
		{map[string]string{"size": "NaN"}, map[string]string{"size": "100"}, `size "NaN": not a whole number from 10 to 1000; using 100`},
		{map[string]string{"size": "Inf"}, map[string]string{"size": "100"}, `size "Inf": not a whole number from 10 to 1000; using 100`},
		{map[string]string{"size": "1e400"}, map[string]string{"size": "1000"}, `size "1e400": not between 10 and 1000; using 1000`},
		{map[string]string{"skew": "-1e400"}, map[string]string{"skew": "1.001"}, `skew "-1e400": not between 1.001 and 1000; using 1.001`},
		{map[string]string{"size": "20", "clients": "11"}, map[string]string{"clients": "10"}, `clients "11": not between 0 and 10 (at most half of size); using 10`},
		{map[string]string{"size": "10", "clients": "x"}, map[string]string{"clients": "5"}, `clients "x": not a whole number from 0 to 5; using 5`},
		{map[string]string{"skew": "1"}, map[string]string{"skew": "1.001"}, `skew "1": not between 1.001 and 1000; using 1.001`},
		{map[string]string{"seed": "-1"}, map[string]string{"seed": "1"}, `seed "-1": not a whole number from 0 to 18446744073709551615; using 1`},
		{map[string]string{"mode": "c"}, map[string]string{"mode": "a"}, `mode "c": not a or b; using a`},
		{map[string]string{"name": "a b"}, map[string]string{"name": "x"}, `name "a b": not a name; using x`},
	} {
		v, problems := table.Parse(c.in)
		for k, want := range c.want {
			if v[k] != want {
				t.Errorf("%v: %s = %q, want %q", c.in, k, v[k], want)
			}
		}
		if len(v) != len(table.Params) {
			t.Errorf("%v: %d values for %d parameters", c.in, len(v), len(table.Params))
		}
		got := ""
		if len(problems) > 0 {
			got = problems[0].Error()
		}
		if got != c.problem {
			t.Errorf("%v: problem %q, want %q", c.in, got, c.problem)
		}
	}
}

// TestValueMatchesParse checks that checking one value, as the command line does, says what
// parsing it among all the values says.
func TestValueMatchesParse(t *testing.T) {
	before := table.Defaults()
	for _, text := range []string{"0", "10", "50", "51", "x", ""} {
		_, p1 := table.Value("clients", text, before)
		_, ps := table.Parse(map[string]string{"clients": text})
		if (p1 == nil) != (len(ps) == 0) || p1 != nil && p1.Error() != ps[0].Error() {
			t.Errorf("clients %q: Value says %v, Parse says %v", text, p1, ps)
		}
	}
}

func TestFieldsAndLimits(t *testing.T) {
	f := table.Fields()
	if len(f) != len(table.Params) || f[1].Key != "clients" || *f[1].Max != 50 || f[0].Flag != "--size" {
		t.Fatalf("fields: %+v", f)
	}
	v, _ := table.Parse(map[string]string{"size": "400"})
	if l := table.Limits(v)["clients"]; l.Max == nil || *l.Max != 200 || l.Refused != nil {
		t.Errorf("clients at size 400: %+v", l)
	}
	if _, ok := table.Limits(v)["name"]; ok {
		t.Error("a text parameter that offers nothing has a limit")
	}
}

// TestLimitsRefuseOfferedValues checks that an offered value the parameter's own check
// refuses under the values in force is named with that check's words, and only then.
func TestLimitsRefuseOfferedValues(t *testing.T) {
	tb := &Table{Params: []Param{
		{Key: "old", Kind: Choice, Default: "no", Choices: []Option{{Value: "no"}, {Value: "yes"}}},
		{Key: "ring", Kind: Text, Default: "default", Presets: []Option{{Value: "default"}, {Value: "2MB"}},
			Parse: func(s string, v Values) (string, error) {
				if s != "default" && v.Text("old") == "yes" {
					return "", errors.New("not settable on an old server")
				}
				return s, nil
			}},
		{Key: "n", Kind: Int, Default: "2", Min: 1, Max: 3, Presets: []Option{{Value: "1"}, {Value: "4"}}},
	}}
	v, _ := tb.Parse(map[string]string{"old": "yes"})
	l := tb.Limits(v)
	if got := l["ring"].Refused; len(got) != 1 || got["2MB"] != "not settable on an old server" {
		t.Errorf("ring on an old server refuses %v", got)
	}
	if got := l["n"].Refused; len(got) != 1 || got["4"] != "not between 1 and 3" {
		t.Errorf("n refuses %v", got)
	}
	if _, ok := l["old"]; ok {
		t.Errorf("a choice whose every value is taken has a limit: %+v", l["old"])
	}
	v, _ = tb.Parse(nil)
	if got := tb.Limits(v)["ring"]; got.Refused != nil {
		t.Errorf("ring on a new server refuses %v", got.Refused)
	}
}

// TestProblemNamesValueShortly checks that a problem repeats a value as Quote writes it:
// a 100 kB value is cut short, invisible and control characters are escaped, and an
// empty safe value is named as one.
func TestProblemNamesValueShortly(t *testing.T) {
	long := strings.Repeat("9", 100_000)
	_, problems := table.Parse(map[string]string{"size": long, "name": "\u202ea b\u200b", "mode": "<b>x</b>"})
	if len(problems) != 3 {
		t.Fatalf("problems: %v", problems)
	}
	want := []string{
		`size "` + strings.Repeat("9", MaxQuoted) + `…" (100,000 characters): not between 10 and 1000; using 1000`,
		`mode "<b>x</b>": not a or b; using a`,
		`name "\u202ea b\u200b": not a name; using x`,
	}
	for i, p := range problems {
		if got := p.Error(); got != want[i] {
			t.Errorf("problem %d:\n got %s\nwant %s", i, got, want[i])
		}
	}
	empty := &Problem{Key: "cost", Value: "x", Problem: "not part=value", Used: ""}
	if got, want := empty.Error(), `cost "x": not part=value; using an empty value`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	if got, want := Quote(strings.Repeat("é", 70)), `"`+strings.Repeat("é", MaxQuoted)+`…" (70 characters)`; got != want {
		t.Errorf("Quote of 70 é: %s, want %s", got, want)
	}
	if got := Quote("a\x00\nb"); got != `"a\x00\nb"` {
		t.Errorf("Quote of control characters: %s", got)
	}
}

// TestDefaultWithinBounds checks that a number not given takes its default moved inside the
// bounds the values before it set, as a malformed one does, without a problem: it was not
// given, so nothing the reader wrote was wrong.
func TestDefaultWithinBounds(t *testing.T) {
	v, problems := table.Parse(map[string]string{"size": "10"})
	if v["clients"] != "5" || len(problems) > 0 {
		t.Errorf("clients at size 10: %q, problems %v; want 5 and none", v["clients"], problems)
	}
	if got := table.Param("clients").DefaultFor(Values{"size": "100"}); got != "8" {
		t.Errorf("DefaultFor at size 100 = %q, want the default 8", got)
	}
}
