package sim

// dropReplay is the replay of a drop experiment as a state machine, so the page can step
// through it unit by unit. A unit is one WAL record replayed, one descriptor checked or one
// lookup made. RunDropExperiment documents what is replayed.
type dropReplay struct {
	e     DropExperiment
	rels  []*Relation
	b     Backend
	phase replayPhase
	ri    int         // vacuum: the relation being vacuumed; else the first of the transaction
	blk   BlockNumber // vacuum: the next heap page to replay
	op    *dropOp
	xact  []*Relation   // the relations of the op
	forks []ForkNumber  // vacuum: the forks the op truncates
	first []BlockNumber // and their new sizes
	paths [PathLookup + 1]bool
	res   DropExperimentResult
	units uint64 // units performed so far
}

// replayPhase is where a dropReplay is.
type replayPhase uint8

const (
	phaseStart replayPhase = iota // the next record starts a relation or a transaction
	phasePages                    // vacuum: replaying page records
	phaseDrop                     // a drop is under way
	phaseDone
)

func newDropReplay(p *Pool, rels []*Relation, e DropExperiment) *dropReplay {
	return &dropReplay{e: e, rels: rels, b: Backend{ID: 0}}
}

// step performs up to units units and reports whether the replay has finished.
func (r *dropReplay) step(p *Pool, units int) (bool, error) {
	start, budget := p.elapsed, units
	defer func() {
		r.res.Time += p.elapsed - start
		r.units += uint64(budget - max(units, 0))
	}()
	for units > 0 && r.phase != phaseDone {
		switch r.phase {
		case phaseStart:
			if r.ri >= len(r.rels) {
				r.finish()
				continue
			}
			units--
			if r.e.Op == OpVacuum {
				r.phase, r.blk = phasePages, 0
				continue
			}
			r.startCommit(p)
		case phasePages:
			units--
			rel := r.rels[r.ri]
			if r.blk < rel.NBlocks[MainForkNum] {
				if err := r.vacuumPage(p, rel, r.blk); err != nil {
					return false, err
				}
				r.blk++
				continue
			}
			r.startTruncate(p, rel)
		case phaseDrop:
			before := r.op.res.DescriptorsChecked + r.op.res.Lookups
			t0 := p.elapsed
			if !p.advanceDrop(r.op, units) {
				return false, ErrBufferPinned{Buffer: r.op.waiting}
			}
			r.res.DropTime += p.elapsed - t0
			units -= int(r.op.res.DescriptorsChecked + r.op.res.Lookups - before)
			if r.op.done(p) {
				r.endDrop(p)
			}
		}
	}
	return r.phase == phaseDone, nil
}

// vacuumPage replays VACUUM's two records for one heap page: prune (the heap page and its FSM
// leaf) and visible (the VM page and the heap page).
func (r *dropReplay) vacuumPage(p *Pool, rel *Relation, blk BlockNumber) error {
	p.charge(p.Cost.ReplayRecord)
	if err := r.redo(p, rel, MainForkNum, blk); err != nil {
		return err
	}
	if err := r.redo(p, rel, FSMForkNum, BlockNumber(fsmBlocks(int(blk)+1)-1)); err != nil {
		return err
	}
	p.charge(p.Cost.ReplayRecord)
	if err := r.redo(p, rel, VisibilityMapForkNum, blk/heapBlocksPerVMPage); err != nil {
		return err
	}
	return r.redo(p, rel, MainForkNum, blk)
}

// redo reads a page as a redo routine does, dirties it and stamps it with the record's LSN.
// WAL advances as it is read, not inserted, so no WALInsert is charged.
func (r *dropReplay) redo(p *Pool, rel *Relation, f ForkNumber, blk BlockNumber) error {
	id, err := p.readBuffer(&r.b, BufferTag{Locator: rel.Locator, Fork: f, Block: blk}, p.cat.lookup(rel.Locator))
	if err != nil {
		return err
	}
	if err := p.MarkBufferDirty(&r.b, id); err != nil {
		return err
	}
	p.desc[id].LSN = p.WAL.xlogInsert(0)
	return p.ReleaseBuffer(&r.b, id)
}

// startTruncate replays XLOG_SMGR_TRUNCATE to zero blocks: minRecoveryPoint first, then
// DropRelationBuffers on the main fork from 0, the FSM from block 2 (if longer) and the VM
// from 0 (if any).
func (r *dropReplay) startTruncate(p *Pool, rel *Relation) {
	p.charge(p.Cost.ReplayRecord)
	p.charge(p.Cost.WALFlush)
	r.forks, r.first = []ForkNumber{MainForkNum}, []BlockNumber{0}
	if rel.NBlocks[FSMForkNum] > fsmTruncateKeepBlock {
		r.forks, r.first = append(r.forks, FSMForkNum), append(r.first, fsmTruncateKeepBlock)
	}
	if rel.NBlocks[VisibilityMapForkNum] > 0 {
		r.forks, r.first = append(r.forks, VisibilityMapForkNum), append(r.first, 0)
	}
	r.xact = []*Relation{rel}
	t0 := p.elapsed
	r.op = p.startDropRelationBuffers(rel, r.forks, r.first)
	r.res.DropTime += p.elapsed - t0
	r.phase = phaseDrop
}

// startCommit replays a DROP or TRUNCATE transaction: for TRUNCATE the creation of each new
// relfilenode, then the commit record, whose DropRelationFiles calls DropRelationsAllBuffers.
func (r *dropReplay) startCommit(p *Pool) {
	n := 1
	if r.e.SingleXact {
		n = len(r.rels)
	}
	r.xact = r.rels[r.ri:min(r.ri+n, len(r.rels))]
	if r.e.Op == OpTruncate {
		for range r.xact {
			p.charge(p.Cost.ReplayRecord + p.Cost.FileOp) // XLOG_SMGR_CREATE
		}
	}
	p.charge(p.Cost.ReplayRecord) // the commit record
	t0 := p.elapsed
	r.op = p.startDropRelationsAllBuffers(r.xact)
	r.res.DropTime += p.elapsed - t0
	r.forks, r.first = nil, nil
	r.phase = phaseDrop
}

// endDrop accounts for a finished drop and removes or truncates the files.
func (r *dropReplay) endDrop(p *Pool) {
	o := r.op
	r.res.Drops++
	r.paths[o.res.Path] = true
	r.res.DescriptorsChecked += o.res.DescriptorsChecked
	r.res.Lookups += o.res.Lookups
	r.res.Invalidated += o.res.Invalidated
	if r.forks != nil { // a truncation
		rel := r.xact[0]
		for i, f := range r.forks {
			p.charge(p.Cost.FileOp)
			rel.NBlocks[f] = r.first[i]
		}
		r.ri++
	} else { // a commit: minRecoveryPoint, then unlink every fork
		p.charge(p.Cost.WALFlush)
		for _, rel := range r.xact {
			for f := MainForkNum; f <= MaxForkNum; f++ {
				if rel.exists(f) {
					p.charge(p.Cost.FileOp)
				}
			}
		}
		r.ri += len(r.xact)
	}
	r.op = nil
	r.phase = phaseStart
	if r.ri >= len(r.rels) {
		r.finish() // the last drop ends the replay: Done and the path are final at once
	}
}

func (r *dropReplay) finish() {
	r.phase = phaseDone
	switch {
	case r.paths[PathScan] && r.paths[PathLookup]:
		r.res.Path = "mixed"
	case r.paths[PathLookup]:
		r.res.Path = PathLookup.String()
	default:
		r.res.Path = PathScan.String()
	}
}

// NewDropLab builds a simulation that steps through one drop experiment under one policy: a
// step is one unit of the replay (a WAL record, a descriptor checked or a lookup). It has no
// workload clients and no background processes.
func NewDropLab(e DropExperiment, policy DropPolicy) (*Sim, error) {
	p, rels, err := prepareDropPool(e)
	if err != nil {
		return nil, err
	}
	p.Drop = DropSettings{Policy: policy, Threshold: e.Threshold}
	w := Workload{WALWriterDelay: DefaultWorkload(e.NBuffers).WALWriterDelay, BgWriterDelay: DefaultWorkload(e.NBuffers).BgWriterDelay}
	s := &Sim{Pool: p, cfg: Config{NBuffers: e.NBuffers, Version: p.Version, Cost: p.Cost, Workload: &w}, work: w}
	s.lab = newDropReplay(p, rels, e)
	return s, nil
}

// DropProgress is where a drop lab stands, for drawing and counters.
type DropProgress struct {
	Done bool
	// Relation is the index of the relation being vacuumed or the first of the transaction
	// being committed, among the experiment's relations.
	Relation int
	Path     DropPath // path of the drop under way, PathNone between drops
	// Cursor is the next descriptor a full scan will check, or -1.
	Cursor int
	// Result holds the totals so far.
	Result DropExperimentResult
}

// DropProgress reports the drop lab's progress; the zero value for other simulations.
func (s *Sim) DropProgress() DropProgress {
	r := s.lab
	if r == nil {
		return DropProgress{}
	}
	d := DropProgress{Done: r.phase == phaseDone, Relation: r.ri, Cursor: -1, Result: r.res}
	if r.op != nil {
		d.Path = r.op.res.Path
		d.Result.DescriptorsChecked += r.op.res.DescriptorsChecked
		d.Result.Lookups += r.op.res.Lookups
		d.Result.Invalidated += r.op.res.Invalidated
		if d.Path == PathScan {
			d.Cursor = r.op.next
		}
	}
	return d
}
