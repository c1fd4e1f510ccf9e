// Package app is the state of bufferscope's browser app between frames, without the browser:
// parameters → lab → run → playback → what the grid shows. It builds any lab of sim/labs from
// its parameter table, steps its run through the lab's view (wasm/labview; Default for a
// lab without one), paces playback, keeps the grid's codes, flashes, layout, theme and
// pixels (package grid), and answers what the page asks: stats, legend, relations,
// inspection, hashes. It never asks which lab is running.
//
// Package main adapts it to Ebiten (Tick and Paint once per tick) and to JavaScript (the
// bridge converts arguments and results). The package knows nothing of either, so it runs
// and is tested natively:
//
//	a := app.New(labs.Views)
//	res, err := a.Load("drop", map[string]string{"shared_buffers": "1GB"})
//	a.Play()
//	for each tick {
//		a.Tick(time.Now())
//		if a.Paint() { upload a.Painter().Bytes() }
//		if a.BuildOverlay() { draw a.Overlay().Fills }
//	}
//
// Go in the browser runs one goroutine at a time and neither Ebiten's loop nor the bridge
// waits on JavaScript midway, so no call interleaves with another; App is not safe for
// concurrent use.
package app

import (
	"fmt"
	"maps"
	"math"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/bufferscope/bufferscope/sim"
	"github.com/bufferscope/bufferscope/sim/lab"
	"github.com/bufferscope/bufferscope/sim/labs"
	"github.com/bufferscope/bufferscope/sim/param"
	"github.com/bufferscope/bufferscope/wasm/labview"
	"github.com/bufferscope/bufferscope/wasm/playback"
)

// MaxStepsPerCall is the most steps one call of Step (the bridge's step, apply's "step N")
// runs. A call runs to the end before the page can draw again, so a larger count would
// freeze it for seconds (step(1e8) took 15–70 s); play runs longer stretches a frame at a
// time.
const MaxStepsPerCall = 1_000_000

// bigPools is the total of buffers past which the old pool is let go before a new one is
// built, rather than after: two 100GB pools do not fit in WebAssembly's 4GiB. A new run is counted twice, as
// it may race a second pool beside its own (lab.Paned).
const bigPools = 1 << 20

// buffers returns the buffers of every pool of the current run.
func (a *App) buffers() int {
	n := 0
	for _, p := range lab.PanesOf(a.run) {
		n += p.Run.Sim().Pool.NBuffers
	}
	return n
}

// App is the state of the playground between frames: the lab, its parameters and its run,
// the lab's view, playback, and what the grid shows.
type App struct {
	views  map[string]func() labview.View
	lab    lab.Lab
	values param.Values // the values the run was built from, normalised
	run    lab.Run
	lv     labview.View
	epoch  time.Time // wall time origin of the lab view's clock

	playing  bool
	speed    float64 // steps per second; playback.Max for as fast as frames allow
	pacer    playback.Pacer
	lastTick time.Time // wall time of the previous tick, for the pacer
	rate     rateMeter
	failure  string // why playback stopped on an error; empty when all is well
	changes  uint64 // counts changes to the simulation, for caching its hash
	hash     string
	hashAt   uint64
	tally    tally // the lab's events of interest since the run was built

	budget    int64  // the most bytes a run's pool may take; 0 for no limit (SetMemoryBudget)
	budgetWhy string // where the budget comes from, in words

	tl      timeline // the commands the run was given, for seeking back (time.go)
	job     *job     // a seek or a search under way, or nil
	timeMsg string   // how the last seek or search ended
	runs    uint64   // counts runs built by Load, Reset and SetSeed

	view view
	real *realShown // the real pool the grid shows in place of the run's, or nil

	// step's deadline and the functions it hands the lab view every frame, made once so that
	// a frame puts nothing on the heap.
	until  deadline
	stopFn func() bool
	noteFn func(int, []sim.Event, bool)
}

// New returns an app with the first lab (labs.All[0]) at its defaults, paused. views gives
// each lab with a view of its own a constructor by name (wasm/labs.Views); the others get
// labview.Default.
func New(views map[string]func() labview.View) *App {
	a := &App{views: views, speed: playback.Default, epoch: time.Now(), hashAt: math.MaxUint64}
	a.stopFn, a.noteFn = func() bool { return a.until.passed() }, a.note
	a.view.init()
	if _, err := a.Load("", nil); err != nil {
		panic(err) // the defaults always build
	}
	return a
}

// LoadResult is what Load read and used.
type LoadResult struct {
	// Params are the values in force, normalised, by key, with "lab"; parameters only the
	// headless command uses are left out.
	Params   map[string]string `json:"params"`
	Problems []*param.Problem  `json:"problems"`
	Unknown  []string          `json:"unknown"`  // keys the lab does not declare, ignored
	Warnings []string          `json:"warnings"` // the problems and unknown keys in words
	// Limits are the ranges of the number parameters for the values in force.
	Limits map[string]param.Limit `json:"limits"`
	// Building is true when the pool is large enough to be built as a job, a slice each
	// tick (Time's Job): the run in force stays until it is ready. Params and Limits are
	// the new run's.
	Building bool `json:"building"`
}

// Load builds the lab named labName ("" for the first) from values, read by its parameter
// table: a missing value takes its default; a malformed one its default and an
// out-of-range one the nearest bound, each with a Problem. An unknown lab name is a Problem
// with key "lab" and gives the first lab. The error is for a run that could not be built;
// the old run then stays.
func (a *App) Load(labName string, values map[string]string) (LoadResult, error) {
	var problems []*param.Problem
	name := strings.TrimSpace(labName)
	l := labs.All[0]
	if name != "" {
		var ok bool
		if l, ok = labs.ByName(name); !ok {
			l = labs.All[0]
			problems = append(problems, &param.Problem{Key: "lab", Value: labName,
				Problem: "not " + orList(labs.Names()), Used: l.Info().Name})
		}
	}
	t := l.Params()
	v, bad := t.Parse(values)
	problems = append(problems, bad...)
	keys := make([]string, 0, len(values))
	for k := range values {
		if k != "lab" {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	unknown := t.Unknown(keys)
	was := uint64(0)
	if a.run != nil {
		was = a.at()
	}
	var err error
	res := LoadResult{Problems: problems, Unknown: unknown, Warnings: []string{}}
	if err = a.overBudget(l, v); err != nil {
		// Refused before anything is allocated: the run in force stays.
	} else if paced(l, v) {
		// A large pool is built a slice each tick (build.go): the run in force stays until
		// then, and the result tells what is being built.
		err = a.startPaced(l, v)
		res.Building = err == nil
	} else {
		a.cancelBuild()
		err = a.build(l, v)
		if err == nil && was > 0 {
			// A lab's settings shape its run from the start, so new ones cannot take over
			// mid-run: the run starts again, and the timeline says so.
			a.timeMsg = fmt.Sprintf("New settings started the run again at step 0 (it was at step %s).", group(was))
		}
	}
	if res.Building {
		res.Params, res.Limits = paramsOf(l, v), l.Params().Limits(v)
	} else {
		res.Params, res.Limits = a.Params(), a.Limits()
	}
	if res.Problems == nil {
		res.Problems = []*param.Problem{}
	}
	if res.Unknown == nil {
		res.Unknown = []string{}
	}
	for _, p := range problems {
		res.Warnings = append(res.Warnings, p.Error())
	}
	for _, k := range unknown {
		res.Warnings = append(res.Warnings, fmt.Sprintf("%s is not a parameter of the %s lab; ignored", param.Quote(k), l.Info().Name))
	}
	return res, err
}

// build builds lab l from values v as a new run, with a new timeline, keeping the old run if
// it cannot.
func (a *App) build(l lab.Lab, v param.Values) error {
	if err := a.construct(l, v); err != nil {
		return err
	}
	a.newTimeline()
	return nil
}

// newTimeline starts the timeline of a new run: no commands, no job, nothing to say.
func (a *App) newTimeline() {
	a.tl, a.job, a.timeMsg = timeline{}, nil, ""
	a.runs++
}

// construct builds lab l from values v and attaches it, keeping the old run if it cannot;
// the timeline is the caller's.
func (a *App) construct(l lab.Lab, v param.Values) error {
	if a.run != nil && (a.lab.Info().Name == l.Info().Name && maps.Equal(a.values, v) ||
		l.Params().Param("shared_buffers") != nil && a.buffers()+2*lab.NBuffers(v) > bigPools) {
		// Let the old pool go before a large one is built, or before the same run is built
		// again (a reset, a seek back), which cannot fail where it built before.
		a.run, a.lv = nil, nil
		a.view.release()
		runtime.GC()
	}
	run, err := l.New(v)
	if err != nil {
		if a.run == nil && a.lab != nil {
			// The old pool was let go to make room; build it again.
			old, err2 := a.lab.New(a.values)
			if err2 != nil {
				panic(err2)
			}
			a.attach(a.lab, a.values, old)
			a.newTimeline() // the old settings' run, built again from its start
		}
		return fmt.Errorf("the simulation could not be built: %w", err)
	}
	collect := a.run != nil
	a.attach(l, v, run)
	if collect {
		// The old run is garbage now: collect it before it is joined by the next one's.
		// WebAssembly's memory never shrinks, so garbage left for a later collection would
		// raise the page's memory for good, a little higher with each run built.
		runtime.GC()
	}
	return nil
}

// attach makes run the current one, with a fresh view of its lab.
func (a *App) attach(l lab.Lab, v param.Values, run lab.Run) {
	a.lab, a.values, a.run, a.real = l, v, run, nil
	a.tally.reset(l.Events())
	mk := a.views[l.Info().Name]
	if mk == nil {
		mk = labview.NewDefault
	}
	a.lv = mk()
	legend := run.Legend()
	a.lv.Attach(run, legend, a.view.shown)
	opts := a.lv.Options()
	a.speed, _ = opts.Speeds.Clamp(a.speed)
	a.changes++
	a.failure = ""
	a.pacer.Drop()
	a.rate.reset(0, time.Now())
	a.view.attach(run, legend, opts)
}

// Params returns the values in force, normalised, with "lab"; parameters only the headless
// command uses are left out.
func (a *App) Params() map[string]string { return paramsOf(a.lab, a.values) }

// paramsOf returns lab l's values v by key, with "lab", leaving out the parameters only the
// headless command uses.
func paramsOf(l lab.Lab, v param.Values) map[string]string {
	out := map[string]string{"lab": l.Info().Name}
	for _, p := range l.Params().Params {
		if !p.CLI {
			out[p.Key] = v[p.Key]
		}
	}
	return out
}

// Limits returns the ranges of the number parameters for the values in force.
func (a *App) Limits() map[string]param.Limit { return a.lab.Params().Limits(a.values) }

// Reset starts the same run again: same lab, same parameters, same seed.
func (a *App) Reset() error {
	if paced(a.lab, a.values) {
		return a.startPaced(a.lab, a.values)
	}
	a.cancelBuild()
	return a.build(a.lab, a.values)
}

// SetSeed starts a new run with seed, and returns warnings: a lab whose runs draw no random
// numbers replays the same run.
func (a *App) SetSeed(seed uint64) ([]string, error) {
	var warnings []string
	if a.lab.Params().Param("seed") == nil {
		warnings = append(warnings, "this lab has no seed: the run starts again as it was")
		return warnings, a.Reset()
	}
	v := a.values.Clone()
	v["seed"] = strconv.FormatUint(seed, 10)
	res, err := a.Load(a.lab.Info().Name, v)
	warnings = append(warnings, res.Warnings...)
	if err == nil && !a.run.Seeded() {
		warnings = append(warnings, "this lab draws no random numbers: a new seed replays the same run")
	}
	return warnings, err
}

// Play starts playback. A run that has ended starts again first, as a media player does; a
// run stopped by an error does not play until it is reset.
func (a *App) Play() error {
	if a.failure != "" {
		return fmt.Errorf("the simulation stopped: %s; reset to start again", a.failure)
	}
	if a.building() {
		a.playing = true // the new run plays once it is built
		return nil
	}
	a.CancelJob()
	if a.run.Done() {
		if err := a.Reset(); err != nil {
			return err
		}
	}
	a.playing = true
	return nil
}

// Pause stops playback.
func (a *App) Pause() { a.playing = false }

// Playing reports whether playback is on.
func (a *App) Playing() bool { return a.playing }

// Done reports whether the run has ended; a run without an end never has.
func (a *App) Done() bool { return a.run.Done() }

// Failure returns why playback stopped on an error, or "".
func (a *App) Failure() string { return a.failure }

// Step runs n steps at once, also while paused: exactly n, unless the run ends first (a
// replay that drops every relation) or fails. It refuses more than MaxStepsPerCall. It returns the steps
// run; an error from the simulation pauses playback and is kept as the failure.
func (a *App) Step(n int) (int, error) {
	if n < 0 {
		return 0, fmt.Errorf("step takes a whole number of steps from 0 to %d, not %d", MaxStepsPerCall, n)
	}
	if n > MaxStepsPerCall {
		return 0, fmt.Errorf("step takes at most %d steps at a time, not %d; use play for longer runs", MaxStepsPerCall, n)
	}
	if a.building() {
		return 0, fmt.Errorf("a pool of %s is being built; step once it is ready, or cancel the build", a.job.buildValues.Text("shared_buffers"))
	}
	a.CancelJob()
	return a.step(n, noDeadline)
}

// step runs n steps through the lab's view, stopping early only when the deadline passes
// or the run ends, which pauses playback.
func (a *App) step(n int, d deadline) (int, error) {
	var stop func() bool
	if a.until = d; !d.at.IsZero() {
		stop = a.stopFn
	}
	ran, err := a.forward(n, stop, a.noteFn)
	a.changes++
	if err != nil {
		a.fail(err)
		return ran, err
	}
	if a.run.Done() {
		a.playing = false
	}
	return ran, nil
}

// note passes the events of one chunk of steps in a pane to the grid. The tally counts the
// run's own pane's.
func (a *App) note(pane int, events []sim.Event, flash bool) {
	a.changes++
	if pane == 0 {
		a.tally.note(events)
	}
	a.view.note(pane, events, flash, a.lv)
}

// fail pauses playback because of err.
func (a *App) fail(err error) {
	a.playing = false
	a.failure = err.Error()
}

// Fail pauses playback because of err, as an error inside a step does: for the Ebiten
// adapter's recovered panics.
func (a *App) Fail(err error) { a.fail(err) }

// MaxCommandLen is the longest command Apply reads, in bytes: every command of
// sim.ParseCommand fits in a line, and a longer text would come back whole in the error.
const MaxCommandLen = 1000

// Apply parses and applies one command (sim.ParseCommand). "step N" goes through Step. A
// lab whose steps are its scenario's units does not step by modelled time ("until").
func (a *App) Apply(text string) error {
	if len(text) > MaxCommandLen {
		return fmt.Errorf("a command is one line of at most %d characters, not %s", MaxCommandLen, param.Quote(text))
	}
	c, err := sim.ParseCommand(text)
	if err != nil {
		return err
	}
	if sc, ok := c.(sim.StepCmd); ok {
		_, err := a.Step(sc.N)
		return err
	}
	a.stepping()
	s := a.run.Sim()
	_, until := c.(sim.UntilCmd)
	if until && s.Scenario() != nil {
		return fmt.Errorf("this lab steps by units of its scenario, not by modelled time: use step N")
	}
	a.CancelJob()
	a.dropFuture() // an intervention forks the run: what was recorded after this step goes
	err = s.Apply(c)
	if !until {
		a.record(c, err != nil) // an until is only steps, which replay needs no record of
	}
	a.note(0, s.Events(), true)
	a.syncLegend()
	return err
}

// syncLegend takes the run's legend again when its catalog grew (a command created a
// relation), so the new relation has a colour.
func (a *App) syncLegend() {
	if a.real != nil {
		if n := len(a.run.Sim().Relations()); a.real.beside && n != a.view.nrels {
			legend, roles := a.besideLegend()
			a.view.setLegend(legend, n)
			a.view.setPaneRoles(len(a.view.panes)-1, roles, true)
		}
		return // the grid shows the real pool's legend
	}
	if n := len(a.run.Sim().Relations()); n != a.view.nrels {
		a.view.setLegend(a.run.Legend(), n)
	}
}

// Speed is one speed of a lab's ladder.
type Speed struct {
	Value float64 `json:"value"` // steps per second; +Inf for max
	Label string  `json:"label"` // "1,000 steps/s", "max"
	Param string  `json:"param"` // as the address writes it: "1000", "max"
}

func speedOf(x float64) Speed {
	return Speed{Value: x, Label: playback.Label(x), Param: playback.Format(x)}
}

// SetSpeed sets the playback speed, clamped to the lab's range, and returns the speed in
// force and a warning when it had to clamp.
func (a *App) SetSpeed(x float64) (Speed, string) { return a.setSpeed(a.lv.Options().Speeds.Clamp(x)) }

func (a *App) setSpeed(s float64, warning string) (Speed, string) {
	a.speed = s
	a.pacer.Drop()
	return speedOf(s), warning
}

// SetSpeedText sets the playback speed from text as the address writes it ("1000",
// "max"), as SetSpeed does; text that is no speed keeps the speed in force, with a warning.
// It is the one reader of a speed given as text: the address, a host page's message and
// the bridge.
func (a *App) SetSpeedText(text string) (Speed, string) {
	x, err := playback.Parse(text)
	if err != nil {
		return a.NotASpeed(param.Quote(text))
	}
	return a.setSpeed(a.lv.Options().Speeds.ClampAs(x, param.Quote(text)))
}

// NotASpeed keeps the speed in force for a request that is no speed, described by what
// ("the string \"fast\"", "an object"), and returns it with a warning that says what a
// speed may be.
func (a *App) NotASpeed(what string) (Speed, string) {
	s := a.Speed()
	return s, fmt.Sprintf("speed %s is not %s; keeping %s", what, a.lv.Options().Speeds.Accepts(), s.Label)
}

// Speed returns the playback speed.
func (a *App) Speed() Speed { return speedOf(a.speed) }

// Speeds returns the ladder of speeds the lab's slider offers.
func (a *App) Speeds() []Speed {
	ladder := a.lv.Options().Speeds.Ladder
	out := make([]Speed, len(ladder))
	for i, s := range ladder {
		out[i] = speedOf(s)
	}
	return out
}

// Tick advances playback by one Ebiten tick at wall time now: the steps the speed asks for
// in the wall time since the last tick, within the frame's time budget (StepBudget), then
// brings the grid's codes up to date.
func (a *App) Tick(now time.Time) {
	elapsed := now.Sub(a.lastTick).Seconds()
	if a.lastTick.IsZero() {
		elapsed = 0
	}
	a.lastTick = now
	ticks := max(1, int(math.Round(elapsed*TicksPerSecond)))
	a.lv.Tick(ticks, now.Sub(a.epoch).Seconds()) // before stepping, so what this tick notes is drawn new
	if a.job != nil {
		a.runJob(newDeadline(StepBudget)) // a failure is kept in a.failure
	} else if a.playing && a.failure == "" {
		budget := newDeadline(StepBudget)
		if a.speed == playback.Max {
			a.step(sim.MaxStepsPerCommand, budget)
		} else if due := a.pacer.Due(a.speed, elapsed); due > 0 {
			if ran, _ := a.step(due, budget); ran < due {
				a.pacer.Drop() // this device cannot keep up; do not pile up a backlog
			}
		}
	}
	a.rate.observe(a.run.Sim().Stats().Steps, now)
	a.syncLegend()
	a.view.tick(ticks)
}

// Hash returns the simulation's state hash (Sim.Hash) as 16 hex digits, computed again only
// after a change.
func (a *App) Hash() string {
	if a.changes != a.hashAt || a.hash == "" {
		a.hash, a.hashAt = fmt.Sprintf("%016x", a.run.Sim().Hash()), a.changes
	}
	return a.hash
}

// Changes counts changes to the simulation: when it moves, the hash and stats may have.
func (a *App) Changes() uint64 { return a.changes }

// orList joins words as "a, b or c".
func orList(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}
