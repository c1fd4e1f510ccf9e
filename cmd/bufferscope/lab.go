package main

import (
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"strconv"
	"strings"
	"unicode"

	"github.com/bufferscope/bufferscope/sim/lab"
	"github.com/bufferscope/bufferscope/sim/param"
)

// experimentOf returns a lab's headless experiment. Tests replace it to stand in for
// experiments too slow to run, such as the drop lab's reproduction.
var experimentOf = func(l lab.Lab) lab.Experiment { return l.Experiment() }

// labFlags are the flags of one lab's subcommand: one per parameter of its table that is
// not marked Page, then --format, then --reproduce if the lab reproduces published
// measurements.
type labFlags struct {
	*flagSet
	table *param.Table
	exp   lab.Experiment
	// given holds, by key, what the command line gave: the items of a sweep parameter's
	// lists, in order, or the one value of any other.
	given     map[string][]string
	format    format
	reproduce *bool // nil when the experiment is no lab.Reproducer
	costs     *bool // nil when the experiment is no lab.CostLister
}

// newLabFlags defines the flags of c's lab.
func newLabFlags(c command) *labFlags {
	exp := experimentOf(c.lab)
	t := c.lab.Params()
	f := &labFlags{flagSet: newFlagSet(c.name, exp.About()), table: t, exp: exp, given: map[string][]string{}}
	for i := range t.Params {
		p := &t.Params[i]
		if p.Page {
			continue
		}
		name := p.FlagName()
		if f.example == "" {
			f.example = "--" + name + " " + p.Default
		}
		f.define(name, argName(p), p.Default, paramUsage(p, t), func(s string) error {
			if p.Repeat {
				if prev, ok := f.given[p.Key]; ok {
					s = prev[0] + "," + s
				}
				f.given[p.Key] = []string{s}
				return nil
			}
			if !p.Sweep {
				if prev, ok := f.given[p.Key]; ok {
					return fmt.Errorf("--%s is already %q: it takes one value", name, prev[0])
				}
				f.given[p.Key] = []string{s}
				return nil
			}
			items := strings.Split(s, ",")
			for i := range items {
				items[i] = strings.TrimSpace(items[i])
				if items[i] == "" && len(items) > 1 {
					return errors.New("has an empty item; separate items by single commas")
				}
			}
			f.given[p.Key] = append(f.given[p.Key], items...)
			return nil
		})
	}
	f.define("format", "format", markdown.String(), "output format: markdown, csv or json", func(s string) error {
		v, err := parseFormat(s)
		if err == nil {
			f.format = v
		}
		return err
	})
	if _, ok := exp.(lab.CostLister); ok {
		f.costs = f.Bool("costs",
			"list every part of the cost model with its value under the other flags, its default, "+
				"unit and source, instead of running")
	}
	if _, ok := exp.(lab.Reproducer); ok {
		f.reproduce = f.Bool("reproduce",
			"run the experiments behind the published measurements instead and print them "+
				"beside the simulation; exit 1 if a target fails")
	}
	return f
}

// argName is what the usage calls a parameter's value: its unit when that is one word and
// says what to write (a size, COUNTxBLOCKS), else n for a whole number, x for a number and
// word for a choice; a sweep parameter's is plural.
func argName(p *param.Param) string {
	var arg string
	switch p.Kind {
	case param.Int, param.Uint:
		arg = "n"
	case param.Float:
		arg = "x"
		if p.Unit == "s" {
			arg = "s"
		}
	case param.Choice:
		arg = "word"
	case param.Text:
		arg = "text"
		if p.Unit != "" && strings.IndexFunc(p.Unit, func(r rune) bool { return !unicode.IsLetter(r) }) < 0 {
			arg = p.Unit
		}
	}
	if p.Sweep {
		if len(arg) == 1 {
			return "list"
		}
		return arg + "s"
	}
	return arg
}

// paramUsage is a parameter's description in the usage: its Doc, then its range (at the
// defaults, for one that depends on other values) with its unit, or its choices with their
// labels, and for a sweep how to give several values.
func paramUsage(p *param.Param, t *param.Table) string {
	words := []string{strings.TrimSpace(p.Doc)}
	switch p.Kind {
	case param.Int, param.Float:
		lo, hi, why := p.Min, p.Max, ""
		if p.Bounds != nil {
			lo, hi, why = p.Bounds(t.Defaults())
		}
		r := fmt.Sprintf("From %s to %s", numText(lo), numText(hi))
		if p.Unit == "%" {
			r += "%"
		} else if len(p.Unit) > 1 && !strings.Contains(p.Unit, " ") { // not "s" for a skew
			r += " " + p.Unit
		}
		if why != "" {
			r += " at the defaults (" + why + ")"
		}
		words = append(words, r+".")
	case param.Choice:
		opts := make([]string, len(p.Choices))
		for i, o := range p.Choices {
			opts[i] = o.Value
			if o.Label != "" && !strings.EqualFold(o.Label, o.Value) {
				opts[i] += " (" + o.Label + ")"
			}
		}
		words = append(words, "One of "+orList(opts)+".")
	}
	if p.Sweep {
		words = append(words, "Several, comma-separated or by repeating the flag, give a row each.")
	}
	return strings.Join(words, " ")
}

// numText writes a bound as the table's messages do: whole numbers without a point.
func numText(x float64) string {
	if x == math.Trunc(x) && math.Abs(x) < 1<<53 {
		return strconv.FormatInt(int64(x), 10)
	}
	return strconv.FormatFloat(x, 'g', -1, 64)
}

// problem turns a problem the table found into a usage error that quotes the flag and the
// value, in the words the page shows for the same value.
func (f *labFlags) problem(pr *param.Problem) error {
	if p := f.table.Param(pr.Key); p != nil && !p.Page {
		return usagef("--%s %q: %s", p.FlagName(), pr.Value, pr.Problem)
	}
	return usagef("%s %q: %s", pr.Key, pr.Value, pr.Problem)
}

// combos checks the values the command line gave and returns the combinations to run: the
// product of the sweep parameters' values in table order, the first outermost, with every
// value not given at its default. Each value is checked with the table given the values of
// the parameters before it in its combination (Table.Value), then each combination as a
// whole (Table.Parse, which runs the table's Check); any problem is a usage error.
func (f *labFlags) combos() ([]param.Values, error) {
	type partial struct {
		before param.Values      // normalised values of the parameters so far
		given  map[string]string // what the command line gave for them
	}
	parts := []partial{{param.Values{}, map[string]string{}}}
	for i := range f.table.Params {
		p := &f.table.Params[i]
		items, ok := f.given[p.Key]
		if !ok {
			for _, c := range parts {
				c.before[p.Key] = p.DefaultFor(c.before)
			}
			continue
		}
		next := make([]partial, 0, len(parts)*len(items))
		for _, c := range parts {
			for _, item := range items {
				norm, pr := f.table.Value(p.Key, item, c.before)
				if pr != nil {
					return nil, f.problem(pr)
				}
				n := partial{c.before.Clone(), maps.Clone(c.given)}
				n.before[p.Key], n.given[p.Key] = norm, item
				next = append(next, n)
			}
		}
		parts = next
	}
	combos := make([]param.Values, len(parts))
	for i, c := range parts {
		v, problems := f.table.Parse(c.given)
		if len(problems) > 0 {
			return nil, f.problem(problems[0])
		}
		combos[i] = v
	}
	return combos, nil
}

// labMain is a lab's subcommand. It checks every combination before running any, so a bad
// value fails at once, then runs the lab's experiment on them all and prints its rows.
func labMain(c command, args []string, stdout, stderr io.Writer) error {
	f := newLabFlags(c)
	if err := f.Parse(args, stdout); err != nil {
		return err
	}
	if f.reproduce != nil && *f.reproduce {
		return f.reproduceMain(stdout, stderr)
	}
	combos, err := f.combos()
	if err != nil {
		return err
	}
	if f.costs != nil && *f.costs {
		return f.exp.(lab.CostLister).Costs(stdout, combos[0])
	}
	rows, err := f.exp.Run(combos, stderr)
	if err != nil {
		return err
	}
	t, err := rowsTable(rows)
	if err != nil {
		return err
	}
	return t.write(stdout, f.format)
}

// reproduceMain is --reproduce: it prints the published measurements beside the simulated
// ones and fails if a target is missed.
func (f *labFlags) reproduceMain(stdout, stderr io.Writer) error {
	var others []string
	for _, name := range f.order {
		if name != "reproduce" && f.Set(name) {
			others = append(others, "--"+name)
		}
	}
	if len(others) > 0 {
		return usagef("--reproduce cannot be combined with %s: it runs the published experiments with their own settings",
			orList(others))
	}
	pass, err := f.exp.(lab.Reproducer).Reproduce(stdout, stderr)
	if err != nil {
		return err
	}
	if !pass {
		return errors.New("targets of the published measurements missed; the table above marks them")
	}
	return nil
}
