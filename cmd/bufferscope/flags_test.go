package main

import (
	"errors"
	"flag"
	"io"
	"strings"
	"testing"
)

func TestParseHelpWritesUsage(t *testing.T) {
	f := newFlagSet("test", "Usage: test [flags]\n")
	f.define("count", "n", "3", "n things", func(string) error { return nil })
	f.define("ratio", "ratio", "0.5", "a ratio", func(string) error { return nil })
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
		f.define("count", "n", "0", "n things", func(string) error { return nil })
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
