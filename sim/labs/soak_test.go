package labs

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bufferscope/bufferscope/sim"
	"github.com/bufferscope/bufferscope/sim/lab"
	"github.com/bufferscope/bufferscope/sim/param"
)

// The soak's defaults: scenarios per lab in a plain go test (and under -short, which the
// WebAssembly tests use), and lines per scenario. make soak asks for thousands through
// BUFFERSCOPE_SOAK, and a seed through BUFFERSCOPE_SOAK_SEED.
const (
	soakDefault      = 20
	soakShortDefault = 5
	soakLines        = 60
	// soakNaiveEvery is how often a scenario is run again stepping one step per call
	// (runScript's naive way), which must give the same transcript.
	soakNaiveEvery = 10
)

// TestSoak runs random scenarios on every registered lab: parameters drawn within the
// lab's table (drawValues), random commands and steps (drawLine), the run's invariants
// after every line, and every soakNaiveEvery-th scenario again one step per call. It logs one line per lab, and for a failing scenario the parameters,
// seed and lines that replay it, as a file of FuzzLabCommands's corpus.
func TestSoak(t *testing.T) {
	n := soakDefault
	if testing.Short() {
		n = soakShortDefault
	}
	if s := os.Getenv("BUFFERSCOPE_SOAK"); s != "" {
		var err error
		if n, err = strconv.Atoi(s); err != nil || n < 0 {
			t.Fatalf("BUFFERSCOPE_SOAK=%q is not a number of scenarios", s)
		}
	}
	seed := uint64(1)
	if s := os.Getenv("BUFFERSCOPE_SOAK_SEED"); s != "" {
		var err error
		if seed, err = strconv.ParseUint(s, 10, 64); err != nil {
			t.Fatalf("BUFFERSCOPE_SOAK_SEED=%q is not a seed", s)
		}
	}
	for i, l := range All {
		t.Run(l.Info().Name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(seed, uint64(i)))
			start := time.Now()
			var steps uint64
			var latest sim.Duration // the latest clock a scenario ended at, to see one run wild
			var commands, refused, stepErrors, failures int
			for k := range n {
				params, lines, res, err := soakScenario(l, rng)
				if err == nil && k%soakNaiveEvery == 0 {
					err = replayOneByOne(l, params, lines, res)
				}
				if res != nil {
					steps += res.steps
					latest = max(latest, res.now)
					commands += res.commands
					refused += res.refused - res.stepErrors
					stepErrors += res.stepErrors
				}
				if err != nil {
					failures++
					what, stack, _ := strings.Cut(err.Error(), "\n") // a panic's stack goes last
					t.Errorf("%s scenario %d (soak seed %d) failed: %s\nparameters: %s\nlines:\n  %s\nreplay it as a test: add this file to sim/labs/testdata/fuzz/FuzzLabCommands/\n%s%s",
						l.Info().Name, k, seed, what, params, strings.Join(lines, "\n  "), scriptCorpus(i, params, lines), stack)
				}
			}
			t.Logf("soak %s: %d scenarios, %d steps (%d step lines refused), %d commands (%d refused), latest clock %v, %d failures, %.1fs (soak seed %d)",
				l.Info().Name, n, steps, stepErrors, commands, refused, latest, failures, time.Since(start).Seconds(), seed)
		})
	}
}

// replayOneByOne runs a scenario's lines again the naive way of runScript, every step a
// call of its own, and reports where it ran otherwise than res.
func replayOneByOne(l lab.Lab, params string, lines []string, res *scriptResult) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic stepping one at a time: %v\n%s", p, debug.Stack())
		}
	}()
	naive, err := runScript(l, readParams(l.Params(), params), linesOf(lines), true)
	if err != nil {
		return fmt.Errorf("stepping one at a time: %v", err)
	}
	a, b := strings.Split(res.transcript.String(), "\n"), strings.Split(naive.transcript.String(), "\n")
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return fmt.Errorf("stepping one at a time ran otherwise from transcript line %d: %q, not %q", i+1, b[i], a[i])
		}
	}
	if len(a) != len(b) {
		return fmt.Errorf("stepping one at a time gave %d transcript lines, not %d", len(b), len(a))
	}
	return nil
}

// soakScenario draws one scenario of l and runs it, returning its parameters as an address
// writes them and its lines, for the replay; a panic is returned as an error with its stack.
func soakScenario(l lab.Lab, rng *rand.Rand) (params string, lines []string, res *scriptResult, err error) {
	t := l.Params()
	v, _ := t.Parse(drawValues(t, rng))
	params = writeParams(t, v)
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic: %v\n%s", p, debug.Stack())
		}
	}()
	var burst []string
	res, err = runScript(l, v, func(s *sim.Sim) (string, bool) {
		if len(lines) >= soakLines {
			return "", false
		}
		if len(burst) == 0 && rng.IntN(30) == 0 {
			burst = pinBurst(rng, s)
		}
		if len(burst) > 0 {
			lines, burst = append(lines, burst[0]), burst[1:]
		} else {
			lines = append(lines, drawLine(rng, s))
		}
		return lines[len(lines)-1], true
	}, false)
	return params, lines, res, err
}

// soakMaxBuffers bounds the pools the soak draws, from 16 buffers (evenly in the logarithm):
// every table allows up to 100GB, but a thousand scenarios per lab must run in minutes, and
// small pools are where pins, rings and evictions crowd each other.
const soakMaxBuffers = 256

// drawValues draws a value for every parameter of t within what the table declares: a
// number between its bounds for the values drawn before it (uniformly, or in its logarithm
// for a range of orders of magnitude; at a bound one time in four), one of a choice's options, a text's default or one of its presets, any
// seed. shared_buffers, which every lab has, is at most soakMaxBuffers.
func drawValues(t *param.Table, rng *rand.Rand) map[string]string {
	v := param.Values{}
	for i := range t.Params {
		p := &t.Params[i]
		var s string
		switch {
		case p.Key == "shared_buffers":
			n := math.Exp(math.Log(sim.MinNBuffers) + rng.Float64()*math.Log(float64(soakMaxBuffers)/sim.MinNBuffers))
			s = strconv.Itoa(int(n)*sim.BLCKSZ/1024) + "kB"
		case p.Kind == param.Int || p.Kind == param.Float:
			lo, hi := p.Min, p.Max
			if p.Bounds != nil {
				lo, hi, _ = p.Bounds(v)
			}
			x := lo + rng.Float64()*(hi-lo)
			if lo >= 0 && hi > 100*(lo+1) {
				// A range of orders of magnitude (1,000 to 300,000 rows, pages up to 2^30)
				// is drawn evenly in its logarithm, so small values come up as often as large.
				x = math.Exp(math.Log(lo+1)+rng.Float64()*(math.Log(hi+1)-math.Log(lo+1))) - 1
			}
			switch rng.IntN(8) {
			case 0:
				x = lo
			case 1:
				x = hi
			}
			if p.Kind == param.Int {
				x = math.Round(x)
			}
			s = strconv.FormatFloat(x, 'f', -1, 64)
		case p.Kind == param.Uint:
			s = strconv.FormatUint(rng.Uint64(), 10)
		case p.Kind == param.Choice:
			s = p.Choices[rng.IntN(len(p.Choices))].Value
		default:
			opts := append([]param.Option{{Value: p.Default}}, p.Presets...)
			s = opts[rng.IntN(len(opts))].Value
		}
		// The values before the next parameter are this table's reading of the draws, so
		// that bounds which depend on them see what the run will.
		norm, _ := t.Value(p.Key, s, v)
		v[p.Key] = norm
	}
	return v
}

// drawLine draws one line for run s: a step most of the time, otherwise a command of every
// kind ParseCommand reads, on the run's own relations and a few of its making, now and then
// out of range or malformed so that refusals are exercised too.
func drawLine(rng *rand.Rand, s *sim.Sim) string {
	if rng.IntN(10) < 4 {
		return fmt.Sprintf("step %d", 1+rng.IntN(1+[]int{5, 50, 500}[rng.IntN(3)]))
	}
	rels := s.Relations()
	rel := rels[rng.IntN(len(rels))]
	forks := []string{"main", "main", "main", "main", "main", "main", "fsm", "vm", "init"}
	fork := forks[rng.IntN(len(forks))]
	page := func() string {
		nb := int(rel.NBlocks[forkOf(fork)])
		blk := rng.IntN(max(nb, 1))
		switch {
		case rng.IntN(8) == 0:
			blk = nb + rng.IntN(2) // past the end
		case nb > 64 && rng.IntN(2) == 0:
			blk = rng.IntN(64) // the first pages, where the labs' hot pages are
		}
		f := ""
		if fork != "main" {
			f = " fork=" + fork
		}
		return fmt.Sprintf("b=%d rel=%s%s blk=%d", rng.IntN(4), rel.Name, f, blk)
	}
	switch rng.IntN(20) {
	case 0, 1, 2:
		// Pins are the most often drawn command, and are let go of less often, so that
		// command-driven backends come to hold much of a small pool.
		return "pin " + page()
	case 3, 4:
		if rng.IntN(2) == 0 {
			return "pin " + page()
		}
		if p, ok := pinnedPage(rng, s); ok {
			return "unpin " + p
		}
		return "unpin " + page()
	case 5:
		return "read " + page()
	case 6:
		return "update " + page()
	case 7:
		if p, ok := pinnedPage(rng, s); ok && rng.IntN(4) > 0 {
			return "dirty " + p
		}
		return "dirty " + page()
	case 8:
		return []string{"walflush", "checkpoint", "bgwriter"}[rng.IntN(3)]
	case 9:
		return fmt.Sprintf("until %v", s.Now()+sim.Duration(rng.IntN(100))*sim.Microsecond)
	case 10:
		line := fmt.Sprintf("relation soak%d blocks=%d", len(rels), rng.IntN(80))
		if rng.IntN(2) == 0 {
			line += fmt.Sprintf(" fsm=%d vm=%d", rng.IntN(4), rng.IntN(2))
		}
		if rng.IntN(3) == 0 {
			line += " unlogged"
		}
		if rng.IntN(2) == 0 {
			line += " cached=main,fsm"
		}
		return line
	case 11:
		return "recovery " + []string{"on", "off"}[rng.IntN(2)]
	case 12:
		line := "droppolicy " + []string{"pg13", "pg14", "lookup"}[rng.IntN(3)]
		if rng.IntN(2) == 0 {
			line += " threshold=" + []string{"NB/32", "NB/2", "0", "1", "100"}[rng.IntN(5)]
		}
		return line
	case 13:
		return fmt.Sprintf("droprel rel=%s forks=%s first=%d", rel.Name, fork, rng.IntN(8))
	case 14:
		other := rels[rng.IntN(len(rels))]
		return fmt.Sprintf("dropall rels=%s,%s", rel.Name, other.Name)
	case 15:
		return fmt.Sprintf("clients %d", rng.IntN(s.Pool.NBuffers/2+2))
	case 16:
		return fmt.Sprintf("updates %d", rng.IntN(102))
	case 17:
		return fmt.Sprintf("distribution %s s=%g", []string{"uniform", "zipfian"}[rng.IntN(2)], 1+rng.Float64()*3)
	case 18:
		return fmt.Sprintf("step %d", -rng.IntN(3)) // 0 runs nothing; a negative count is refused
	}
	return []string{"pin b=64 rel=" + rel.Name + " blk=0", "unpin rel=nosuch blk=1", "step x", "frobnicate", ""}[rng.IntN(5)]
}

// pinBurst returns lines by which one command-driven backend pins a run of pages of one
// relation, up to the size of the pool: what a reader filling the pool by hand does, which
// single draws seldom come to.
func pinBurst(rng *rand.Rand, s *sim.Sim) []string {
	rels := s.Relations()
	rel := rels[rng.IntN(len(rels))]
	nb := max(int(rel.NBlocks[sim.MainForkNum]), 1)
	b, first := rng.IntN(4), rng.IntN(nb)
	var out []string
	for k := range 1 + rng.IntN(min(s.Pool.NBuffers, nb-first)) {
		out = append(out, fmt.Sprintf("pin b=%d rel=%s blk=%d", b, rel.Name, first+k))
	}
	return out
}

// pinnedPage returns a page a command-driven backend pins, as a page command's arguments,
// and whether there is one.
func pinnedPage(rng *rand.Rand, s *sim.Sim) (string, bool) {
	var pages []string
	views := make([]sim.BufferView, s.Pool.NBuffers)
	s.Snapshot(views, 0)
	for id, v := range views {
		if v.Rel < 0 {
			continue
		}
		for _, who := range s.PinnedBy(id) {
			var b, n int
			if _, err := fmt.Sscanf(who, "b%d×%d", &b, &n); err == nil {
				pages = append(pages, fmt.Sprintf("b=%d rel=%s fork=%s blk=%d", b, s.Relations()[v.Rel].Name, v.Tag.Fork, v.Tag.Block))
			}
		}
	}
	if len(pages) == 0 {
		return "", false
	}
	return pages[rng.IntN(len(pages))], true
}

// forkOf returns the fork a name names, main for an unknown one.
func forkOf(name string) sim.ForkNumber {
	for f := sim.MainForkNum; f <= sim.MaxForkNum; f++ {
		if f.String() == name {
			return f
		}
	}
	return sim.MainForkNum
}
