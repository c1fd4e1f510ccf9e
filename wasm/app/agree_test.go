package app

import (
	"fmt"
	"testing"

	"github.com/bufferscope/bufferscope/sim/labs"
	"github.com/bufferscope/bufferscope/sim/param"
)

// TestLoadAgreesWithTable feeds the bridge's load, which the page's address and controls go
// through, the same values the command line's test feeds bufferscope (param.Probes), and
// checks that it refuses, clamps and normalises each exactly as the lab's table does: the
// same problems in the same words, the same values in force. With the command line's test
// against the same table, the address, the bridge and the command line agree.
func TestLoadAgreesWithTable(t *testing.T) {
	a := newApp(t)
	checked := 0
	for _, l := range labs.All {
		tbl := l.Params()
		name := l.Info().Name
		for i := range tbl.Params {
			p := &tbl.Params[i]
			if p.CLI {
				continue
			}
			for _, val := range param.Probes(tbl, p) {
				checked++
				want, problems := tbl.Parse(map[string]string{p.Key: val})
				res := load(t, a, name, map[string]string{p.Key: val})
				what := fmt.Sprintf("%s %s=%q", name, p.Key, val)
				if len(res.Problems) != len(problems) {
					t.Errorf("%s: load reports %v, the table %v", what, res.Problems, problems)
					continue
				}
				for j := range problems {
					if res.Problems[j].Error() != problems[j].Error() {
						t.Errorf("%s: load says %q, the table %q", what, res.Problems[j], problems[j])
					}
				}
				for _, q := range tbl.Params {
					if !q.CLI && res.Params[q.Key] != want[q.Key] {
						t.Errorf("%s: load uses %s=%q, the table %q", what, q.Key, res.Params[q.Key], want[q.Key])
					}
				}
			}
		}
	}
	if checked < 100 {
		t.Errorf("only %d values were checked; the test no longer covers the tables", checked)
	}
}
