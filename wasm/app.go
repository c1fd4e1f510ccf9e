//go:build js

package main

import (
	"fmt"
	"math"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/bufferscope/bufferscope/sim"
	"github.com/bufferscope/bufferscope/sim/labs/drop"
	"github.com/bufferscope/bufferscope/wasm/droplab"
	"github.com/bufferscope/bufferscope/wasm/playback"
)

// labKind is which scenario the playground runs. The zero value is free play.
type labKind uint8

const (
	labFree labKind = iota // free play: a workload on the pool (sim.New)
	labDrop                // the drop lab: a replay that drops relations' buffers (drop.NewReplay)
)

var labNames = [...]string{"free", "drop"}

func (k labKind) String() string { return labNames[k] }

// setup is what a simulation is built from: the lab and its parameters.
type setup struct {
	lab    labKind
	params sim.Params      // free play's
	drop   drop.DropParams // the drop lab's
}

// App is the state of the playground between frames: the simulation and the parameters it
// was built from, playback, and what the grid shows. Ebiten's frame goroutine (game.go) and
// the JS bridge (bridge_js.go) both call it. Go in the browser runs one goroutine at a time
// and neither caller waits on JavaScript midway, so no call interleaves with another.
type App struct {
	setup
	sim   *sim.Sim
	watch *droplab.Watch // follows the drop lab; nil in free play
	epoch time.Time      // wall time origin of the watch's clock

	playing  bool
	speed    float64 // steps per second; playback.Max for as fast as frames allow
	pacer    playback.Pacer
	lastTick time.Time // wall time of the previous tick, for the pacer
	rate     rateMeter
	failure  string // why playback stopped on an error; empty when all is well
	changes  uint64 // counts changes to the simulation, for caching its hash

	view view
}

// newApp returns an app with the default parameters, paused.
func newApp() *App {
	a := &App{speed: playback.Default, epoch: time.Now()}
	a.view.init()
	if _, err := a.load("", nil); err != nil {
		panic(err) // the defaults always build
	}
	return a
}

// parseLab reads the lab's name: "free" (or nothing) or "drop". Anything else is a problem,
// and free play.
func parseLab(name string) (labKind, *sim.ParamError) {
	switch strings.TrimSpace(name) {
	case "", "free":
		return labFree, nil
	case "drop":
		return labDrop, nil
	}
	return labFree, &sim.ParamError{Key: "lab", Value: name, Problem: "not free or drop", Used: "free"}
}

// maxDropBlocks bounds the blocks of a drop lab's relations, as bufferscope drop does: 1 TB
// of 8 kB pages. VACUUM replays every heap page and the simulated disk keeps an LSN for each
// page written, so beyond it a run would not end or would exhaust memory.
const maxDropBlocks = 1 << 27

// load builds the lab named lab (parseLab) from values, validated with sim.ParseParams or
// drop.ParseDropParams, where bad values take safe defaults. It returns the parameter
// problems; the error is for a simulation that could not be built, in which case the old
// one stays.
func (a *App) load(lab string, values map[string]string) ([]*sim.ParamError, error) {
	var problems []*sim.ParamError
	next := a.setup
	kind, bad := parseLab(lab)
	if bad != nil {
		problems = append(problems, bad)
	}
	next.lab = kind
	if kind == labDrop {
		p, errs := drop.ParseDropParams(values)
		problems = append(problems, errs...)
		var blocks uint64
		for _, g := range p.Tables {
			blocks += uint64(g.Count) * uint64(g.Resolve(p.NBuffers))
		}
		if blocks > maxDropBlocks {
			p.Tables, _ = drop.ParseTableGroups(drop.DefaultTables)
			problems = append(problems, &sim.ParamError{Key: "tables", Value: values["tables"],
				Problem: fmt.Sprintf("%d blocks in all at shared_buffers %s; at most %d (1TB)", blocks, sim.FormatSize(int64(p.NBuffers)*sim.BLCKSZ), maxDropBlocks),
				Used:    drop.DefaultTables})
		}
		next.drop = p
	} else {
		p, errs := sim.ParseParams(values)
		problems = append(problems, errs...)
		next.params = p
	}
	old := a.setup
	a.setup = next
	if err := a.rebuild(); err != nil {
		a.setup = old
		if a.sim == nil {
			// The old pool was let go to make room; build it again.
			if err2 := a.rebuild(); err2 != nil {
				panic(err2)
			}
		}
		return problems, err
	}
	return problems, nil
}

// nbuffers returns the pool size the current setup asks for.
func (s *setup) nbuffers() int {
	if s.lab == labDrop {
		return s.drop.NBuffers
	}
	return s.params.NBuffers
}

// speedRange returns the speeds the current lab plays at.
func (a *App) speedRange() playback.Range {
	if a.lab == labDrop {
		return playback.LabRange
	}
	return playback.FreePlay
}

// rebuild builds a fresh simulation from the current setup: reset, a new seed and load all
// end here.
func (a *App) rebuild() error {
	if a.sim != nil && a.sim.Pool.NBuffers+a.nbuffers() > 1<<20 {
		// Let the old pool go before a large one is built: two 100 GB pools do not fit in
		// WebAssembly's 4 GiB.
		a.sim, a.watch = nil, nil
		a.view.release()
		runtime.GC()
	}
	var s *sim.Sim
	var err error
	if a.lab == labDrop {
		s, err = drop.NewReplay(a.drop.Experiment(), a.drop.Policy)
	} else {
		s, err = sim.New(a.params.Config())
	}
	if err != nil {
		return fmt.Errorf("the simulation could not be built: %w", err)
	}
	a.sim, a.watch = s, nil
	if a.lab == labDrop {
		a.watch = droplab.NewWatch(s, s.Pool.NBuffers)
		a.watch.RelOf = a.view.relOf
	}
	a.speed, _ = a.speedRange().Clamp(a.speed)
	a.changes++
	a.failure = ""
	a.pacer.Drop()
	a.rate.reset(0)
	a.view.attach(s, a.watch)
	return nil
}

// reset starts the same run again: same parameters, same seed.
func (a *App) reset() error { return a.rebuild() }

// setSeed starts a new run with seed. The drop lab draws no random numbers; its seed is
// kept for free play.
func (a *App) setSeed(seed uint64) error {
	a.params.Seed = seed
	return a.rebuild()
}

// finished reports whether the drop lab's replay is over; always false in free play.
func (a *App) finished() bool { return a.watch != nil && drop.ProgressOf(a.sim).Done }

// values returns the parameters in their normalised text form: "lab", then the keys of
// sim.ParamKeys or drop.DropParamKeys.
func (a *App) values() map[string]string {
	if a.lab == labDrop {
		return a.dropValues()
	}
	p := a.params
	w := p.Workload
	return map[string]string{
		"lab":                   labFree.String(),
		"shared_buffers":        sim.FormatSize(int64(p.NBuffers) * sim.BLCKSZ),
		"seed":                  strconv.FormatUint(p.Seed, 10),
		"version":               strconv.Itoa(int(p.Version.Resolve())),
		"clients":               strconv.Itoa(w.Clients),
		"updates":               strconv.Itoa(w.UpdatePercent),
		"distribution":          w.Distribution.String(),
		"zipf_s":                strconv.FormatFloat(w.ZipfS, 'g', -1, 64),
		"os_cache":              strconv.Itoa(w.OSCachePercent),
		"bgwriter_lru_maxpages": strconv.Itoa(w.BgWriterPages),
	}
}

// dropValues returns the drop lab's parameters in their normalised text form.
func (a *App) dropValues() map[string]string {
	p := a.drop
	tables := make([]string, len(p.Tables))
	for i, g := range p.Tables {
		tables[i] = g.String()
	}
	transactions, mode := "per-relation", "primary"
	if p.SingleXact {
		transactions = "single"
	}
	if p.InRecovery {
		mode = "recovery"
	}
	return map[string]string{
		"lab":            labDrop.String(),
		"shared_buffers": sim.FormatSize(int64(p.NBuffers) * sim.BLCKSZ),
		"tables":         strings.Join(tables, ","),
		"op":             p.Op.String(),
		"transactions":   transactions,
		"mode":           mode,
		"policy":         p.Policy.String(),
		"threshold":      p.Threshold.String(),
	}
}

// apply parses and applies one command (sim.ParseCommand), as the bridge's apply does. In
// the drop lab the other commands act on the pool outside the replay (a pin makes the
// replay's InvalidateBuffer wait), except until, which steps by modelled time: the lab
// steps by units.
func (a *App) apply(text string) error {
	c, err := sim.ParseCommand(text)
	if err != nil {
		return err
	}
	if sc, ok := c.(sim.StepCmd); ok {
		_, err := a.step(sc.N, noDeadline)
		return err
	}
	if _, ok := c.(sim.UntilCmd); ok && a.lab == labDrop {
		return fmt.Errorf("the drop lab steps by units of its replay, not by modelled time: use step N")
	}
	err = a.sim.Apply(c)
	a.changes++
	a.view.note(a.sim.Events(), true)
	return err
}

// stepChunk is the most steps run in one sim.Step call. Each step reports a handful of
// events, so a chunk stays well under the events sim keeps for one command (grid.EventCap)
// and the grid learns of every buffer that changed.
const stepChunk = 2048

// step runs n simulation steps in chunks, stopping early only when the deadline passes.
// It returns the steps run. Only the last chunk's reads and writes flash, so a long run of
// steps does not light up the whole pool. An error from the simulation pauses playback and
// is kept as the failure shown to the reader.
func (a *App) step(n int, deadline deadline) (int, error) {
	if n < 0 || n > sim.MaxStepsPerCommand {
		return 0, fmt.Errorf("step count %d is not between 0 and %d", n, sim.MaxStepsPerCommand)
	}
	if a.watch != nil {
		if deadline == noDeadline {
			a.watch.RestartClock() // steps by hand: not playback's pace
		}
		return a.stepDrop(n, deadline)
	}
	done := 0
	for done < n {
		c := min(stepChunk, n-done)
		err := a.sim.Step(c)
		a.changes++
		last := done+c == n || deadline.passed()
		a.view.note(a.sim.Events(), last)
		if err != nil {
			a.fail(err)
			return done, err
		}
		done += c
		if deadline.passed() {
			break
		}
	}
	return done, nil
}

// stepDrop runs n units of the drop lab's replay in the chunks droplab plans, stopping early
// when the deadline passes or the replay ends, which pauses playback. Every chunk's
// invalidations burn in the grid, so a scan's drops all show.
func (a *App) stepDrop(n int, deadline deadline) (int, error) {
	ran, err := a.watch.Step(a.sim, n, deadline.passed, func(events []sim.Event) {
		a.changes++
		a.view.note(events, true)
	})
	a.changes++
	if err != nil {
		a.fail(err)
		return ran, err
	}
	if a.finished() {
		a.playing = false
	}
	return ran, nil
}

// fail pauses playback because of err.
func (a *App) fail(err error) {
	a.playing = false
	a.failure = err.Error()
}

// setSpeed sets the playback speed, clamped to what playback allows, and returns a warning
// when it had to clamp.
func (a *App) setSpeed(x float64) string {
	s, warning := a.speedRange().Clamp(x)
	a.speed = s
	a.pacer.Drop()
	return warning
}

// tick advances playback by one Ebiten tick: the steps the speed asks for in the wall time
// since the last tick, within the frame's time budget.
func (a *App) tick() {
	now := time.Now()
	elapsed := now.Sub(a.lastTick).Seconds()
	if a.lastTick.IsZero() {
		elapsed = 0
	}
	a.lastTick = now
	ticks := max(1, int(math.Round(elapsed*ticksPerSecond)))
	if a.watch != nil {
		a.watch.Age(ticks) // before stepping, so what this tick notes is drawn new
	}
	if a.playing && a.failure == "" {
		budget := newDeadline(stepBudget)
		if a.speed == playback.Max {
			a.step(sim.MaxStepsPerCommand, budget)
		} else if due := a.pacer.Due(a.speed, elapsed); due > 0 {
			if ran, _ := a.step(due, budget); ran < due {
				a.pacer.Drop() // this device cannot keep up; do not pile up a backlog
			}
		}
	}
	a.rate.observe(a.sim.Stats().Steps)
	if a.watch != nil {
		a.watch.Clock(now.Sub(a.epoch).Seconds(), drop.ProgressOf(a.sim).Result.Time.Seconds())
	}
	a.view.tick(a.sim, ticks)
}
