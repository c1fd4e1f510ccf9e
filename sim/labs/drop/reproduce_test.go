package drop

import (
	"os"
	"strings"
	"testing"

	"github.com/bufferscope/bufferscope/sim"
)

// TestReproduceDrop runs the experiments behind the published drop tables and checks every
// target of seed-results.md: they must follow from the replay model and the default costs.
// Reference: src/backend/storage/buffer/bufmgr.c, BUF_DROP_FULL_SCAN_THRESHOLD (commit d6ad34f341)
func TestReproduceDrop(t *testing.T) {
	if testing.Short() || os.Getenv("BUFFERSCOPE_REPRODUCE") == "" {
		t.Skip("builds 100GB pools (a minute, 3.5GB): make test runs it, or set BUFFERSCOPE_REPRODUCE=1")
	}
	r, err := Reproduce(sim.CostModel{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Checks) != 7 {
		t.Fatalf("%d checks, want 7 (A, and three for each of VACUUM and TRUNCATE in B)", len(r.Checks))
	}
	for _, c := range r.Checks {
		if !c.Pass {
			t.Errorf("target missed: %s: %s", c.Name, c.Detail)
		}
	}
	md := r.Markdown()
	for _, want := range []string{"66.564 → ", "| NB/512 |", "**pass**"} {
		if !strings.Contains(md, want) {
			t.Errorf("the Markdown lacks %q:\n%s", want, md)
		}
	}
	t.Log("\n" + md)
}

// TestDropTargetsCanFail feeds the target checks made-up durations that break each target
// and checks that each is reported as failed.
func TestDropTargetsCanFail(t *testing.T) {
	flat := func(d sim.Duration) []sim.Duration { return []sim.Duration{d, d, d, d} }
	r := &Reproduction{
		BVacM:   []sim.Duration{sim.Second, sim.Second, sim.Second, 2 * sim.Second}, // 100GB/20GB = 2
		BVacP:   []sim.Duration{sim.Second, sim.Second, sim.Second, 2 * sim.Second}, // max/min = 2
		BTruncM: flat(10 * sim.Second),                                              // no growth
		BTruncP: flat(sim.Second),                                                   // master/patched = 10
	}
	for range publishedDropA {
		r.AMaster = append(r.AMaster, flat(2*sim.Second))
		r.APatched = append(r.APatched, flat(sim.Second)) // the lookup path always wins
	}
	r.check()
	for _, c := range r.Checks {
		if c.Pass && !strings.Contains(c.Name, "TRUNCATE: patched stays flat") {
			t.Errorf("target passed on durations that break it: %s: %s", c.Name, c.Detail)
		}
	}
	if r.Passed() {
		t.Fatal("Passed() with failing targets")
	}
}

// TestDropGridObservations marks a patched cell within its polling step only when the
// simulated replay ends in the 0.1 s before the published figure.
func TestDropGridObservations(t *testing.T) {
	d := func(s float64) sim.Duration { return sim.Duration(s * float64(sim.Second)) }
	r := &Reproduction{
		BVacP:   []sim.Duration{d(0.25), d(0.206), d(0.306), d(0.4)},
		BTruncP: []sim.Duration{d(0.15), d(0.106), d(0.2), d(0.206)},
	}
	r.checkGrid()
	want := []bool{true, true, false, false, true, true, false, true}
	for i, c := range r.Grid {
		if c.Pass != want[i] {
			t.Errorf("%s: %s within=%v, want %v", c.Name, c.Detail, c.Pass, want[i])
		}
	}
}
