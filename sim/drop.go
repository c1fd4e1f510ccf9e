package sim

import (
	"fmt"
	"math"
	"math/bits"
	"slices"
)

// RelsBsearchThreshold mirrors RELS_BSEARCH_THRESHOLD in bufmgr.c: above this many relations
// a full scan sorts them once and binary-searches each buffer's relation.
const RelsBsearchThreshold = 20

// DropPolicy decides how dropping a relation's buffers finds them. The zero value is
// PostgreSQL 14's rule.
type DropPolicy uint8

// The drop policies.
const (
	// DropPG14 looks the blocks up when every size is cached and the total is below
	// BUF_DROP_FULL_SCAN_THRESHOLD, and scans the pool otherwise (commits d6ad34f341 and
	// bea449c635, PostgreSQL 14).
	DropPG14 DropPolicy = iota
	// DropPG13 always scans the whole pool, as PostgreSQL 13 and earlier do.
	DropPG13
	// DropLookup always looks the blocks up when every size is cached, whatever their number:
	// the patch forced on for the published threshold test.
	DropLookup
)

var dropPolicyNames = [...]string{"pg14", "pg13", "lookup"}

// String returns "pg14", "pg13" or "lookup".
func (d DropPolicy) String() string {
	if int(d) < len(dropPolicyNames) {
		return dropPolicyNames[d]
	}
	return fmt.Sprintf("policy%d", uint8(d))
}

// ParseDropPolicy parses "pg13", "pg14" or "lookup".
func ParseDropPolicy(s string) (DropPolicy, error) {
	for i, n := range dropPolicyNames {
		if s == n {
			return DropPolicy(i), nil
		}
	}
	return 0, fmt.Errorf("drop policy %q is not pg13, pg14 or lookup", s)
}

// DropPath says how a drop found the buffers. The zero value means nothing was dropped yet.
type DropPath uint8

// The two ways to find a relation's buffers.
const (
	PathNone   DropPath = iota
	PathScan            // every descriptor's tag checked
	PathLookup          // one mapping-table lookup per block (FindAndDropRelationBuffers)
)

var dropPathNames = [...]string{"none", "scan", "lookup"}

// String returns "none", "scan" or "lookup".
func (d DropPath) String() string {
	if int(d) < len(dropPathNames) {
		return dropPathNames[d]
	}
	return fmt.Sprintf("path%d", uint8(d))
}

// DropSettings are the pool's settings for dropping buffers.
type DropSettings struct {
	Policy DropPolicy
	// Threshold replaces BUF_DROP_FULL_SCAN_THRESHOLD; the zero value is NBuffers/32.
	Threshold Threshold
}

// BufDropFullScanThreshold mirrors BUF_DROP_FULL_SCAN_THRESHOLD: (uint64) NBuffers/32 unless
// the settings give another value.
func (p *Pool) BufDropFullScanThreshold() uint64 { return p.Drop.Threshold.Resolve(p.NBuffers) }

// smgrnblocksCached mirrors smgrnblocks_cached: a fork's size when it is cached and the
// process is in recovery, and InvalidBlockNumber otherwise — always, on a primary.
func (p *Pool) smgrnblocksCached(r *Relation, f ForkNumber) BlockNumber {
	if p.InRecovery && r.SizeCached[f] {
		return r.NBlocks[f]
	}
	return InvalidBlockNumber
}

// DropResult is what one drop did.
type DropResult struct {
	Path DropPath
	// Blocks is nBlocksToInvalidate, the total the path choice compared with the threshold;
	// it is meaningful only when SizesCached.
	Blocks      uint64
	SizesCached bool
	// DescriptorsChecked counts descriptors a scan visited; Lookups counts mapping-table
	// lookups; Invalidated counts buffers dropped.
	DescriptorsChecked uint64
	Lookups            uint64
	Invalidated        uint64
	// LookupMisses counts lookups that found no buffer: the block was not in the pool.
	LookupMisses uint64
	// Bsearch reports that a scan over many relations sorted them and binary-searched.
	Bsearch bool
	Time    Duration
}

// String summarises the result on one line, as transcripts print it.
func (r DropResult) String() string {
	s := fmt.Sprintf("path=%s", r.Path)
	if r.Path == PathScan && r.Bsearch {
		s += " bsearch"
	}
	if r.SizesCached {
		s += fmt.Sprintf(" blocks=%d", r.Blocks)
	} else {
		s += " blocks=uncached"
	}
	return s + fmt.Sprintf(" checked=%d lookups=%d invalidated=%d time=%v", r.DescriptorsChecked, r.Lookups, r.Invalidated, r.Time)
}

// dropFork is one fork's range of blocks for the lookup path.
type dropFork struct {
	loc          RelFileLocator
	fork         ForkNumber
	first, limit BlockNumber
}

// DropOp is a drop in progress, advanced a few units at a time so a renderer can follow the
// scan cursor or the lookups; the synchronous Drop functions run it to the end.
type DropOp struct {
	res DropResult
	// scan
	locs    []RelFileLocator // sorted when bsearch
	relNums []Oid            // the locators' relfilenumbers, sorted, to find candidates
	bsearch bool
	forks   []ForkNumber  // DropRelationBuffers: forks to drop, nil for all forks
	firsts  []BlockNumber // and their first blocks
	next    int           // next descriptor to check
	// lookup
	targets []dropFork
	ti      int
	blk     BlockNumber
	// waiting is the buffer the op has found but cannot invalidate while it is pinned, or -1.
	waiting int
}

// Done reports whether the op has checked every descriptor or looked up every block.
func (o *DropOp) Done(p *Pool) bool {
	if o.waiting >= 0 {
		return false
	}
	if o.res.Path == PathScan {
		return o.next >= p.NBuffers
	}
	return o.ti >= len(o.targets)
}

// ErrBufferPinned reports that a drop met a pinned buffer of the relation. PostgreSQL's
// caller holds AccessExclusiveLock, so only an I/O can pin it, and InvalidateBuffer waits for
// that; a drop here stops and can be resumed once the pin is gone.
type ErrBufferPinned struct{ Buffer int }

func (e ErrBufferPinned) Error() string {
	return fmt.Sprintf("buffer %d is pinned: InvalidateBuffer waits for the pin to go", e.Buffer)
}

// DropRelationBuffers mirrors DropRelationBuffers in bufmgr.c: remove from the pool every
// page of rel's forks at or after the fork's first block, without writing dirty pages. The
// lookup path is taken only if every fork's size is cached (in recovery) and the total of
// blocks to drop is below BUF_DROP_FULL_SCAN_THRESHOLD; otherwise every descriptor is checked.
func (p *Pool) DropRelationBuffers(rel *Relation, forks []ForkNumber, firstDelBlock []BlockNumber) (DropResult, error) {
	op := p.StartDropRelationBuffers(rel, forks, firstDelBlock)
	return p.runDrop(op)
}

// DropRelationsAllBuffers mirrors DropRelationsAllBuffers in bufmgr.c: remove every page of
// every fork of the relations. A fork without a cached size is skipped if it does not exist
// and forces a full scan if it does; the lookup path needs the total over all relations and
// forks to be below the threshold.
func (p *Pool) DropRelationsAllBuffers(rels []*Relation) (DropResult, error) {
	op := p.StartDropRelationsAllBuffers(rels)
	return p.runDrop(op)
}

func (p *Pool) runDrop(op *DropOp) (DropResult, error) {
	start := p.elapsed
	for !op.Done(p) {
		if !p.AdvanceDrop(op, 1<<30) {
			op.res.Time = p.elapsed - start
			return op.res, ErrBufferPinned{Buffer: op.waiting}
		}
	}
	op.res.Time = p.elapsed - start
	return op.res, nil
}

// choosePath applies the policy to a drop whose sizes are cached (or not) and whose total
// of blocks is blocks.
func (p *Pool) choosePath(cached bool, blocks uint64) DropPath {
	switch {
	case !cached || p.Drop.Policy == DropPG13:
		return PathScan
	case p.Drop.Policy == DropLookup || blocks < p.BufDropFullScanThreshold():
		return PathLookup
	}
	return PathScan
}

// StartDropRelationBuffers begins DropRelationBuffers as a DropOp: it chooses the path (the
// synchronous DropRelationBuffers runs it to the end).
func (p *Pool) StartDropRelationBuffers(rel *Relation, forks []ForkNumber, firstDelBlock []BlockNumber) *DropOp {
	op := &DropOp{locs: []RelFileLocator{rel.Locator}, forks: forks, firsts: firstDelBlock, waiting: -1}
	cached := true
	var blocks uint64
	nForkBlock := make([]BlockNumber, len(forks))
	for i, f := range forks {
		nForkBlock[i] = p.smgrnblocksCached(rel, f)
		if nForkBlock[i] == InvalidBlockNumber {
			cached = false
			break
		}
		if nForkBlock[i] > firstDelBlock[i] {
			blocks += uint64(nForkBlock[i] - firstDelBlock[i])
		}
	}
	op.res.SizesCached, op.res.Blocks = cached, blocks
	op.res.Path = p.choosePath(cached, blocks)
	if op.res.Path == PathLookup {
		for i, f := range forks {
			op.targets = append(op.targets, dropFork{loc: rel.Locator, fork: f, first: firstDelBlock[i], limit: nForkBlock[i]})
		}
		op.startLookups()
	}
	return op
}

// StartDropRelationsAllBuffers begins DropRelationsAllBuffers as a DropOp.
func (p *Pool) StartDropRelationsAllBuffers(rels []*Relation) *DropOp {
	op := &DropOp{waiting: -1}
	cached := true
	var blocks uint64
	var targets []dropFork
	for _, r := range rels {
		for f := MainForkNum; f <= MaxForkNum && cached; f++ {
			n := p.smgrnblocksCached(r, f)
			if n == InvalidBlockNumber {
				if !r.Exists(f) {
					continue
				}
				cached = false
				break
			}
			blocks += uint64(n)
			targets = append(targets, dropFork{loc: r.Locator, fork: f, limit: n})
		}
		op.locs = append(op.locs, r.Locator)
	}
	op.res.SizesCached, op.res.Blocks = cached, blocks
	op.res.Path = p.choosePath(cached, blocks)
	if op.res.Path == PathLookup {
		op.targets = targets
		op.startLookups()
		return op
	}
	if op.bsearch = len(op.locs) > RelsBsearchThreshold; op.bsearch {
		op.res.Bsearch = true
		slices.SortFunc(op.locs, compareLocators)
		n := len(op.locs)
		p.charge(Duration(n*bits.Len(uint(n))) * p.Cost.LocatorCompare) // qsort, once
	}
	return op
}

// startLookups positions a lookup op at its first non-empty range.
func (o *DropOp) startLookups() {
	for o.ti < len(o.targets) && o.targets[o.ti].first >= o.targets[o.ti].limit {
		o.ti++
	}
	if o.ti < len(o.targets) {
		o.blk = o.targets[o.ti].first
	}
}

// compareLocators mirrors rlocator_comparator: by relfilenumber, then database, then
// tablespace.
func compareLocators(a, b RelFileLocator) int {
	switch {
	case a.RelNumber != b.RelNumber:
		return cmpOid(a.RelNumber, b.RelNumber)
	case a.DbOid != b.DbOid:
		return cmpOid(a.DbOid, b.DbOid)
	}
	return cmpOid(a.SpcOid, b.SpcOid)
}

func cmpOid(a, b Oid) int {
	if a < b {
		return -1
	}
	if a > b {
		return 1
	}
	return 0
}

// AdvanceDrop performs up to units descriptor checks or lookups. It returns false when it
// stopped at a pinned buffer (op.waiting), true otherwise.
func (p *Pool) AdvanceDrop(o *DropOp, units int) bool {
	return p.AdvanceDropUntil(o, units, Forever, true)
}

// Forever is the latest Duration: a time limit that never stops anything.
const Forever = Duration(math.MaxInt64)

// AdvanceDropUntil is AdvanceDrop that begins no descriptor check or lookup once the time
// charged since the last TakeElapsed (Elapsed) has reached limit, or has passed it when
// inclusive: whoever runs two pools on one modelled clock stops one where the other stands.
// A unit begun before the limit is finished, whatever it costs. It returns false when it
// stopped at a pinned buffer, true otherwise; the op's Result counts the units performed.
func (p *Pool) AdvanceDropUntil(o *DropOp, units int, limit Duration, inclusive bool) bool {
	if o.waiting >= 0 {
		if !p.finishInvalidate(o, o.waiting) {
			return false
		}
		o.stepPast()
	}
	if o.res.Path == PathLookup {
		return p.advanceLookups(o, units, limit, inclusive)
	}
	if o.relNums == nil {
		for _, l := range o.locs {
			o.relNums = append(o.relNums, l.RelNumber)
		}
		slices.Sort(o.relNums)
	}
	// Descriptors whose relfilenumber matches no relation are passed in bulk through the
	// packed array; each is charged exactly as the precheck would cost.
	check := p.Cost.DescriptorScanCost(p.NBuffers)
	miss := check + Duration(max(len(o.locs)-1, 0))*p.Cost.LocatorCompare
	if o.bsearch {
		miss = check + Duration(bits.Len(uint(len(o.locs))))*p.Cost.LocatorCompare
	}
	for units > 0 && o.next < p.NBuffers {
		// No more descriptors can be checked before the limit than at the cheapest check, so
		// the search for the next candidate need not look further.
		end := min(p.NBuffers, o.next+p.beginBefore(units, check, limit, inclusive))
		if end == o.next {
			break
		}
		i := o.nextCandidate(p.relNums, o.next, end)
		if i > o.next {
			n := p.beginBefore(i-o.next, miss, limit, inclusive)
			p.Stats.DescriptorsChecked += uint64(n)
			o.res.DescriptorsChecked += uint64(n)
			p.charge(Duration(n) * miss)
			units -= n
			o.next += n
			if o.next < i {
				break // the time limit came among them
			}
		}
		if i == end || !p.before(limit, inclusive) {
			break
		}
		// A candidate: the full precheck against the locators, then the forks and blocks.
		d := &p.desc[i]
		p.Stats.DescriptorsChecked++
		o.res.DescriptorsChecked++
		units--
		p.charge(check)
		match := false
		if o.bsearch {
			_, match = slices.BinarySearchFunc(o.locs, d.Tag.Locator, compareLocators)
			p.charge(Duration(bits.Len(uint(len(o.locs)))) * p.Cost.LocatorCompare)
		} else {
			for j, l := range o.locs {
				if j > 0 {
					p.charge(p.Cost.LocatorCompare)
				}
				if d.Tag.Locator == l {
					match = true
					break
				}
			}
		}
		if match && o.forks != nil {
			match = false
			for j, f := range o.forks {
				if d.Tag.Fork == f && d.Tag.Block >= o.firsts[j] {
					match = true
					break
				}
			}
		}
		if match && !p.finishInvalidate(o, i) {
			return false
		}
		o.next++
	}
	return true
}

// before reports whether a unit may begin now: the time charged is before limit, or at it
// when inclusive.
func (p *Pool) before(limit Duration, inclusive bool) bool {
	return p.elapsed < limit || inclusive && p.elapsed == limit
}

// beginBefore returns how many of n units costing each per can begin one after the other
// while the time charged is before limit (or at it, when inclusive).
func (p *Pool) beginBefore(n int, per, limit Duration, inclusive bool) int {
	gap := limit - p.elapsed
	switch {
	case gap < 0 || gap == 0 && !inclusive:
		return 0
	case per <= 0 || limit == Forever:
		return n
	}
	// Unit j begins at elapsed + j·per: those with j·per < gap (≤ gap when inclusive).
	q := gap / per
	if q >= Duration(n) {
		return n
	}
	if inclusive || gap%per != 0 {
		q++
	}
	return min(int(q), n)
}

// nextCandidate returns the first index in [from, to) whose relfilenumber belongs to one of
// the op's relations, or to.
func (o *DropOp) nextCandidate(relNums []Oid, from, to int) int {
	if len(o.relNums) == 1 {
		target := o.relNums[0]
		for i := from; i < to; i++ {
			if relNums[i] == target {
				return i
			}
		}
		return to
	}
	if len(o.relNums) == 0 {
		return to
	}
	// Most descriptors hold a page of another relation, or none, whose relfilenumber lies
	// outside the sorted relNums' range: one unsigned comparison (v−lo ≤ hi−lo wraps below
	// lo) rejects them before the binary search, which alone took most of a 100GB
	// reproduction's time. It only skips searches that would fail, so the result is the same.
	lo, hi := o.relNums[0], o.relNums[len(o.relNums)-1]
	span := hi - lo
	for i := from; i < to; i++ {
		if v := relNums[i]; v-lo <= span {
			if _, ok := slices.BinarySearch(o.relNums, v); ok {
				return i
			}
		}
	}
	return to
}

// finishInvalidate invalidates buffer id for the op, or records that the op waits for it
// and returns false while it is pinned.
func (p *Pool) finishInvalidate(o *DropOp, id int) bool {
	if p.desc[id].State.RefCount() != 0 {
		o.waiting = id
		return false
	}
	o.waiting = -1
	p.invalidateBuffer(id)
	// InvalidateBuffer hashes the tag again and deletes the entry under the exclusive
	// partition lock: the price of a lookup.
	p.charge(p.Cost.BufTableLookupCost(p.NBuffers))
	o.res.Invalidated++
	return true
}

// stepPast moves the op beyond the buffer or block it waited on.
func (o *DropOp) stepPast() {
	if o.res.Path == PathScan {
		o.next++
		return
	}
	if o.blk++; o.blk >= o.targets[o.ti].limit {
		o.ti++
		o.startLookups()
	}
}

// advanceLookups mirrors FindAndDropRelationBuffers: for every block of each fork, a lookup
// under the shared partition lock, then a recheck of the tag and InvalidateBuffer.
// It begins a lookup only while the time charged is before limit (AdvanceDropUntil).
func (p *Pool) advanceLookups(o *DropOp, units int, limit Duration, inclusive bool) bool {
	for ; units > 0 && o.ti < len(o.targets) && p.before(limit, inclusive); units-- {
		t := &o.targets[o.ti]
		tag := BufferTag{Locator: t.loc, Fork: t.fork, Block: o.blk}
		k := packTag(tag)
		hash := k.hash()
		p.lockPartition(hash)
		p.Stats.Lookups++
		o.res.Lookups++
		p.charge(p.Cost.BufTableLookupCost(p.NBuffers))
		// The recheck under the header lock: the tag cannot have changed here, as no other
		// process runs during a step.
		id := p.table.lookup(k, hash)
		// A lookup is an EvLookup on the buffer found, or on -1 for a block not in the pool.
		p.emit(Event{Kind: EvLookup, Buffer: int32(id)})
		if id < 0 {
			o.res.LookupMisses++
		}
		if id >= 0 && p.desc[id].Tag == tag && !p.finishInvalidate(o, id) {
			return false
		}
		o.stepPast()
	}
	return true
}

// Result returns what the op has done so far; its Path is chosen when the op starts.
func (o *DropOp) Result() DropResult { return o.res }

// Cursor returns the next descriptor a full scan checks, or -1 for the lookup path.
func (o *DropOp) Cursor() int {
	if o.res.Path != PathScan {
		return -1
	}
	return o.next
}

// Waiting returns the pinned buffer the op waits on, or -1.
func (o *DropOp) Waiting() int { return o.waiting }

// ForgetsSizesAtCheckpoint reports whether replaying a checkpoint record frees the startup
// process's SMgrRelations, and with them every cached fork size (smgr_cached_nblocks): true
// from PostgreSQL 17. Commit 8c8f7b199d ("Fix leak with SMgrRelations in startup process",
// September 2025) calls smgrdestroyall() in xlog_redo after a checkpoint record, online or
// shutdown, and was back-patched to 17 and 18 (its message: "backpatch down to v17", where
// 21d9c3ee4e gave SMgrRelations their lifetime); which minor releases carry it is not
// checked here.
func (v Version) ForgetsSizesAtCheckpoint() bool { return v.Resolve() >= 17 }

// RedoCheckpoint is the part of xlog_redo for a checkpoint record that concerns drops: from
// PostgreSQL 17 it mirrors smgrdestroyall(), forgetting every relation's cached sizes, so a
// relation that nothing touches again before it is dropped is dropped by a full scan however
// small it is (a fork without a cached size that exists forces the scan). It does nothing
// outside recovery or before 17.
func (p *Pool) RedoCheckpoint() {
	if !p.InRecovery || !p.Version.ForgetsSizesAtCheckpoint() {
		return
	}
	for _, r := range p.cat.rels {
		r.SizeCached = [MaxForkNum + 1]bool{}
	}
}

// CacheForkSize mirrors what smgrnblocks does for the drop paths in recovery: it caches the
// size of rel's fork f, as a redo routine's read of the fork (XLogReadBufferExtended) or
// smgr_redo's truncation (which asks for each fork's old size) does.
func (p *Pool) CacheForkSize(r *Relation, f ForkNumber) {
	if p.InRecovery {
		r.SizeCached[f] = true
	}
}
