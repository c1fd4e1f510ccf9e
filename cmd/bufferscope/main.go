package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/bufferscope/bufferscope/sim/lab"
	"github.com/bufferscope/bufferscope/sim/labs"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

// command is one subcommand of bufferscope: a lab's headless experiment.
type command struct {
	name    string // the lab's Info().Command
	summary string // one line for the command list
	lab     lab.Lab
}

// commands are the subcommands, one per lab of labs.All, in its order.
var commands = func() []command {
	out := make([]command, len(labs.All))
	for i, l := range labs.All {
		info := l.Info()
		out[i] = command{name: info.Command, summary: info.Summary, lab: l}
	}
	return out
}()

// run is the whole command, given its arguments without the program name. It returns the
// exit status: 0 after success or help, 1 when the work failed, 2 for bad usage.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		writeUsage(stderr)
		return 2
	}
	name, rest := args[0], args[1:]
	switch {
	case name == "help" && len(rest) == 1: // bufferscope help run
		name, rest = rest[0], []string{"--help"}
	case name == "help" && len(rest) > 1:
		return fail(stderr, "", fmt.Sprintf("help takes one command name, not %q", strings.Join(rest, " ")))
	case name == "help" || name == "-h" || name == "-help" || name == "--help":
		writeUsage(stdout)
		return 0
	}
	i := slices.IndexFunc(commands, func(c command) bool { return c.name == name })
	switch {
	case i < 0 && strings.HasPrefix(name, "-"):
		msg := fmt.Sprintf("unknown flag %s: flags follow a command, as in 'bufferscope %s %s'",
			name, commands[0].name, newLabFlags(commands[0]).example)
		if owners := flagOwners(name); owners != "" {
			msg = fmt.Sprintf("unknown flag %s: flags follow a command, and --%s is a flag of %s", name, flagName(name), owners)
		}
		return fail(stderr, "", msg)
	case i < 0:
		msg := fmt.Sprintf("unknown command %q", name)
		if owners := flagOwners(name); owners != "" {
			msg += fmt.Sprintf("; --%s is a flag of %s", flagName(name), owners)
		}
		return fail(stderr, "", msg)
	}
	c := commands[i]
	err := labMain(c, rest, stdout, stderr)
	var bad *usageError
	switch {
	case err == nil || errors.Is(err, flag.ErrHelp):
		return 0
	case errors.As(err, &bad):
		return fail(stderr, c.name, err.Error())
	}
	fmt.Fprintf(stderr, "bufferscope %s: %v\n", c.name, err)
	return 1
}

// flagName returns the flag an argument names, without dashes or =value: "steps" for
// "--steps=10".
func flagName(arg string) string {
	name, _, _ := strings.Cut(strings.TrimLeft(arg, "-"), "=")
	return name
}

// flagOwners names the commands that have the flag arg names, as "'bufferscope run' and
// 'bufferscope drop'", or returns "" if none has it.
func flagOwners(arg string) string {
	name := flagName(arg)
	var owners []string
	for _, c := range commands {
		if name != "" && newLabFlags(c).fs.Lookup(name) != nil {
			owners = append(owners, "'bufferscope "+c.name+"'")
		}
	}
	return andList(owners)
}

// fail prints a usage error of subcommand cmd ("" for bufferscope itself) and a hint to ask
// for help, and returns exit status 2.
func fail(stderr io.Writer, cmd, msg string) int {
	prog := strings.TrimSpace("bufferscope " + cmd)
	fmt.Fprintf(stderr, "%s: %s\nRun '%s --help' for usage.\n", prog, msg, prog)
	return 2
}

// writeUsage prints the command's usage: what it does and its subcommands.
func writeUsage(w io.Writer) {
	fmt.Fprint(w, "Usage: bufferscope <command> [flags]\n\n"+
		"Bufferscope simulates PostgreSQL's shared buffer manager and prints what it\n"+
		"counted as Markdown, CSV or JSON.\n\nCommands:\n")
	width := 6
	for _, c := range commands {
		width = max(width, len(c.name))
	}
	for _, c := range commands {
		fmt.Fprintf(w, "  %-*s %s\n", width, c.name, c.summary)
	}
	fmt.Fprint(w, "\nRun 'bufferscope <command> --help' for the flags of a command.\n")
}
