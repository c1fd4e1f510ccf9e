//go:build js

package main

import (
	"fmt"
	"runtime"
	"syscall/js"

	"github.com/bufferscope/bufferscope/sim"
	"github.com/bufferscope/bufferscope/sim/labs/drop"
)

// curveRequest asks for the drop lab's chart: for one relation of NBuffers/k blocks, for
// each k of Divisors, the experiment replayed under PostgreSQL 13's full scan and under the
// lookup path forced on, as the published threshold test did (seed-results.md, table A).
type curveRequest struct {
	NBuffers   int
	Op         drop.Operation
	InRecovery bool
	Divisors   []int
}

// DefaultDivisors are the sizes of the published threshold test, NB/512 to NB/8, and NB/4.
var DefaultDivisors = []int{512, 256, 128, 64, 32, 16, 8, 4}

// separateAt is the pool from which each policy gets its own experiment: RunDropExperiment
// clones the filled pool for every policy but the last, so running them one at a time halves
// the memory a 100GB pool needs (about 1 GB for each copy), at the cost of filling it twice.
const separateAt = 2_621_440 // 20GB

func parseCurveRequest(msg js.Value) (curveRequest, error) {
	var r curveRequest
	var err error
	if r.NBuffers, err = intField(msg, "nbuffers", sim.MinNBuffers, sim.MaxNBuffers); err != nil {
		return r, err
	}
	op, err := stringField(msg, "op", drop.OpDrop.String())
	if err != nil {
		return r, err
	}
	if r.Op, err = drop.ParseOperation(op); err != nil {
		return r, err
	}
	mode, err := stringField(msg, "mode", "recovery")
	if err != nil {
		return r, err
	}
	switch mode {
	case "recovery", "primary":
		r.InRecovery = mode == "recovery"
	default:
		return r, fmt.Errorf("mode %q is not recovery or primary", mode)
	}
	r.Divisors, err = intsField(msg, "divisors", 2, sim.MaxNBuffers, DefaultDivisors)
	return r, err
}

// curvePolicies are the two paths the chart compares, in the order of each point's fields.
var curvePolicies = []sim.DropPolicy{sim.DropPG13, sim.DropLookup}

// runCurve runs the experiments of r, calling progress after each, and returns the points.
func runCurve(r curveRequest, progress func(done, total int, label string, force bool) bool) (map[string]any, error) {
	separate := r.NBuffers >= separateAt
	calls := len(r.Divisors)
	if separate {
		calls *= len(curvePolicies)
	}
	done := 0
	var points []any
	for _, k := range r.Divisors {
		g := drop.TableGroup{Count: 1, Divisor: k}
		e := drop.Experiment{NBuffers: r.NBuffers, Tables: []drop.TableGroup{g}, Op: r.Op, InRecovery: r.InRecovery}
		var results []drop.Result
		if separate {
			for _, pol := range curvePolicies {
				res, err := drop.RunExperiment(e, pol)
				if err != nil {
					return nil, err
				}
				results = append(results, res...)
				runtime.GC() // the pool is garbage now: free it before the next is built
				done++
				if !progress(done, calls, fmt.Sprintf("NB/%d, %s", k, pol), true) {
					return nil, errCancelled
				}
			}
		} else {
			res, err := drop.RunExperiment(e, curvePolicies...)
			if err != nil {
				return nil, err
			}
			results = res
			done++
		}
		points = append(points, map[string]any{
			"divisor": k,
			"blocks":  g.Resolve(r.NBuffers),
			"scan":    resultMap(results[0]),
			"lookup":  resultMap(results[1]),
		})
		if !separate && !progress(done, calls, fmt.Sprintf("NB/%d", k), r.NBuffers >= separateAt/8) {
			return nil, errCancelled
		}
	}
	return map[string]any{
		"nbuffers": r.NBuffers,
		"op":       r.Op.String(),
		"mode":     map[bool]string{true: "recovery", false: "primary"}[r.InRecovery],
		"points":   points,
	}, nil
}

// resultMap writes one experiment's result as the page reads it; times are in seconds.
func resultMap(r drop.Result) map[string]any {
	return map[string]any{
		"path":               r.Path,
		"drops":              r.Drops,
		"descriptorsChecked": float64(r.DescriptorsChecked),
		"lookups":            float64(r.Lookups),
		"invalidated":        float64(r.Invalidated),
		"dropSeconds":        r.DropTime.Seconds(),
		"seconds":            r.Time.Seconds(),
	}
}
