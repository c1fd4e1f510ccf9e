package app

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/bufferscope/bufferscope/sim"
	"github.com/bufferscope/bufferscope/sim/lab"
	"github.com/bufferscope/bufferscope/sim/param"
	"github.com/bufferscope/bufferscope/wasm/playback"
)

// Time travel: seek, step back and "next event", for every lab through its shape.
//
// A run is deterministic given its lab, its parameter values and the commands applied
// between its steps, so any step of it can be rebuilt: seek to an earlier step builds the
// run again from its values and replays it, with the commands of its timeline at the steps
// they were applied, up to the target; seek to a later step steps on. Rewind is therefore
// replay from the start rather than checkpoints: no lab (nor the pool) can copy its state
// today, and replay costs what the run cost to play (BenchmarkSeekBack: 100,000 steps
// replay in about 30 ms in free play, 45 ms in the ring lab and 100 ms in the pins lab,
// natively on the project's machines), with memory bounded by the timeline (MaxTimeline
// commands) however long the page plays. Seeking far runs as a job, a slice of it each tick within the frame's
// step budget, with progress (Stats.Job) and a cancel (CancelJob).

// MaxTimeline is the most commands (other than steps) a run's timeline keeps for replay.
// Past it the timeline is given up and seeking back is refused until the run starts again,
// so a page driven by commands for hours does not grow without bound.
const MaxTimeline = sim.LogLimit

// MaxSeek is the furthest step seek goes to: far beyond any run a reader plays (at 10
// million steps a second, a day), and exact in JavaScript's numbers.
const MaxSeek = 1 << 40

// bigRebuild is the pool size, in buffers (2GB), from which a seek back first gives the page a
// frame to say it is building the pool again: that takes WebAssembly a noticeable time.
const bigRebuild = 1 << 18

// MaxEventSearch is the most steps "next event" runs before it gives up.
const MaxEventSearch = 10_000_000

// timed is a command and the step at which it was applied.
type timed struct {
	at     uint64
	cmd    sim.Command
	failed bool // the command failed when given; replay expects it to fail again
}

// timeline is what a run needs besides its values to be rebuilt at any step: the commands
// applied to it, in order, with the steps they were applied at.
type timeline struct {
	cmds []timed
	next int    // cmds[:next] are applied to the live run; the rest are its recorded future
	end  uint64 // the furthest step the timeline has reached
	lost bool   // more than MaxTimeline commands: the start can no longer be replayed
}

// JobInfo is a seek or a search for the next event under way, for the page's progress bar.
type JobInfo struct {
	Kind   string  `json:"kind"`   // "seek", "next" or "build"
	Label  string  `json:"label"`  // "Seeking step 1,000,000", "Looking for the next eviction"
	From   uint64  `json:"from"`   // the step the job started at
	Target uint64  `json:"target"` // the step a seek goes to; the last step a search looks at
	Done   float64 `json:"done"`   // the share done, 0 to 1
}

// job is a seek or a search for the next event, run a slice each tick.
type job struct {
	kind    string
	label   string
	from    uint64
	target  uint64
	rebuilt bool // a seek back has built the run again from its values
	shown   bool // the page has had a frame to say a large pool is being built
	event   sim.EventKind
	evLabel string
	found   bool

	// A build (build.go): the builder, what it builds, and when it started, and the seek
	// or search asked for meanwhile, which starts from step 0 of the new run.
	then        *job
	build       *builder
	buildLab    lab.Lab
	buildValues param.Values
	started     time.Time
}

// TimeInfo is where the run stands in its timeline, for the page's timeline and buttons.
type TimeInfo struct {
	End    uint64      `json:"end"`    // the furthest step reached; the timeline's end
	Rewind bool        `json:"rewind"` // seeking back is possible
	Events []EventInfo `json:"events"` // the lab's events of interest, for "next event"
	// Message says how the last seek or search ended ("No eviction within 10,000,000
	// steps"), until the next one starts; empty when there is nothing to say.
	Message string   `json:"message"`
	Job     *JobInfo `json:"job"` // the job under way, or nil
	Run     uint64   `json:"run"` // counts runs built by load, reset and setSeed (not by seek)
}

// Time returns where the run stands in its timeline.
func (a *App) Time() TimeInfo {
	ti := TimeInfo{End: max(a.tl.end, a.at()), Rewind: !a.tl.lost, Events: a.events(), Message: a.timeMsg, Run: a.runs}
	if j := a.job; j != nil {
		cur := a.at()
		info := &JobInfo{Kind: j.kind, Label: j.label, From: j.from, Target: j.target}
		switch {
		case j.build != nil:
			info.Done = j.build.fraction()
			info.Label = j.label + ": " + j.build.stage
		case j.kind == "seek" && j.target < j.from && !j.rebuilt:
			info.Done = 0 // going back: the run is built again first
		case j.kind == "seek" && j.target < j.from:
			info.Done = frac(cur, j.target)
		default:
			info.Done = frac(cur-j.from, j.target-j.from)
		}
		ti.Job = info
	}
	return ti
}

func frac(a, b uint64) float64 {
	if b == 0 {
		return 1
	}
	return min(float64(a)/float64(b), 1)
}

// events returns the lab's events of interest.
func (a *App) events() []EventInfo { return eventInfos(a.lab.Events()) }

// at returns the step the run is at.
func (a *App) at() uint64 { return a.run.Sim().Stats().Steps }

// forward runs n steps through the lab's view, applying the timeline's recorded commands
// at the steps they were applied, and stopping early when stop says so or the run ends.
// It returns the steps run.
func (a *App) forward(n int, stop func() bool, note func(int, []sim.Event, bool)) (int, error) {
	a.stepping() // steps are the simulated run's: the grid shows it again
	ran := 0
	for {
		if err := a.applyDue(note); err != nil {
			return ran, err
		}
		if ran >= n || a.run.Done() {
			break
		}
		k := n - ran
		if a.tl.next < len(a.tl.cmds) {
			k = min(k, int(a.tl.cmds[a.tl.next].at-a.at()))
		}
		got, err := a.lv.Step(a.run, k, stop, note)
		ran += got
		if err != nil {
			a.tl.end = max(a.tl.end, a.at())
			return ran, err
		}
		if got < k {
			break // stopped, or the run ended
		}
	}
	a.tl.end = max(a.tl.end, a.at())
	return ran, nil
}

// applyDue applies the timeline's commands recorded at the current step, passing their
// events to note as forward passes its steps'.
func (a *App) applyDue(note func(int, []sim.Event, bool)) error {
	s := a.run.Sim()
	for a.tl.next < len(a.tl.cmds) && a.tl.cmds[a.tl.next].at <= a.at() {
		c, failed := a.tl.cmds[a.tl.next].cmd, a.tl.cmds[a.tl.next].failed
		a.tl.next++
		if err := s.Apply(c); err != nil && !failed {
			return fmt.Errorf("replaying %q at step %d: %w", c, a.at(), err)
		}
		note(0, s.Events(), false)
		a.syncLegend()
	}
	return nil
}

// record adds command c, just applied at the current step, to the timeline, whose future
// the caller has dropped (an intervention forks the run).
func (a *App) record(c sim.Command, failed bool) {
	if a.tl.lost {
		return
	}
	if len(a.tl.cmds) >= MaxTimeline {
		a.tl = timeline{lost: true, end: a.at()}
		return
	}
	a.tl.cmds = append(a.tl.cmds, timed{at: a.at(), cmd: c, failed: failed})
	a.tl.next = len(a.tl.cmds)
}

// dropFuture forgets what the timeline recorded after the current step.
func (a *App) dropFuture() {
	clear(a.tl.cmds[a.tl.next:])
	a.tl.cmds = a.tl.cmds[:a.tl.next]
	a.tl.end = a.at()
}

// Seek starts going to step target: back by building the run again and replaying it, on
// by stepping. Playback pauses. The work runs a slice per tick (Tick) or at once with
// Finish; Stats.Job shows its progress and CancelJob stops it where it has got to. A
// target past MaxSeek is an error, as is going back once the timeline was given up.
func (a *App) Seek(target uint64) error {
	if target > MaxSeek {
		return fmt.Errorf("seek goes to a step from 0 to %d, not %d", uint64(MaxSeek), target)
	}
	if a.failure != "" {
		return fmt.Errorf("the simulation stopped: %s; reset to start again", a.failure)
	}
	cur := a.at()
	if target < cur && a.tl.lost {
		return fmt.Errorf("this run had more than %d commands, too many to replay: it cannot go back; reset to start again", MaxTimeline)
	}
	a.playing = false
	a.timeMsg = ""
	seek := &job{kind: "seek", label: "Going to step " + group(target), from: cur, target: target}
	if a.queue(seek) {
		return nil
	}
	a.job = seek
	return nil
}

// StepBack goes back one step: Seek(step-1). At step 0 it does nothing.
func (a *App) StepBack() error {
	cur := a.at()
	if cur == 0 {
		a.playing = false
		a.timeMsg = "Already at the first step."
		return nil
	}
	return a.Seek(cur - 1)
}

// NextEvent starts running on until the next event of the kind named (an EventInfo's kind
// or label; "" for the lab's first), at most MaxEventSearch steps; playback pauses. It
// stops just after the step that had the event, or says none came (Time's Message).
func (a *App) NextEvent(kind string) error {
	evs := a.lab.Events()
	if len(evs) == 0 {
		return fmt.Errorf("the %s lab declares no events to look for", a.lab.Info().Name)
	}
	if a.failure != "" {
		return fmt.Errorf("the simulation stopped: %s; reset to start again", a.failure)
	}
	e := evs[0]
	if k := strings.TrimSpace(kind); k != "" {
		i := slices.IndexFunc(evs, func(s lab.EventSpec) bool { return s.Kind.String() == k || strings.EqualFold(s.Label, k) })
		if i < 0 {
			names := make([]string, len(evs))
			for j, s := range evs {
				names[j] = s.Kind.String()
			}
			return fmt.Errorf("%s is not an event of the %s lab: it has %s", param.Quote(kind), a.lab.Info().Name, orList(names))
		}
		e = evs[i]
	}
	a.playing = false
	a.timeMsg = ""
	cur := a.at()
	if a.queue(&job{kind: "next", label: "Looking for the next " + e.Label, target: MaxEventSearch, event: e.Kind, evLabel: e.Label}) {
		return nil
	}
	a.job = &job{kind: "next", label: "Looking for the next " + e.Label, from: cur, target: cur + MaxEventSearch, event: e.Kind, evLabel: e.Label}
	if a.run.Done() {
		a.job = nil
		a.timeMsg = fmt.Sprintf("The run has ended: no %s after step %s.", e.Label, group(cur))
	}
	return nil
}

// CancelJob stops a seek or a search where it has got to, and reports whether one was under
// way.
func (a *App) CancelJob() bool {
	j := a.job
	if j == nil {
		return false
	}
	if a.cancelBuild() {
		return true
	}
	a.endJob()
	a.timeMsg = fmt.Sprintf("Cancelled at step %s.", group(a.at()))
	return true
}

// Busy reports whether a seek or a search is under way.
func (a *App) Busy() bool { return a.job != nil }

// Finish runs the job under way to its end, without a deadline.
func (a *App) Finish() error { return a.runJob(noDeadline) }

// Work runs the job under way for at most wall time d and reports whether it has ended:
// for a caller that wants a short job done at once and a long one shown with progress.
func (a *App) Work(d time.Duration) (bool, error) {
	err := a.runJob(newDeadline(d))
	return a.job == nil, err
}

// endJob forgets the job; after a seek it brings the whole grid up to date, as a seek's
// steps ran without noting their events to the grid (a search's steps did).
func (a *App) endJob() {
	if a.job != nil && a.job.kind == "seek" {
		a.view.invalidate()
	}
	a.job = nil
	a.pacer.Drop()
	a.changes++
}

// runJob runs the job under way until it ends or deadline d passes.
func (a *App) runJob(d deadline) error {
	j := a.job
	if j == nil {
		return nil
	}
	switch j.kind {
	case "build":
		return a.runBuild(d)
	case "seek":
		if j.target < a.at() && !j.rebuilt {
			if a.run.Sim().Pool.NBuffers >= bigRebuild && !j.shown {
				// Building a large pool holds the page for a while: first let it draw
				// that it is about to.
				j.shown = true
				j.label = "Building the pool again to go back to step " + group(j.target)
				return nil
			}
			if err := a.rebuild(); err != nil {
				a.endJob()
				return err
			}
			j.rebuilt = true
			if d.passed() {
				return nil
			}
		}
		left := j.target - a.at()
		// The grid is brought up to date when the seek ends; the tally counts the events on
		// the way, so that stats().events are the run's at every step, however reached.
		_, err := a.forward(int(min(left, 1<<30)), d.stop(), func(pane int, events []sim.Event, _ bool) {
			if pane == 0 {
				a.tally.note(events)
			}
		})
		a.changes++
		if err != nil {
			a.endJob()
			a.fail(err)
			return err
		}
		if a.at() >= j.target || a.run.Done() {
			a.endJob()
			if a.at() < j.target {
				a.timeMsg = fmt.Sprintf("The run ends at step %s, before step %s.", group(a.at()), group(j.target))
			}
		}
		return nil
	default:
		// One note for the whole search: it passes each step's events to the grid and
		// tells whether the event sought came.
		note := func(pane int, events []sim.Event, flash bool) {
			a.note(pane, events, flash)
			if pane != 0 {
				return // the events sought are the run's own
			}
			for k := range events {
				if events[k].Kind == j.event {
					j.found = true
				}
			}
		}
		for i := 0; ; i++ {
			if a.at() >= j.target {
				a.endJob()
				a.timeMsg = fmt.Sprintf("No %s within %s steps.", j.evLabel, group(j.target-j.from))
				return nil
			}
			if a.run.Done() {
				a.endJob()
				a.timeMsg = fmt.Sprintf("The run ended at step %s with no further %s.", group(a.at()), j.evLabel)
				return nil
			}
			_, err := a.forward(1, nil, note)
			if err != nil {
				a.endJob()
				a.fail(err)
				return err
			}
			if j.found {
				a.endJob()
				a.timeMsg = fmt.Sprintf("Next %s at step %s.", j.evLabel, group(a.at()))
				return nil
			}
			if i%256 == 255 && d.passed() {
				return nil
			}
		}
	}
}

// rebuild builds the run again from its values, keeping its timeline, for a seek back.
// The reader's zoom, pan and highlighted buffer stay: the pool is the same size.
func (a *App) rebuild() error {
	layout, hilite, hpane := a.view.layout, a.view.hilite, a.view.hpane
	if err := a.construct(a.lab, a.values); err != nil {
		return err
	}
	a.tl.next = 0
	a.view.layout, a.view.hilite, a.view.hpane = layout, hilite, hpane
	a.view.opening = false // the grid opened with the run's first build
	return nil
}

// group writes n with thousands separators: 1,000,000.
func group(n uint64) string { return playback.Group(int64(n)) }
