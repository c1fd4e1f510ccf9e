package sim

import (
	"fmt"
	"math"
	"os"
	"strings"
	"testing"
)

// determinismRuns are the runs whose state hashes testdata/determinism.golden records. The
// same test runs natively and under WebAssembly in node, so both must reproduce the file.
// Each is free play's configuration for the parameters in its comment (free.Config), which
// the browser app and bufferscope run build from the same values.
var determinismRuns = []struct {
	name  string
	cfg   Config
	steps int
}{
	// shared_buffers=1MB
	{"default-1MB", freePlay(128, 1, DefaultVersion, func(*Workload) {}), 50_000},
	// shared_buffers=8MB distribution=uniform updates=50 seed=7
	{"uniform-8MB", freePlay(1024, 7, DefaultVersion, func(w *Workload) { w.Distribution, w.UpdatePercent = Uniform, 50 }), 50_000},
	// shared_buffers=128MB zipf_s=1.5 clients=32 seed=42
	{"zipf-128MB", freePlay(16384, 42, DefaultVersion, func(w *Workload) { w.ZipfS, w.Clients = 1.5, 32 }), 50_000},
	// shared_buffers=1MB version=19 os_cache=50
	{"pg19-1MB", freePlay(128, 1, 19, func(w *Workload) { w.OSCachePercent = 50 }), 20_000},
}

// freePlay returns free play's configuration of n buffers: the default workload for the
// pool, changed by set.
func freePlay(n int, seed uint64, v Version, set func(*Workload)) Config {
	w := DefaultWorkload(n)
	set(&w)
	return Config{NBuffers: n, Version: v, Seed: seed, Workload: &w}
}

// TestDeterminismGolden checks that fixed parameters and steps give recorded state hashes.
// Run with -update after a deliberate change of the model, and say why in the commit.
func TestDeterminismGolden(t *testing.T) {
	var got strings.Builder
	for _, r := range determinismRuns {
		s, err := New(r.cfg)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Step(r.steps); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&got, "%s %016x\n", r.name, s.Hash())
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
}

// TestSeedMatters checks that the seed reaches the workload and that the hash sees it.
func TestSeedMatters(t *testing.T) {
	hash := func(seed uint64) uint64 {
		s, err := New(Config{NBuffers: 128, Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Step(5000); err != nil {
			t.Fatal(err)
		}
		return s.Hash()
	}
	if hash(1) != hash(1) {
		t.Fatal("the same seed gave different states")
	}
	if hash(1) == hash(2) {
		t.Fatal("different seeds gave the same state")
	}
}

// TestInvariantsUnderWorkload runs the free-play workload on small pools of every version
// and checks the invariants after every step.
func TestInvariantsUnderWorkload(t *testing.T) {
	for _, v := range []Version{14, 18, 19} {
		for _, d := range []Distribution{Uniform, Zipfian} {
			w := DefaultWorkload(64)
			w.Distribution = d
			w.UpdatePercent = 40
			w.OSCachePercent = 70
			w.Clients = 2 // few clients, so modelled time reaches the background processes' wake-ups
			w.Relations = append(w.Relations, RelationSpec{Name: "scratch", Blocks: 50, Unlogged: true, Weight: 20})
			s, err := New(Config{NBuffers: 64, Version: v, Seed: 3, Workload: &w})
			if err != nil {
				t.Fatal(err)
			}
			for i := range 40_000 {
				if err := s.Step(1); err != nil {
					t.Fatal(err)
				}
				if err := s.CheckInvariants(); err != nil {
					t.Fatalf("%v %v step %d: %v", v, d, i, err)
				}
			}
			st := s.Stats()
			if st.Evictions == 0 || st.DirtyWrites == 0 || st.WALFlushes == 0 || st.BgWriterWrites == 0 {
				t.Fatalf("%v %v: the workload did not exercise eviction, writes and flushes: %+v", v, d, st)
			}
		}
	}
}

// TestZipfianSkew checks the pgbench Zipfian generator against its law: with s = 2 rank 1
// has probability 1/ζ(2) = 6/π² ≈ 0.608 when n is large, and rank 2 a quarter of that.
// Reference: src/bin/pgbench/pgbench.c, computeIterativeZipfian
func TestZipfianSkew(t *testing.T) {
	s, _ := New(Config{NBuffers: 16, Workload: &Workload{WALWriterDelay: Second, BgWriterDelay: Second}})
	const draws = 200_000
	var ones, twos int
	for range draws {
		switch zipfian(s.rng, 1_000_000, 2) {
		case 1:
			ones++
		case 2:
			twos++
		}
	}
	p1 := float64(ones) / draws
	if p1 < 0.60 || p1 > 0.616 {
		t.Fatalf("P(1) = %.4f, want 6/π² ≈ 0.608", p1)
	}
	if r := float64(ones) / float64(twos); r < 3.8 || r > 4.2 {
		t.Fatalf("P(1)/P(2) = %.2f, want 4", r)
	}
}

// TestDetMath checks the portable exp and log against the math package.
func TestDetMath(t *testing.T) {
	for _, x := range []float64{1e-300, 1e-10, 0.001, 0.5, 0.9999, 1, 1.0001, 2, 3.14159, 1e3, 1e10, 1e300} {
		if got, want := detLog(x), math.Log(x); !close(got, want) {
			t.Errorf("detLog(%g) = %.17g, want %.17g", x, got, want)
		}
	}
	for _, x := range []float64{-700, -20, -1, -1e-9, 0, 1e-9, 0.5, 1, 10, 100, 700} {
		if got, want := detExp(x), math.Exp(x); !close(got, want) {
			t.Errorf("detExp(%g) = %.17g, want %.17g", x, got, want)
		}
	}
}

func close(a, b float64) bool {
	d := a - b
	if d < 0 {
		d = -d
	}
	m := max(a, -a, b, -b)
	return d <= 4e-15*m || d < 1e-300
}

// TestZipfAliasLaw checks the alias table against the law it encodes: with s = 2 and
// n = 1000, P(k) = k^−2 / H(1000, 2), so P(1) ≈ 0.6087 and P(1)/P(3) = 9.
func TestZipfAliasLaw(t *testing.T) {
	z := newZipfAlias(1000, 2)
	s, _ := New(Config{NBuffers: 16, Workload: &Workload{WALWriterDelay: Second, BgWriterDelay: Second}})
	const draws = 400_000
	counts := map[int64]int{}
	for range draws {
		k := z.draw(s.rng.Uint64())
		if k < 1 || k > 1000 {
			t.Fatalf("draw %d outside [1, 1000]", k)
		}
		counts[k]++
	}
	h := 0.0
	for k := 1; k <= 1000; k++ {
		h += 1 / float64(k*k)
	}
	if p1 := float64(counts[1]) / draws; math.Abs(p1-1/h) > 0.005 {
		t.Fatalf("P(1) = %.4f, want %.4f", p1, 1/h)
	}
	if r := float64(counts[1]) / float64(counts[3]); r < 8.5 || r > 9.5 {
		t.Fatalf("P(1)/P(3) = %.2f, want 9", r)
	}
}

// TestUntil checks that UntilCmd stops at the first step that reaches the time, as stepping
// one at a time does, and that its text form round-trips.
func TestUntil(t *testing.T) {
	a, _ := New(Config{NBuffers: 256, Seed: 5})
	b, _ := New(Config{NBuffers: 256, Seed: 5})
	c, err := ParseCommand("until 2.5ms")
	if err != nil || c.String() != "until 2.5ms" {
		t.Fatalf("ParseCommand: %v, %v", c, err)
	}
	if err := a.Apply(c); err != nil {
		t.Fatal(err)
	}
	for b.Now() < 2500*Microsecond {
		b.Step(1)
	}
	if a.Hash() != b.Hash() || a.Now() < 2500*Microsecond {
		t.Fatalf("until stopped at %v after %d steps; stepping reached %v after %d", a.Now(), a.Stats().Steps, b.Now(), b.Stats().Steps)
	}
	for _, bad := range []string{"until", "until 5", "until -1s", "until 1.x s", "until 1e3s"} {
		if _, err := ParseCommand(bad); err == nil {
			t.Errorf("ParseCommand(%q) accepted", bad)
		}
	}
}

// tickScenario is a scenario whose every unit takes tick of the pool's time.
type tickScenario struct{ tick Duration }

func (sc tickScenario) Step(s *Sim, n int) (int, error) {
	s.Pool.Charge(Duration(n) * sc.tick)
	return n, nil
}

func (tickScenario) Done() bool { return false }

// TestUntilScenario checks that until follows the clock of a scenario, which hands the time
// of its units to the pool: it stops at the first unit that reaches the time, as stepping one
// at a time does, rather than stepping on with a clock that never moves.
func TestUntilScenario(t *testing.T) {
	p, err := NewPool(16, DefaultVersion, CostModel{})
	if err != nil {
		t.Fatal(err)
	}
	s := NewScenario(p, Config{}, tickScenario{tick: Microsecond})
	if err := s.Apply(UntilCmd{T: 10 * Microsecond}); err != nil {
		t.Fatal(err)
	}
	if s.Now() != 10*Microsecond || s.Stats().Steps != 10 {
		t.Fatalf("until 10µs stopped at %v after %d units; want 10µs after 10", s.Now(), s.Stats().Steps)
	}
}
