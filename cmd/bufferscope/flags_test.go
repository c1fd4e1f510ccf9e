package main

import (
	"errors"
	"flag"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/bufferscope/bufferscope/sim"
)

func TestListFlag(t *testing.T) {
	var checked []string
	newSet := func() (*flagSet, *[]string) {
		f := newFlagSet("test", "Usage: test\n")
		l := f.List("sizes", "a,b", "`list` of words", func(s string) error {
			checked = append(checked, s)
			if s == "bad" {
				return errors.New("not good")
			}
			return nil
		})
		return f, l
	}
	tests := []struct {
		args []string
		want []string
	}{
		{nil, []string{"a", "b"}},
		{[]string{"--sizes", "c"}, []string{"c"}},
		{[]string{"--sizes", " c , d", "-sizes", "e"}, []string{"c", "d", "e"}},
		{[]string{"-sizes=b,b"}, []string{"b", "b"}},
	}
	for _, tt := range tests {
		f, l := newSet()
		if err := f.Parse(tt.args, io.Discard); err != nil {
			t.Errorf("%q: %v", tt.args, err)
			continue
		}
		if !slices.Equal(*l, tt.want) {
			t.Errorf("%q: list %q, want %q", tt.args, *l, tt.want)
		}
		if got := f.Set("sizes"); got != (tt.args != nil) {
			t.Errorf("%q: Set = %v", tt.args, got)
		}
	}
	if !slices.Contains(checked, "d") {
		t.Errorf("check saw %q, never the item d", checked)
	}

	f, _ := newSet()
	err := f.Parse([]string{"--sizes", "a,bad"}, io.Discard)
	var ue *usageError
	if !errors.As(err, &ue) || ue.Error() != `--sizes "bad": not good` {
		t.Errorf("bad item: error %v, want a usage error quoting the item", err)
	}
}

func TestParseHelpWritesUsage(t *testing.T) {
	f := newFlagSet("test", "Usage: test [flags]\n")
	f.Int("count", 3, "`n` things", nil)
	f.Float("ratio", 0.5, "a `ratio`", nil)
	var out strings.Builder
	if err := f.Parse([]string{"--help"}, &out); !errors.Is(err, flag.ErrHelp) {
		t.Fatalf("Parse(--help) = %v, want flag.ErrHelp", err)
	}
	for _, want := range []string{"Usage: test [flags]\n", "--count n", "n things (default 3)", "--ratio ratio"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("usage %q lacks %q", out.String(), want)
		}
	}
	if strings.Index(out.String(), "--count") > strings.Index(out.String(), "--ratio") {
		t.Errorf("usage does not keep definition order:\n%s", out.String())
	}
}

func TestUsageFitsWidth(t *testing.T) {
	usages := [][]string{{"--help"}}
	for _, c := range commands {
		usages = append(usages, []string{c.name, "--help"})
	}
	for _, args := range usages {
		for _, line := range strings.Split(invoke(args...).stdout, "\n") {
			if len([]rune(line)) > usageWidth {
				t.Errorf("%q: usage line is wider than %d: %q", args, usageWidth, line)
			}
		}
	}
}

func TestSimProblem(t *testing.T) {
	if got := simProblem(&sim.ValueError{Value: "12XB", Problem: "not a size"}).Error(); got != "not a size" {
		t.Errorf("simProblem gave %q, want %q", got, "not a size")
	}
	if got := simProblem(errors.New("something else")).Error(); got != "something else" {
		t.Errorf("simProblem changed an unquoted message to %q", got)
	}
}

func TestBoolFlag(t *testing.T) {
	tests := []struct {
		args []string
		want bool
		err  string
	}{
		{nil, false, ""},
		{[]string{"--on"}, true, ""},
		{[]string{"-on=true"}, true, ""},
		{[]string{"--on=false"}, false, ""},
		{[]string{"--on=maybe"}, false, `--on "maybe": not true or false`},
		{[]string{"--on", "false"}, false, `unexpected argument "false": --on takes no value; write --on, or --on=false`},
		{[]string{"on"}, false, `unexpected argument "on": flags start with a dash, as in --on`},
		{[]string{"--count", "2", "3"}, false, `unexpected argument "3": values follow their flag, as in --count 1`},
	}
	for _, tt := range tests {
		f := newFlagSet("test", "Usage: test\n")
		f.example = "--count 1"
		f.Int("count", 0, "`n` things", nil)
		on := f.Bool("on", "turn it `on`")
		err := f.Parse(tt.args, io.Discard)
		switch {
		case tt.err == "" && err != nil:
			t.Errorf("%q: %v", tt.args, err)
		case tt.err != "" && (err == nil || err.Error() != tt.err):
			t.Errorf("%q: error %v, want %s", tt.args, err, tt.err)
		case err == nil && *on != tt.want:
			t.Errorf("%q: %v, want %v", tt.args, *on, tt.want)
		}
	}
	var out strings.Builder
	f := newFlagSet("test", "Usage: test\n")
	f.Bool("on", "turn it on")
	if err := f.Parse([]string{"--help"}, &out); !errors.Is(err, flag.ErrHelp) || !strings.Contains(out.String(), "  --on  turn it on\n") {
		t.Errorf("usage %q, want --on without a value or default", out.String())
	}
}
