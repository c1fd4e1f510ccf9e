package free

import (
	"fmt"

	"github.com/bufferscope/bufferscope/sim"
	"github.com/bufferscope/bufferscope/sim/lab"
)

// Jobs are free play's jobs, which the page runs in the experiment worker:
//
//	real {reads: [n…]}  the page's PostgreSQL 18 case in the model: usage count after n reads
func (Lab) Jobs() map[string]lab.Job { return map[string]lab.Job{"real": runReal} }

// runReal is the job "real": free play's case that the page's PostgreSQL 18 runs too, as the
// model has it, for the real panel's side-by-side figures. For each n of reads, a one-page
// table is read n times from a pool that does not hold it (a sequential scan pins its one
// page once per read), and the job returns the page's usage count after them: the first read
// loads it at 1, each later pin adds one, up to BM_MAX_USAGE_COUNT.
//
// Reference: src/backend/storage/buffer/bufmgr.c, PinBuffer and BufferAlloc.
func runReal(a lab.Args, _ func() float64, _ lab.Progress) (map[string]any, error) {
	reads, err := a.Ints("reads", 1, 1000, []int{1, 3, 7})
	if err != nil {
		return nil, err
	}
	var usage []any
	for _, n := range reads {
		u, err := usageAfterReads(n)
		if err != nil {
			return nil, err
		}
		usage = append(usage, u)
	}
	return map[string]any{"usage": usage, "max": sim.BMMaxUsageCount}, nil
}

// usageAfterReads reads block 0 of a one-page table n times, each a pin and its release, and
// returns the buffer's usage count.
func usageAfterReads(n int) (int, error) {
	p, err := sim.NewPool(sim.MinNBuffers, sim.Version(18), sim.CostModel{})
	if err != nil {
		return 0, err
	}
	rel := &sim.Relation{Name: "usage_t", Permanent: true,
		Locator: sim.RelFileLocator{SpcOid: sim.DefaultTablespaceOid, DbOid: sim.DefaultDatabaseOid, RelNumber: sim.FirstRelNumber}}
	rel.NBlocks[sim.MainForkNum] = 1
	if _, err := p.AddRelation(rel); err != nil {
		return 0, err
	}
	b := &sim.Backend{ID: 1}
	id := -1
	for range n {
		if id, err = p.ReadBuffer(b, sim.BufferTag{Locator: rel.Locator}); err != nil {
			return 0, err
		}
		if err := p.ReleaseBuffer(b, id); err != nil {
			return 0, err
		}
	}
	if id < 0 {
		return 0, fmt.Errorf("no read")
	}
	return p.Desc(id).State.UsageCount(), nil
}
