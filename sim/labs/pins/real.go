package pins

import (
	"github.com/bufferscope/bufferscope/sim"
	"github.com/bufferscope/bufferscope/sim/lab"
)

// runReal is the job "real": the pins lab's cases that the page's PostgreSQL 18 runs too, as
// the model has them, for the real panel's side-by-side figures: the dead items on the leaf
// after a plain index scan over FidelityRows deleted rows (plain), and after a cursor that
// read them with an insert into the leaf between two of its fetches (cursor).
func runReal(lab.Args, func() float64, lab.Progress) (map[string]any, error) {
	out, err := FidelityExperiment6(sim.Version(18))
	if err != nil {
		return nil, err
	}
	return map[string]any{
		"rows":   FidelityRows,
		"plain":  out["plain index scan, logged"],
		"cursor": out["cursor + insert into the leaf, logged"],
	}, nil
}
