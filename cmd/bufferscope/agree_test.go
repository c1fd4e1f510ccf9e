package main

import (
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/bufferscope/bufferscope/sim/lab"
	"github.com/bufferscope/bufferscope/sim/param"
)

// recordingExperiment stands in for a lab's experiment: it keeps the combinations it is
// given and returns a row for each, so that checking a value costs no simulation (a steps
// or shared_buffers at its upper bound would take hours).
type recordingExperiment struct {
	lab.Experiment
	combos *[]param.Values
}

type recordedRow struct {
	N int `col:"n"`
}

func (e recordingExperiment) Run(combos []param.Values, _ io.Writer) ([]any, error) {
	*e.combos = append(*e.combos, combos...)
	rows := make([]any, len(combos))
	for i := range combos {
		rows[i] = recordedRow{i}
	}
	return rows, nil
}

// extraValues are values worth trying for text parameters, by key, beside the generic ones.
var extraValues = map[string][]string{
	"shared_buffers": {"128kB", "64kB", "127kB", "1MB", "100GB", "101GB", "200GB", "12XB", "1024kB", " 8MB "},
	"tables":         {"1x1", "1x1,", "0x5", "1x0", "1xNB/0", "1xNB/32", "100000x1", "100001x1", "100000x2000", "1x44800,100x490", "60000x1,40001x1"},
	"threshold":      {"0", "1", "1024", "NB/0", "NB/16", "half"},
}

// probeValues returns values for p: param.Probes with the extra ones for its key.
func probeValues(p *param.Param, t *param.Table) []string {
	return param.Probes(t, p, extraValues[p.Key]...)
}

// TestCommandAgreesWithTable checks, for every lab and a set of values of each of its
// flags, that `bufferscope <command> --<flag> <value>` fails as a usage error exactly when
// the lab's table (the same Table.Parse the page's address and the bridge use) finds a
// problem with {key: value}, saying the table's words; and that a value it accepts reaches
// the experiment as the table normalised it.
func TestCommandAgreesWithTable(t *testing.T) {
	var combos []param.Values
	saved := experimentOf
	experimentOf = func(l lab.Lab) lab.Experiment {
		return recordingExperiment{Experiment: l.Experiment(), combos: &combos}
	}
	t.Cleanup(func() { experimentOf = saved })
	for _, c := range commands {
		tbl := c.lab.Params()
		for i := range tbl.Params {
			p := &tbl.Params[i]
			if p.Page {
				if newLabFlags(c).fs.Lookup(p.FlagName()) != nil {
					t.Errorf("%s: page-only %s has a flag", c.name, p.Key)
				}
				continue
			}
			for _, val := range probeValues(p, tbl) {
				args := []string{c.name, "--" + p.FlagName(), val}
				name := fmt.Sprintf("%s --%s %q", c.name, p.FlagName(), val)
				want, problems := tbl.Parse(map[string]string{p.Key: val})
				combos = nil
				r := invoke(args...)
				if len(problems) > 0 {
					if r.code != 2 || !strings.Contains(r.stderr, problems[0].Problem) ||
						!strings.HasPrefix(r.stderr, fmt.Sprintf("bufferscope %s: --%s %q: ", c.name, p.FlagName(), val)) {
						t.Errorf("%s: status %d, stderr %q; the table says %q, so want 2 and its words",
							name, r.code, r.stderr, problems[0].Problem)
					}
					continue
				}
				if r.code != 0 || len(combos) != 1 {
					t.Errorf("%s: status %d, %d combinations, stderr %q; the table accepts it", name, r.code, len(combos), r.stderr)
					continue
				}
				for k, v := range want {
					if combos[0][k] != v {
						t.Errorf("%s: the experiment got %s=%q, the table reads %q", name, k, combos[0][k], v)
					}
				}
			}
		}
	}
}
