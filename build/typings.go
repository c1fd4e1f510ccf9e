//go:build !js

package main

import (
	"bytes"
	_ "embed"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
	"text/template"
	"unicode"

	"github.com/bufferscope/bufferscope/sim/lab"
	"github.com/bufferscope/bufferscope/sim/labs"
)

// typingsPath is where the bridge's typings are written, beside the page's scripts.
const typingsPath = "site/js/bufferscope.d.ts"

//go:embed typings.d.ts.tmpl
var typingsTemplate string

// runTypings writes the bridge's TypeScript typings from the labs' tables.
func runTypings(args []string) error {
	fs := flag.NewFlagSet("typings", flag.ContinueOnError)
	out := fs.String("out", typingsPath, "`file` to write")
	if err := fs.Parse(args); err != nil {
		return errUsage
	}
	src, err := typings(labs.All)
	if err != nil {
		return err
	}
	return os.WriteFile(*out, src, 0o644)
}

// typings renders the typings for the labs.
func typings(all []lab.Lab) ([]byte, error) {
	type param struct{ Key, Doc, Extra string }
	type counter struct{ Key, Label, Unit, Doc, Type string }
	type labT struct {
		Name, Title, Summary, Command, Type string
		First                               bool
		Params                              []param
		Counters                            []counter
	}
	var data struct {
		Labs                          []labT
		Names, ParamTypes, StatsTypes string
	}
	var names, params, stats []string
	for i, l := range all {
		info := l.Info()
		t := labT{Name: info.Name, Title: info.Title, Summary: info.Summary, Command: info.Command, Type: typeName(info.Name), First: i == 0}
		for _, f := range l.Params().Fields() {
			extra := fmt.Sprintf(" Default %q", f.Default)
			switch {
			case len(f.Choices) > 0:
				vals := make([]string, len(f.Choices))
				for j, c := range f.Choices {
					vals[j] = fmt.Sprintf("%q", c.Value)
				}
				extra += "; one of " + strings.Join(vals, ", ")
			case f.Min != nil && f.Max != nil:
				extra += fmt.Sprintf("; %s to %s at the defaults", strconv.FormatFloat(*f.Min, 'f', -1, 64), strconv.FormatFloat(*f.Max, 'f', -1, 64))
			}
			if f.Unit != "" {
				extra += "; " + f.Unit
			}
			t.Params = append(t.Params, param{Key: f.Key, Doc: strings.TrimSuffix(f.Doc, "."), Extra: "." + extra + "."})
		}
		for _, c := range lab.Describe(l.Counters()) {
			t.Counters = append(t.Counters, counter{Key: c.Key, Label: c.Label, Unit: c.Unit, Doc: c.Doc, Type: c.Type})
		}
		data.Labs = append(data.Labs, t)
		names = append(names, fmt.Sprintf("'%s'", info.Name))
		params = append(params, t.Type+"Params")
		stats = append(stats, fmt.Sprintf("StatsBase & { lab: '%s'; counters: %sCounters; panes?: PaneStats<%[2]sCounters>[] }", info.Name, t.Type))
	}
	data.Names = strings.Join(names, " | ")
	data.ParamTypes = strings.Join(params, " | ")
	data.StatsTypes = "\n  | " + strings.Join(stats, "\n  | ")
	tmpl, err := template.New("typings").Parse(typingsTemplate)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if err := tmpl.Execute(&b, data); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// typeName turns a lab's name into the start of its type names: "drop" → "Drop".
func typeName(name string) string {
	var b strings.Builder
	up := true
	for _, r := range name {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			up = true
			continue
		}
		if up {
			r = unicode.ToUpper(r)
			up = false
		}
		b.WriteRune(r)
	}
	return b.String()
}
