package app

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/bufferscope/bufferscope/sim"
	"github.com/bufferscope/bufferscope/sim/labs"
)

// smallParams are values that give each lab a small pool, so the tests run quickly.
func smallParams(name string) map[string]string {
	v := map[string]string{}
	if l, ok := labs.ByName(name); ok && l.Params().Param("shared_buffers") != nil {
		v["shared_buffers"] = "1MB"
	}
	return v
}

// state is what must agree between two ways of reaching a step: the pool's hash, the
// step, the modelled clock, the lab's counters and the tally of its events.
type state struct {
	Hash     string
	Step     uint64
	Now      float64
	Counters string
	Events   string
}

func stateOf(a *App) state {
	st := a.Stats()
	return state{Hash: a.Hash(), Step: st.Step, Now: st.Now, Counters: fmt.Sprintf("%v", Plain(st.Counters)), Events: fmt.Sprintf("%v", st.Events)}
}

func seek(t *testing.T, a *App, target uint64) {
	t.Helper()
	if err := a.Seek(target); err != nil {
		t.Fatalf("seek %d: %v", target, err)
	}
	if err := a.Finish(); err != nil {
		t.Fatalf("seek %d: %v", target, err)
	}
	if a.Busy() {
		t.Fatalf("seek %d: still busy after Finish", target)
	}
}

// TestSeekEqualsStepping: in every lab, seeking to step N — back from further on, or on
// from the start — gives the state stepping to N gives, and StepBack is a seek to N-1.
func TestSeekEqualsStepping(t *testing.T) {
	for _, l := range labs.All {
		name := l.Info().Name
		t.Run(name, func(t *testing.T) {
			groupingMatters(t, name)
			a := newApp(t)
			load(t, a, name, smallParams(name))
			// Step in uneven calls, remembering the state at each.
			want := map[uint64]state{0: stateOf(a)}
			var marks []uint64
			for _, n := range []int{1, 7, 300, 1, 2048, 5000, 13} {
				if _, err := a.Step(n); err != nil {
					t.Fatal(err)
				}
				st := stateOf(a)
				want[st.Step] = st
				marks = append(marks, st.Step)
			}
			end := a.Stats().Step
			if end < 2 {
				t.Fatalf("the run ended at step %d", end)
			}
			// Back, in an order that goes both ways.
			for _, k := range []uint64{marks[2], 0, marks[5], marks[0], end, marks[3], marks[1]} {
				seek(t, a, k)
				if got := stateOf(a); got != want[k] {
					t.Errorf("seek %d: %+v, stepping gave %+v", k, got, want[k])
				}
			}
			// Step back from the end: the state one step earlier, which a fresh app stepping
			// end-1 steps reaches too.
			seek(t, a, end)
			if err := a.StepBack(); err != nil {
				t.Fatal(err)
			}
			if err := a.Finish(); err != nil {
				t.Fatal(err)
			}
			b := newApp(t)
			load(t, b, name, smallParams(name))
			if _, err := b.Step(int(end - 1)); err != nil {
				t.Fatal(err)
			}
			if got, w := stateOf(a), stateOf(b); got != w {
				t.Errorf("step back from %d: %+v, stepping %d gave %+v", end, got, end-1, w)
			}
			if ti := a.Time(); ti.End != end || !ti.Rewind {
				t.Errorf("timeline after step back: %+v, want end %d", ti, end)
			}
		})
	}
}

// groupingMatters fails the test for a lab whose state depends on how its steps are
// grouped into calls (fifty calls of one step against one call of fifty): replay groups
// them as it likes, so seeking could not give the state playing did.
func groupingMatters(t *testing.T, name string) {
	t.Helper()
	a, b := newApp(t), newApp(t)
	load(t, a, name, smallParams(name))
	load(t, b, name, smallParams(name))
	for range 50 {
		if err := a.run.Sim().Step(1); err != nil {
			t.Fatal(err)
		}
	}
	if err := b.run.Sim().Step(50); err != nil {
		t.Fatal(err)
	}
	if a.run.Sim().Now() != b.run.Sim().Now() || a.run.Sim().Hash() != b.run.Sim().Hash() {
		t.Fatalf("the %s lab's state depends on how steps are grouped into calls (clock %v after 50 calls of one step, %v after one call of 50): a bug in the lab, not in seeking",
			name, a.run.Sim().Now(), b.run.Sim().Now())
	}
}

// TestSeekReplaysCommands: commands given between steps are replayed at their steps, and a
// command given after seeking back drops the recorded future.
func TestSeekReplaysCommands(t *testing.T) {
	a := newApp(t)
	load(t, a, "free", map[string]string{"shared_buffers": "1MB"})
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	_, err := a.Step(500)
	must(err)
	must(a.Apply("checkpoint"))
	must(a.Apply("pin b=0 rel=pgbench_branches blk=0"))
	_, err = a.Step(700)
	must(err)
	must(a.Apply("unpin b=0 rel=pgbench_branches blk=0"))
	at1200 := stateOf(a) // a step's state holds the commands given at it
	_, err = a.Step(300)
	must(err)
	at1500 := stateOf(a)

	seek(t, a, 600)
	seek(t, a, 1200)
	if got := stateOf(a); got != at1200 {
		t.Errorf("seek 1200 after going back: %+v, played %+v", got, at1200)
	}
	seek(t, a, 1500)
	if got := stateOf(a); got != at1500 {
		t.Errorf("seek 1500: %+v, played %+v", got, at1500)
	}
	// Playing on from an earlier step replays the recorded unpin at its step.
	seek(t, a, 1000)
	_, err = a.Step(500)
	must(err)
	if got := stateOf(a); got != at1500 {
		t.Errorf("stepping from 1000 to 1500: %+v, played %+v", got, at1500)
	}
	// A new command at step 1000 forks: the unpin at 1200 is forgotten.
	seek(t, a, 1000)
	must(a.Apply("checkpoint"))
	if ti := a.Time(); ti.End != 1000 {
		t.Errorf("after a fork at 1000 the timeline ends at %d", ti.End)
	}
	_, err = a.Step(500)
	must(err)
	if got := stateOf(a); got == at1500 {
		t.Error("the fork replayed the forgotten future")
	}
	if pins := a.run.Sim().PinnedBy(bufferOf(t, a, "pgbench_branches", 0)); !strings.Contains(strings.Join(pins, " "), "b0") {
		t.Errorf("the fork should still hold b0's pin, pinned by %v", pins)
	}
}

// bufferOf returns the buffer holding block blk of relation rel.
func bufferOf(t *testing.T, a *App, rel string, blk int) int {
	t.Helper()
	s := a.run.Sim()
	views := make([]sim.BufferView, s.Pool.NBuffers)
	s.Snapshot(views, 0)
	for i, v := range views {
		if v.Rel >= 0 && s.Relations()[v.Rel].Name == rel && int(v.Tag.Block) == blk && v.Tag.Fork == sim.MainForkNum {
			return i
		}
	}
	t.Fatalf("%s block %d is not in the pool", rel, blk)
	return -1
}

// TestTimelineIsBounded: a run given more commands than MaxTimeline keeps no more than that
// and refuses to go back, with a reason, instead of growing without end.
func TestTimelineIsBounded(t *testing.T) {
	a := newApp(t)
	load(t, a, "free", map[string]string{"shared_buffers": "1MB"})
	for i := range MaxTimeline + 10 {
		if err := a.Apply("checkpoint"); err != nil {
			t.Fatal(err)
		}
		if len(a.tl.cmds) > MaxTimeline {
			t.Fatalf("after %d commands the timeline holds %d", i+1, len(a.tl.cmds))
		}
		if _, err := a.Step(1); err != nil {
			t.Fatal(err)
		}
	}
	if a.Time().Rewind {
		t.Error("rewind still offered after the timeline was given up")
	}
	err := a.Seek(3)
	if err == nil || !strings.Contains(err.Error(), "cannot go back") {
		t.Errorf("seek back after the timeline was given up: %v", err)
	}
	// Forward still works, and a reset starts a timeline that can go back again.
	seek(t, a, a.Stats().Step+10)
	if err := a.Reset(); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Step(10); err != nil {
		t.Fatal(err)
	}
	seek(t, a, 5)
	if a.Stats().Step != 5 || !a.Time().Rewind {
		t.Errorf("after reset: at %d, %+v", a.Stats().Step, a.Time())
	}
}

// TestNextEvent: next event stops just after the first step with the event, in every lab,
// for every event the lab declares, as stepping one at a time and watching the events does.
func TestNextEvent(t *testing.T) {
	for _, l := range labs.All {
		name := l.Info().Name
		for _, ev := range l.Events() {
			t.Run(name+"/"+ev.Kind.String(), func(t *testing.T) {
				a := newApp(t)
				load(t, a, name, smallParams(name))
				if err := a.NextEvent(ev.Kind.String()); err != nil {
					t.Fatal(err)
				}
				if err := a.Finish(); err != nil {
					t.Fatal(err)
				}
				msg := a.Time().Message
				found := strings.HasPrefix(msg, "Next ")
				// The same search by hand on a second app.
				b := newApp(t)
				load(t, b, name, smallParams(name))
				want := -1
				for i := 0; i < 200_000 && !b.Done(); i++ {
					if _, err := b.Step(1); err != nil {
						t.Fatal(err)
					}
					if hasKind(b.run.Sim().Events(), ev.Kind) {
						want = int(b.Stats().Step)
						break
					}
				}
				switch {
				case want < 0 && found:
					t.Errorf("found a %s at step %d (%q) that stepping by hand did not", ev.Label, a.Stats().Step, msg)
				case want >= 0 && !found:
					t.Errorf("no %s found (%q); stepping by hand found one at %d", ev.Label, msg, want)
				case want >= 0 && int(a.Stats().Step) != want:
					t.Errorf("next %s at step %d, by hand at %d", ev.Label, a.Stats().Step, want)
				case want >= 0 && stateOf(a) != stateOf(b):
					t.Errorf("next %s: %+v, by hand %+v", ev.Label, stateOf(a), stateOf(b))
				}
				if found && !strings.Contains(msg, group(a.Stats().Step)) {
					t.Errorf("message %q does not name step %d", msg, a.Stats().Step)
				}
			})
		}
	}
}

func hasKind(events []sim.Event, k sim.EventKind) bool {
	for _, e := range events {
		if e.Kind == k {
			return true
		}
	}
	return false
}

// TestNextEventGivesUp: a search that finds nothing stops at the end of the run or after
// MaxEventSearch steps, with a message; an unknown event is refused with the lab's list.
func TestNextEventGivesUp(t *testing.T) {
	a := newApp(t)
	load(t, a, "drop", map[string]string{"shared_buffers": "128kB", "tables": "1x40", "policy": "lookup"})
	err := a.NextEvent("hint lost")
	if err == nil || !strings.Contains(err.Error(), "is not an event of the drop lab") {
		t.Errorf("unknown event: %v", err)
	}
	for !a.Done() {
		if _, err := a.Step(1000); err != nil {
			t.Fatal(err)
		}
	}
	if err := a.NextEvent(""); err != nil {
		t.Fatal(err)
	}
	if a.Busy() || !strings.Contains(a.Time().Message, "ended") {
		t.Errorf("next event after the end: busy %v, %q", a.Busy(), a.Time().Message)
	}
}

// TestJobsRunInSlicesAndCancel: a long seek runs a slice per tick, shows its progress, and
// stops where it got to when cancelled; stepping cancels it too.
func TestJobsRunInSlicesAndCancel(t *testing.T) {
	a := newApp(t)
	load(t, a, "free", map[string]string{"shared_buffers": "1MB"})
	if err := a.Seek(MaxSeek); err != nil {
		t.Fatal(err)
	}
	a.Tick(time.Now())
	ti := a.Time()
	if !a.Busy() || ti.Job == nil || ti.Job.Kind != "seek" || ti.Job.Target != MaxSeek {
		t.Fatalf("after one tick: busy %v, %+v", a.Busy(), ti.Job)
	}
	at := a.Stats().Step
	if at == 0 || at >= MaxSeek || ti.Job.Done <= 0 || ti.Job.Done >= 1 {
		t.Errorf("one tick of a seek to %d reached %d, done %v", uint64(MaxSeek), at, ti.Job.Done)
	}
	if !a.CancelJob() || a.Busy() || a.Stats().Step != at || !strings.Contains(a.Time().Message, "Cancelled") {
		t.Errorf("cancel: busy %v, at %d (was %d), %q", a.Busy(), a.Stats().Step, at, a.Time().Message)
	}
	if err := a.Seek(MaxSeek + 1); err == nil {
		t.Error("a seek past MaxSeek was accepted")
	}
	if err := a.Seek(at / 2); err != nil {
		t.Fatal(err)
	}
	// Going back starts by building the run again: nothing of it is done yet.
	if j := a.Time().Job; j == nil || j.Done != 0 {
		t.Errorf("a seek back from %d to %d before any work: %+v, want done 0", at, at/2, j)
	}
	if _, err := a.Step(1); err != nil || a.Busy() {
		t.Errorf("step during a seek: %v, busy %v", err, a.Busy())
	}
}

// TestLoadStartsANewTimeline: new parameters start the run again at step 0 with an empty
// timeline (a lab's parameters cannot change inside a run); Time's Run counts the runs.
func TestLoadStartsANewTimeline(t *testing.T) {
	a := newApp(t)
	load(t, a, "free", map[string]string{"shared_buffers": "1MB"})
	run := a.Time().Run
	if _, err := a.Step(100); err != nil {
		t.Fatal(err)
	}
	load(t, a, "free", map[string]string{"shared_buffers": "2MB"})
	if ti := a.Time(); ti.End != 0 || ti.Run != run+1 || a.Stats().Step != 0 {
		t.Errorf("after load: %+v at step %d", ti, a.Stats().Step)
	}
	if msg := a.Time().Message; !strings.Contains(msg, "started the run again") || !strings.Contains(msg, "step 100") {
		t.Errorf("after new settings at step 100 the timeline says %q", msg)
	}
	seek(t, a, 50)
	if ti := a.Time(); ti.Run != run+1 {
		t.Errorf("a seek counted as a new run: %+v", ti)
	}
	if !reflect.DeepEqual(a.Time().Events, a.Labs()[0].Events) && a.lab == labs.All[0] {
		t.Errorf("events %+v, lab declares %+v", a.Time().Events, a.Labs()[0].Events)
	}
}

// BenchmarkSeekBack measures a seek back in each lab at its defaults: building the run
// again and replaying 100,000 steps, which is what rewind costs without checkpoints.
func BenchmarkSeekBack(b *testing.B) {
	for _, l := range labs.All {
		name := l.Info().Name
		b.Run(name, func(b *testing.B) {
			a := New(nil)
			if _, err := a.Load(name, nil); err != nil {
				b.Fatal(err)
			}
			if _, err := a.Step(100_001); err != nil {
				b.Fatal(err)
			}
			target := min(a.Stats().Step, 100_000)
			b.ResetTimer()
			for range b.N {
				if err := a.Seek(target); err != nil {
					b.Fatal(err)
				}
				if err := a.Finish(); err != nil {
					b.Fatal(err)
				}
				if _, err := a.Step(1); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(target), "steps/op")
		})
	}
}

// TestSeekBackKeepsTheView: going back builds the run again but keeps the reader's zoom and
// highlighted buffer.
func TestSeekBackKeepsTheView(t *testing.T) {
	a := newApp(t)
	load(t, a, "free", map[string]string{"shared_buffers": "8MB"})
	if _, err := a.Step(300); err != nil {
		t.Fatal(err)
	}
	a.Zoom(2, 100, 100, true)
	a.Highlight(7, 0)
	before := a.View()
	seek(t, a, 100)
	if after := a.View(); !reflect.DeepEqual(after, before) || a.view.hilite != 7 {
		t.Errorf("seek back: view %+v, before %+v; highlight %d", after, before, a.view.hilite)
	}
}
