// Package lab gives every lab of bufferscope one shape. A lab is one scenario of the same
// simulated buffer pool (package sim): free play, the drop lab, the ring lab, the pins lab.
// It brings, through the Lab interface, everything the rest of the program needs to show it
// without asking which lab it is:
//
//   - its parameter table (package param), from which the address, the page's controls, the
//     bridge, the headless command's flags and the bridge's typings all follow;
//   - how it builds its scenario from those values (New), as a Run: the simulation, what a
//     step does, when it is done, its invariants;
//   - its counters, as a typed struct whose fields carry names, units and formats (Describe);
//   - its events of interest, for the event log and "jump to the next event";
//   - its legend: what each colour and mark means, which the grid paints from and the page
//     lists;
//   - its headless experiment, the rows `bufferscope <lab>` prints.
//
// Labs live in their own packages under sim/labs and are listed once, in sim/labs.
package lab

import (
	"io"

	"github.com/bufferscope/bufferscope/sim"
	"github.com/bufferscope/bufferscope/sim/param"
)

// Info names a lab.
type Info struct {
	Name    string // the address's lab= and the bridge's lab: "drop"
	Command string // the headless command's subcommand: "drop"; "run" for free play
	Title   string // the tab's label: "Drop"
	Summary string // one line, for the command list and the page's description
}

// Lab is one scenario of the simulated pool.
type Lab interface {
	Info() Info
	// Params returns the lab's parameter table. It is the same table on every call.
	Params() *param.Table
	// New builds the scenario from values the table has read.
	New(v param.Values) (Run, error)
	// Counters returns the lab's counters at their zero values, to describe them (Describe)
	// before any run exists: the typings and the page's counter panel are built from it.
	Counters() any
	// Events lists the events of interest, in the order the page offers them.
	Events() []EventSpec
	// Experiment returns the headless experiment.
	Experiment() Experiment
}

// Run is one built scenario: a simulation and what its steps do.
type Run interface {
	// Sim returns the simulation. Its Step runs the scenario's units.
	Sim() *sim.Sim
	// Done reports whether the scenario has ended (a replay that dropped every relation);
	// a scenario without an end is never done.
	Done() bool
	// Counters returns the lab's typed counters now, as a pointer to the same struct type
	// the lab's Counters returns.
	Counters() any
	// Legend returns what the grid's colours and marks mean in this run.
	Legend() Legend
	// CheckInvariants checks the pool's invariants (Sim.CheckInvariants) and the lab's own.
	CheckInvariants() error
	// Seeded reports whether the run draws random numbers, so that a new seed gives a new
	// run; a replay that draws none is the same under every seed.
	Seeded() bool
}

// EventSpec is one kind of event a reader may want to find: the next eviction, the next
// WAL flush, the next drop.
type EventSpec struct {
	Kind   sim.EventKind
	Label  string // "eviction"
	Plural string // "evictions"; empty when the label has no plural of its own ("eviction × 12")
	Doc    string
}

// Experiment is a lab's headless experiment: bufferscope <command> runs it for every
// combination of the values its sweep parameters were given, and prints its rows.
type Experiment interface {
	// About is the usage text above the flags: what the command does, with examples.
	About() string
	// Run runs one experiment per combination, in the order given, and returns one row each
	// (a struct whose fields carry `col` tags; see Columns). It may report progress to
	// progress, never to standard output.
	Run(combos []param.Values, progress io.Writer) ([]any, error)
}

// Reproducer is an Experiment that can also reproduce published measurements: it writes the
// published figures beside the simulated ones, with every target marked, and reports
// whether all passed.
type Reproducer interface {
	Reproduce(w, progress io.Writer) (pass bool, err error)
}

// Budgeted is a Reproducer with a budget for its reproduction run natively: the wall time,
// and the peak memory when it matters (0: none), that make bench holds the headless
// command's --reproduce to (issue #16's targets; build bench-reproduce reads them).
type Budgeted interface {
	ReproduceBudget() (seconds, peakBytes float64)
}

// CostLister is an Experiment whose model is priced from named cost parts: it writes each
// part with its value under v, its default, its unit and its source. The headless command
// offers it as --costs.
type CostLister interface {
	Costs(w io.Writer, v param.Values) error
}

// The parameter types, so a lab's table reads lab.Param without a second import.
type (
	Param   = param.Param
	Values  = param.Values
	Table   = param.Table
	Option  = param.Option
	Problem = param.Problem
)

// The kinds of parameter (param.Kind).
const (
	Int    = param.Int
	Uint   = param.Uint
	Float  = param.Float
	Choice = param.Choice
	Text   = param.Text
)
