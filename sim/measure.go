package sim

import "fmt"

// DropTiming is how long this device took, in seconds of its own clock, to drop the
// buffers of a relation of Blocks blocks by each path.
type DropTiming struct {
	Blocks int
	Scan   float64 // DropRelationBuffers' full scan of every descriptor
	Lookup float64 // FindAndDropRelationBuffers' lookup of every block
}

// DropMeasurement is what MeasureDrop timed. Both paths also invalidate the relation's
// buffers, at the same cost, so where they cross is found by fitting a line to each path's
// times against the relation size (the worker of the page does, with repeated samples).
type DropMeasurement struct {
	NBuffers int
	Timings  []DropTiming
}

// MeasureDrop runs the simulator's real full scan and real lookups over its real data
// structures — a pool of nbuffers filled with a relation's pages and other data — and times
// them with clock, which returns seconds (performance.now in a browser). For each size it
// loads the relation's pages into the pool, drops them by lookups, loads them again and drops
// them by a full scan, so both paths invalidate the same buffers. progress, if not nil, is
// called after each size and may return false to stop early.
func MeasureDrop(nbuffers int, sizes []int, clock func() float64, progress func(done, total int) bool) (DropMeasurement, error) {
	m := DropMeasurement{NBuffers: nbuffers}
	largest := 0
	for _, n := range sizes {
		if n < 1 || n > nbuffers/2 {
			return m, fmt.Errorf("relation size %d is not between 1 and half the pool (%d)", n, nbuffers/2)
		}
		largest = max(largest, n)
	}
	p, err := NewPool(nbuffers, DefaultVersion, CostModel{})
	if err != nil {
		return m, err
	}
	p.InRecovery = true
	rel := &Relation{Name: "measured", Locator: RelFileLocator{DefaultTablespaceOid, DefaultDatabaseOid, FirstRelNumber}, Permanent: true}
	rel.NBlocks[MainForkNum] = BlockNumber(largest)
	rel.SizeCached[MainForkNum] = true
	others := &Relation{Name: "others", Locator: RelFileLocator{DefaultTablespaceOid, DefaultDatabaseOid, FirstRelNumber + 1}, Permanent: true}
	others.NBlocks[MainForkNum] = BlockNumber(nbuffers)
	for _, r := range []*Relation{rel, others} {
		if _, err := p.AddRelation(r); err != nil {
			return m, err
		}
		p.prewarm(r, MainForkNum)
	}
	run := func(policy DropPolicy, n int) (float64, error) {
		rel.NBlocks[MainForkNum] = BlockNumber(n)
		p.prewarm(rel, MainForkNum) // into the buffers the last drop freed
		p.Drop = DropSettings{Policy: policy}
		start := clock()
		res, err := p.DropRelationBuffers(rel, []ForkNumber{MainForkNum}, []BlockNumber{0})
		t := clock() - start
		if err == nil && res.Invalidated != uint64(n) {
			err = fmt.Errorf("the %v path dropped %d buffers of %d", res.Path, res.Invalidated, n)
		}
		return t, err
	}
	// The relation's pages are in the pool already; drop them once so each run loads its own.
	if _, err := run(DropLookup, largest); err != nil {
		return m, err
	}
	for i, n := range sizes {
		var t DropTiming
		t.Blocks = n
		if t.Lookup, err = run(DropLookup, n); err != nil {
			return m, err
		}
		if t.Scan, err = run(DropPG13, n); err != nil {
			return m, err
		}
		m.Timings = append(m.Timings, t)
		if progress != nil && !progress(i+1, len(sizes)) {
			break
		}
	}
	p.takeElapsed()
	return m, nil
}
