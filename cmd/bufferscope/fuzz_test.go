package main

import (
	"io"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/bufferscope/bufferscope/sim/lab"
	"github.com/bufferscope/bufferscope/sim/param"
)

// stubExperiment stands in for a lab's experiment so that checking a command line runs no
// simulation: Run records the combinations and returns a row each, a reproduction passes at
// once, and the cost list (cheap) is the real one. stubFor keeps the experiment's kind, so
// that --reproduce and --costs are defined for the labs that have them.
type stubExperiment struct {
	real   lab.Experiment
	combos *[][]param.Values
}

func (e stubExperiment) About() string { return e.real.About() }

func (e stubExperiment) Run(combos []param.Values, _ io.Writer) ([]any, error) {
	*e.combos = append(*e.combos, combos)
	rows := make([]any, len(combos))
	for i := range combos {
		rows[i] = recordedRow{i}
	}
	return rows, nil
}

type stubReproducer struct{ stubExperiment }

func (stubReproducer) Reproduce(w, _ io.Writer) (bool, error) {
	_, err := io.WriteString(w, "reproduced\n")
	return true, err
}

type stubCostLister struct{ stubExperiment }

func (e stubCostLister) Costs(w io.Writer, v param.Values) error {
	return e.real.(lab.CostLister).Costs(w, v)
}

type stubBoth struct{ stubReproducer }

func (e stubBoth) Costs(w io.Writer, v param.Values) error {
	return e.real.(lab.CostLister).Costs(w, v)
}

func stubFor(real lab.Experiment, combos *[][]param.Values) lab.Experiment {
	s := stubExperiment{real, combos}
	_, repro := real.(lab.Reproducer)
	_, costs := real.(lab.CostLister)
	switch {
	case repro && costs:
		return stubBoth{stubReproducer{s}}
	case repro:
		return stubReproducer{s}
	case costs:
		return stubCostLister{s}
	}
	return s
}

// FuzzCommandLine runs bufferscope with command lines the fuzzer writes, the experiments
// replaced by stubExperiment. Read as arbitrary arguments (one a line, after the command
// named by cmd, or the text's first line when cmd names none), any command line must end
// without a panic or a Go stack trace, with status 0 or 2; status 2 with nothing on stdout
// and one line on stderr that names an argument it was given (a value, a flag or the
// command), then the --help hint; status 0 with combinations that the lab's table reads
// back as themselves. Read as good values (good), the text is parameters k=v&… that the
// table normalises, given as flags: the command must accept them and run the experiment on
// exactly what the table reads, or, when the table finds a problem in them together, refuse
// them in its words.
func FuzzCommandLine(f *testing.F) {
	var combos [][]param.Values
	saved := experimentOf
	experimentOf = func(l lab.Lab) lab.Experiment { return stubFor(l.Experiment(), &combos) }
	f.Cleanup(func() { experimentOf = saved })
	for i, c := range commands {
		f.Add(true, uint8(i), "shared_buffers=1MB")
		f.Add(false, uint8(i), "--help")
		f.Add(false, uint8(i), "--format\ncsv\n--shared-buffers=1MB,2MB")
		f.Add(false, uint8(i), "--shared-buffers\n1MB,,2MB")
		f.Add(false, uint8(i), "--reproduce\n--seed\n2")
		f.Add(false, uint8(i), "--costs\n--cost\nmemory_latency=200ns\n--cost\nx=1")
		f.Add(false, uint8(i), "stray\n--"+c.lab.Params().Params[1].FlagName())
		var all []string
		for _, p := range c.lab.Params().Params {
			all = append(all, p.Key+"="+p.Default)
		}
		f.Add(true, uint8(i), strings.Join(all, "&"))
	}
	f.Add(false, uint8(200), "help\nrun\nx")
	f.Add(false, uint8(200), "--steps=5")
	f.Add(false, uint8(200), "nosuch")
	f.Fuzz(func(t *testing.T, good bool, cmd uint8, text string) {
		combos = nil
		var args []string
		var want param.Values
		var problems []*param.Problem
		runs := 0
		c := commands[int(cmd)%len(commands)]
		if good {
			args, want, runs, problems = goodArgs(c, text)
		} else {
			args = strings.Split(text, "\n")
			if int(cmd) < 4*len(commands) {
				args = append([]string{c.name}, args...)
			}
		}
		r := invoke(args...)
		for _, out := range []string{r.stdout, r.stderr} {
			if strings.Contains(out, "goroutine ") || strings.Contains(out, "panic:") || strings.Contains(out, "runtime error") {
				t.Fatalf("%q printed a crash:\n%s", args, out)
			}
		}
		switch r.code {
		case 0:
			for _, run := range combos {
				for _, v := range run {
					if again, ps := c.lab.Params().Parse(v); len(ps) > 0 || !reflect.DeepEqual(again, v) {
						t.Errorf("%q ran %v, which the table reads as %v (%v)", args, v, again, ps)
					}
				}
			}
		case 2:
			if len(args) == 0 {
				break
			}
			lines := strings.Split(strings.TrimSuffix(r.stderr, "\n"), "\n")
			if r.stdout != "" || len(lines) != 2 || !strings.HasPrefix(lines[1], "Run 'bufferscope") {
				t.Fatalf("%q: status 2 with stdout %q and stderr %q; want one message line and the hint", args, r.stdout, r.stderr)
			}
			if !namesAnArgument(lines[0], args) {
				t.Errorf("%q: the message %q names none of the arguments", args, lines[0])
			}
		default:
			t.Fatalf("%q: status %d, want 0 or 2; stderr %q", args, r.code, r.stderr)
		}
		if !good {
			return
		}
		switch {
		case len(problems) == 0 && (r.code != 0 || len(combos) != 1 || len(combos[0]) != runs):
			t.Errorf("%q: status %d (stderr %q), ran %d combinations; want %d of %v", args, r.code, r.stderr, len(combos), runs, want)
		case len(problems) == 0:
			for _, v := range combos[0] {
				if !reflect.DeepEqual(v, want) {
					t.Errorf("%q: ran %v; the table reads %v", args, v, want)
				}
			}
		case len(problems) > 0 && (r.code != 2 || !strings.Contains(r.stderr, problems[0].Problem)):
			t.Errorf("%q: status %d, stderr %q; the table says %q", args, r.code, r.stderr, problems[0].Error())
		}
	})
}

// goodArgs reads text as parameters k=v&… of c's lab, as an address gives them, and returns
// the command line that gives the values the table normalised them to, one flag each (as
// --flag value or --flag=value; a sweep's now and then twice, as a list or by repeating the
// flag), for the parameters the text names that have a flag; what the table reads from those
// values, with its problems; and how many runs of them the command line asks for.
func goodArgs(c command, text string) ([]string, param.Values, int, []*param.Problem) {
	t := c.lab.Params()
	in := map[string]string{}
	for _, item := range strings.Split(text, "&") {
		if k, v, ok := strings.Cut(item, "="); ok {
			in[k] = v
		}
	}
	v, _ := t.Parse(in)
	args := []string{c.name}
	given := map[string]string{}
	runs := 1
	for i, p := range t.Params {
		if _, ok := in[p.Key]; !ok || p.Page {
			continue
		}
		given[p.Key] = v[p.Key]
		switch {
		case p.Sweep && i%3 == 0: // a list of the value twice: two runs of it
			args = append(args, "--"+p.FlagName(), v[p.Key]+", "+v[p.Key])
			runs *= 2
		case p.Sweep && i%3 == 1: // the flag given twice: the same
			args = append(args, "--"+p.FlagName(), v[p.Key], "--"+p.FlagName()+"="+v[p.Key])
			runs *= 2
		case i%2 == 0:
			args = append(args, "--"+p.FlagName(), v[p.Key])
		default:
			args = append(args, "--"+p.FlagName()+"="+v[p.Key])
		}
	}
	want, problems := t.Parse(given)
	return args, want, runs, problems
}

// namesAnArgument reports whether a usage message names something the command line gave:
// quoted, an argument, the value of a --flag=value, an item of a comma-separated list, the
// values a repeated flag was given, joined, or the arguments after the first, joined; or,
// in a message about a flag, the flag as it was written or as --name.
func namesAnArgument(msg string, args []string) bool {
	var quoted, plain []string
	byFlag := map[string][]string{}
	for i, a := range args {
		quoted = append(quoted, a, strings.Join(args[i:], " "))
		value := a
		if strings.HasPrefix(a, "-") {
			name, v, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
			plain = append(plain, a, "--"+name)
			switch {
			case hasValue:
				value = v
				byFlag[name] = append(byFlag[name], v)
			case i+1 < len(args):
				byFlag[name] = append(byFlag[name], args[i+1])
			}
		}
		quoted = append(quoted, value)
		for _, item := range strings.Split(value, ",") {
			quoted = append(quoted, strings.TrimSpace(item))
		}
	}
	for _, vs := range byFlag {
		quoted = append(quoted, strings.Join(vs, ","))
	}
	for _, n := range quoted {
		if strings.Contains(msg, strconv.Quote(n)) {
			return true
		}
	}
	// Only a message about a flag itself (unknown, without its value, badly written, or
	// not to be combined) may name it unquoted instead.
	_, about, _ := strings.Cut(msg, ": ")
	if !strings.HasPrefix(about, "unknown flag ") && !strings.HasPrefix(about, "flag --") &&
		!strings.HasPrefix(about, "bad flag syntax") && !strings.Contains(about, "cannot be combined") {
		return false
	}
	for _, n := range plain {
		for _, end := range []string{":", " ", ",", ";", "\n"} {
			if strings.Contains(msg+"\n", " "+n+end) {
				return true
			}
		}
	}
	return false
}
