package main

import (
	"cmp"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/bufferscope/bufferscope/sim"
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
// (`--seed "x": not a whole number`), Set reports which flags the command line gave, and
// usage lists the flags in the order they were defined, with -- names.
type flagSet struct {
	fs    *flag.FlagSet
	about string   // usage text above the flag list
	order []string // flag names in definition order
	bad   error    // the first bad value Parse met
	// example is a flag with its value, for the hint about a stray argument: "--steps 1000".
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

// itemError is a problem with one item of a list flag; the message quotes the item rather
// than the whole list.
type itemError struct {
	item string
	err  error
}

func (e *itemError) Error() string { return e.err.Error() }

// define registers flag name with default text def, or none when def is "". parse reads a
// value into the caller's variable; it is called first with def, which must parse.
func (f *flagSet) define(name, def, usage string, parse func(string) error) {
	if def != "" {
		if err := parse(def); err != nil {
			panic(fmt.Sprintf("flag --%s: default %q: %v", name, def, err))
		}
	}
	v := &textValue{text: def}
	v.parse = func(s string) error {
		err := parse(s)
		if err != nil && f.bad == nil {
			quoted := s
			var ie *itemError
			if errors.As(err, &ie) {
				quoted = ie.item
			}
			f.bad = usagef("--%s %q: %v", name, quoted, err)
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
	f.define(name, "", usage, func(s string) error {
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

// Uint64 defines a flag holding a whole number from 0 to 2^64−1.
func (f *flagSet) Uint64(name string, def uint64, usage string) *uint64 {
	p := new(uint64)
	f.define(name, strconv.FormatUint(def, 10), usage, func(s string) error {
		n, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			return fmt.Errorf("not a whole number from 0 to %d", uint64(math.MaxUint64))
		}
		*p = n
		return nil
	})
	return p
}

// Int defines a flag holding a whole number that check, if not nil, accepts.
func (f *flagSet) Int(name string, def int, usage string, check func(int) error) *int {
	p := new(int)
	f.define(name, strconv.Itoa(def), usage, func(s string) error {
		n, err := strconv.Atoi(s)
		if err != nil {
			return errors.New("not a whole number")
		}
		if check != nil {
			if err := check(n); err != nil {
				return err
			}
		}
		*p = n
		return nil
	})
	return p
}

// Float defines a flag holding a finite number that check, if not nil, accepts. A def of NaN
// means no default.
func (f *flagSet) Float(name string, def float64, usage string, check func(float64) error) *float64 {
	p := new(float64)
	text := ""
	if !math.IsNaN(def) {
		text = strconv.FormatFloat(def, 'g', -1, 64)
	}
	f.define(name, text, usage, func(s string) error {
		x, err := strconv.ParseFloat(s, 64)
		if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
			return errors.New("not a number")
		}
		if check != nil {
			if err := check(x); err != nil {
				return err
			}
		}
		*p = x
		return nil
	})
	return p
}

// between returns a check for Int that accepts lo to hi.
func between(lo, hi int) func(int) error {
	return func(n int) error {
		if n < lo || n > hi {
			return fmt.Errorf("not between %d and %d", lo, hi)
		}
		return nil
	}
}

// Choice defines a flag holding one of a fixed set of words.
func (f *flagSet) Choice(name, def string, choices []string, usage string) *string {
	p := new(string)
	f.define(name, def, usage, func(s string) error {
		for _, c := range choices {
			if s == c {
				*p = s
				return nil
			}
		}
		return fmt.Errorf("not %s", orList(choices))
	})
	return p
}

// List defines a flag holding a comma-separated list. Each item is kept as written, without
// surrounding spaces, after check accepts it. Giving the flag again appends to the list given
// so far; the default applies only when the flag is not given.
func (f *flagSet) List(name, def, usage string, check func(string) error) *[]string {
	p := new([]string)
	f.define(name, def, usage, func(s string) error {
		items := strings.Split(s, ",")
		for i := range items {
			items[i] = strings.TrimSpace(items[i])
			if items[i] == "" {
				return errors.New("has an empty item; separate items by single commas")
			}
			if err := check(items[i]); err != nil {
				return &itemError{item: items[i], err: err}
			}
		}
		if !f.Set(name) { // the default, or the first time the command line gives the flag
			*p = nil
		}
		*p = append(*p, items...)
		return nil
	})
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
		arg, usage := flag.UnquoteUsage(fl)
		left := "--" + name
		if arg != "" {
			left += " " + arg
		}
		words := strings.Fields(usage)
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

// simProblem returns what sim found wrong with a value, without the value itself, so the
// message can name the flag first.
func simProblem(err error) error {
	var ve *sim.ValueError
	if errors.As(err, &ve) {
		return errors.New(ve.Problem)
	}
	return err
}
