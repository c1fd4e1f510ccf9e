package labs

import (
	"fmt"
	"hash/fnv"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/bufferscope/bufferscope/sim"
	"github.com/bufferscope/bufferscope/sim/lab"
	"github.com/bufferscope/bufferscope/sim/param"
)

// A script is what the fuzz target and the soak give a lab's run: its parameters as an
// address gives them, and command lines (sim.ParseCommand) with "step N" among them. Both
// run it the same way, so a scenario the soak finds wrong is replayed by adding it to the
// fuzz target's corpus (scriptCorpus).

// The budget of one command, so that a script of fifty lines runs in milliseconds: a step
// of more than maxScriptSteps runs N mod (maxScriptSteps+1), an until goes at most
// maxUntil past the clock, and a new relation has at most maxScriptBlocks blocks in a fork.
// Counts at or below zero stay as written, for the model to refuse.
const (
	maxScriptSteps  = 2000
	maxUntil        = 200 * sim.Microsecond
	maxScriptBlocks = 4096
	// maxScriptBuffers bounds the pool of a script's run. Every table allows 100GB; a script
	// with a larger pool is not run.
	maxScriptBuffers = 256
	// maxScriptLines bounds a script's commands.
	maxScriptLines = 200
)

// withinBudget returns c with its work bounded as the budget above says.
func withinBudget(c sim.Command, s *sim.Sim) sim.Command {
	switch c := c.(type) {
	case sim.StepCmd:
		if c.N > maxScriptSteps {
			c.N %= maxScriptSteps + 1
		}
		return c
	case sim.UntilCmd:
		c.T = min(c.T, s.Now()+maxUntil)
		return c
	case sim.RelationCmd:
		for _, n := range []*int{&c.Blocks, &c.FSM, &c.VM} {
			if *n > maxScriptBlocks {
				*n %= maxScriptBlocks + 1
			}
		}
		return c
	}
	return c
}

// readParams reads an address's parameters, "k=v&k=v", by the table: the values a page
// opened at that address would run with.
func readParams(t *param.Table, query string) param.Values {
	in := map[string]string{}
	for _, item := range strings.Split(query, "&") {
		if k, v, ok := strings.Cut(item, "="); ok {
			in[k] = v
		}
	}
	v, _ := t.Parse(in)
	return v
}

// writeParams writes values as an address does, in table order.
func writeParams(t *param.Table, v param.Values) string {
	parts := make([]string, 0, len(t.Params))
	for _, p := range t.Params {
		parts = append(parts, p.Key+"="+v[p.Key])
	}
	return strings.Join(parts, "&")
}

// runHash is the state hash of a run: the pool's (Sim.Hash) and every counter of the lab,
// so that state a lab keeps outside the pool (a B-tree, VACUUM's position) counts too.
func runHash(r lab.Run) uint64 {
	h := fnv.New64a()
	fmt.Fprintf(h, "%016x", r.Sim().Hash())
	vals := lab.CounterValues(r.Counters())
	for _, k := range slices.Sorted(maps.Keys(vals)) {
		fmt.Fprintf(h, ";%s=%v", k, vals[k])
	}
	return h.Sum64()
}

// scriptResult is what running a script did: a transcript of every line with its outcome
// and the pool's hash after it, ending with the run's hash, and the totals.
type scriptResult struct {
	transcript strings.Builder
	lines      []string     // the lines run, as given
	steps      uint64       // units the run stepped
	now        sim.Duration // the run's clock at the end
	commands   int          // lines that were not steps (malformed ones included)
	refused    int          // lines refused, by ParseCommand or by the model
	stepErrors int          // of which step and until lines (a replay waiting on a pinned buffer)
	hash       uint64
}

// scriptFailure is a script that broke a rule: an invariant, a lab that could not be built
// from values its table gave, a command whose text does not read back as itself.
type scriptFailure struct {
	line int // the line after which it failed; -1 before any
	err  error
}

func (f *scriptFailure) Error() string {
	if f.line < 0 {
		return f.err.Error()
	}
	return fmt.Sprintf("after line %d: %v", f.line+1, f.err)
}

// runScript builds l's run from v and applies the lines next gives (it returns false when
// there are no more) one by one, as the page applies its command line (wasm/app App.Apply):
// each within the budget, with the run's invariants checked after each. A line the parser or
// the model refuses is counted and the script goes on, as the page does; a panic is not
// recovered here.
//
// With oneByOne, it runs every step as a command of its own, "step 1", and an until as the
// obvious loop of them: the deliberately naive way, which must give the same state after
// every line (replay and seeking depend on a run not caring how its steps are grouped).
func runScript(l lab.Lab, v param.Values, next func(s *sim.Sim) (string, bool), oneByOne bool) (*scriptResult, error) {
	res := &scriptResult{}
	r, err := l.New(v)
	if err != nil {
		return res, &scriptFailure{-1, fmt.Errorf("New refused the values its table gave: %v", err)}
	}
	s := r.Sim()
	if err := r.CheckInvariants(); err != nil {
		return res, &scriptFailure{-1, fmt.Errorf("a new run breaks an invariant: %v", err)}
	}
	for i := 0; i < maxScriptLines; i++ {
		line, ok := next(s)
		if !ok {
			break
		}
		res.lines = append(res.lines, line)
		if !strings.HasPrefix(strings.TrimSpace(line), "step") {
			res.commands++
		}
		outcome := "ok"
		c, err := sim.ParseCommand(line)
		switch {
		case err != nil:
			res.refused++
			outcome = "refused by the parser: " + err.Error()
			if err.Error() == "" {
				return res, &scriptFailure{i, fmt.Errorf("ParseCommand(%q) refused it without a reason", line)}
			}
		default:
			c = withinBudget(c, s)
			apply := s.Apply
			if oneByOne {
				apply = func(c sim.Command) error { return applyOneByOne(s, c) }
			}
			if err := apply(c); err != nil {
				res.refused++
				outcome = "refused: " + err.Error()
				switch c.(type) {
				case sim.StepCmd, sim.UntilCmd:
					res.stepErrors++
				}
				if rc, ok := c.(sim.RelationCmd); ok && freshRelation(s, rc) {
					return res, &scriptFailure{i, fmt.Errorf("%q, a new relation of valid sizes, was refused: %v", line, err)}
				}
			} else if u, ok := c.(sim.UntilCmd); ok && s.Now() < u.T && !s.Done() {
				return res, &scriptFailure{i, fmt.Errorf("%q stopped at %v, before its time, in a run not done", line, s.Now())}
			} else if again, err := sim.ParseCommand(c.String()); err != nil || !reflect.DeepEqual(again, c) {
				return res, &scriptFailure{i, fmt.Errorf("%#v was applied, but its text %q reads back as %#v (%v)", c, c.String(), again, err)}
			}
		}
		if err := r.CheckInvariants(); err != nil {
			return res, &scriptFailure{i, fmt.Errorf("%q (%s) breaks an invariant: %v", line, outcome, err)}
		}
		// The pool's hash after each line (the lab's counters, which may walk all its state,
		// only at the end).
		fmt.Fprintf(&res.transcript, "%s\n  %s; %016x\n", line, outcome, s.Hash())
	}
	res.steps, res.now = s.Stats().Steps, s.Now()
	res.hash = runHash(r)
	fmt.Fprintf(&res.transcript, "run %016x\n", res.hash)
	return res, nil
}

// freshRelation reports whether c creates a relation that s must accept: a name it does not
// have, and fork sizes within the command's limits.
func freshRelation(s *sim.Sim, c sim.RelationCmd) bool {
	for _, r := range s.Relations() {
		if r.Name == c.Name {
			return false
		}
	}
	return c.Blocks >= 1 && c.Blocks <= 1<<30 && c.FSM >= 0 && c.FSM <= 1<<30 && c.VM >= 0 && c.VM <= 1<<30
}

// applyOneByOne applies c as runScript's naive way does: a step of N as N steps of one,
// an until as steps of one until the clock reaches its time or the run ends, anything else
// as it is. It stops at the first refusal.
func applyOneByOne(s *sim.Sim, c sim.Command) error {
	switch c := c.(type) {
	case sim.StepCmd:
		if c.N < 0 || c.N > sim.MaxStepsPerCommand {
			return s.Apply(c) // for the model to refuse
		}
		for range c.N {
			if err := s.Apply(sim.StepCmd{N: 1}); err != nil {
				return err
			}
		}
		return nil
	case sim.UntilCmd:
		for s.Now() < c.T && !s.Done() {
			if err := s.Apply(sim.StepCmd{N: 1}); err != nil {
				return err
			}
		}
		return nil
	}
	return s.Apply(c)
}

// linesOf returns a next function that gives lines in turn.
func linesOf(lines []string) func(*sim.Sim) (string, bool) {
	i := 0
	return func(*sim.Sim) (string, bool) {
		if i >= len(lines) {
			return "", false
		}
		i++
		return lines[i-1], true
	}
}

// scriptCorpus writes a script as a file of FuzzLabCommands's corpus
// (testdata/fuzz/FuzzLabCommands), to replay it as a test.
func scriptCorpus(labIndex int, params string, lines []string) string {
	return fmt.Sprintf("go test fuzz v1\nbyte(%s)\nstring(%s)\nstring(%s)\n",
		strconv.QuoteRune(rune(labIndex)), strconv.Quote(params), strconv.Quote(strings.Join(lines, "\n")))
}
