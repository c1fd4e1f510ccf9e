package drop

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/bufferscope/bufferscope/sim"
	simdrop "github.com/bufferscope/bufferscope/sim/labs/drop"
	"github.com/bufferscope/bufferscope/sim/param"
	"github.com/bufferscope/bufferscope/wasm/grid"
)

// experiments are drop labs that take every path: lookups that hit and miss, full scans of
// one and of many relations (bsearch past 20), VACUUM's page records and truncations, a pool
// too small for the relations, and a pool so small that one chunk runs several scans.
var experiments = []struct {
	name   string
	values map[string]string
}{
	{"default", map[string]string{}},
	{"pg13 scans", map[string]string{"policy": "pg13", "tables": "3x5"}},
	{"bsearch", map[string]string{"tables": "30x2", "transactions": "single", "policy": "pg13"}},
	{"lookups miss", map[string]string{"shared_buffers": "128kB", "tables": "1x40", "policy": "lookup"}},
	{"tiny pool scans", map[string]string{"shared_buffers": "128kB", "tables": "20x1", "policy": "pg13"}},
	{"vacuum", map[string]string{"shared_buffers": "1MB", "tables": "2x200,3x3", "op": "vacuum"}},
	{"vacuum evicts", map[string]string{"shared_buffers": "256kB", "tables": "1x300", "op": "vacuum", "policy": "lookup"}},
	{"mixed", map[string]string{"shared_buffers": "1MB", "tables": "1x1,1x100,1x2", "op": "truncate"}},
	{"primary", map[string]string{"tables": "2x3", "mode": "primary"}},
	{"threshold", map[string]string{"tables": "4x600", "threshold": "NB/8"}},
	{"big scan", map[string]string{"shared_buffers": "1GB", "tables": "1x100000", "policy": "pg13"}},
}

func build(t *testing.T, values map[string]string) (*sim.Sim, param.Values) {
	t.Helper()
	p, problems := simdrop.Lab{}.Params().Parse(values)
	if len(problems) > 0 {
		t.Fatalf("%v: %v", values, problems)
	}
	s, err := simdrop.NewReplay(simdrop.ExperimentOf(p))
	if err != nil {
		t.Fatal(err)
	}
	return s, p
}

// total runs a lab natively to the end and returns its units.
func total(t *testing.T, values map[string]string) uint64 {
	s, _ := build(t, values)
	for !simdrop.ProgressOf(s).Done {
		if err := s.Step(1 << 20); err != nil {
			t.Fatal(err)
		}
	}
	return s.Stats().Steps
}

// TestStepMatchesNative: however Watch.Step cuts a run into chunks and frames, the state
// after n units is the one sim.Step(n) reaches natively, hash for hash.
func TestStepMatchesNative(t *testing.T) {
	for _, x := range experiments {
		t.Run(x.name, func(t *testing.T) {
			units := total(t, x.values)
			rng := rand.New(rand.NewPCG(1, 2))
			for _, n := range []uint64{0, 1, units / 3, units - 1, units, units + 5} {
				native, _ := build(t, x.values)
				if err := native.Step(int(n)); err != nil {
					t.Fatal(err)
				}
				s, _ := build(t, x.values)
				w := NewWatch(s, s.Pool.NBuffers)
				for left := int(n); left > 0; {
					frame := min(left, 1+rng.IntN(max(int(units)/4, 1)))
					ran, err := w.Step(s, frame, nil, nil)
					if err != nil {
						t.Fatal(err)
					}
					if ran == 0 {
						break // finished
					}
					left -= ran
				}
				if got, want := s.Hash(), native.Hash(); got != want {
					t.Errorf("after %d of %d units: hash %016x, native %016x", n, units, got, want)
				}
				if s.Stats().Steps != native.Stats().Steps {
					t.Errorf("after %d units: %d steps, native %d", n, s.Stats().Steps, native.Stats().Steps)
				}
				if n >= units && !simdrop.ProgressOf(s).Done {
					t.Errorf("after all %d units the replay is not done", units)
				}
			}
		})
	}
}

// TestRunToEndMatchesExperiment: a lab played to the end reports exactly what
// RunDropExperiment (the CLI's bufferscope drop) reports for the same parameters.
func TestRunToEndMatchesExperiment(t *testing.T) {
	for _, x := range experiments {
		t.Run(x.name, func(t *testing.T) {
			s, p := build(t, x.values)
			w := NewWatch(s, s.Pool.NBuffers)
			for !simdrop.ProgressOf(s).Done {
				if _, err := w.Step(s, 1000, nil, nil); err != nil {
					t.Fatal(err)
				}
			}
			res, err := simdrop.RunExperiment(simdrop.ExperimentOf(p))
			if err != nil {
				t.Fatal(err)
			}
			if got := simdrop.ProgressOf(s).Result; got != res[0] {
				t.Errorf("lab ended with %+v\nexperiment: %+v", got, res[0])
			}
			if s.Now() != res[0].Time {
				t.Errorf("the lab's clock reads %v, its replay took %v", s.Now(), res[0].Time)
			}
		})
	}
}

// naiveMisses steps one unit at a time, whose few events are always all kept, and counts
// the lookups that found no buffer.
func naiveMisses(t *testing.T, values map[string]string) uint64 {
	s, _ := build(t, values)
	var misses uint64
	for !simdrop.ProgressOf(s).Done {
		if err := s.Step(1); err != nil {
			t.Fatal(err)
		}
		for _, e := range s.Events() {
			if e.Kind == sim.EvLookup && e.Buffer < 0 {
				misses++
			}
		}
	}
	return misses
}

// TestMissesMatchNaiveCount: the misses on the tape, taken from the replay's own count
// (Result.LookupMisses), agree with the lookups that found no buffer counted one unit at a
// time from the events; and no chunk's events overflow, whatever the path.
func TestMissesMatchNaiveCount(t *testing.T) {
	for _, x := range experiments {
		t.Run(x.name, func(t *testing.T) {
			want := naiveMisses(t, x.values)
			s, _ := build(t, x.values)
			w := NewWatch(s, s.Pool.NBuffers)
			overflowed := 0
			note := func(events []sim.Event) {
				if len(events) >= grid.EventCap {
					overflowed++
				}
			}
			for !simdrop.ProgressOf(s).Done {
				if _, err := w.Step(s, 1<<30, nil, note); err != nil {
					t.Fatal(err)
				}
			}
			res := simdrop.ProgressOf(s).Result
			if w.Tape.Misses != want || res.LookupMisses != want {
				t.Errorf("%d misses on the tape, %d counted by the replay, one unit at a time %d", w.Tape.Misses, res.LookupMisses, want)
			}
			if overflowed > 0 {
				t.Errorf("%d chunks overflowed their events", overflowed)
			}
			if w.Tape.Total != res.Lookups {
				t.Errorf("tape holds %d lookups, the replay made %d", w.Tape.Total, res.Lookups)
			}
		})
	}
	if naiveMisses(t, experiments[3].values) == 0 {
		t.Error("the lookups-miss experiment has no misses; it tests nothing")
	}
}

// TestVacuumChunksKeepEvents: the chunk with the most events per unit — VACUUM's page
// records in a pool so small that every read evicts a dirty page after a WAL flush — stays
// under grid.EventCap.
func TestVacuumChunksKeepEvents(t *testing.T) {
	s, _ := build(t, map[string]string{"shared_buffers": "128kB", "tables": "1x5000", "op": "vacuum", "policy": "lookup"})
	w := NewWatch(s, s.Pool.NBuffers)
	most := 0
	for !simdrop.ProgressOf(s).Done {
		if _, err := w.Step(s, OtherChunk, nil, func(ev []sim.Event) { most = max(most, len(ev)) }); err != nil {
			t.Fatal(err)
		}
	}
	if most >= grid.EventCap {
		t.Errorf("a chunk of %d units reported %d events, the cap is %d", OtherChunk, most, grid.EventCap)
	}
	if most < OtherChunk*10 {
		t.Errorf("the worst chunk reported only %d events; this test no longer exercises the worst case", most)
	}
}

func TestChunk(t *testing.T) {
	for _, c := range []struct {
		p              simdrop.Progress
		nbuffers, left int
		want           int
	}{
		{simdrop.Progress{Path: sim.PathScan, Cursor: 100}, 16384, 1 << 30, 16284},
		{simdrop.Progress{Path: sim.PathScan, Cursor: 100}, 131072, 1 << 30, ScanChunk},
		{simdrop.Progress{Path: sim.PathScan, Cursor: 10000}, 16384, 1 << 30, 6384},
		{simdrop.Progress{Path: sim.PathScan, Cursor: 100}, 16384, 50, 50},
		{simdrop.Progress{Path: sim.PathScan, Cursor: 0}, 13107200, 1 << 30, ScanChunk},
		{simdrop.Progress{Path: sim.PathLookup, Cursor: -1}, 16384, 1 << 30, OtherChunk},
		{simdrop.Progress{Cursor: -1}, 16384, 3, 3},
		{simdrop.Progress{}, 16384, 0, 0},
	} {
		if got := Chunk(c.p, c.nbuffers, c.left); got != c.want {
			t.Errorf("Chunk(%+v, %d, %d) = %d, want %d", c.p, c.nbuffers, c.left, got, c.want)
		}
	}
}

func ExampleWatch_Step() {
	p, _ := simdrop.Lab{}.Params().Parse(map[string]string{"shared_buffers": "128kB", "tables": "1x40", "policy": "lookup"})
	s, _ := simdrop.NewReplay(simdrop.ExperimentOf(p))
	w := NewWatch(s, s.Pool.NBuffers)
	w.Step(s, 1000, nil, nil)
	r := simdrop.ProgressOf(s).Result
	fmt.Printf("done %v: %d lookups, %d found and invalidated, %d missed\n", simdrop.ProgressOf(s).Done, r.Lookups, r.Invalidated, w.Tape.Misses)
	// Output: done true: 40 lookups, 16 found and invalidated, 24 missed
}

func TestScaleMeter(t *testing.T) {
	var m ScaleMeter
	m.Observe(10, 0)
	m.Observe(10.5, 0.001)
	if m.Scale() != 0 {
		t.Errorf("scale %v before a full window", m.Scale())
	}
	m.Observe(11, 0.002)
	if m.Scale() != 0.002 {
		t.Errorf("scale %v, want 0.002 modelled seconds per second", m.Scale())
	}
	m.Restart()
	m.Observe(11.5, 5) // a jump by hand
	m.Observe(12.5, 5.001)
	if math.Abs(m.Scale()-0.001) > 1e-12 {
		t.Errorf("after a restart the scale is %v, want 0.001", m.Scale())
	}
	m.Observe(13.5, 5.001)
	if m.Scale() != 0 {
		t.Errorf("paused for a second, the scale is %v", m.Scale())
	}
}

func TestTapeAndFound(t *testing.T) {
	var tape Tape
	for i := range TapeLen + 3 {
		tape.push(Lookup{Miss: i%2 == 0, Rel: i})
	}
	got := tape.Recent(nil, 3)
	if len(got) != 3 || got[0].Rel != TapeLen || got[2].Rel != TapeLen+2 {
		t.Errorf("the last three lookups, oldest first: %+v", got)
	}
	if n := len(tape.Recent(nil, 10*TapeLen)); n != TapeLen {
		t.Errorf("the tape returned %d lookups, it holds %d", n, TapeLen)
	}
	var f Found
	for i := range FoundLen + 5 {
		f.push(int32(i), uint32(i))
	}
	var seen []int
	f.Each(FoundLen+4, func(id int, fade float64) { seen = append(seen, id) })
	if len(seen) != FoundTicks || seen[len(seen)-1] != FoundLen+4 {
		t.Errorf("found buffers still marked: %v", seen)
	}
}

// TestTrailCoversWhatTheScansChecked: the trail's segments, taken together, are the
// descriptors the scans checked, whatever the chunks and the pool.
func TestTrailCoversWhatTheScansChecked(t *testing.T) {
	for _, x := range experiments {
		t.Run(x.name, func(t *testing.T) {
			s, _ := build(t, x.values)
			n := s.Pool.NBuffers
			w := NewWatch(s, n)
			var checked uint64
			for !simdrop.ProgressOf(s).Done {
				before := simdrop.ProgressOf(s).Result.DescriptorsChecked
				w.Trail.Clear()
				if _, err := w.Step(s, 1+int(before%7000), nil, nil); err != nil {
					t.Fatal(err)
				}
				d := simdrop.ProgressOf(s).Result.DescriptorsChecked - before
				var covered uint64
				for _, seg := range w.Trail.Segments() {
					if seg.First < 0 || seg.End > n || seg.First >= seg.End {
						t.Fatalf("segment %+v outside the pool of %d", seg, n)
					}
					covered += uint64(seg.End - seg.First)
				}
				if d < uint64(n) && covered != d || d >= uint64(n) && covered < uint64(n) {
					t.Fatalf("a frame checked %d descriptors; the trail covers %d (%+v)", d, covered, w.Trail.Segments())
				}
				checked += d
			}
			if checked != simdrop.ProgressOf(s).Result.DescriptorsChecked {
				t.Errorf("checked %d", checked)
			}
		})
	}
}
