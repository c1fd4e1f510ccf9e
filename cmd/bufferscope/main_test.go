package main

import (
	"errors"
	"strings"
	"testing"
)

// invocation is what one call of run printed and returned.
type invocation struct {
	code           int
	stdout, stderr string
}

// invoke runs the command in-process with args, as the shell would after the program name.
func invoke(args ...string) invocation {
	var out, errs strings.Builder
	code := run(args, &out, &errs)
	return invocation{code, out.String(), errs.String()}
}

// checkUsageError checks that r is a usage error: status 2, nothing on stdout, and on stderr
// exactly one message line that starts with prefix and contains want, then a --help hint.
func checkUsageError(t *testing.T, r invocation, prefix, want, hint string) {
	t.Helper()
	if r.code != 2 {
		t.Errorf("exit status %d, want 2 (stderr %q)", r.code, r.stderr)
	}
	if r.stdout != "" {
		t.Errorf("stdout %q, want nothing", r.stdout)
	}
	lines := strings.Split(strings.TrimSuffix(r.stderr, "\n"), "\n")
	if len(lines) != 2 || !strings.HasSuffix(r.stderr, "\n") {
		t.Fatalf("stderr %q, want a message line and a hint line", r.stderr)
	}
	if !strings.HasPrefix(lines[0], prefix) || !strings.Contains(lines[0], want) {
		t.Errorf("message %q, want it to start with %q and contain %q", lines[0], prefix, want)
	}
	if lines[1] != hint {
		t.Errorf("hint %q, want %q", lines[1], hint)
	}
	if strings.Contains(r.stderr, "goroutine") || strings.Contains(r.stderr, "panic") {
		t.Errorf("stderr looks like a crash: %q", r.stderr)
	}
}

// commandNamed returns the subcommand called name.
func commandNamed(t *testing.T, name string) command {
	t.Helper()
	for _, c := range commands {
		if c.name == name {
			return c
		}
	}
	t.Fatalf("no command %q", name)
	return command{}
}

func TestHelpGoesToStdout(t *testing.T) {
	for _, args := range [][]string{{"--help"}, {"-help"}, {"-h"}, {"help"}} {
		r := invoke(args...)
		if r.code != 0 || r.stderr != "" {
			t.Errorf("%q: status %d, stderr %q; want 0 and nothing", args, r.code, r.stderr)
		}
		if !strings.HasPrefix(r.stdout, "Usage: bufferscope <command>") {
			t.Errorf("%q: stdout %q, want the usage", args, r.stdout)
		}
		for _, c := range commands {
			if !strings.Contains(r.stdout, "\n  "+c.name+" ") || !strings.Contains(r.stdout, c.summary) {
				t.Errorf("%q: usage does not list command %q with its summary", args, c.name)
			}
		}
	}
}

func TestNoCommandPrintsUsageToStderr(t *testing.T) {
	r := invoke()
	if r.code != 2 || r.stdout != "" {
		t.Errorf("status %d, stdout %q; want 2 and nothing", r.code, r.stdout)
	}
	if want := invoke("--help").stdout; r.stderr != want {
		t.Errorf("stderr %q, want the usage %q", r.stderr, want)
	}
}

func TestUnknownCommand(t *testing.T) {
	checkUsageError(t, invoke("frob", "--steps", "1"), "bufferscope: ", `unknown command "frob"`,
		"Run 'bufferscope --help' for usage.")
	checkUsageError(t, invoke("help", "frob"), "bufferscope: ", `unknown command "frob"`,
		"Run 'bufferscope --help' for usage.")
	checkUsageError(t, invoke("help", "run", "extra"), "bufferscope: ", `help takes one command name`,
		"Run 'bufferscope --help' for usage.")
	checkUsageError(t, invoke("--steps", "1"), "bufferscope: ",
		"unknown flag --steps: flags follow a command, and --steps is a flag of 'bufferscope run'",
		"Run 'bufferscope --help' for usage.")
	checkUsageError(t, invoke("--frob"), "bufferscope: ",
		"unknown flag --frob: flags follow a command, as in 'bufferscope run --shared-buffers 128MB'",
		"Run 'bufferscope --help' for usage.")
}

func TestCommandHelp(t *testing.T) {
	for _, c := range commands {
		for _, args := range [][]string{{c.name, "--help"}, {c.name, "-h"}, {"help", c.name}} {
			r := invoke(args...)
			if r.code != 0 || r.stderr != "" {
				t.Errorf("%q: status %d, stderr %q; want 0 and nothing", args, r.code, r.stderr)
			}
			if !strings.HasPrefix(r.stdout, "Usage: bufferscope "+c.name+" ") {
				t.Errorf("%q: stdout %q, want the usage of %s", args, r.stdout, c.name)
			}
		}
	}
}

// failingWriter fails every write, like a closed pipe.
type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("pipe closed") }

func TestWriteFailureExitsOne(t *testing.T) {
	for _, args := range [][]string{
		{"run", "--shared-buffers", "1MB", "--steps", "10"},
		{"drop", "--shared-buffers", "1MB", "--tables", "1x1"},
	} {
		var errs strings.Builder
		code := run(args, failingWriter{}, &errs)
		if want := "bufferscope " + args[0] + ": pipe closed\n"; code != 1 || errs.String() != want {
			t.Errorf("%q: status %d, stderr %q; want 1 and the write error", args, code, errs.String())
		}
	}
}
