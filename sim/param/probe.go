package param

import (
	"math"
	"strconv"
	"strings"
)

// Probes returns values worth trying for parameter p of table t, for tests that hold every
// reader of values (the address, the bridge, the command line) to the table: the default,
// malformed ones and, for numbers, each bound and one step past it, then extra. A sweep
// parameter gets no value with a comma, which the command line reads as a list.
func Probes(t *Table, p *Param, extra ...string) []string {
	vals := []string{p.Default, "", "x", " " + p.Default + " "}
	switch p.Kind {
	case Int, Float:
		lo, hi := p.Min, p.Max
		if p.Bounds != nil {
			lo, hi, _ = p.Bounds(t.Defaults())
		}
		step := 1.0
		if p.Kind == Float {
			step = 0.001
			vals = append(vals, "NaN", "Inf", "-Inf", num((lo+hi)/2))
		} else {
			vals = append(vals, "1.5", "1e3", num(lo)+".0")
		}
		for _, x := range []float64{lo - step, lo, lo + step, hi - step, hi, hi + step} {
			vals = append(vals, strconv.FormatFloat(x, 'f', -1, 64))
		}
	case Uint:
		vals = append(vals, "0", "-1", "1.5", strconv.FormatUint(math.MaxUint64, 10), "18446744073709551616")
	case Choice:
		for _, o := range p.Choices {
			vals = append(vals, o.Value, strings.ToUpper(o.Value))
		}
	}
	vals = append(vals, extra...)
	if p.Sweep { // a comma separates a sweep's values on the command line
		var out []string
		for _, v := range vals {
			if !strings.Contains(v, ",") {
				out = append(out, v)
			}
		}
		vals = out
	}
	return vals
}
