package app

import (
	"strings"
	"testing"
	"time"

	"github.com/bufferscope/bufferscope/sim"
	"github.com/bufferscope/bufferscope/sim/labs"
)

// pacedSize is the smallest pool built as a job (PacedBuffers buffers of 8 kB).
const pacedSize = "4GB"

// TestLargePoolIsBuiltAsAJob: a pool of PacedBuffers or more is built a slice at a time in
// every lab that has shared_buffers. Load returns at once saying so, with the new values;
// the run in force answers meanwhile; the job's progress rises; the new run takes over when
// it is built, as a new run, and the pacer is gone.
func TestLargePoolIsBuiltAsAJob(t *testing.T) {
	for _, l := range labs.All {
		if l.Params().Param("shared_buffers") == nil {
			continue
		}
		name := l.Info().Name
		t.Run(name, func(t *testing.T) {
			a := newApp(t)
			load(t, a, name, map[string]string{"shared_buffers": "1MB"})
			runs := a.Time().Run
			res := load(t, a, name, map[string]string{"shared_buffers": pacedSize})
			if !res.Building || res.Params["shared_buffers"] != pacedSize {
				t.Fatalf("load of %s: building %v, params %v", pacedSize, res.Building, res.Params)
			}
			if st := a.Stats(); st.Lab != name || st.SharedBuffers != "1MB" {
				t.Errorf("while building, the run in force is %s at %s, want %s at 1MB", st.Lab, st.SharedBuffers, name)
			}
			slices, most := 0, -1.0
			for {
				j := a.Time().Job
				if j == nil {
					break
				}
				if j.Kind != "build" || !strings.HasPrefix(j.Label, "Building a pool of "+pacedSize+": ") {
					t.Fatalf("the job: %+v", j)
				}
				if j.Done < 0 || j.Done > 1 {
					t.Fatalf("the job's share done is %v", j.Done)
				}
				most = max(most, j.Done)
				slices++
				// A deadline already passed: every slice is the least the pool's loops do
				// between two calls of the pacer, whatever the machine's speed.
				if err := a.runJob(newDeadline(-time.Second)); err != nil {
					t.Fatal(err)
				}
			}
			if slices < 3 {
				t.Errorf("the build took %d slices; a %s pool takes more", slices, pacedSize)
			}
			if most <= 0 {
				t.Errorf("the job's progress never rose above 0")
			}
			st := a.Stats()
			if st.Lab != name || st.SharedBuffers != pacedSize || a.Time().Run == runs || a.Params()["shared_buffers"] != pacedSize {
				t.Errorf("after the build: %s at %s, run %d (was %d)", st.Lab, st.SharedBuffers, a.Time().Run, runs)
			}
			if !strings.HasPrefix(a.Time().Message, "Built a pool of "+pacedSize) {
				t.Errorf("after the build the timeline says %q", a.Time().Message)
			}
			if err := a.run.CheckInvariants(); err != nil {
				t.Errorf("the run built in slices: %v", err)
			}
			// Nothing else is paced: a small build after it is done at once.
			if res := load(t, a, name, map[string]string{"shared_buffers": "2MB"}); res.Building || a.Busy() {
				t.Errorf("a 2MB pool was built as a job")
			}
		})
	}
}

// TestCancellingABuildKeepsTheRunInForce: Cancel stops a build where it is; the run in
// force stays, and counts as a new run, so that a page that showed the build's values reads
// the run's again.
func TestCancellingABuildKeepsTheRunInForce(t *testing.T) {
	a := newApp(t)
	load(t, a, "free", map[string]string{"shared_buffers": "1MB", "seed": "7"})
	a.Step(50)
	runs := a.Time().Run
	load(t, a, "free", map[string]string{"shared_buffers": pacedSize})
	if err := a.runJob(newDeadline(-time.Second)); err != nil {
		t.Fatal(err)
	}
	if !a.Busy() || !a.CancelJob() || a.Busy() {
		t.Fatal("the build was not under way, or did not stop")
	}
	st := a.Stats()
	if st.SharedBuffers != "1MB" || st.Step != 50 || a.Params()["seed"] != "7" || a.Time().Run == runs {
		t.Errorf("after Cancel: %s at step %d, params %v, run %d (was %d)", st.SharedBuffers, st.Step, a.Params(), a.Time().Run, runs)
	}
	if msg := a.Time().Message; !strings.HasPrefix(msg, "Cancelled building the pool of "+pacedSize) {
		t.Errorf("after Cancel the timeline says %q", msg)
	}
	// A load during a build replaces it.
	load(t, a, "free", map[string]string{"shared_buffers": pacedSize})
	load(t, a, "free", map[string]string{"shared_buffers": "2MB"})
	if a.Busy() || a.Stats().SharedBuffers != "2MB" {
		t.Errorf("a load during a build: busy %v, %s", a.Busy(), a.Stats().SharedBuffers)
	}
}

// TestBuildingAnotherLabStandsInWithItsDefaults: while a large pool of another lab is
// built, that lab at its defaults answers, so the page never sees the lab it left.
func TestBuildingAnotherLabStandsInWithItsDefaults(t *testing.T) {
	a := newApp(t)
	load(t, a, "free", nil)
	res := load(t, a, "drop", map[string]string{"shared_buffers": pacedSize})
	want := labs.All[1].Params().Defaults()["shared_buffers"]
	if st := a.Stats(); !res.Building || st.Lab != "drop" || st.SharedBuffers != want {
		t.Errorf("while drop builds %s: %s at %s, want drop at its default %s", pacedSize, st.Lab, st.SharedBuffers, want)
	}
	if err := a.Finish(); err != nil {
		t.Fatal(err)
	}
	if st := a.Stats(); st.Lab != "drop" || st.SharedBuffers != pacedSize {
		t.Errorf("after the build: %s at %s", st.Lab, st.SharedBuffers)
	}
}

// TestSeekDuringABuildWaitsForIt: a seek asked for while a pool is being built (an address
// with a large pool and a step) goes to that step of the new run once it is built.
func TestSeekDuringABuildWaitsForIt(t *testing.T) {
	a := newApp(t)
	load(t, a, "free", map[string]string{"shared_buffers": "1MB"})
	load(t, a, "free", map[string]string{"shared_buffers": pacedSize})
	if err := a.Seek(300); err != nil {
		t.Fatal(err)
	}
	if j := a.Time().Job; j == nil || j.Kind != "build" {
		t.Fatalf("the seek replaced the build: %+v", j)
	}
	if err := a.Finish(); err != nil {
		t.Fatal(err)
	}
	if j := a.Time().Job; j == nil || j.Kind != "seek" {
		t.Fatalf("after the build the job is %+v, want the seek", j)
	}
	if err := a.Finish(); err != nil {
		t.Fatal(err)
	}
	if st := a.Stats(); st.SharedBuffers != pacedSize || st.Step != 300 {
		t.Errorf("after the build and the seek: %s at step %d", st.SharedBuffers, st.Step)
	}
}

// TestPlayDuringABuildPlaysTheNewRun: Play while a pool is being built (the page plays
// what it opens) keeps the build and plays the new run once it is built; Step refuses,
// saying why, as its steps would go to a run about to be replaced.
func TestPlayDuringABuildPlaysTheNewRun(t *testing.T) {
	a := newApp(t)
	load(t, a, "free", map[string]string{"shared_buffers": "1MB"})
	load(t, a, "free", map[string]string{"shared_buffers": pacedSize})
	if err := a.Play(); err != nil || !a.Busy() {
		t.Fatalf("Play during a build: %v, building %v", err, a.Busy())
	}
	if _, err := a.Step(1); err == nil || !strings.Contains(err.Error(), "being built") {
		t.Errorf("Step during a build: %v", err)
	}
	if err := a.Finish(); err != nil {
		t.Fatal(err)
	}
	if st := a.Stats(); !st.Playing || st.SharedBuffers != pacedSize {
		t.Errorf("after the build: playing %v at %s", st.Playing, st.SharedBuffers)
	}
}

// TestAPoolOverTheBudgetIsRefusedBeforeItIsBuilt: with a memory budget, a pool whose parts
// (sim.PoolBytes) exceed it is refused with a message that says what it needs, what is
// allowed and what fits; the run in force stays, and a pool that fits is built.
func TestAPoolOverTheBudgetIsRefusedBeforeItIsBuilt(t *testing.T) {
	a := newApp(t)
	load(t, a, "free", map[string]string{"shared_buffers": "1MB", "seed": "4"})
	a.SetMemoryBudget(sim.PoolBytes(131072), "for the test")
	res, err := a.Load("free", map[string]string{"shared_buffers": "2GB"})
	if err == nil || res.Building {
		t.Fatalf("a 2GB pool over a 1GB pool's budget: building %v, error %v", res.Building, err)
	}
	for _, want := range []string{"a pool of 2GB needs about ", "(for the test)", "choose 1GB or less"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the refusal %q does not say %q", err, want)
		}
	}
	if st := a.Stats(); st.SharedBuffers != "1MB" || res.Params["shared_buffers"] != "1MB" {
		t.Errorf("after the refusal: %s, params %v", st.SharedBuffers, res.Params)
	}
	load(t, a, "free", map[string]string{"shared_buffers": "1GB"})
	if st := a.Stats(); st.SharedBuffers != "1GB" {
		t.Errorf("a pool within the budget: %s", st.SharedBuffers)
	}
}
