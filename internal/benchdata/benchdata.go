// Package benchdata is the file the browser benchmark (e2e's TestBrowserBench) writes and
// make bench's report (build bench-report) reads: what was measured in headless Chromium,
// with the baselines measured beside it in the same run. It holds figures only; what a
// target is, and whether a figure meets it, is the report's business.
package benchdata

import (
	"encoding/json"
	"fmt"
	"os"
)

// Browser is one run of the browser benchmark.
type Browser struct {
	Date     string `json:"date"`     // UTC, 2006-01-02
	Browser  string `json:"browser"`  // Chromium's product string
	Machine  string `json:"machine"`  // GOOS/GOARCH and CPU count of the machine the browser ran on
	Duration string `json:"duration"` // how long each endurance series ran (a flag of the run)
	// SideBySide says the endurance series ran at the same time, each lab in a tab of its own.
	SideBySide bool `json:"sideBySide,omitempty"`

	FirstView   []Load       `json:"firstView"`   // the page and the bare Ebiten app, alternately
	Embeds      []Load       `json:"embeds"`      // an embed before and after its Play, and a host page with several
	LongTasks   []LongTasks  `json:"longTasks"`   // per lab and state visited
	Memory      []Memory     `json:"memory"`      // per lab: fresh, after 100GB, back to 128MB
	Endurance   []Endurance  `json:"endurance"`   // per lab: a series at full speed
	Frames      []Frames     `json:"frames"`      // Go time per frame at a large grid
	Experiments []Experiment `json:"experiments"` // each lab's headline chart, in the worker and natively
	Real        []Real       `json:"real"`        // the real PostgreSQL 18 panel started, one per run
}

// Real is the "Real PostgreSQL 18" panel started once in a page that has settled: what it
// fetched and how long it took from the click on Start to PostgreSQL's answer.
type Real struct {
	Bytes float64 `json:"bytes"` // transferred from the click on (headers and compressed bodies)
	MS    float64 `json:"ms"`    // from the click to the panel's ready (download, compile, initdb, start)
	// WorkerMS is the worker's own time from its start message to ready, as it reports it.
	WorkerMS float64 `json:"workerMs"`
}

// Load is one kind of page opened cold (no HTTP cache), measured until its first frame (or,
// for an embed, until it has settled without interaction).
type Load struct {
	Name  string    `json:"name"`  // "page", "bare", "embed", "host with 4 embeds"
	Path  string    `json:"path"`  // the address opened
	Bytes []float64 `json:"bytes"` // transferred (headers and compressed bodies), one per run
	// MS is from navigation start to the first frame, one per run; for an embed, from the
	// click on its still's Play button to the first frame; empty for a host page.
	MS   []float64 `json:"ms"`
	WASM []float64 `json:"wasm"` // bytes of .wasm transferred, one per run
	// LongestTask is the longest main-thread task (Long Tasks API) from navigation to a
	// second after the first frame, one per run; 0 when none passed 50 ms. First views only.
	LongestTask []float64 `json:"longestTask,omitempty"`
	// WASMEndMS is when the last byte of its WebAssembly arrived (Resource Timing's
	// responseEnd), one per run: what of MS the download took. First views only.
	WASMEndMS []float64 `json:"wasmEndMs,omitempty"`
	// PlayedBytes and PlayedWASM are an embed's bytes once played, one per run.
	PlayedBytes []float64 `json:"playedBytes,omitempty"`
	PlayedWASM  []float64 `json:"playedWasm,omitempty"`
}

// LongTasks is what the Long Tasks API saw on the page's main thread in one state.
type LongTasks struct {
	Lab   string    `json:"lab"`
	State string    `json:"state"` // "open at 128MB", "build 100GB", …
	MS    []float64 `json:"ms"`    // the duration of every long task (> 50 ms) seen in the state
	// Opens says the state began with a document of its own: the page's first load, or the
	// reload by which it gives a large pool's memory back. Its tasks include starting Go.
	Opens bool `json:"opens,omitempty"`
}

// Memory is a tab's memory at three moments, after a forced garbage collection.
type Memory struct {
	Lab     string  `json:"lab"`
	Fresh   Sample  `json:"fresh"`   // a fresh tab at 128MB
	Big     Sample  `json:"big"`     // after the 100GB pool was built
	Back    Sample  `json:"back"`    // back at 128MB
	Refused string  `json:"refused"` // what the page said when it refused 100GB, if it did
	BigNB   float64 `json:"bigNBuffers"`
}

// Sample is a tab's memory and stepping speed at one moment.
type Sample struct {
	T        float64 `json:"t"`        // seconds since the series began
	WASM     float64 `json:"wasm"`     // bytes of the live WebAssembly memories of the page
	JS       float64 `json:"js"`       // bytes of the JS heap in use
	StepsSec float64 `json:"stepsSec"` // simulation steps per second since the last sample
	Step     float64 `json:"step"`
}

// Endurance is one lab played at full speed, sampled at a fixed interval.
type Endurance struct {
	Lab     string   `json:"lab"`
	Samples []Sample `json:"samples"`
}

// Frames is the Go time of each frame (Update plus Draw, averaged by the page over a second)
// while a lab plays at a pool of Cells buffers.
type Frames struct {
	Lab   string    `json:"lab"`
	Cells int       `json:"cells"`
	MS    []float64 `json:"ms"` // update plus paint, sampled
	// PaintMS is the part of each sample spent painting the grid and sending it to the
	// screen (Go's paintMs and drawMs); the rest is the simulation and its bookkeeping.
	PaintMS []float64 `json:"paintMs,omitempty"`
}

// Experiment is one headline chart's job, timed in the page's worker (from the job's message
// to its result, the worker's start-up excluded) and the same job with the same arguments
// run natively in the benchmark's process.
type Experiment struct {
	Lab      string         `json:"lab"`
	Job      string         `json:"job"`
	Args     map[string]any `json:"args"`
	BrowserS float64        `json:"browserSeconds"`
	NativeS  float64        `json:"nativeSeconds"`
	Progress bool           `json:"progress"` // the worker sent progress while it ran
}

// Read reads a Browser file.
func Read(name string) (*Browser, error) {
	b, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	var r Browser
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	return &r, nil
}

// Write writes r to name, indented.
func (r *Browser) Write(name string) error {
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(name, append(b, '\n'), 0o644)
}
