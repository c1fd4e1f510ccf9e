package labs

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/bufferscope/bufferscope/sim"
)

var update = flag.Bool("update", false, "rewrite testdata/determinism.golden")

// goldenRuns are the runs of each lab whose hashes testdata/determinism.golden records: the
// lab's defaults in a small pool, and again with another seed in the smallest pool.
var goldenRuns = []string{"shared_buffers=1MB", "shared_buffers=128kB&seed=7"}

// goldenLines is how many command lines (drawLine, from a PCG seeded by the run) each
// golden run takes before its last steps, and goldenSteps how many those are.
const (
	goldenLines = 30
	goldenSteps = 2000
)

// TestDeterminismGoldenEveryLab checks that every registered lab gives the state hashes
// (runHash: the pool's and the lab's counters) testdata/determinism.golden records, for
// fixed parameters, commands and steps. go test runs it natively and make wasmtest as
// WebAssembly under node, so the page, the worker and the headless command agree. Run with
// -update after a deliberate change of a model, and say why in the commit.
func TestDeterminismGoldenEveryLab(t *testing.T) {
	var got strings.Builder
	for _, l := range All {
		for k, params := range goldenRuns {
			v := readParams(l.Params(), params)
			rng := rand.New(rand.NewPCG(uint64(k), 1))
			n := 0
			res, err := runScript(l, v, func(s *sim.Sim) (string, bool) {
				switch n++; {
				case n <= goldenLines:
					return drawLine(rng, s), true
				case n == goldenLines+1:
					return fmt.Sprintf("step %d", goldenSteps), true
				}
				return "", false
			}, false)
			if err != nil {
				t.Fatalf("%s %s: %v", l.Info().Name, params, err)
			}
			fmt.Fprintf(&got, "%s %s steps=%d %016x\n", l.Info().Name, params, res.steps, res.hash)
		}
	}
	const path = "testdata/determinism.golden"
	if *update {
		if err := os.WriteFile(path, []byte(got.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if got.String() != string(want) {
		t.Errorf("state hashes differ from %s:\n got:\n%s\nwant:\n%s", path, got.String(), want)
	}
	if len(strings.Split(strings.TrimSpace(string(want)), "\n")) != len(All)*len(goldenRuns) {
		t.Errorf("%s has %d lines for %d labs of %d runs", path, len(strings.Split(strings.TrimSpace(string(want)), "\n")), len(All), len(goldenRuns))
	}
}
