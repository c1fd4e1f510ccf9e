package main

import (
	"cmp"
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// usageError is bad input on the command line: an unknown flag, a malformed or out-of-range
// value, a stray argument. The command prints it as one line with a hint and exits 2.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

// usagef returns a usageError with a formatted message.
func usagef(format string, args ...any) error {
	return &usageError{msg: fmt.Sprintf(format, args...)}
}

// flagSet holds the flags of one subcommand. It wraps flag.FlagSet, so both --name and
// -name work, and adds three things: a bad value is reported in the words of its parser
// (`--format "x": not markdown, csv or json`), Set reports which flags the command line
// gave, and usage lists the flags in the order they were defined, with -- names.
type flagSet struct {
	fs    *flag.FlagSet
	about string   // usage text above the flag list
	order []string // flag names in definition order
	bad   error    // the first bad value Parse met
	// example is a flag with its value, for the hint about a stray argument:
	// "--shared-buffers 128MB".
	example string
}

// newFlagSet returns an empty flag set for subcommand cmd whose usage starts with about.
func newFlagSet(cmd, about string) *flagSet {
	fs := flag.NewFlagSet(cmd, flag.ContinueOnError)
	fs.SetOutput(io.Discard) // flagSet.Parse rewords the errors; writeUsage prints the usage
	return &flagSet{fs: fs, about: about}
}

// textValue is a flag.Value that keeps the text it was given and hands it to a parser.
type textValue struct {
	text  string
	parse func(string) error
	// boolean marks a flag that takes no value: --name alone means --name=true.
	boolean bool
	// arg names the value in the usage: "--name arg".
	arg string
}

func (v *textValue) String() string { return v.text }

// IsBoolFlag tells the flag package whether --name alone is complete.
func (v *textValue) IsBoolFlag() bool { return v.boolean }

func (v *textValue) Set(s string) error {
	if err := v.parse(s); err != nil {
		return err
	}
	v.text = s
	return nil
}

// define registers flag name, whose value the usage calls arg, with default text def, or
// none when def is "". parse reads a value into the caller's variable; it is not called
// for the default. It panics if the flag is already defined, which is a bug in whatever
// declared the flags.
func (f *flagSet) define(name, arg, def, usage string, parse func(string) error) {
	if f.fs.Lookup(name) != nil {
		panic(fmt.Sprintf("flag --%s defined twice", name))
	}
	v := &textValue{text: def, arg: arg}
	v.parse = func(s string) error {
		err := parse(s)
		if err != nil && f.bad == nil {
			f.bad = usagef("--%s %q: %v", name, s, err)
		}
		return err
	}
	f.fs.Var(v, name, usage)
	f.order = append(f.order, name)
}

// Bool defines a flag that is off unless given: --name turns it on, as does --name=true;
// --name=false leaves it off.
func (f *flagSet) Bool(name, usage string) *bool {
	p := new(bool)
	f.define(name, "", "", usage, func(s string) error {
		v, err := strconv.ParseBool(s)
		if err != nil {
			return errors.New("not true or false")
		}
		*p = v
		return nil
	})
	f.fs.Lookup(name).Value.(*textValue).boolean = true
	return p
}

// orList joins words as "a, b or c".
func orList(words []string) string { return joinWords(words, "or") }

// andList joins words as "a, b and c".
func andList(words []string) string { return joinWords(words, "and") }

// joinWords joins words with commas and conj before the last.
func joinWords(words []string, conj string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " " + conj + " " + words[len(words)-1]
}

// Set reports whether the command line gave flag name.
func (f *flagSet) Set(name string) bool {
	set := false
	f.fs.Visit(func(fl *flag.Flag) { set = set || fl.Name == name })
	return set
}

// Parse reads args. For -h, -help or --help it writes the usage to stdout and returns
// flag.ErrHelp; for an unknown flag, a missing or bad value, or an argument that is not a
// flag it returns a usageError.
func (f *flagSet) Parse(args []string, stdout io.Writer) error {
	err := f.fs.Parse(args)
	switch {
	case errors.Is(err, flag.ErrHelp):
		if err := f.writeUsage(stdout); err != nil {
			return err
		}
		return flag.ErrHelp
	case f.bad != nil:
		return f.bad
	case err != nil:
		return usagef("%s", rewordFlagError(err))
	case f.fs.NArg() > 0:
		return f.strayArgument(args)
	}
	return nil
}

// strayArgument explains the first argument of args that Parse could not place: the value
// of a flag that takes none (--reproduce true), a flag written without dashes, or a value
// without its flag.
func (f *flagSet) strayArgument(args []string) error {
	stray := f.fs.Arg(0)
	if i := len(args) - f.fs.NArg() - 1; i >= 0 && strings.HasPrefix(args[i], "-") && !strings.Contains(args[i], "=") {
		if fl := f.fs.Lookup(strings.TrimLeft(args[i], "-")); fl != nil {
			if v, ok := fl.Value.(*textValue); ok && v.boolean {
				return usagef("unexpected argument %q: --%s takes no value; write --%s, or --%s=%s",
					stray, fl.Name, fl.Name, fl.Name, stray)
			}
		}
	}
	if name := strings.SplitN(stray, "=", 2)[0]; f.fs.Lookup(name) != nil {
		return usagef("unexpected argument %q: flags start with a dash, as in --%s", stray, stray)
	}
	return usagef("unexpected argument %q: values follow their flag, as in %s", stray, cmp.Or(f.example, "--name value"))
}

// rewordFlagError turns the flag package's messages into the -- spelling this command uses.
func rewordFlagError(err error) string {
	msg := err.Error()
	for _, r := range []struct{ prefix, reword string }{
		{"flag provided but not defined: -", "unknown flag --%s"},
		{"flag needs an argument: -", "flag --%s needs a value"},
	} {
		if name, ok := strings.CutPrefix(msg, r.prefix); ok {
			return fmt.Sprintf(r.reword, name)
		}
	}
	return msg
}

// usageWidth is the width writeUsage wraps flag descriptions to.
const usageWidth = 80

// writeUsage prints the about text and the flags in two columns, name and description, with
// their defaults, descriptions wrapped to usageWidth.
func (f *flagSet) writeUsage(w io.Writer) error {
	type row struct {
		left  string
		words []string // the description's words, "(default x)" as one
	}
	var rows []row
	width := 0
	for _, name := range f.order {
		fl := f.fs.Lookup(name)
		left := "--" + name
		if arg := fl.Value.(*textValue).arg; arg != "" {
			left += " " + arg
		}
		words := strings.Fields(fl.Usage)
		if fl.DefValue != "" {
			words = append(words, fmt.Sprintf("(default %s)", fl.DefValue))
		}
		rows = append(rows, row{left, words})
		width = max(width, len(left))
	}
	var b strings.Builder
	b.WriteString(f.about)
	b.WriteString("\nFlags:\n")
	indent := strings.Repeat(" ", 2+width+2)
	for _, r := range rows {
		fmt.Fprintf(&b, "  %-*s ", width, r.left)
		col := len(indent) - 1
		for _, word := range r.words {
			if col+1+len(word) > usageWidth && col > len(indent) {
				b.WriteString("\n" + indent[:len(indent)-1])
				col = len(indent) - 1
			}
			b.WriteString(" " + word)
			col += 1 + len(word)
		}
		b.WriteString("\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}
