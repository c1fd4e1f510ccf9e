package drop

import "github.com/bufferscope/bufferscope/sim"

// replay is the replay of a drop experiment as a state machine, so the page can step
// through it unit by unit. A unit is one WAL record replayed, one descriptor checked or one
// lookup made. RunExperiment documents what is replayed.
type replay struct {
	e    Experiment
	rels []*sim.Relation // every relation: each table's heap, then its indexes and TOAST
	// span[i] is the number of relations of the table whose heap is rels[i] (0 elsewhere).
	span  []int
	b     sim.Backend
	phase replayPhase
	ri    int             // index in rels of the heap being vacuumed, or of the transaction's first
	blk   sim.BlockNumber // vacuum: the next heap page to replay
	op    *sim.DropOp
	xact  []*sim.Relation   // the relations of the op
	forks []sim.ForkNumber  // vacuum: the forks the op truncates
	first []sim.BlockNumber // and their new sizes
	paths [sim.PathLookup + 1]bool
	res   Result
	units uint64 // units performed so far
	// checkpointed is set once the checkpoint record of Experiment.Checkpoint is replayed.
	checkpointed bool
	// bounded makes Step stop by the clock as stepUntil does, at until: a race sets it
	// around each call of its rival's Step.
	bounded   bool
	until     sim.Duration
	inclusive bool
}

// replayPhase is where a replay is.
type replayPhase uint8

const (
	phaseStart replayPhase = iota // the next record starts a relation or a transaction
	phasePages                    // vacuum: replaying page records
	phaseDrop                     // a drop is under way
	phaseDone
)

func newReplay(p *sim.Pool, rels []*sim.Relation, e Experiment) *replay {
	span := make([]int, len(rels))
	i := 0
	for _, g := range e.Tables {
		for range g.Count {
			span[i] = g.Relations()
			i += g.Relations()
		}
	}
	return &replay{e: e, rels: rels, span: span, b: sim.Backend{ID: 0}}
}

// step performs up to units units and reports whether the replay has finished.
func (r *replay) step(p *sim.Pool, units int) (bool, error) {
	return r.stepUntil(p, units, sim.Forever, true)
}

// stepUntil is step that begins no unit once the replay's modelled time (Result.Time) has
// reached limit, or has passed it when inclusive; a unit begun before the limit is finished,
// whatever it costs. A race (race.go) runs each of its replays while it is behind the other.
func (r *replay) stepUntil(p *sim.Pool, units int, limit sim.Duration, inclusive bool) (bool, error) {
	start, budget := p.Elapsed(), units
	defer func() {
		r.res.Time += p.Elapsed() - start
		r.units += uint64(budget - max(units, 0))
	}()
	// The limit on the pool's clock, which counts from start rather than from the replay's
	// beginning.
	plimit := sim.Forever
	if limit != sim.Forever {
		plimit = start + limit - r.res.Time
	}
	open := func() bool { e := p.Elapsed(); return e < plimit || inclusive && e == plimit }
	for units > 0 && r.phase != phaseDone {
		switch r.phase {
		case phaseStart:
			if r.e.Checkpoint && !r.checkpointed {
				if !open() {
					return false, nil
				}
				units--
				p.Charge(p.Cost.ReplayRecord)
				p.RedoCheckpoint()
				r.checkpointed = true
				continue
			}
			if r.ri >= len(r.rels) {
				r.finish()
				continue
			}
			if !open() {
				return false, nil
			}
			units--
			if r.e.Op == OpVacuum {
				r.phase, r.blk = phasePages, 0
				continue
			}
			r.startCommit(p)
		case phasePages:
			if !open() {
				return false, nil
			}
			units--
			rel := r.rels[r.ri]
			if r.blk < rel.NBlocks[sim.MainForkNum] {
				if err := r.vacuumPage(p, rel, r.blk); err != nil {
					return false, err
				}
				r.blk++
				continue
			}
			r.startTruncate(p, rel)
		case phaseDrop:
			before := r.op.Result().DescriptorsChecked + r.op.Result().Lookups
			t0 := p.Elapsed()
			advanced := p.AdvanceDropUntil(r.op, units, plimit, inclusive)
			// The checks and lookups made before a pinned buffer stopped the drop are units
			// done, as they are when each is a step of its own.
			r.res.DropTime += p.Elapsed() - t0
			ran := int(r.op.Result().DescriptorsChecked + r.op.Result().Lookups - before)
			units -= ran
			if !advanced {
				return false, sim.ErrBufferPinned{Buffer: r.op.Waiting()}
			}
			if r.op.Done(p) {
				r.endDrop(p)
			} else if ran == 0 {
				return false, nil // the limit came before the next descriptor or block
			}
		}
	}
	return r.phase == phaseDone, nil
}

// vacuumPage replays VACUUM's records for one heap page of a table without indexes: prune
// (the heap page, then its FSM leaf: XLogRecordPageWithFreeSpace), before PostgreSQL 17 a
// second record that marks the pruned items unused (the heap page and the FSM leaf again;
// from 17 pruning of a table without indexes marks them unused at once, c120550edb), and
// visible (the heap page, the FSM leaf, the VM page). The FSM and the VM do not exist before
// this VACUUM, so their first records create and extend them (ExtendBufferedRelTo).
//
// Reference: src/backend/access/heap/heapam.c (13–16) and pruneheap.c (17+), heap_xlog_prune,
// heap_xlog_vacuum, heap_xlog_visible; src/backend/storage/freespace/freespace.c,
// XLogRecordPageWithFreeSpace; src/backend/access/heap/vacuumlazy.c, lazy_scan_heap.
func (r *replay) vacuumPage(p *sim.Pool, rel *sim.Relation, blk sim.BlockNumber) error {
	fsm := sim.BlockNumber(fsmBlocks(int(blk)+1) - 1)
	records := [][]sim.BufferTag{
		{{Fork: sim.MainForkNum, Block: blk}, {Fork: sim.FSMForkNum, Block: fsm}},
		{{Fork: sim.MainForkNum, Block: blk}, {Fork: sim.FSMForkNum, Block: fsm}},
		{{Fork: sim.MainForkNum, Block: blk}, {Fork: sim.FSMForkNum, Block: fsm}, {Fork: sim.VisibilityMapForkNum, Block: blk / heapBlocksPerVMPage}},
	}
	if p.Version.Resolve() >= 17 {
		records = append(records[:1], records[2])
	}
	for _, pages := range records {
		p.Charge(p.Cost.ReplayRecord)
		for _, t := range pages {
			if err := r.redo(p, rel, t.Fork, t.Block); err != nil {
				return err
			}
		}
	}
	return nil
}

// redo reads a page as a redo routine does, dirties it and stamps it with the record's LSN.
// WAL advances as it is read, not inserted, so no WALInsert is charged. A free space map or
// visibility map page past the end of its fork is made, as XLogReadBufferExtended makes it
// for their redo's RBM_ZERO_ON_ERROR.
func (r *replay) redo(p *sim.Pool, rel *sim.Relation, f sim.ForkNumber, blk sim.BlockNumber) error {
	p.CacheForkSize(rel, f) // XLogReadBufferExtended asks smgrnblocks
	var id int
	var err error
	if f == sim.MainForkNum {
		id, err = p.ReadBuffer(&r.b, sim.BufferTag{Locator: rel.Locator, Fork: f, Block: blk})
	} else {
		id, err = p.ExtendBufferedRelTo(&r.b, rel, f, blk)
	}
	if err != nil {
		return err
	}
	if err := p.RedoPageChange(&r.b, id); err != nil {
		return err
	}
	return p.ReleaseBuffer(&r.b, id)
}

// startTruncate replays XLOG_SMGR_TRUNCATE to zero blocks: minRecoveryPoint first, then
// DropRelationBuffers on the main fork from 0, the FSM from block 2 (if longer) and the VM
// from 0 (if any).
//
// Its fixed work, besides the drop: ReplayRecord for the record, ControlFileSync because
// smgr_redo calls XLogFlush(lsn) first, which in recovery only advances minRecoveryPoint
// (UpdateMinRecoveryPoint → UpdateControlFile: write pg_control, fsync it), and, when the
// drop is done, one FileOp per truncated fork (mdtruncate's ftruncate; endDrop).
func (r *replay) startTruncate(p *sim.Pool, rel *sim.Relation) {
	p.Charge(p.Cost.ReplayRecord)
	p.Charge(p.Cost.ControlFileSync)
	r.forks, r.first = []sim.ForkNumber{sim.MainForkNum}, []sim.BlockNumber{0}
	if rel.NBlocks[sim.FSMForkNum] > fsmTruncateKeepBlock {
		r.forks, r.first = append(r.forks, sim.FSMForkNum), append(r.first, fsmTruncateKeepBlock)
	}
	if rel.NBlocks[sim.VisibilityMapForkNum] > 0 {
		r.forks, r.first = append(r.forks, sim.VisibilityMapForkNum), append(r.first, 0)
	}
	// smgr_redo asks each fork's old size before smgrtruncate (38c579b089, back-patched to
	// every supported release), so the sizes are cached even after a checkpoint forgot them.
	for _, f := range r.forks {
		p.CacheForkSize(rel, f)
	}
	r.xact = []*sim.Relation{rel}
	t0 := p.Elapsed()
	r.op = p.StartDropRelationBuffers(rel, r.forks, r.first)
	r.res.DropTime += p.Elapsed() - t0
	r.phase = phaseDrop
}

// startCommit replays a DROP or TRUNCATE transaction: for TRUNCATE the creation of each new
// relfilenode, then the commit record, whose DropRelationFiles calls DropRelationsAllBuffers.
func (r *replay) startCommit(p *sim.Pool) {
	// One table per transaction, with its indexes and TOAST, or every table in one.
	end := r.ri + r.span[r.ri]
	if r.e.SingleXact {
		end = len(r.rels)
	}
	r.xact = r.rels[r.ri:end]
	if r.e.Op == OpTruncate {
		for range r.xact {
			p.Charge(p.Cost.ReplayRecord + p.Cost.FileOp) // XLOG_SMGR_CREATE
		}
	}
	p.Charge(p.Cost.ReplayRecord) // the commit record
	t0 := p.Elapsed()
	r.op = p.StartDropRelationsAllBuffers(r.xact)
	r.res.DropTime += p.Elapsed() - t0
	r.forks, r.first = nil, nil
	r.phase = phaseDrop
}

// endDrop accounts for a finished drop and removes or truncates the files.
func (r *replay) endDrop(p *sim.Pool) {
	res := r.op.Result()
	r.res.Drops++
	r.paths[res.Path] = true
	r.res.DescriptorsChecked += res.DescriptorsChecked
	r.res.Lookups += res.Lookups
	r.res.Invalidated += res.Invalidated
	r.res.LookupMisses += res.LookupMisses
	if r.forks != nil { // a truncation
		rel := r.xact[0]
		for i, f := range r.forks {
			p.Charge(p.Cost.FileOp)
			rel.NBlocks[f] = r.first[i]
		}
		r.ri += r.span[r.ri] // the indexes and TOAST keep their pages
	} else { // a commit: minRecoveryPoint, then unlink every fork
		// xact_redo_commit calls XLogFlush(lsn) before DropRelationFiles: in recovery that
		// advances minRecoveryPoint, one write and fsync of pg_control (ControlFileSync).
		// Then mdunlinkfork, in redo, truncates each existing fork's file to nothing
		// (do_truncate) and unlinks it: two FileOps. A fork that does not exist costs a
		// failed open, which is not charged.
		p.Charge(p.Cost.ControlFileSync)
		for _, rel := range r.xact {
			for f := sim.MainForkNum; f <= sim.MaxForkNum; f++ {
				if rel.Exists(f) {
					p.Charge(2 * p.Cost.FileOp)
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

func (r *replay) finish() {
	r.phase = phaseDone
	r.res.Path = pathsWord(r.paths)
	if r.res.Path == sim.PathNone.String() {
		r.res.Path = sim.PathScan.String() // nothing dropped: as bufferscope drop has always said
	}
}

// pathsWord names the paths taken: "mixed" for both, "scan", "lookup", or "none".
func pathsWord(paths [sim.PathLookup + 1]bool) string {
	switch {
	case paths[sim.PathScan] && paths[sim.PathLookup]:
		return "mixed"
	case paths[sim.PathLookup]:
		return sim.PathLookup.String()
	case paths[sim.PathScan]:
		return sim.PathScan.String()
	}
	return sim.PathNone.String()
}

// Step performs up to n units of the replay: it is the drop lab's sim.Scenario.
func (r *replay) Step(s *sim.Sim, n int) (int, error) {
	before := r.units
	var err error
	if r.bounded {
		_, err = r.stepUntil(s.Pool, n, r.until, r.inclusive)
	} else {
		_, err = r.step(s.Pool, n)
	}
	return int(r.units - before), err
}

// Done reports whether the replay has dropped every relation.
func (r *replay) Done() bool { return r.phase == phaseDone }

// NewReplay builds a simulation that steps through one drop experiment under one policy: a
// step is one unit of the replay (a WAL record, a descriptor checked or a lookup). It has no
// workload clients and no background processes.
func NewReplay(e Experiment, policy sim.DropPolicy) (*sim.Sim, error) {
	p, rels, err := prepareDropPool(e)
	if err != nil {
		return nil, err
	}
	p.Drop = sim.DropSettings{Policy: policy, Threshold: e.Threshold}
	return sim.NewScenario(p, sim.Config{}, newReplay(p, rels, e)), nil
}

// Progress is where a drop replay stands, for drawing and counters.
type Progress struct {
	Done bool
	// Relation is the index of the relation being vacuumed or the first of the transaction
	// being committed, among the experiment's relations.
	Relation int
	Path     sim.DropPath // path of the drop under way, PathNone between drops
	// SoFar is the paths the drops have taken so far, the one under way included: "scan",
	// "lookup", "mixed" for both, or "none" before the first drop begins. Unlike Path it
	// does not go back to none between drops.
	SoFar string
	// Cursor is the next descriptor a full scan will check, or -1.
	Cursor int
	// Units counts the units of this replay performed so far: in a race, its own side's.
	Units uint64
	// Result holds the totals so far.
	Result Result
}

// ProgressOf reports the progress of the drop replay s steps (of its own replay when s
// races); the zero value for a simulation that is not one.
func ProgressOf(s *sim.Sim) Progress {
	var r *replay
	switch sc := s.Scenario().(type) {
	case *replay:
		r = sc
	case *race:
		r = sc.own
	default:
		return Progress{}
	}
	return r.progress()
}

func (r *replay) progress() Progress {
	d := Progress{Done: r.phase == phaseDone, Relation: r.ri, Cursor: -1, Units: r.units, Result: r.res}
	paths := r.paths
	if r.op != nil {
		res := r.op.Result()
		d.Path = res.Path
		paths[res.Path] = true
		d.Result.DescriptorsChecked += res.DescriptorsChecked
		d.Result.Lookups += res.Lookups
		d.Result.Invalidated += res.Invalidated
		d.Result.LookupMisses += res.LookupMisses
		d.Cursor = r.op.Cursor()
	}
	d.SoFar = pathsWord(paths)
	if d.Done {
		d.SoFar = r.res.Path
	}
	return d
}
