package drop

import (
	"fmt"
	"github.com/bufferscope/bufferscope/sim"
	"math"
	"strconv"
	"strings"
)

// Operation is the SQL command whose replay drops the relations' buffers. The zero value
// is DROP TABLE.
type Operation uint8

// The operations of the drop lab.
const (
	OpDrop     Operation = iota // DROP TABLE: the commit record unlinks the relfilenode
	OpTruncate                  // TRUNCATE: a new relfilenode, the old one unlinked at commit
	OpVacuum                    // VACUUM truncating a relation whose rows were all deleted
)

var dropOperationNames = [...]string{"drop", "truncate", "vacuum"}

// String returns "drop", "truncate" or "vacuum".
func (o Operation) String() string {
	if int(o) < len(dropOperationNames) {
		return dropOperationNames[o]
	}
	return fmt.Sprintf("op%d", uint8(o))
}

// ParseOperation parses "drop", "truncate" or "vacuum".
func ParseOperation(s string) (Operation, error) {
	for i, n := range dropOperationNames {
		if s == n {
			return Operation(i), nil
		}
	}
	return 0, fmt.Errorf("operation %q is not drop, truncate or vacuum", s)
}

// TableGroup is Count tables of Blocks blocks each, each with Indexes B-tree indexes and,
// with Toast, a TOAST table and its index. Blocks may be given relative to the pool (NB/k);
// Resolve fixes it for a pool size.
//
// DROP TABLE and TRUNCATE drop a table's heap, indexes, TOAST table and TOAST index in one
// commit record, so one DropRelationsAllBuffers call sees them all and the threshold test sums
// all their blocks; VACUUM's truncation drops only the heap's forks.
type TableGroup struct {
	Count int
	// Blocks is the size of each heap's main fork in blocks; when Divisor is not zero it is
	// NBuffers/Divisor instead.
	Blocks  int
	Divisor int
	// Indexes is the number of B-tree indexes of each table, IndexBlocks blocks each.
	Indexes int
	// Toast gives each table a TOAST table (empty: no value was long enough to be moved out
	// of line) and its index (the metapage alone).
	Toast bool
}

// MaxIndexes bounds the indexes of one table in a group.
const MaxIndexes = 16

// Resolve returns the group's heap block count for a pool of nbuffers buffers.
func (g TableGroup) Resolve(nbuffers int) int {
	if g.Divisor > 0 {
		return max(nbuffers/g.Divisor, 1)
	}
	return g.Blocks
}

// IndexBlocks is the size of one index of a table of heap blocks: a metapage and
// ⌈2×heap/3⌉ leaf pages, the size of a B-tree on an int column (index tuples of 16 bytes
// and a line pointer against heap tuples of 28 and one; an assumption, not a measurement).
func IndexBlocks(heap int) int { return 1 + (2*heap+2)/3 }

// Relations is the number of relations of each table: the heap, its indexes, and the TOAST
// table and its index.
func (g TableGroup) Relations() int {
	n := 1 + g.Indexes
	if g.Toast {
		n += 2
	}
	return n
}

// TableBlocks is the main-fork blocks of one table with its indexes and TOAST at a pool of
// nbuffers buffers: what one table adds to a drop's total.
func (g TableGroup) TableBlocks(nbuffers int) int {
	h := g.Resolve(nbuffers)
	n := h + g.Indexes*IndexBlocks(h)
	if g.Toast {
		n++ // the TOAST index's metapage; the TOAST table is empty
	}
	return n
}

// String writes the group as COUNTxBLOCKS with +Ni for N indexes and +t for TOAST:
// "1000x1", "1xNB/32", "1000x1+2i+t".
func (g TableGroup) String() string {
	s := fmt.Sprintf("%dx%d", g.Count, g.Blocks)
	if g.Divisor > 0 {
		s = fmt.Sprintf("%dxNB/%d", g.Count, g.Divisor)
	}
	if g.Indexes > 0 {
		s += fmt.Sprintf("+%di", g.Indexes)
	}
	if g.Toast {
		s += "+t"
	}
	return s
}

// ParseTableGroups parses comma-separated groups COUNTxBLOCKS[+Ni][+t], BLOCKS being a number
// or NB/k, +Ni adding N indexes to each table (+i is one) and +t a TOAST table: "1000x1",
// "1x44800,100x490", "1xNB/32", "1000x1+2i+t".
func ParseTableGroups(s string) ([]TableGroup, error) {
	var gs []TableGroup
	total := 0
	for _, part := range strings.Split(s, ",") {
		head, extras, plus := strings.Cut(strings.TrimSpace(part), "+")
		c, b, ok := strings.Cut(head, "x")
		count, err := strconv.Atoi(c)
		if !ok || err != nil || count < 1 {
			return nil, &sim.ValueError{Value: part, Problem: "not COUNTxBLOCKS, like 1000x1 or 1xNB/32"}
		}
		g := TableGroup{Count: count}
		if k, rel := strings.CutPrefix(b, "NB/"); rel {
			if g.Divisor, err = strconv.Atoi(k); err != nil || g.Divisor < 1 {
				return nil, &sim.ValueError{Value: part, Problem: "not COUNTxNB/k with a whole k ≥ 1"}
			}
		} else if g.Blocks, err = strconv.Atoi(b); err != nil || g.Blocks < 1 || g.Blocks > 1<<30 {
			return nil, &sim.ValueError{Value: part, Problem: "not COUNTxBLOCKS with BLOCKS from 1 to 2^30 or NB/k"}
		}
		if plus {
			seenI := false
			for _, x := range strings.Split(extras, "+") {
				switch {
				case x == "t" && !g.Toast:
					g.Toast = true
				case strings.HasSuffix(x, "i") && !seenI:
					seenI = true
					n := 1
					if x != "i" {
						n, err = strconv.Atoi(strings.TrimSuffix(x, "i"))
					}
					if err != nil || n < 1 || n > MaxIndexes {
						return nil, &sim.ValueError{Value: part, Problem: fmt.Sprintf("not +Ni with N indexes from 1 to %d", MaxIndexes)}
					}
					g.Indexes = n
				default:
					return nil, &sim.ValueError{Value: part, Problem: "not COUNTxBLOCKS followed by +Ni (N indexes) and +t (TOAST), like 1000x1+2i+t"}
				}
			}
		}
		if total += count * g.Relations(); total > MaxRelations {
			return nil, &sim.ValueError{Value: s, Problem: fmt.Sprintf("more than %d relations in all", MaxRelations)}
		}
		gs = append(gs, g)
	}
	return gs, nil
}

// MaxRelations bounds the relations of one drop experiment.
const MaxRelations = 100_000

// Experiment describes one run of the drop lab: a standby (or primary) whose pool holds
// the relations' pages and other data, then the operation's WAL replayed, one transaction per
// relation or all in one.
type Experiment struct {
	NBuffers    int
	Tables      []TableGroup
	Op          Operation
	SingleXact  bool // all relations in one transaction (VACUUM always runs one per relation)
	InRecovery  bool // a standby replaying the primary's WAL; false: the primary itself
	Policy      sim.DropPolicy
	Threshold   sim.Threshold // the zero value is NBuffers/32
	Cost        sim.CostModel
	MaxReplayed int // refuse experiments that would replay more page records than this; 0: no limit
	// Version is the server's major version; the zero value is sim.DefaultVersion (17).
	Version sim.Version
	// Checkpoint replays a checkpoint record after the relations were last written and
	// before the operation: from PostgreSQL 17 it forgets their cached sizes
	// (sim.Pool.RedoCheckpoint), so a commit that drops them scans the pool.
	Checkpoint bool
}

// DropBlocks returns the blocks of one drop call, the smallest and the largest, and of all
// of them: what each call weighs against BUF_DROP_FULL_SCAN_THRESHOLD. A table drops with
// its indexes and TOAST in one call, all tables at once in a single transaction; VACUUM
// truncates each heap alone.
func (e Experiment) DropBlocks() (smallest, largest, total int) {
	smallest = math.MaxInt
	for _, g := range e.Tables {
		n := g.TableBlocks(e.NBuffers)
		if e.Op == OpVacuum {
			n = g.Resolve(e.NBuffers)
		}
		total += g.Count * n
		smallest, largest = min(smallest, n), max(largest, n)
	}
	if e.SingleXact && e.Op != OpVacuum {
		smallest, largest = total, total
	}
	if largest == 0 {
		smallest = 0
	}
	return smallest, largest, total
}

// Result is what one experiment did and how long it took in modelled time.
type Result struct {
	Path               string // "scan", "lookup" or "mixed"
	Drops              int    // drop calls made
	DescriptorsChecked uint64
	Lookups            uint64
	Invalidated        uint64
	LookupMisses       uint64       // lookups that found no buffer
	DropTime           sim.Duration // the buffer work of the drops alone
	Time               sim.Duration // everything replayed, drops included
}

// Free-space map and visibility map geometry for 8 kB pages (fsm_internals.h, visibilitymap.c).
const (
	slotsPerFSMPage      = 4069  // LeafNodesPerPage
	heapBlocksPerVMPage  = 32672 // HEAPBLOCKS_PER_PAGE
	fsmTruncateKeepBlock = 2     // FreeSpaceMapPrepareTruncateRel(0) keeps the root and first internal page
)

// fsmBlocks returns the size of the FSM fork of a heap of n blocks: one leaf page per
// slotsPerFSMPage heap blocks, an internal page per slotsPerFSMPage leaves, and the root.
func fsmBlocks(n int) int {
	leaves := max((n+slotsPerFSMPage-1)/slotsPerFSMPage, 1)
	return 1 + (leaves+slotsPerFSMPage-1)/slotsPerFSMPage + leaves
}

// RunExperiment builds the pool, fills it and replays the operation under each policy,
// starting every policy from a copy of the same filled pool. Policy and sim.Threshold of e are
// ignored in favour of policies.
//
// The pool first receives the relations' pages (as replaying their inserts left them: at
// BM_MAX_USAGE_COUNT), then the pages of another relation until every buffer is used. Sizes of the forks are cached,
// as the startup process asked for them while replaying the inserts (smgrextend) and the
// VACUUM records. With Checkpoint, a checkpoint record is replayed first (from PostgreSQL 17
// it forgets every cached size; a VACUUM's page records and its truncation ask for the sizes
// again, a commit's drop does not). Replay then charges, per record, ReplayRecord plus the
// ReadBuffer calls its redo makes; a truncation or a commit that drops files first updates
// minRecoveryPoint (XLogFlush in recovery: a write and fsync of pg_control, ControlFileSync)
// and then costs a FileOp per truncated fork, or two per unlinked fork (truncate, unlink).
//
// The fixed work of one dropping commit at the defaults, then, is ReplayRecord 2 µs +
// ControlFileSync 100 µs (server device) + 2 × FileOp 15 µs per existing fork = 132 µs for a
// one-fork table, plus for TRUNCATE its XLOG_SMGR_CREATE (2 µs + 15 µs): 149 µs, so 1000
// TRUNCATEs replay in 0.149 s besides their drops, inside table B's patched 0.206 s step.
//   - vacuum, per relation: for each heap page a prune record (the heap page and its FSM leaf)
//     and a visible record (the VM page and the heap page); then XLOG_SMGR_TRUNCATE, whose
//     smgrtruncate calls DropRelationBuffers on the main fork from 0, the FSM from block 2 and
//     the VM from 0 (smgr_redo, FreeSpaceMapPrepareTruncateRel, visibilitymap_prepare_truncate).
//   - truncate: XLOG_SMGR_CREATE of the new relfilenode per relation, then the commit record.
//   - drop and truncate: the commit record's DropRelationFiles calls DropRelationsAllBuffers
//     with the transaction's relations.
func RunExperiment(e Experiment, policies ...sim.DropPolicy) ([]Result, error) {
	base, rels, err := prepareDropPool(e)
	if err != nil {
		return nil, err
	}
	var out []Result
	for i, pol := range policies {
		p, prels := base, rels
		if i < len(policies)-1 {
			p, prels = base.Clone(rels)
		}
		p.Drop = sim.DropSettings{Policy: pol, Threshold: e.Threshold}
		res, err := replayDrop(p, prels, e)
		if err != nil {
			return nil, err
		}
		out = append(out, res)
	}
	return out, nil
}

// prepareDropPool builds and fills the pool of an experiment and returns it with the
// experiment's relations.
func prepareDropPool(e Experiment) (*sim.Pool, []*sim.Relation, error) {
	if e.Op == OpVacuum && e.SingleXact {
		return nil, nil, fmt.Errorf("VACUUM cannot run inside a transaction block: it takes one per relation")
	}
	p, err := sim.NewPool(e.NBuffers, e.Version, e.Cost)
	if err != nil {
		return nil, nil, err
	}
	var rels []*sim.Relation
	replayed := 0
	add := func(name string, blocks int) (*sim.Relation, error) {
		r := &sim.Relation{
			Name:      name,
			Locator:   sim.RelFileLocator{SpcOid: sim.DefaultTablespaceOid, DbOid: sim.DefaultDatabaseOid, RelNumber: sim.FirstRelNumber + sim.Oid(len(rels))},
			Permanent: true,
		}
		r.NBlocks[sim.MainForkNum] = sim.BlockNumber(blocks)
		r.SizeCached = [sim.MaxForkNum + 1]bool{true, true, true, true}
		if _, err := p.AddRelation(r); err != nil {
			return nil, err
		}
		rels = append(rels, r)
		return r, nil
	}
	table := 0
	for _, g := range e.Tables {
		blocks := g.Resolve(e.NBuffers)
		for range g.Count {
			_, err := add(fmt.Sprintf("t%d", table), blocks)
			if err != nil {
				return nil, nil, err
			}
			if e.Op == OpVacuum {
				// The FSM and the VM are made by the VACUUM, whose records replay makes
				// them again (vacuumPage): a table only inserted into and deleted from has
				// neither, and XLogReadBufferExtended makes both.
				replayed += blocks
			}
			for i := range g.Indexes {
				if _, err := add(fmt.Sprintf("t%d_i%d", table, i), IndexBlocks(blocks)); err != nil {
					return nil, nil, err
				}
			}
			if g.Toast {
				if _, err := add(fmt.Sprintf("t%d_toast", table), 0); err != nil {
					return nil, nil, err
				}
				if _, err := add(fmt.Sprintf("t%d_toast_index", table), 1); err != nil {
					return nil, nil, err
				}
			}
			table++
		}
	}
	if e.MaxReplayed > 0 && replayed > e.MaxReplayed {
		return nil, nil, fmt.Errorf("the experiment would replay %d page records, more than the limit %d", replayed, e.MaxReplayed)
	}
	others := &sim.Relation{Name: "others", Locator: sim.RelFileLocator{SpcOid: sim.DefaultTablespaceOid, DbOid: sim.DefaultDatabaseOid, RelNumber: sim.FirstRelNumber + sim.Oid(len(rels))}, Permanent: true}
	others.NBlocks[sim.MainForkNum] = sim.BlockNumber(e.NBuffers)
	if _, err := p.AddRelation(others); err != nil {
		return nil, nil, err
	}
	// The relations' pages are full of rows, each row an insert record whose redo pinned the
	// page: they stand at BM_MAX_USAGE_COUNT. The other relation's pages are at 1. (At a
	// uniform 1 the first buffer a replay allocates, for a fork VACUUM makes, would send the
	// clock sweep round the pool once and then take the relations' own pages in a row, each
	// miss evicting the page the next record needs.)
	for _, r := range rels {
		for f := sim.MainForkNum; f <= sim.VisibilityMapForkNum; f++ {
			p.PrewarmUsage(r, f, sim.BMMaxUsageCount)
		}
	}
	for f := sim.MainForkNum; f <= sim.VisibilityMapForkNum; f++ {
		p.Prewarm(others, f)
	}
	p.TakeElapsed() // filling the pool happened before the experiment
	p.InRecovery = e.InRecovery
	return p, rels, nil
}

// replayDrop replays the experiment's operation on a filled pool to the end.
func replayDrop(p *sim.Pool, rels []*sim.Relation, e Experiment) (Result, error) {
	r := newReplay(p, rels, e)
	for {
		done, err := r.step(p, 1<<30)
		if err != nil || done {
			p.TakeElapsed()
			return r.res, err
		}
	}
}
