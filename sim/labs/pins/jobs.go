package pins

import (
	"fmt"
	"strconv"

	"github.com/bufferscope/bufferscope/sim/lab"
)

// Jobs are the pins lab's long jobs, which the page runs in the experiment worker:
//
//	compare {the lab's parameters as text}             the run under keep-pin and drop-pin, same seed
//	clients {the lab's parameters as text, counts: […]}  TPS against clients, both policies
//	real {}                                            the page's PostgreSQL 18 cases in the model (real.go)
func (Lab) Jobs() map[string]lab.Job {
	return map[string]lab.Job{"compare": runCompare, "clients": runClients, "real": runReal}
}

// policiesCompared are the two policies the page's charts set side by side.
var policiesCompared = []Policy{KeepPin, DropPin}

// DefaultClients are the client counts of the TPS-against-clients chart: the published
// table's.
var DefaultClients = func() []int {
	out := make([]int, len(published))
	for i, p := range published {
		out[i] = p.clients
	}
	return out
}()

// runWith runs the page's settings in a, with over replacing some.
func runWith(a lab.Args, over map[string]string) (Result, error) {
	v, err := a.Values(table, over)
	if err != nil {
		return Result{}, err
	}
	cfg, nb, dur, slice := ConfigOf(v)
	return Run(cfg, nb, dur, slice)
}

// runCompare runs the page's settings under each policy of policiesCompared with the same
// seed and returns per policy its name, TPS, the slices' TPS and their coefficient of
// variation, and the hints set and lost; and, for the chart's time axis, the slices' length
// in seconds of simulated server time and the number of the first slice shown (1 when the
// first was left out as warm-up).
func runCompare(a lab.Args, _ func() float64, progress lab.Progress) (map[string]any, error) {
	var names, tps, cvs, set, lost, slices []any
	var sliceSeconds float64
	first := 0
	for i, pol := range policiesCompared {
		if progress != nil && !progress(i, len(policiesCompared), pol.String(), true) {
			return nil, lab.ErrCancelled
		}
		r, err := runWith(a, map[string]string{"policy": pol.String()})
		if err != nil {
			return nil, err
		}
		sliceSeconds, first = r.SliceLen.Seconds(), r.FirstSlice
		names = append(names, pol.String())
		tps = append(tps, r.TPS)
		cvs = append(cvs, r.SliceCV)
		set = append(set, float64(r.HintsSet))
		lost = append(lost, float64(r.HintsLost))
		ys := make([]any, len(r.SliceTPS))
		for j, y := range r.SliceTPS {
			ys[j] = y
		}
		slices = append(slices, ys)
	}
	if progress != nil {
		progress(len(policiesCompared), len(policiesCompared), "done", true)
	}
	return map[string]any{"policies": names, "tps": tps, "sliceCV": cvs, "hintsSet": set, "hintsLost": lost, "sliceTPS": slices,
		"sliceSeconds": sliceSeconds, "firstSlice": first}, nil
}

// runClients runs the page's settings for each client count under each policy of
// policiesCompared and returns the client counts and, per policy, the TPS of each.
func runClients(a lab.Args, _ func() float64, progress lab.Progress) (map[string]any, error) {
	cp := table.Param("clients")
	clients, err := a.Ints("counts", int(cp.Min), int(cp.Max), DefaultClients)
	if err != nil {
		return nil, err
	}
	total := len(clients) * len(policiesCompared)
	var xs, names []any
	byPolicy := make([][]any, len(policiesCompared))
	for i, c := range clients {
		xs = append(xs, c)
		for j, pol := range policiesCompared {
			if progress != nil && !progress(i*len(policiesCompared)+j, total, fmt.Sprintf("%d clients, %s", c, pol), true) {
				return nil, lab.ErrCancelled
			}
			r, err := runWith(a, map[string]string{"policy": pol.String(), "clients": strconv.Itoa(c)})
			if err != nil {
				return nil, err
			}
			byPolicy[j] = append(byPolicy[j], r.TPS)
		}
	}
	for _, pol := range policiesCompared {
		names = append(names, pol.String())
	}
	tps := make([]any, len(byPolicy))
	for j := range byPolicy {
		tps[j] = byPolicy[j]
	}
	if progress != nil {
		progress(total, total, "done", true)
	}
	return map[string]any{"clients": xs, "policies": names, "tps": tps}, nil
}
