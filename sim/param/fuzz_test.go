package param_test

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/bufferscope/bufferscope/sim/labs"
	"github.com/bufferscope/bufferscope/sim/param"
)

// decodeQuery reads fuzz text as an address's parameters: items separated by & (or a new
// line), each key=value. A key written @N is the table's N-th key (modulo its length), so
// that a mutation of one digit moves a value to another parameter.
func decodeQuery(t *param.Table, text string) map[string]string {
	in := map[string]string{}
	for _, item := range strings.FieldsFunc(text, func(r rune) bool { return r == '&' || r == '\n' }) {
		k, v, _ := strings.Cut(item, "=")
		if n, ok := strings.CutPrefix(k, "@"); ok {
			if i, err := strconv.Atoi(n); err == nil && i >= 0 {
				k = t.Params[i%len(t.Params)].Key
			}
		}
		in[k] = v
	}
	return in
}

// checkValue reports why v[p.Key] is not a value p admits among the values v, or "".
func checkValue(p *param.Param, v param.Values) string {
	s, ok := v[p.Key]
	if !ok {
		return "missing"
	}
	switch p.Kind {
	case param.Int, param.Float:
		lo, hi := p.Min, p.Max
		if p.Bounds != nil {
			lo, hi, _ = p.Bounds(v)
		}
		x, err := strconv.ParseFloat(s, 64)
		if err != nil || math.IsNaN(x) || math.IsInf(x, 0) || p.Kind == param.Int && x != math.Trunc(x) {
			return "not a " + p.Kind.String()
		}
		if x < lo || x > hi {
			return "outside " + strconv.FormatFloat(lo, 'g', -1, 64) + ".." + strconv.FormatFloat(hi, 'g', -1, 64)
		}
	case param.Uint:
		if _, err := strconv.ParseUint(s, 10, 64); err != nil {
			return "not a uint"
		}
	case param.Choice:
		if !slices.ContainsFunc(p.Choices, func(o param.Option) bool { return o.Value == s }) {
			return "not one of the choices"
		}
	}
	if p.Parse != nil {
		norm, err := p.Parse(s, v)
		if err != nil {
			return "its own check refuses it: " + err.Error()
		}
		if norm != s {
			return "its own check normalises it to " + strconv.Quote(norm)
		}
	}
	return ""
}

// FuzzParse reads fuzz text as the parameters of each registered lab's table, as an
// address, a control, the bridge or a host page gives them, and checks what Table.Parse
// promises: it never panics; every value it returns is one its parameter admits (a number
// within its bounds, one of its choices, a text its own check leaves as it is); the values
// it returns parse again to themselves with no problem; each problem names a parameter of
// the table, quotes the value, and says the value that was used; and Table.Value, which the
// command line uses item by item, agrees with Parse about each value given.
func FuzzParse(f *testing.F) {
	for i, l := range labs.All {
		t := l.Params()
		f.Add(uint8(i), "")
		var all []string
		for j := range t.Params {
			p := &t.Params[j]
			all = append(all, p.Key+"="+p.Default)
			for _, o := range append(p.Choices, p.Presets...) {
				f.Add(uint8(i), p.Key+"="+o.Value)
			}
			f.Add(uint8(i), "@"+strconv.Itoa(j)+"= x ")
			f.Add(uint8(i), p.Key+"=")
		}
		f.Add(uint8(i), strings.Join(all, "&"))
	}
	f.Add(uint8(0), "shared_buffers=128kB&clients=9&zipf_s=1e308&seed=18446744073709551616")
	f.Add(uint8(1), "shared_buffers=100GB&tables=100000x2000&op=vacuum&transactions=single")
	f.Add(uint8(3), "naptime=999.9996ms&duration=9223372.036854775807s&select_share=NaN")
	f.Fuzz(func(t *testing.T, lab uint8, text string) {
		l := labs.All[int(lab)%len(labs.All)]
		tbl := l.Params()
		in := decodeQuery(tbl, text)
		v, problems := tbl.Parse(in)
		if len(v) != len(tbl.Params) {
			t.Fatalf("%s %q: %d values for %d parameters: %v", l.Info().Name, text, len(v), len(tbl.Params), v)
		}
		for i := range tbl.Params {
			p := &tbl.Params[i]
			if why := checkValue(p, v); why != "" {
				t.Errorf("%s %q: %s = %q: %s", l.Info().Name, text, p.Key, v[p.Key], why)
			}
		}
		last := map[string]*param.Problem{}
		for _, pr := range problems {
			p := tbl.Param(pr.Key)
			if p == nil {
				t.Fatalf("%s %q: problem %q names no parameter", l.Info().Name, text, pr.Error())
			}
			if !strings.HasPrefix(pr.Error(), pr.Key+" "+strconv.Quote(pr.Value)+": ") || pr.Problem == "" {
				t.Errorf("%s %q: problem %q does not start with its key and the value quoted", l.Info().Name, text, pr.Error())
			}
			if pr.Clamped && p.Kind != param.Int && p.Kind != param.Float {
				t.Errorf("%s %q: %s is clamped but not a number", l.Info().Name, text, pr.Error())
			}
			last[pr.Key] = pr
		}
		for k, pr := range last {
			if pr.Used != v[k] {
				t.Errorf("%s %q: problem %q says it used %q, but %s is %q", l.Info().Name, text, pr.Error(), pr.Used, k, v[k])
			}
		}
		again, problems2 := tbl.Parse(v)
		if len(problems2) > 0 {
			t.Errorf("%s %q: the values it returned, %v, have problems: %v", l.Info().Name, text, v, problems2)
		}
		for k := range v {
			if again[k] != v[k] {
				t.Errorf("%s %q: %s = %q parses again to %q", l.Info().Name, text, k, v[k], again[k])
			}
		}
		// Table.Value, given the values before a parameter, says what reading that one value
		// says: what Parse says without the table's Check, which looks at values together.
		plain := &param.Table{Params: tbl.Params}
		pv, pprobs := plain.Parse(in)
		own := map[string]*param.Problem{}
		for _, pr := range pprobs {
			own[pr.Key] = pr
		}
		before := param.Values{}
		for i := range tbl.Params {
			p := &tbl.Params[i]
			if text, given := in[p.Key]; given {
				norm, pr := tbl.Value(p.Key, text, before)
				want := own[p.Key]
				switch {
				case (pr == nil) != (want == nil) || pr != nil && pr.Error() != want.Error():
					t.Errorf("%s: Value says %v of %s=%q; Parse says %v", l.Info().Name, pr, p.Key, text, want)
				case pr == nil && norm != pv[p.Key]:
					t.Errorf("%s: Value reads %s=%q as %q; Parse as %q", l.Info().Name, p.Key, text, norm, pv[p.Key])
				}
			}
			before[p.Key] = pv[p.Key]
		}
		if tbl.Param(text) == nil {
			if _, pr := tbl.Value(text, "1", nil); pr == nil || pr.Key != text {
				t.Errorf("%s: Value of the unknown key %q: %v", l.Info().Name, text, pr)
			}
		}
	})
}
