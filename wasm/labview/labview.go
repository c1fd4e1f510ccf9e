// Package labview is the shape of a lab's view in the browser app: what a lab may add to
// the grid beyond the buffers themselves, and how its steps are cut into chunks. The app
// (wasm/app) holds one View per run and never asks which lab it is; a lab without a view of
// its own gets Default, which is free play's.
//
// A lab's view lives in its own package under wasm/labs and is listed once, in wasm/labs.
// Like the grid, the package knows nothing of Ebiten or the browser, so views run and are
// tested natively.
package labview

import (
	"github.com/bufferscope/bufferscope/sim"
	"github.com/bufferscope/bufferscope/sim/lab"
	"github.com/bufferscope/bufferscope/wasm/grid"
	"github.com/bufferscope/bufferscope/wasm/playback"
)

// View is a lab's view of one run. The app calls Attach once, right after the run is built,
// then, once per tick, Tick, Step (while playing), and Overlay for each pane; Step also when
// the reader steps by hand.
//
// A run may show several pools side by side, its panes (lab.PanesOf: the run alone for most
// labs), which the run's own steps advance together. The view names a pane by its index,
// 0 for the run's own: it reports each pane's events, draws each pane's overlay and adds to
// each pane's inspection.
type View interface {
	// Options says how the grid around the run is drawn and played. The app asks after
	// Attach, so the answer may depend on the run (the size of an inset).
	Options() Options
	// Attach points the view at a freshly built run. shown returns the role (an index in
	// legend.Roles, -1 for empty) the grid last showed in buffer id of a pane, before the
	// events of the current step reach it.
	Attach(run lab.Run, legend lab.Legend, shown func(pane int, id int32) int)
	// Step runs up to n steps of run in chunks, each small enough that sim keeps all its
	// events (grid.EventCap) in every pane. After each chunk it passes each pane's events of
	// the chunk to note, with whether their reads and writes should flash, then asks stop
	// (nil: never) whether to end early. It returns the steps run, fewer than n when stop
	// said so or the run is done. A stop of nil means the reader stepped by hand, not
	// playback.
	Step(run lab.Run, n int, stop func() bool, note func(pane int, events []sim.Event, flash bool)) (int, error)
	// Tick moves the view's animations on by ticks (60ths of a second) at wall time
	// wallSeconds since the app started. It runs once per Ebiten tick, before Step.
	Tick(ticks int, wallSeconds float64)
	// Overlay rebuilds o, which the app draws over a pane's part of the grid's image, for
	// layout l (in the pane's pixels) in theme t, and reports whether it differs from the
	// last one of that pane. reduced asks for no motion.
	Overlay(pane int, o *grid.Overlay, l *grid.Layout, t *grid.Theme, reduced bool) bool
	// Inspect returns what the view adds about buffer id of a pane to its details (the
	// tooltip and the inspector), in the order the reader should read it, or nil.
	Inspect(pane, id int) []Detail
	// Flash says whether event e flashes a buffer and how, beyond the reads and writes every
	// lab flashes (grid.Tracker.Note).
	Flash(e *sim.Event) (grid.FlashKind, bool)
	// Stats returns what the view measures beside the run's counters (how fast modelled
	// time passes on screen), for the bridge's stats under "view", or nil.
	Stats() map[string]any
}

// Options are how a lab's view wants the grid drawn and played.
type Options struct {
	// Below is the height in pixels of a lane under the grid (grid.LaneHeight), 0 for none.
	Below int
	// HideHand leaves the clock hand out: the lab does not sweep.
	HideHand bool
	// Runs says the lab changes the pool in long runs of neighbouring buffers (a scan that
	// empties them): the tracker copies every named buffer instead of refreshing the whole
	// pool, and a large pool repaints the rows that changed at once.
	Runs bool
	// Speeds is the ladder of speeds the lab plays at (playback.FreePlay, LabRange).
	Speeds playback.Range
	// Inset asks for a magnifier band of up to Inset items between the grid and the lane
	// (grid.Inset), where the view shows buffers of its choosing large; 0 for none.
	Inset int
	// Close is the size in pixels of the cells the grid opens at, zoomed in about the buffer
	// Focus returns, when the whole pool would be drawn at 1 pixel per buffer or less (a
	// phone, a large pool): cells too small to see or tap. The reader's Fit shows the whole
	// pool again. 0 always opens on the whole pool.
	Close int
	// Focus returns the buffer the opening zoom centres on, or -1 for the pool's first;
	// nil is the same as -1.
	Focus func() int
}

// StepChunk is the most steps Default runs in one sim.Step call. Each step reports a handful
// of events, so a chunk stays well under the events sim keeps for one command
// (grid.EventCap) and the grid learns of every buffer that changed.
const StepChunk = 2048

// Default is the view of a lab without one of its own, free play's: steps in chunks of
// StepChunk, only the last chunk's reads and writes flash (so a long run of steps does not
// light up the whole pool), no overlay and nothing more to inspect. It reports the events of
// the run's own pane; a lab whose run has other panes needs a view of its own to report
// theirs (the grid then refreshes them in budgeted slices).
type Default struct{}

// NewDefault returns Default, as a constructor for the registry.
func NewDefault() View { return Default{} }

// Options plays at free play's speeds with the clock hand shown.
func (Default) Options() Options { return Options{Speeds: playback.FreePlay} }

// Attach does nothing.
func (Default) Attach(lab.Run, lab.Legend, func(int, int32) int) {}

// Step runs n steps in chunks of StepChunk until stop says so or the run is done.
func (Default) Step(run lab.Run, n int, stop func() bool, note func(int, []sim.Event, bool)) (int, error) {
	s := run.Sim()
	done := 0
	for done < n && !run.Done() {
		c := min(StepChunk, n-done)
		steps := s.Stats().Steps
		err := s.Step(c)
		stopping := stop != nil && stop()
		if note != nil {
			note(0, s.Events(), done+c == n || stopping || err != nil)
		}
		done += int(s.Stats().Steps - steps) // fewer than c when the run ended within the chunk
		if err != nil {
			return done, err
		}
		if stopping {
			break
		}
	}
	return done, nil
}

// Tick does nothing.
func (Default) Tick(int, float64) {}

// Overlay draws nothing.
func (Default) Overlay(_ int, o *grid.Overlay, _ *grid.Layout, _ *grid.Theme, _ bool) bool {
	o.Reset()
	return false
}

// Inspect adds nothing.
func (Default) Inspect(int, int) []Detail { return nil }

// Flash adds no flash.
func (Default) Flash(*sim.Event) (grid.FlashKind, bool) { return 0, false }

// Stats adds nothing.
func (Default) Stats() map[string]any { return nil }

// Detail is one line a lab's view adds to a buffer's details: a label in words and its
// value as text, such as {"VACUUM's ring", "slot 3 of 32"}.
type Detail struct {
	Label string `json:"label"`
	Value string `json:"value"`
	// Table is a small table shown with the line, its first row the header; nil for none.
	Table [][]string `json:"table,omitempty"`
}

// Lookup returns the value of the detail labelled label in ds, and whether there is one.
func Lookup(ds []Detail, label string) (string, bool) {
	for _, d := range ds {
		if d.Label == label {
			return d.Value, true
		}
	}
	return "", false
}
