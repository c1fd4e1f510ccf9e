package fidelity

import (
	"fmt"
	"strings"
	"sync"

	"github.com/bufferscope/bufferscope/sim"
	"github.com/bufferscope/bufferscope/sim/labs/pins"
)

// PinsHooks are the pins lab's simulated side of experiment 6: the same scenarios in the
// B-tree model (pins.FidelityExperiment6, a one-leaf index of 100 deleted rows) under its
// pin and LP_DEAD rules, which are those of 13 to 18; a 13 row is run on a PG14 pool (the
// model starts at 14). A row agrees when the count of dead items, or whether VACUUM waited
// for the cursor's pin, is the same.
func PinsHooks() Hooks {
	var mu sync.Mutex
	cache := map[sim.Version]map[string]int{}
	return Hooks{ExpLPDead: func(r Row) (string, bool, bool) {
		v, note := ringVersion(r.Major)
		v = min(v, 18)
		mu.Lock()
		got, ok := cache[v]
		if !ok {
			var err error
			if got, err = pins.FidelityExperiment6(v); err != nil {
				mu.Unlock()
				return "error: " + err.Error(), false, true
			}
			cache[v] = got
		}
		mu.Unlock()
		n, ok := got[r.Case]
		if !ok {
			return "", false, false
		}
		var fig string
		switch {
		case strings.HasPrefix(r.Case, "VACUUM "):
			fig = "VACUUM did not wait"
			if n == 1 {
				fig = "VACUUM waited on BufferPin"
			}
		default:
			fig = fmt.Sprintf("%d of %d dead", n, pins.FidelityRows)
		}
		return fig + note, float64(n) == r.Value, true
	}}
}
