// Package pins is the pins lab: B-tree leaf-page pins and LP_DEAD hints. Index scans that
// find entries pointing at dead heap tuples mark them LP_DEAD (_bt_killitems) so later scans
// skip them. Keeping the leaf pin (before PostgreSQL 9.5) makes that always safe but blocks
// VACUUM's cleanup lock; dropping it (9.5 and later, MVCC scans of logged indexes) frees
// VACUUM, but the hint may then be set only if the page LSN has not moved, so on hot pages
// hints are lost, dead entries pile up and throughput sags.
//
// The model is a database server (server.go) of pgbench clients on a number of CPU cores,
// one table (heap.go) and its B-tree index (btree.go) whose pages are buffers of the shared
// buffer pool, row locks, a group-committing WAL device and VACUUM, stepped event by event in virtual
// time with its costs in cost.go. The lab (this file), its parameters (params.go) and its
// headless experiment with the reproduction of the published table (reproduce.go) follow the
// lab shape of package lab.
//
// # Time scale
//
// The published runs last 10 minutes at up to 330,000 transactions a second; simulating
// that op by op for 24 runs would take hours. A run therefore simulates its duration divided
// by the scale parameter (1000 by default: 600s becomes 0.6 s of the server, a few hundred
// thousand transactions, each op by op), with the slices and VACUUM's naptime divided
// alike. TPS is per simulated second. What the scale changes: VACUUM runs and slices hold
// 1000 times fewer transactions than the real ones, so dead items accumulate between
// VACUUMs over far fewer updates and a slice's TPS has more sampling noise. Queue waits,
// WAL flushes and the horizon's lag stay in real microseconds, so a 5 ms slice sees bursts
// that a 5 s one would average out: the slices' spread is larger than at scale 1, and at a
// few hundred clients TPS depends on the scale (at 650 clients about 42,000 at scale 1000
// and 24,500 at scale 200). At 10 to 20 clients it barely does. The page shows every time
// in this simulated server time: the counters (Now, RunLength), the slices and naptime
// (SliceSeconds, NaptimeSeconds) and the charts' axes.
//
// # Deviations from PostgreSQL
//
//   - The horizon (RecentGlobalXmin) is the oldest xmin of a running transaction's snapshot,
//     an xmin being the oldest xid running when the snapshot was taken; an UPDATE takes its
//     xid in heap_update, before any wait for the row lock, and SELECTs take none. A
//     version whose updater's xid is not below the horizon is recently dead, visited by
//     scans but neither marked nor removed. Each backend tests versions (kill_prior_tuple,
//     _bt_check_unique, heap pruning) against the RecentGlobalXmin its last snapshot
//     computed, and VACUUM against the OldestXmin of its start. Snapshots are taken once per transaction
//     (each is one statement); VACUUM's own snapshot and replication slots are ignored.
//   - Heap pages (heap.go) hold 61 rows each at fillfactor 100. They are buffers of the pool,
//     as the index's pages are, and the pool starts holding every page of both (the steady
//     state of a long run, or pg_prewarm). A scan's heap fetch through an index item pins
//     the item's page (heapam_index_fetch_tuple's ReleaseAndReadBuffer) and holds its last
//     page until the statement ends; _bt_check_unique's fetches pin and release each page at
//     once. An UPDATE is HOT (no index entry, no _bt_check_unique) when the new version fits
//     on the old one's page; otherwise the new version goes to one shared tail page
//     (RelationGetBufferForTuple without the FSM or per-backend target blocks). heap_update
//     pins its pages for its own work only and WAL-logs the change. A fetch arriving on a
//     page with less than a tenth of it free and a version dead to its RecentGlobalXmin
//     prunes it (heap_page_prune_opt) if no other backend pins it
//     (ConditionalLockBufferForCleanup). VACUUM's heap pass reads every page the visibility
//     map does not let it skip (runs of at least 32 all-visible pages), prunes those no other
//     backend pins, never waiting for one, and marks all-visible the pages left with nothing
//     dead or newer than its OldestXmin; pgbench -i leaves every page all-visible. A fetch
//     through an index item costs a heap visit (pin, lock, the first tuple) and each further
//     version of its HOT chain a much smaller HOTMember, as heap_hot_search_buffer walks them
//     on the locked page; VACUUM's visit of a page costs the same, a HeapVisit and a HOTMember
//     for each further tuple. So modelled, about 97% of the UPDATEs at 20 clients are HOT,
//     and in a run shortened by the time scale the leftmost leaf hardly splits; the 2017
//     thread found it split down to about 17 keys after 10 minutes, which a thousand times
//     more non-HOT updates could do at that rate. Not modelled: heap pages' content locks,
//     VACUUM's second heap pass (a pruned version's space is free at once), hint bits on heap
//     tuples, the free space map, and index-only scans' use of the visibility map (they fetch
//     the heap as plain scans do).
//   - The index's internal pages (the root) are priced by DescendLevel but are not buffers;
//     the metapage is a buffer nobody reads.
//   - A read of a page not in the pool (a pool smaller than the table and index) is priced by
//     the pool's cost model (ReadOSCache, and Write for a dirty victim) without the victim's
//     WAL flush; a relation's extension is free, its work being part of HeapUpdate and Split.
//   - Simple deletion removes only LP_DEAD items (PostgreSQL 13's rule); the heap-block-guided
//     extra deletion and bottom-up deletion of 14 and later, and deduplication, are not
//     modelled.
//   - A key's items stay on one leaf (splitPoint); a leaf full of one key's versions grows
//     past its capacity instead of splitting. Splits place the new page at the middle key
//     boundary, not by _bt_findsplitloc's free-space rules.
//   - Content locks are held for a phase's CPU time only, without a wait queue: a waiter
//     sleeps until the holder's phase ends; new share lockers never wait for a queued
//     exclusive one. LockBufferForCleanup's order (exclusive lock, then refcount check) is
//     checked as refcount first, then the content lock.
//   - Backends run a phase to its end once on a core (no preemption); the run queue is first
//     come first served. VACUUM uses no core.
//   - A split's new page is not stamped through the pool separately; it takes the left page's
//     LSN. The leaf LSN of a logged index is the pool's WAL position after LogPageChange; an
//     unlogged index before 19 keeps its LSN; 19's fake LSNs are a counter.
//   - Checksums and wal_log_hints (a hint's full-page image moving the LSN) are not modelled.
//   - VACUUM visits the leaves in key order of the moment; a split during its pass may make it
//     visit a page twice or skip one (PostgreSQL uses the vacuum cycle ID).
package pins

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/bufferscope/bufferscope/sim"
	"github.com/bufferscope/bufferscope/sim/lab"
)

// Lab is the pins lab.
type Lab struct{}

// Info names the pins lab.
func (Lab) Info() lab.Info {
	return lab.Info{
		Name: "pins", Command: "pins", Title: "Pins",
		Summary: "B-tree leaf pins, lost LP_DEAD hints and the throughput they cost",
	}
}

// Params returns the pins lab's parameter table.
func (Lab) Params() *lab.Table { return table }

// New builds the server v describes, as a scenario of its pool.
func (Lab) New(v lab.Values) (lab.Run, error) {
	cfg, nb, dur, slice := ConfigOf(v)
	srv, err := NewServer(cfg, nb, slice)
	if err != nil {
		return nil, err
	}
	sc := &scenario{srv: srv, end: dur}
	r := &run{srv: srv, sc: sc, end: dur}
	r.s = sim.NewScenario(srv.Pool, sim.Config{Seed: cfg.Seed}, sc)
	return r, nil
}

// scenario steps the server: one unit is one event (a backend's phase, a flush ending,
// VACUUM's step on a leaf). The simulation's clock follows the server's.
type scenario struct {
	srv    *Server
	end    sim.Duration
	events uint64
}

// Step runs up to n events. The pool's own charges for the server's buffer calls are
// dropped (the lab's costs price them) and the simulation's clock is charged once with the
// server's time over all n, so that one call of n units and n calls of one agree. A server
// that stopped (Server.Err) returns its error.
func (sc *scenario) Step(s *sim.Sim, n int) (int, error) {
	done := 0
	start := sc.srv.Now()
	for ; done < n && !sc.Done(); done++ {
		if !sc.srv.Step() {
			break
		}
		sc.events++
	}
	s.Pool.TakeElapsed()
	s.Pool.Charge(sc.srv.Now() - start)
	return done, sc.srv.Err()
}

func (sc *scenario) Done() bool { return sc.srv.Now() >= sc.end }

// Backends lets the pool's invariants count the pins of the server's backends.
func (sc *scenario) Backends(fn func(b *sim.Backend)) {
	for _, p := range sc.srv.procs {
		fn(&p.backend)
	}
}

// Counters are the pins lab's counters. For a finished run, tps, hintsSet, hintsLost,
// deadItems, splits and vacuumWaitSeconds are what bufferscope pins prints for the same
// parameters.
type Counters struct {
	TPS               float64 `counter:"tps" label:"Transactions per second" unit:"tps" format:"count" doc:"Commits per second of the server's simulated time."`
	Commits           uint64  `counter:"commits" label:"Transactions" format:"count" doc:"Transactions committed."`
	HintsSet          uint64  `counter:"hintsSet" label:"Hints set" format:"count" doc:"Index items marked LP_DEAD, by _bt_killitems or by an insert's unique check."`
	HintsLost         uint64  `counter:"hintsLost" label:"Hints lost" format:"count" doc:"Killed items _bt_killitems could not mark: the page LSN had moved while the pin was dropped, or a split had moved the item away (and LP_DEAD bits a split rewrote)."`
	DeadItems         int     `counter:"deadItems" label:"Dead items" format:"count" doc:"Index items whose heap tuple is dead to everyone, LP_DEAD or not."`
	LPDead            int     `counter:"lpDead" sub:"true" label:"of which LP_DEAD" format:"count" doc:"Dead items already marked, which scans skip."`
	Splits            uint64  `counter:"splits" label:"Leaf splits" format:"count" doc:"_bt_split calls: permanent until REINDEX."`
	SimpleDeleted     uint64  `counter:"simpleDeleted" label:"Removed by simple deletion" format:"count" doc:"LP_DEAD items _bt_delitems_delete removed from full leaves before a split."`
	VacuumRemoved     uint64  `counter:"vacuumRemoved" label:"Removed by VACUUM" format:"count" doc:"Dead items btvacuumpage removed."`
	VacuumWaitSeconds float64 `counter:"vacuumWaitSeconds" label:"VACUUM waiting for pins" unit:"s" format:"seconds" doc:"Time VACUUM spent in LockBufferForCleanup waiting for other backends' pins (wait event BufferPin)."`
	VacuumWaitingOn   int     `counter:"vacuumWaitingOn" label:"VACUUM waits on leaf" format:"count" doc:"The leaf block VACUUM waits to have alone now; 0 when it waits for none."`
	HeapVisits        uint64  `counter:"heapVisits" label:"Heap visits" format:"count" doc:"Heap tuples fetched through the index, dead ones included."`
	Prunes            uint64  `counter:"prunes" label:"Heap pages pruned" format:"count" doc:"heap_page_prune calls that removed dead versions: by a fetch arriving on a nearly full heap page (heap_page_prune_opt) or by VACUUM's heap pass, each under a cleanup lock."`
	PruneBlocked      uint64  `counter:"pruneBlocked" label:"Pruning blocked by pins" format:"count" doc:"Times a heap page had dead versions to prune but another backend's pin denied the cleanup lock (ConditionalLockBufferForCleanup), to a fetch or to VACUUM's heap pass, which neither waits."`
	DeadFetches       uint64  `counter:"deadFetches" label:"Fetches through dead items" format:"count" doc:"Scans' heap fetches through index items whose tuple is dead: the work a hint would save, had it been set (and could be: a recently dead tuple may not be marked by either policy)."`
	RowLockWaits      uint64  `counter:"rowLockWaits" label:"Row lock waits" format:"count" doc:"UPDATEs that waited for another transaction's row lock."`
	ContentLockWaits  uint64  `counter:"contentLockWaits" label:"Content lock waits" format:"count" doc:"Backends that slept waiting for a leaf's buffer content lock."`
	Leaves            int     `counter:"leaves" label:"Leaf pages" format:"count" hidden:"true"`
	Now               float64 `counter:"now" label:"Server time (simulated)" unit:"s" format:"seconds" doc:"The server's simulated clock. The run simulates its duration divided by the time scale; every time of the lab's page counts in it."`
	RunLength         float64 `counter:"runLength" sub:"true" label:"of a run of" unit:"s" format:"seconds" doc:"The run's length in simulated server time: the duration divided by the time scale."`
	SliceSeconds      float64 `counter:"sliceSeconds" label:"Slice" unit:"s" format:"seconds" hidden:"true" doc:"A slice's length in simulated server time: the slice divided by the time scale."`
	NaptimeSeconds    float64 `counter:"naptimeSeconds" label:"VACUUM every" unit:"s" format:"seconds" hidden:"true" doc:"The time from the end of one VACUUM to the start of the next, in simulated server time: the naptime divided by the time scale."`
	Step              uint64  `counter:"step" label:"Steps" format:"count" doc:"Events simulated."`
	Done              bool    `counter:"done" label:"Done" format:"bool" hidden:"true"`
	SliceTPS          string  `counter:"sliceTPS" label:"TPS per slice" format:"text" hidden:"true" doc:"The TPS of each finished slice, comma-separated, the last 240 at most, for the page's chart."`
}

// Counters returns the pins lab's counters at zero.
func (Lab) Counters() any { return &Counters{} }

// The lab's events.
var events = []lab.EventSpec{
	{Kind: EvHintLost, Label: "hint lost", Plural: "hints lost", Doc: "Hints that did not stick: _bt_killitems found the leaf's LSN moved while the pin was dropped, or the item moved away, or a split rewrote an LP_DEAD mark. Counted as the counter Hints lost counts them."},
	{Kind: EvHintSet, Label: "hint set", Plural: "hints set", Doc: "Items marked LP_DEAD, by a scan's _bt_killitems or an insert's unique check. Counted as the counter Hints set counts them."},
	{Kind: EvSplit, Label: "split", Plural: "splits", Doc: "A full leaf with nothing to delete split in two."},
	{Kind: EvVacuumWait, Label: "VACUUM waiting", Plural: "VACUUM waits", Doc: "VACUUM's LockBufferForCleanup found another backend pinning the leaf and waits (BM_PIN_COUNT_WAITER)."},
}

// Events lists the events a reader may look for.
func (Lab) Events() []lab.EventSpec { return events }

type run struct {
	srv *Server
	sc  *scenario
	s   *sim.Sim
	end sim.Duration
}

func (r *run) Sim() *sim.Sim { return r.s }
func (r *run) Done() bool    { return r.sc.Done() }
func (r *run) Seeded() bool  { return true }

// Server returns the run's server, for the lab's view.
func (r *run) Server() *Server { return r.srv }

// CheckInvariants checks the pool's invariants and the lab's: no hint set by a dropped-pin
// scan after the LSN moved, no cleanup lock granted while another backend pins the page,
// and no pin held between steps that the model does not account for (Server.CheckPins),
// unless the server stopped (Server.Err) in the middle of a backend's work, whose pins then
// stay as they were. Setting a hint never moving the LSN is checked where hints are set
// (KillItems panics).
func (r *run) CheckInvariants() error {
	if err := r.s.CheckInvariants(); err != nil {
		return err
	}
	if len(r.srv.Violations) > 0 {
		return fmt.Errorf("pins: %s", r.srv.Violations[0])
	}
	if r.srv.Err() != nil {
		return nil
	}
	if err := r.srv.CheckPins(r.s.CommandPins()); err != nil {
		return fmt.Errorf("pins: %v", err)
	}
	return nil
}

func (r *run) Counters() any {
	s := r.srv
	ix := s.Index
	dead, lp := ix.DeadItems()
	now := s.Now()
	tps := 0.0
	if span := min(now, r.end); span > 0 {
		tps = float64(s.Commits) / span.Seconds() // the command divides by the duration
	}
	wait := s.VacuumWait
	if s.vac != nil && s.vacWait >= 0 && s.vac.waitFrom >= 0 {
		wait += now - s.vac.waitFrom
	}
	return &Counters{
		TPS: tps, Commits: s.Commits, HintsSet: ix.HintsSet, HintsLost: ix.HintsLost + ix.HintsLostSplit,
		DeadItems: dead, LPDead: lp, Splits: ix.Splits, SimpleDeleted: ix.SimpleDeleted, VacuumRemoved: ix.VacuumRemoved,
		VacuumWaitSeconds: wait.Seconds(), VacuumWaitingOn: int(s.WaitingOnBlock), HeapVisits: s.HeapVisits, DeadFetches: ix.DeadFetches,
		Prunes: s.Prunes, PruneBlocked: s.PruneBlocked,
		RowLockWaits: s.RowLockWaits, ContentLockWaits: s.ContentWaits, Leaves: len(ix.Leaves),
		Now: now.Seconds(), RunLength: r.end.Seconds(), SliceSeconds: s.SliceLen.Seconds(), NaptimeSeconds: s.cfg.VacuumEvery.Seconds(),
		Step: r.s.Stats().Steps, Done: r.Done(), SliceTPS: sliceTPS(s, min(now, r.end)),
	}
}

// maxSlicesShown bounds the slices the sliceTPS counter carries.
const maxSlicesShown = 240

// sliceTPS writes the TPS of each slice finished by now, comma-separated.
func sliceTPS(s *Server, now sim.Duration) string {
	n := int(now / s.SliceLen)
	var b strings.Builder
	for i := max(0, n-maxSlicesShown); i < n; i++ {
		c := uint64(0)
		if i < len(s.SliceCommits) {
			c = s.SliceCommits[i]
		}
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.FormatFloat(float64(c)/s.SliceLen.Seconds(), 'f', 0, 64))
	}
	return b.String()
}

// The marks' colours on the light and dark themes.
var (
	hintSet  = [2]string{"#2b8a3e", "#51cf66"}
	hintLost = [2]string{"#d7263d", "#ff5468"}
	waiting  = [2]string{"#7048e8", "#9775fa"}
)

// Legend colours the index's pages and the table's, and names the marks the lab's items and
// pins show, each with a shape as well as a colour.
func (r *run) Legend() lab.Legend {
	index := slices.Index(r.srv.Pool.Relations(), r.srv.rel)
	return lab.Legend{
		Roles: []lab.Swatch{
			{Key: "leaf", Label: "B-tree index page (plain)", Doc: "A page of the table's primary-key index, pgbench_accounts_pkey: its leaves, where scans set LP_DEAD hints, and its metapage.", Light: "#3a9ad9", Dark: "#56b4e9"},
			{Key: "heap", Label: "Heap page (square)", Doc: "A page of the table, pgbench_accounts, 61 rows each. Scans pin the page of each row they fetch; pruning it needs the page to itself.", Light: "#e69f00", Dark: "#e69f00"},
		},
		Role: func(rel int) int {
			switch {
			case rel < 0:
				return -1
			case rel == index:
				return 0
			}
			return 1
		},
		Marks: append(append([]lab.Swatch{}, lab.MarkEmpty, lab.MarkUsage, lab.MarkDirty, lab.MarkPinned),
			lab.Swatch{Key: "hintset", Label: "Hints set (tick)", Shape: "tick", Light: hintSet[0], Dark: hintSet[1], Doc: "_bt_killitems or a unique check just marked items of this leaf LP_DEAD: later scans skip them."},
			lab.Swatch{Key: "hintlost", Label: "Hints lost (cross)", Shape: "cross", Light: hintLost[0], Dark: hintLost[1], Doc: "_bt_killitems just dropped a scan's hints for this leaf: its LSN had moved while the pin was dropped, or a split moved the items. Later scans visit those dead rows again."},
			lab.Swatch{Key: "vacuumwait", Label: "VACUUM waiting (hourglass, ruler markers)", Shape: "hourglass", Light: waiting[0], Dark: waiting[1], Doc: "VACUUM waits here in LockBufferForCleanup until every other backend has unpinned the leaf. Only a scan that keeps its leaf pin makes it wait: choose keep pin (before 9.5) to see it."},
			lab.Swatch{Key: "items", Label: "Items: hover a leaf", Wide: true, Shape: "hollow", Light: "#8a8a8a", Dark: "#a0a0a0", Doc: "Hovering or tapping a leaf lists its items as pageinspect's bt_page_items does (the dead column is LP_DEAD), with how many are live, dead but unmarked, and LP_DEAD."},
		),
	}
}

// Experiment returns bufferscope pins.
func (Lab) Experiment() lab.Experiment { return experiment{} }

type experiment struct{}

// About is bufferscope pins's usage.
func (experiment) About() string {
	return `Usage: bufferscope pins [flags]
       bufferscope pins --reproduce

Pins runs a pgbench-like load (--select-share SELECTs by key, the rest UPDATEs,
keys drawn with Zipfian skew --zipf) against a table that lives, with its
primary-key index, in shared buffers (16MB holds both), on a server of --cores
CPU cores, for each number of clients in --clients and each pin policy in
--policy, and prints one row each.
keep-pin is PostgreSQL before 9.5: scans keep the leaf pin, so _bt_killitems
can always mark dead items LP_DEAD, and VACUUM's cleanup lock waits for the pin.
drop-pin is 9.5 to 18: MVCC scans of logged indexes drop the pin after reading
the page, and hints are set only if the page LSN has not moved since. pg19
drops pins of unlogged indexes too.

tps is commits per second of simulated server time; tps_slice_cv is the
coefficient of variation of the TPS of each --slice (the first slice left out
as warm-up); hints_set and hints_lost count LP_DEAD marks set and killed items
that could not be marked; dead_items is the index items pointing at dead heap
tuples at the end; vacuum_wait_seconds is the time VACUUM waited for pins.
The run simulates --duration divided by --scale of the server's time, op by
op (600s at scale 1000 is 0.6 s, a few hundred thousand transactions); slices
and the VACUUM naptime are divided alike.

--reproduce instead runs the published experiment (pgsql-hackers, July 2017:
10 to 800 clients, 50% SELECT, Zipfian keys, unique logged index, both
policies) and prints the published table beside the simulated one, with each
target marked pass or FAIL; progress goes to standard error. It exits 0 when
every target passes and 1 when any fails.

Examples:
  bufferscope pins --clients 10,20,40,70,110,160 --select-share 0.5 --zipf 1.1 \
      --policy keep-pin,drop-pin --duration 600s --slice 5s --format csv
  bufferscope pins --clients 40 --unique false --policy keep-pin,drop-pin
  bufferscope pins --reproduce > pins.md
`
}

// Row is one line of bufferscope pins. Other tools read the columns by name and in this
// order: change them only with those tools.
type Row struct {
	Clients           int     `col:"clients"`
	Policy            string  `col:"policy"`
	TPS               float64 `col:"tps" prec:"0"`
	TPSSliceCV        float64 `col:"tps_slice_cv" prec:"4"`
	HintsSet          uint64  `col:"hints_set"`
	HintsLost         uint64  `col:"hints_lost"`
	DeadItems         int     `col:"dead_items"`
	Splits            uint64  `col:"splits"`
	VacuumWaitSeconds float64 `col:"vacuum_wait_seconds" prec:"6"`
	// Not columns of the command's output (its interface is fixed): the reproduction's
	// account of where the dead fetches went.
	DeadFetches, HintableFetches uint64
}

// Run runs each combination.
func (experiment) Run(combos []lab.Values, progress io.Writer) ([]any, error) {
	var rows []any
	for _, v := range combos {
		cfg, nb, dur, slice := ConfigOf(v)
		if progress != nil {
			fmt.Fprintf(progress, "pins: %d clients, %s\n", cfg.Clients, cfg.Policy)
		}
		res, err := Run(cfg, nb, dur, slice)
		if err != nil {
			return nil, err
		}
		rows = append(rows, rowOf(cfg, res))
	}
	return rows, nil
}

func rowOf(cfg Config, r Result) Row {
	return Row{
		Clients: cfg.Clients, Policy: cfg.Policy.String(), TPS: r.TPS, TPSSliceCV: r.SliceCV,
		HintsSet: r.HintsSet, HintsLost: r.HintsLost, DeadItems: r.DeadItems, Splits: r.Splits,
		VacuumWaitSeconds: r.VacuumWait.Seconds(), DeadFetches: r.DeadFetches, HintableFetches: r.HintableFetches,
	}
}
