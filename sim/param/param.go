// Package param declares a lab's parameters once, in a table, and reads them from every place
// a reader can give them: a page address, the page's controls, the JavaScript bridge, a host
// page's postMessage and the headless command's flags. Every reader goes through the same
// Table.Parse, so a value that one accepts, refuses or clamps, all accept, refuse or clamp
// alike, with the same message.
//
// A parameter has one key, which is its URL key and its bridge key; its command-line flag is
// the key with dashes ("shared_buffers" → --shared-buffers) unless Flag says otherwise.
// Values travel as normalised text (Values), the form the address and the command line use.
package param

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Kind is the type of a parameter's value. The zero value is Int.
type Kind uint8

// The kinds of parameter.
const (
	Int    Kind = iota // a whole number between Min and Max
	Uint               // a whole number from 0 to 2^64−1 (seeds)
	Float              // a finite number between Min and Max
	Choice             // one of Choices
	Text               // free text that Parse checks and normalises
)

var kindNames = [...]string{"int", "uint", "float", "choice", "text"}

// String returns "int", "uint", "float", "choice" or "text".
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("kind%d", uint8(k))
}

// Option is one value of a Choice parameter.
type Option struct {
	Value string // as written in the address and on the command line
	Label string // for the page's control; Value when empty
	Doc   string // one sentence on what it means
}

// Param declares one parameter.
type Param struct {
	Key     string // URL and bridge key, in PostgreSQL's spelling where it has one: "shared_buffers"
	Flag    string // command-line flag without dashes; empty means Key with "_" replaced by "-"
	Label   string // the control's label: "shared_buffers", "Clients"
	Kind    Kind
	Unit    string // what a number counts, for labels and typings: "clients", "%", "blocks"
	Default string // the value when none is given, in normalised form
	// Min and Max bound Int and Float values. Bounds, when not nil, narrows them for the
	// values of the parameters declared before this one (clients ≤ NBuffers/2).
	Min, Max float64
	Bounds   func(v Values) (lo, hi float64, why string)
	Step     float64  // the control's step for Float; 0 means any
	Choices  []Option // the values of a Choice
	// Presets are values the page's control offers for a Text or number parameter that
	// also takes others (shared_buffers: 128MB, 1GB, …); a value outside them is added.
	Presets []Option
	// Parse checks and normalises a Text value, returning the normalised text or a problem
	// in words ("not a size like 128MB"). It sees the values of the parameters before this
	// one. Parse may also be set for other kinds, to check more after the kind's own check.
	Parse func(text string, v Values) (string, error)
	Doc   string // one or two sentences for the control's hint, --help and the typings
	// Sweep marks a parameter the headless command accepts as a comma-separated list,
	// printing a row for each value.
	Sweep bool
	// Page hides the parameter from the headless command: it only means something in the
	// page (the seed of a lab that draws no random numbers has no such use, so it is not one).
	Page bool
	// CLI hides the parameter from the page: it only means something to the headless command.
	CLI bool
	// Advanced puts the control under the form's "more settings".
	Advanced bool
	// Repeat lets the headless command take the flag more than once: the values are joined
	// with commas, in order, and Parse reads the joined text (--cost a=1 --cost b=2 is
	// --cost a=1,b=2). It is for a Text parameter that is a list of settings, not a sweep.
	Repeat bool
}

// FlagName returns the parameter's command-line flag without dashes.
func (p *Param) FlagName() string {
	if p.Flag != "" {
		return p.Flag
	}
	return strings.ReplaceAll(p.Key, "_", "-")
}

// Problem says that one value was refused or clamped, and which value was used instead.
type Problem struct {
	Key     string // the parameter's key
	Value   string // what was given
	Problem string // why, in words: "not a whole number from 0 to 1000"
	Used    string // the value used instead
	Clamped bool   // the value was out of range and Used is the nearest bound
}

// Error reads like `clients "5000": not between 0 and 1000; using 1000`. The value is
// quoted as Quote writes it, so a long one is cut short and an invisible character shows.
func (p *Problem) Error() string {
	used := p.Used
	if used == "" {
		used = "an empty value"
	}
	return fmt.Sprintf("%s %s: %s; using %s", p.Key, Quote(p.Value), p.Problem, used)
}

// MaxQuoted is how many characters of a value Quote repeats.
const MaxQuoted = 64

// Quote writes a value for a message: in double quotes, with control, invisible and
// direction-changing characters escaped as Go's %q does (so "\u202e1MB" cannot reorder
// the sentence around it), and cut after MaxQuoted characters, with its length, when
// longer: "99999…" (100,000 characters). A message never repeats more of what a reader
// or a host page sent than that.
func Quote(text string) string {
	n := utf8.RuneCountInString(text)
	if n <= MaxQuoted {
		return strconv.Quote(text)
	}
	cut := 0
	for i := 0; i < MaxQuoted; i++ {
		_, size := utf8.DecodeRuneInString(text[cut:])
		cut += size
	}
	return fmt.Sprintf("%s (%s characters)", strconv.Quote(text[:cut]+"…"), group(n))
}

// group writes n with commas between groups of three digits: 100,000.
func group(n int) string {
	s := strconv.Itoa(n)
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// Values are parameters in normalised text form, by key.
type Values map[string]string

// Int returns an Int parameter's value; it panics on a key the table did not fill, which
// is a programming error.
func (v Values) Int(key string) int {
	n, err := strconv.Atoi(v.must(key))
	if err != nil {
		panic(fmt.Sprintf("param: %s=%q is not an int", key, v[key]))
	}
	return n
}

// Uint returns a Uint parameter's value.
func (v Values) Uint(key string) uint64 {
	n, err := strconv.ParseUint(v.must(key), 10, 64)
	if err != nil {
		panic(fmt.Sprintf("param: %s=%q is not a uint", key, v[key]))
	}
	return n
}

// Float returns a Float parameter's value.
func (v Values) Float(key string) float64 {
	x, err := strconv.ParseFloat(v.must(key), 64)
	if err != nil {
		panic(fmt.Sprintf("param: %s=%q is not a float", key, v[key]))
	}
	return x
}

// Text returns any parameter's normalised text.
func (v Values) Text(key string) string { return v.must(key) }

func (v Values) must(key string) string {
	s, ok := v[key]
	if !ok {
		panic("param: no value for " + key)
	}
	return s
}

// Clone returns a copy of v.
func (v Values) Clone() Values {
	c := make(Values, len(v))
	for k, s := range v {
		c[k] = s
	}
	return c
}

// Table is one lab's parameters, in the order the page shows them and the address writes
// them.
type Table struct {
	Params []Param
	// Check, when not nil, looks at the values together once each has been read, and
	// returns problems for combinations that cannot run, after changing v to safe values
	// (VACUUM cannot run in a transaction block; the relations must fit in memory).
	Check func(v Values) []*Problem
}

// Param returns the parameter with key, or nil.
func (t *Table) Param(key string) *Param {
	for i := range t.Params {
		if t.Params[i].Key == key {
			return &t.Params[i]
		}
	}
	return nil
}

// Keys returns the keys in table order.
func (t *Table) Keys() []string {
	keys := make([]string, len(t.Params))
	for i := range t.Params {
		keys[i] = t.Params[i].Key
	}
	return keys
}

// Defaults returns every parameter at its default.
func (t *Table) Defaults() Values {
	v, _ := t.Parse(nil)
	return v
}

// Parse reads values given as text by key. A missing key takes its default. A malformed
// value takes its default too, and an out-of-range number the nearest bound, each with a
// Problem, so a bad address still opens a working page. Keys the table does not know are
// left to the caller (Unknown lists them).
func (t *Table) Parse(in map[string]string) (Values, []*Problem) {
	v := Values{}
	var problems []*Problem
	for i := range t.Params {
		p := &t.Params[i]
		text, given := in[p.Key]
		if !given {
			v[p.Key] = p.DefaultFor(v)
			continue
		}
		norm, pr := p.read(text, v)
		if pr != nil {
			problems = append(problems, pr)
		}
		v[p.Key] = norm
	}
	if t.Check != nil {
		problems = append(problems, t.Check(v)...)
	}
	return v, problems
}

// Unknown returns the keys of in that the table does not declare, in the order given by
// keys (or sorted by the caller).
func (t *Table) Unknown(keys []string) []string {
	var out []string
	for _, k := range keys {
		if t.Param(k) == nil {
			out = append(out, k)
		}
	}
	return out
}

// Value checks one value of parameter key given the values of the parameters before it,
// as the command line does for each item of a list. It returns the normalised text, or the
// problem (whose Used says what the page would have used).
func (t *Table) Value(key, text string, before Values) (string, *Problem) {
	p := t.Param(key)
	if p == nil {
		return "", &Problem{Key: key, Value: text, Problem: "not a parameter of this lab"}
	}
	return p.read(text, before)
}

// DefaultFor returns the value p takes when none is given, after the values v of the
// parameters before it: its default, moved inside its bounds for a number whose bounds
// depend on them (20 clients, at most half of NBuffers, are 8 in a pool of 16 buffers).
func (p *Param) DefaultFor(v Values) string {
	if p.Bounds == nil {
		return p.Default
	}
	lo, hi, _ := p.Bounds(v)
	return p.fallback(v, lo, hi)
}

// read checks and normalises one value; on a problem it returns the value to use instead.
func (p *Param) read(text string, v Values) (string, *Problem) {
	bad := func(problem, used string, clamped bool) (string, *Problem) {
		return used, &Problem{Key: p.Key, Value: text, Problem: problem, Used: used, Clamped: clamped}
	}
	s := strings.TrimSpace(text)
	var norm string
	switch p.Kind {
	case Int, Float:
		lo, hi, why := p.Min, p.Max, ""
		if p.Bounds != nil {
			lo, hi, why = p.Bounds(v)
		}
		x, err := strconv.ParseFloat(s, 64)
		if errors.Is(err, strconv.ErrRange) && math.IsInf(x, 0) {
			err = nil // a number too large to hold, such as 1e400: out of range, not malformed
		} else if math.IsInf(x, 0) {
			err = strconv.ErrSyntax // Inf and Infinity are not numbers a reader means
		}
		if err != nil || math.IsNaN(x) || p.Kind == Int && x != math.Trunc(x) {
			word := "a whole number"
			if p.Kind == Float {
				word = "a number"
			}
			return bad(fmt.Sprintf("not %s from %s to %s", word, num(lo), num(hi)), p.fallback(v, lo, hi), false)
		}
		if x < lo || x > hi {
			problem := fmt.Sprintf("not between %s and %s", num(lo), num(hi))
			if why != "" {
				problem += " (" + why + ")"
			}
			return bad(problem, num(min(max(x, lo), hi)), true)
		}
		norm = num(x)
	case Uint:
		n, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			return bad(fmt.Sprintf("not a whole number from 0 to %d", uint64(math.MaxUint64)), p.Default, false)
		}
		norm = strconv.FormatUint(n, 10)
	case Choice:
		for _, o := range p.Choices {
			if s == o.Value {
				norm = s
				break
			}
		}
		if norm == "" {
			return bad("not "+orList(p.choiceValues()), p.Default, false)
		}
	case Text:
		norm = s
	}
	if p.Parse != nil {
		n, err := p.Parse(norm, v)
		if err != nil {
			return bad(err.Error(), p.fallback(v, p.Min, p.Max), false)
		}
		norm = n
	}
	return norm, nil
}

// fallback returns the default, moved inside lo..hi for a number whose bounds depend on
// earlier values (the default 8 clients in a pool of 16 buffers is 8).
func (p *Param) fallback(v Values, lo, hi float64) string {
	if p.Kind != Int && p.Kind != Float {
		return p.Default
	}
	x, err := strconv.ParseFloat(p.Default, 64)
	if err != nil {
		return p.Default
	}
	return num(min(max(x, lo), hi))
}

func (p *Param) choiceValues() []string {
	out := make([]string, len(p.Choices))
	for i, o := range p.Choices {
		out[i] = o.Value
	}
	return out
}

// num writes a number the way the address does: whole numbers without a point.
func num(x float64) string {
	if x == math.Trunc(x) && math.Abs(x) < 1<<53 {
		return strconv.FormatInt(int64(x), 10)
	}
	return strconv.FormatFloat(x, 'g', -1, 64)
}

// orList joins words as "a, b or c".
func orList(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}
