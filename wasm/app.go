//go:build js

package main

import (
	"fmt"
	"runtime"
	"strconv"
	"time"

	"github.com/bufferscope/bufferscope/sim"
	"github.com/bufferscope/bufferscope/wasm/playback"
)

// App is the state of the playground between frames: the simulation and the parameters it
// was built from, playback, and what the grid shows. Ebiten's frame goroutine (game.go) and
// the JS bridge (bridge_js.go) both call it. Go in the browser runs one goroutine at a time
// and neither caller waits on JavaScript midway, so no call interleaves with another.
type App struct {
	params sim.Params
	sim    *sim.Sim

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
	a := &App{speed: playback.Default}
	a.view.init()
	if _, err := a.load(nil); err != nil {
		panic(err) // the defaults always build
	}
	return a
}

// load validates values with sim.ParseParams, where bad values take safe defaults, and
// rebuilds the simulation. It returns the parameter problems; the error is for a
// simulation that could not be built, in which case the old one stays.
func (a *App) load(values map[string]string) ([]*sim.ParamError, error) {
	p, problems := sim.ParseParams(values)
	old := a.params
	a.params = p
	if err := a.rebuild(); err != nil {
		a.params = old
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

// rebuild builds a fresh simulation from the current parameters: reset, a new seed and
// load all end here.
func (a *App) rebuild() error {
	if a.sim != nil && a.sim.Pool.NBuffers+a.params.NBuffers > 1<<20 {
		// Let the old pool go before a large one is built: two 100 GB pools do not fit in
		// WebAssembly's 4 GiB.
		a.sim = nil
		a.view.tracker.Codes = nil
		runtime.GC()
	}
	s, err := sim.New(a.params.Config())
	if err != nil {
		return fmt.Errorf("the simulation could not be built: %w", err)
	}
	a.sim = s
	a.changes++
	a.failure = ""
	a.pacer.Drop()
	a.rate.reset(0)
	a.view.attach(s)
	return nil
}

// reset starts the same run again: same parameters, same seed.
func (a *App) reset() error { return a.rebuild() }

// setSeed starts a new run with seed.
func (a *App) setSeed(seed uint64) error {
	a.params.Seed = seed
	return a.rebuild()
}

// values returns the parameters in their normalised text form, keyed by sim.ParamKeys.
func (a *App) values() map[string]string {
	p := a.params
	w := p.Workload
	return map[string]string{
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

// apply parses and applies one command (sim.ParseCommand), as the bridge's apply does.
func (a *App) apply(text string) error {
	c, err := sim.ParseCommand(text)
	if err != nil {
		return err
	}
	if sc, ok := c.(sim.StepCmd); ok {
		_, err := a.step(sc.N, noDeadline)
		return err
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

// fail pauses playback because of err.
func (a *App) fail(err error) {
	a.playing = false
	a.failure = err.Error()
}

// setSpeed sets the playback speed, clamped to what playback allows, and returns a warning
// when it had to clamp.
func (a *App) setSpeed(x float64) string {
	s, warning := playback.Clamp(x)
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
	a.view.tick(a.sim, elapsed)
}
