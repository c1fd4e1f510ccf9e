package drop

import "github.com/bufferscope/bufferscope/sim"

import "fmt"

// Timing is how long this device took, in seconds of its own clock, to drop the
// buffers of a relation of Blocks blocks by each path.
type Timing struct {
	Blocks int
	Scan   float64 // DropRelationBuffers' full scan of every descriptor
	Lookup float64 // FindAndDropRelationBuffers' lookup of every block
}

// Measurement is what Measure timed. Both paths also invalidate the relation's
// buffers, at the same cost, so where they cross is found by fitting a line to each path's
// times against the relation size (the worker of the page does, with repeated samples).
type Measurement struct {
	NBuffers int
	Timings  []Timing
}

// Measure runs the simulator's real full scan and real lookups over its real data
// structures — a pool of nbuffers filled with a relation's pages and other data — and times
// them with clock, which returns seconds (performance.now in a browser). For each size it
// loads the relation's pages into the pool, drops them by lookups, loads them again and drops
// them by a full scan, so both paths invalidate the same buffers. progress, if not nil, is
// called after each size and may return false to stop early.
func Measure(nbuffers int, sizes []int, clock func() float64, progress func(done, total int) bool) (Measurement, error) {
	m := Measurement{NBuffers: nbuffers}
	largest := 0
	for _, n := range sizes {
		if n < 1 || n > nbuffers/2 {
			return m, fmt.Errorf("relation size %d is not between 1 and half the pool (%d)", n, nbuffers/2)
		}
		largest = max(largest, n)
	}
	p, err := sim.NewPool(nbuffers, sim.DefaultVersion, sim.CostModel{})
	if err != nil {
		return m, err
	}
	p.InRecovery = true
	rel := &sim.Relation{Name: "measured", Locator: sim.RelFileLocator{SpcOid: sim.DefaultTablespaceOid, DbOid: sim.DefaultDatabaseOid, RelNumber: sim.FirstRelNumber}, Permanent: true}
	rel.NBlocks[sim.MainForkNum] = sim.BlockNumber(largest)
	rel.SizeCached[sim.MainForkNum] = true
	others := &sim.Relation{Name: "others", Locator: sim.RelFileLocator{SpcOid: sim.DefaultTablespaceOid, DbOid: sim.DefaultDatabaseOid, RelNumber: sim.FirstRelNumber + 1}, Permanent: true}
	others.NBlocks[sim.MainForkNum] = sim.BlockNumber(nbuffers)
	for _, r := range []*sim.Relation{rel, others} {
		if _, err := p.AddRelation(r); err != nil {
			return m, err
		}
		p.Prewarm(r, sim.MainForkNum)
	}
	run := func(policy sim.DropPolicy, n int) (float64, error) {
		rel.NBlocks[sim.MainForkNum] = sim.BlockNumber(n)
		p.Prewarm(rel, sim.MainForkNum) // into the buffers the last drop freed
		p.Drop = sim.DropSettings{Policy: policy}
		start := clock()
		res, err := p.DropRelationBuffers(rel, []sim.ForkNumber{sim.MainForkNum}, []sim.BlockNumber{0})
		t := clock() - start
		if err == nil && res.Invalidated != uint64(n) {
			err = fmt.Errorf("the %v path dropped %d buffers of %d", res.Path, res.Invalidated, n)
		}
		return t, err
	}
	// The relation's pages are in the pool already; drop them once so each run loads its own.
	if _, err := run(sim.DropLookup, largest); err != nil {
		return m, err
	}
	for i, n := range sizes {
		var t Timing
		t.Blocks = n
		if t.Lookup, err = run(sim.DropLookup, n); err != nil {
			return m, err
		}
		if t.Scan, err = run(sim.DropPG13, n); err != nil {
			return m, err
		}
		m.Timings = append(m.Timings, t)
		if progress != nil && !progress(i+1, len(sizes)) {
			break
		}
	}
	p.TakeElapsed()
	return m, nil
}
