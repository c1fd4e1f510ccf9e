package drop

import (
	"github.com/bufferscope/bufferscope/sim"
	"github.com/bufferscope/bufferscope/sim/lab"
)

// runReal is the job "real": the drop lab's cases that the page's PostgreSQL 18 runs too, as
// the model has them, for the real panel's side-by-side figures. Given the real pool's size
// (nbuffers) and a table of pages cached pages, it drops the table on a primary (DROP TABLE,
// then TRUNCATE, each from the same filled pool) and returns for each the table's buffers
// left, the path the drop took ("scan": a primary knows no cached sizes, so
// DropRelationsAllBuffers scans every descriptor) and the modelled time of the buffer work.
func runReal(a lab.Args, _ func() float64, progress lab.Progress) (map[string]any, error) {
	nb, err := a.Int("nbuffers", sim.MinNBuffers, 1<<20, 16384)
	if err != nil {
		return nil, err
	}
	pages, err := a.Int("pages", 1, nb/2, 0)
	if err != nil {
		return nil, err
	}
	out := map[string]any{}
	for i, op := range []Operation{OpDrop, OpTruncate} {
		if progress != nil && !progress(i, 2, op.String()+" in the model", true) {
			return nil, lab.ErrCancelled
		}
		e := Experiment{NBuffers: nb, Tables: []TableGroup{{Count: 1, Blocks: pages}}, Op: op, SingleXact: true, Version: sim.Version(18)}
		res, err := RunExperiment(e, sim.DropPG14)
		if err != nil {
			return nil, err
		}
		r := res[0]
		out[op.String()] = map[string]any{
			"left":    pages - int(r.Invalidated),
			"path":    r.Path,
			"seconds": r.DropTime.Seconds(),
			"checked": r.DescriptorsChecked,
		}
	}
	return out, nil
}
