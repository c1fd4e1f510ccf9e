package lab

import (
	"errors"
	"fmt"
	"math"
)

// Jobber is a lab with long jobs the page runs off its thread, in the experiment worker
// (wasm/worker): a chart that sweeps a parameter over pools of millions of buffers, a
// measurement on the reader's device.
type Jobber interface {
	// Jobs returns the lab's jobs by the name the page asks for them.
	Jobs() map[string]Job
}

// Job runs one job with args as the page sent them. clock returns seconds of the device's
// own clock (performance.now in a browser). progress reports done of total with a label;
// force asks the worker to yield to its event loop now. A job stops with ErrCancelled when
// progress returns false. The result is a plain object for the page.
type Job func(args Args, clock func() float64, progress Progress) (map[string]any, error)

// Progress reports a job's progress and returns false when the job should stop.
type Progress func(done, total int, label string, force bool) bool

// ErrCancelled is what a job returns when progress told it to stop.
var ErrCancelled = errors.New("cancelled")

// Args are a job's arguments: numbers (float64), strings, booleans and lists of numbers
// ([]float64), as the worker reads them from a message.
type Args map[string]any

// Int reads a whole number from lo to hi; a missing one is def.
func (a Args) Int(name string, lo, hi, def int) (int, error) {
	v, ok := a[name]
	if !ok || v == nil {
		return def, nil
	}
	f, ok := v.(float64)
	if !ok {
		return 0, fmt.Errorf("%s must be a number", name)
	}
	if f != math.Trunc(f) || f < float64(lo) || f > float64(hi) {
		return 0, fmt.Errorf("%s %v is not a whole number from %d to %d", name, f, lo, hi)
	}
	return int(f), nil
}

// String reads a string; a missing one is def.
func (a Args) String(name, def string) (string, error) {
	v, ok := a[name]
	if !ok || v == nil {
		return def, nil
	}
	s, ok := v.(string)
	if !ok {
		return "", fmt.Errorf("%s must be a string", name)
	}
	return s, nil
}

// Ints reads a list of 1 to 64 whole numbers from lo to hi; a missing one is def.
func (a Args) Ints(name string, lo, hi int, def []int) ([]int, error) {
	v, ok := a[name]
	if !ok || v == nil {
		return def, nil
	}
	list, ok := v.([]float64)
	if !ok || len(list) == 0 || len(list) > 64 {
		return nil, fmt.Errorf("%s must be a list of 1 to 64 numbers", name)
	}
	out := make([]int, len(list))
	for i, f := range list {
		if f != math.Trunc(f) || f < float64(lo) || f > float64(hi) {
			return nil, fmt.Errorf("%s: %v is not a whole number from %d to %d", name, f, lo, hi)
		}
		out[i] = int(f)
	}
	return out, nil
}

// Values reads the parameters of table t from a job's arguments, where the page sends them
// as text, with over replacing some, and checks them as the address's are checked: the
// first problem is the error.
func (a Args) Values(t *Table, over map[string]string) (Values, error) {
	in := map[string]string{}
	for _, p := range t.Params {
		s, err := a.String(p.Key, "")
		if err != nil {
			return nil, err
		}
		if s != "" {
			in[p.Key] = s
		}
	}
	for k, v := range over {
		in[k] = v
	}
	v, problems := t.Parse(in)
	if len(problems) > 0 {
		return nil, problems[0]
	}
	return v, nil
}
