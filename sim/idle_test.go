package sim

import (
	"strings"
	"testing"
)

// TestIdlePool runs a pool without clients, where only the WAL writer and the background
// writer wake, far past the point where the wake-ups once overflowed the clock and the step
// picked no process (index out of range [-1]): it must reach the end of virtual time and say
// so, not panic.
func TestIdlePool(t *testing.T) {
	w := DefaultWorkload(16)
	w.Clients = 0
	s, err := New(Config{NBuffers: 16, Seed: 1, Workload: &w})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Step(1000); err != nil {
		t.Fatalf("an idle pool could not step: %v", err)
	}
	if s.Now() == 0 || s.Stats().Accesses != 0 {
		t.Fatalf("an idle pool: now %v, %d accesses", s.Now(), s.Stats().Accesses)
	}
	err = s.Step(MaxStepsPerCommand)
	if err == nil || !strings.Contains(err.Error(), "end of its virtual time") {
		t.Fatalf("stepping past the end of virtual time: %v", err)
	}
	if s.Now() > MaxTime {
		t.Fatalf("the clock passed MaxTime: %v", s.Now())
	}
}

// TestLogIsBounded checks that the command log merges consecutive steps and keeps at most
// LogLimit entries, so a page that plays for hours does not grow it without end.
func TestLogIsBounded(t *testing.T) {
	s, err := New(Config{NBuffers: 64, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	for range 10 {
		if err := s.Step(3); err != nil {
			t.Fatal(err)
		}
	}
	log, dropped := s.Log()
	if len(log) != 1 || log[0] != (StepCmd{N: 30}) || dropped != 0 {
		t.Fatalf("ten steps of 3 logged as %v (%d dropped), want one step 30", log, dropped)
	}
	for i := range 3 * LogLimit {
		if err := s.Apply(UpdatesCmd{Percent: i % 100}); err != nil {
			t.Fatal(err)
		}
		if err := s.Step(1); err != nil {
			t.Fatal(err)
		}
	}
	log, dropped = s.Log()
	if len(log) > LogLimit || dropped == 0 || len(log)+dropped != 1+6*LogLimit {
		t.Fatalf("log holds %d commands and dropped %d after %d", len(log), dropped, 1+6*LogLimit)
	}
	if last := log[len(log)-1]; last != (StepCmd{N: 1}) {
		t.Fatalf("the last command logged is %v", last)
	}
}
