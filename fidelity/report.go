package fidelity

import (
	"fmt"
	"github.com/bufferscope/bufferscope/sim"
	"io"
	"runtime"
	"strconv"
	"strings"
	"time"
)

// Experiment identifies one experiment of the harness; the zero value is none.
type Experiment int

const (
	NoExperiment Experiment = iota
	ExpVacuumRing
	ExpSeqScanRing
	ExpVacuumWAL
	ExpDrop
	ExpReplay
	ExpLPDead
	ExpRingCost
)

// Experiments lists the experiments in report order.
var Experiments = []Experiment{ExpVacuumRing, ExpSeqScanRing, ExpVacuumWAL, ExpDrop, ExpReplay, ExpLPDead, ExpRingCost}

// String returns the experiment's short name, e.g. "vacuum-ring".
func (e Experiment) String() string {
	switch e {
	case ExpVacuumRing:
		return "vacuum-ring"
	case ExpSeqScanRing:
		return "seqscan-ring"
	case ExpVacuumWAL:
		return "vacuum-wal"
	case ExpDrop:
		return "drop"
	case ExpReplay:
		return "replay"
	case ExpLPDead:
		return "lp-dead"
	case ExpRingCost:
		return "ring-cost"
	}
	return "none"
}

// Verdict is the outcome of comparing a real figure with another one; the zero value is none
// (nothing to compare with).
type Verdict int

const (
	NoVerdict Verdict = iota
	Agrees
	Differs
	NotModelled
)

// String returns the verdict as the report prints it.
func (v Verdict) String() string {
	switch v {
	case Agrees:
		return "agrees"
	case Differs:
		return "differs"
	case NotModelled:
		return "not modelled yet"
	}
	return "—"
}

// Row is one real figure of the report.
type Row struct {
	Experiment Experiment
	// Major is the PostgreSQL major version.
	Major int
	// Case names the variant within the experiment, e.g. "vacuum_buffer_usage_limit 256kB",
	// "shared_buffers 1GB" or "shape" (the summary row of a timed experiment).
	Case string
	// Real is the figure as printed; Value is the number it shows (pages, items, nanoseconds
	// per descriptor, 1 for yes and 0 for no), or the growth for a "shape" row.
	Real  string
	Value float64
	// Shape is "grows" or "flat" on the "shape" rows of timed experiments, else "".
	Shape string
	// FactSheet is what docs/reference (postgres-internals.md) leads one to expect, and
	// FactSheetVerdict whether Real matches it; both empty when it gives no exact figure.
	FactSheet        string
	FactSheetVerdict Verdict
	// Args are what the simulated side needs of the real run besides the case (sizes the
	// server measured, a second count), by name; nil for most experiments.
	Args map[string]int64
}

// Simulated gives the simulator's figure for a real row: the figure as printed, whether it
// agrees with the real one (within the experiment's own tolerance, or the same Shape), and ok
// = false when the simulator does not model the case yet. A hook must not change the row.
type Simulated func(r Row) (figure string, agrees, ok bool)

// Hooks maps experiments to their simulated side. An experiment without a hook is reported
// as not modelled yet, with the reason in Pending.
type Hooks map[Experiment]Simulated

// Pending says why an experiment has no simulated side yet; the report prints it.
var Pending = map[Experiment]string{
	ExpVacuumRing:  "The ring lab's side (RingHooks) was not given to the report; real figures recorded.",
	ExpSeqScanRing: "The ring lab's side (RingHooks) was not given to the report; real figures recorded.",
	ExpVacuumWAL:   "The ring lab's side (RingHooks) was not given to the report; real figures recorded.",
	ExpDrop:        "The drop lab's side (DropHooks) was not given to the report; real figures recorded.",
	ExpReplay:      "The drop lab's side (DropHooks) was not given to the report; real figures recorded.",
	ExpLPDead:      "The pins lab's side (PinsHooks) was not given to the report; real figures recorded.",
	ExpRingCost:    "The ring lab's side (RingHooks) was not given to the report; real figures recorded.",
}

// SimulatedNotes says how an experiment's hook simulates it and compares; the report prints
// it when the hook is given.
var SimulatedNotes = map[Experiment]string{
	ExpVacuumRing: "the ring lab's VACUUM alone (`bufferscope ring --clients 0`) of a cold 10,345-page table at NBuffers " +
		"16,384, with the row's vacuum_buffer_usage_limit (the version's default ring when \"default\"); the figure " +
		"counts the table's pages left valid in shared buffers. The model's versions start at 14: 13 is simulated " +
		"under 14's rules, and its figure says so. A row agrees only when the counts are equal.",
	ExpSeqScanRing: "the core's sequential-scan strategy (SeqScanStrategy: the bulk-read ring above NBuffers/4, " +
		"sized as the version sizes it) reading the row's table block by block from a cold pool of NBuffers " +
		"16,384 through ReadBufferExtended, from 17 through a read stream as heapam's scan reads (sim.ReadStream: " +
		"17 pins up to Max(max_ios × 4, io_combine_limit) ahead, 18 (max_ios + 1) × io_combine_limit, each at its " +
		"defaults); the figure counts its pages left in shared buffers. 13 is simulated " +
		"under 14's rules. A row agrees only when the counts are equal.",
	ExpVacuumWAL: "the ring lab's VACUUM alone of the 10,345-page table at NBuffers 16,384, every page dirtied, cold " +
		"or prewarmed (\"cached\"), with the row's limit; the figure is all the run's WAL flushes (VACUUM's forced " +
		"ones, the WAL writer's, and XLogWrite's sync of each 16MB segment it finishes), the bracket VACUUM's own and " +
		"the segments'. After the case's CHECKPOINT each page's first change logs the whole page " +
		"(`ring.HarnessPageImage`: the page header, its 58 line pointers and the rows still on it, 136 bytes each, " +
		"from the case's slices; on 18, whose initdb turns data checksums on, the image is a hint's, taken before " +
		"pruning), so the simulated WAL volume is the model's own and is shown beside the real one. Rule: a row agrees when the simulated count is " +
		"within 25% of the real cluster-wide WAL sync count, or within 5 syncs (the cached cases, where a real " +
		"server makes a handful of its own); the shape (cold ≫ cached) is not used as a verdict. 13 counts no WAL " +
		"syncs (no pg_stat_wal), so its rows have no simulated verdict. Known gap: the model's VACUUM of a cached " +
		"table lasts tens of milliseconds, less than wal_writer_delay, so its WAL writer flushes once at most where " +
		"a real one syncs a few times during the longer real VACUUM (pruning and WAL insertion are not priced " +
		"from parts yet). From 18 the model's VACUUM reads through PostgreSQL 18's read stream " +
		"(sim.ReadStream: look-ahead up to half the ring, reads of up to io_combine_limit pages).",
	ExpRingCost: "the ring lab's VACUUM alone (`ring.ForegroundCost`) of a cold table of the real one's size, after a hot " +
		"table of the real one's size was prewarmed into the pool of NBuffers 16,384 until no buffer was free, with the " +
		"row's limit. A row agrees when the counts are equal: the hot pages the VACUUM evicted, and VACUUM's evictions " +
		"and reuses as pg_stat_io counts them in context vacuum. The model's VACUUM reads only the table's heap pages, " +
		"through its ring; a real VACUUM also reads the table's free space map and visibility map pages and the " +
		"catalogs outside the ring, each evicting a hot page when the pool is full, which the evictions row does not " +
		"count (pg_stat_io counts those in context normal). The second pass (\"clients reading\") is " +
		"`ring.ForegroundCostWithReaders`: the same, with the clients each reading a random hot page per transaction " +
		"while VACUUM runs; its rule is the shape, as their timing is not the real clients': a row agrees when the model " +
		"loses more hot pages than at the pass's smallest ring exactly when the real server does (a row the model " +
		"sizes as that ring is the reference).",
	ExpLPDead: "the pins lab's B-tree model (`pins.FidelityExperiment6`, the scenarios of its " +
		"TestFidelityExperiment6): a one-leaf index of 100 deleted rows, index scans one per key, a cursor reading " +
		"the leaf with or without an insert into it between the fetches, and VACUUM's cleanup lock on the leaf " +
		"against an open cursor's pin, under the pin and LP_DEAD rules of 13–18 (13 on a PG14 pool: the model " +
		"starts at 14). A row agrees when the count of dead items, or whether VACUUM waits, is the same.",
	ExpDrop: "the drop lab (`bufferscope drop --mode primary --op drop --tables 200x1`) at the same sizes with the major's " +
		"policy (pg13 for 13, pg14 for 14+) and the default cost parts. A size's row agrees when the simulated drop " +
		"takes the path the real growth shows (a full scan on a primary); the shape row when the growth has the same " +
		"name. The two columns' milliseconds are not compared, by choice: the real figure is the whole DROP TABLE " +
		"statement (parse, catalog changes, commit, unlinking the file), the simulated one the buffer work alone " +
		"(the scan of the descriptors and the replay-side fixed work), which the model prices and the statement's " +
		"other work it does not; so each size's simulated column names the path and the descriptors checked first. " +
		"The simulated growth is steeper than the real one for the same reason; compare the slopes.",
	ExpReplay: "the drop lab (`bufferscope drop --op truncate --tables 200x1`, in recovery) at the same sizes with the " +
		"major's policy (pg13 for 13, pg14 for 14+); pg_control's update is priced without its fsync, as the real run " +
		"had fsync off (`--cost control_file_sync=15us`). The catalog records each TRUNCATE also writes are not " +
		"modelled. A size's row agrees when the simulated path is the expected one (scan on 13, lookup on 14+); the " +
		"shape row when the growth has the same name.",
}

// Rows flattens the results into report rows, experiment by experiment, major by major.
func (r *Results) Rows() []Row {
	var rows []Row
	for _, x := range r.VacuumRing {
		for _, c := range x.Cases {
			row := Row{Experiment: ExpVacuumRing, Major: x.Major, Case: "vacuum_buffer_usage_limit " + orDefault(c.Limit),
				Real: fmt.Sprintf("%d pages", c.PagesLeft), Value: float64(c.PagesLeft)}
			want, text := vacuumRingPages(x.Major, c.Limit, x.NBuffers, x.TablePages)
			rows = append(rows, factSheet(row, text, float64(want)))
		}
	}
	for _, x := range r.SeqScanRing {
		for _, c := range x.Cases {
			row := Row{Experiment: ExpSeqScanRing, Major: x.Major, Case: fmt.Sprintf("count(*) of %d pages", x.TablePages),
				Real: fmt.Sprintf("%d pages", c.PagesLeft), Value: float64(c.PagesLeft)}
			if x.Major <= 17 {
				want := min(32, x.NBuffers/8)
				row = factSheet(row, fmt.Sprintf("%d pages (256kB ring)", want), float64(want))
			} else {
				row.FactSheet = "no exact rule: ≥ 32 pages, scaled by io_combine_limit and capped by the pin limit (estimated ≈ 94 at defaults)"
			}
			rows = append(rows, row)
		}
	}
	for _, x := range r.VacuumWAL {
		for _, c := range x.Cases {
			state := "cold"
			if c.Cached {
				state = "cached"
			}
			real := fmt.Sprintf("%s WAL syncs; %.1f MB WAL", count(c.WALSyncs), float64(c.WALBytes)/1e6)
			if c.BackendWALSyncs >= 0 {
				real += fmt.Sprintf("; backend syncs %d", c.BackendWALSyncs)
			}
			if c.Reuses >= 0 {
				real += fmt.Sprintf("; vacuum reuses %d, writes %d, reads %d", c.Reuses, c.Writes, c.Reads)
			}
			row := Row{Experiment: ExpVacuumWAL, Major: x.Major,
				Case: fmt.Sprintf("%s, limit %s", state, orDefault(c.Limit)), Real: real, Value: float64(c.WALSyncs)}
			if ring, _ := vacuumRingPages(x.Major, c.Limit, x.NBuffers, x.TablePages); !c.Cached && ring > 0 && ring < x.TablePages {
				// No exact rule, so no verdict: "about one WAL flush per ring-ful" (d526575f89);
				// from 18 the read stream pins up to half the ring ahead (GetAccessStrategyPinLimit),
				// at most GetPinLimit (≈ 94 at the defaults), so a flush comes each time the
				// ring comes round past those.
				row.FactSheet = fmt.Sprintf("≈ %d backend flushes (one per ring-ful of %d)", (x.TablePages+ring-1)/ring, ring)
				if x.Major >= 18 {
					ahead := min(ring/2, x.NBuffers/int64(sim.DefaultIOSettings.PinLimitProcs))
					per := ring - ahead
					row.FactSheet = fmt.Sprintf("≈ %d backend flushes (one per %d pages: the ring of %d less the %d its read stream pins ahead)", (x.TablePages+per-1)/per, per, ring, ahead)
				}
			}
			rows = append(rows, row)
		}
	}
	scale := func(e Experiment, xs []ScaleResult, unit string, want func(major int) string) {
		for _, x := range xs {
			for _, p := range x.Pools {
				rows = append(rows, Row{Experiment: e, Major: x.Major,
					Case: fmt.Sprintf("shared_buffers %s (NBuffers %d)", p.SharedBuffers, p.NBuffers),
					Real: fmt.Sprintf("%.3f ms %s", float64(p.PerOp.Microseconds())/1000, unit), Value: float64(p.PerOp.Nanoseconds())})
			}
			row := Row{Experiment: e, Major: x.Major, Case: "shape",
				Real:  fmt.Sprintf("%s: ×%.2f from smallest to largest pool, slope %.2f ns per descriptor", x.Shape(), x.Growth(), x.NsPerDescriptor()),
				Value: x.Growth(), Shape: x.Shape()}
			row.FactSheet = want(x.Major)
			row.FactSheetVerdict = Differs
			if row.FactSheet == row.Shape {
				row.FactSheetVerdict = Agrees
			}
			rows = append(rows, row)
		}
	}
	scale(ExpDrop, r.Drop, "per drop (median)", func(int) string { return "grows" })
	scale(ExpReplay, r.Replay, "per TRUNCATE replayed (fastest crash)", func(major int) string {
		if major <= 13 {
			return "grows"
		}
		return "flat"
	})
	for _, x := range r.LPDead {
		items := func(name string, n int64, want int64) {
			row := Row{Experiment: ExpLPDead, Major: x.Major, Case: name, Real: fmt.Sprintf("%d of %d dead", n, x.Deleted), Value: float64(n)}
			rows = append(rows, factSheet(row, fmt.Sprintf("%d", want), float64(want)))
		}
		all := int64(x.Deleted)
		items("plain index scan, logged", x.Plain, all)
		items("cursor, logged", x.Cursor, all)
		items("cursor + insert into the leaf, logged", x.CursorInsert, 0)
		items("cursor + insert into the leaf, unlogged", x.UnloggedCursorInsert, all)
		for _, p := range x.Pins {
			real := "VACUUM did not wait"
			if p.Waited {
				real = "VACUUM waited on BufferPin"
			} else if !p.Finished {
				real = "VACUUM neither waited on BufferPin nor finished"
			}
			row := Row{Experiment: ExpLPDead, Major: x.Major, Case: "VACUUM vs a cursor, " + p.Name, Real: real, Value: b2f(p.Waited)}
			wantWait := p.Name != "logged, index scan" && (x.Major <= 18 || p.Name == "logged, index-only scan")
			want := "VACUUM did not wait"
			if wantWait {
				want = "VACUUM waited on BufferPin"
			}
			rows = append(rows, factSheet(row, want, b2f(wantWait)))
		}
	}
	for _, x := range r.RingCost {
		ringOf := func(c RingCostCase) int64 {
			ring, _ := vacuumRingPages(x.Major, c.Limit, x.NBuffers, x.ColdPages)
			if ring >= x.ColdPages {
				ring = x.NBuffers // no ring: VACUUM reads into the whole pool
			}
			return ring
		}
		// The second pass's shape is read against its smallest ring's row.
		var ref *RingCostCase
		for i := range x.Cases {
			if c := &x.Cases[i]; c.Clients > 0 && (ref == nil || ringOf(*c) < ringOf(*ref)) {
				ref = c
			}
		}
		for _, c := range x.Cases {
			args := map[string]int64{"nbuffers": x.NBuffers, "hot": x.HotPages, "cold": x.ColdPages}
			lost := c.HotBefore - c.HotAfter
			ring := ringOf(c)
			if c.Clients > 0 {
				refKB, _ := ringKBOf(ref.Limit)
				args["clients"], args["ref_kb"], args["ref_lost"] = int64(c.Clients), int64(refKB), ref.HotBefore-ref.HotAfter
				rows = append(rows, Row{Experiment: ExpRingCost, Major: x.Major,
					Case:  fmt.Sprintf("limit %s, %d clients reading, hot pages evicted", orDefault(c.Limit), c.Clients),
					Real:  fmt.Sprintf("%s of %s hot pages (%s pages read by the clients meanwhile)", count(lost), count(c.HotBefore), count(c.ClientReads)),
					Value: float64(lost), Args: args,
					FactSheet: fmt.Sprintf("grows with the ring (%s pages), from limit %s's", count(ring), orDefault(ref.Limit))})
				continue
			}
			rows = append(rows, Row{Experiment: ExpRingCost, Major: x.Major, Case: fmt.Sprintf("limit %s, hot pages evicted", orDefault(c.Limit)),
				Real:  fmt.Sprintf("%s of %s hot pages (%d buffers free before)", count(lost), count(c.HotBefore), c.Free),
				Value: float64(lost), Args: args,
				FactSheet: fmt.Sprintf("≈ the ring's %s pages, and the pages VACUUM reads outside it", count(ring))})
			if c.Evictions >= 0 {
				a := map[string]int64{"reuses": c.Reuses}
				for k, v := range args {
					a[k] = v
				}
				row := Row{Experiment: ExpRingCost, Major: x.Major, Case: fmt.Sprintf("limit %s, VACUUM's evictions and reuses", orDefault(c.Limit)),
					Real: fmt.Sprintf("%s evictions, %s reuses", count(c.Evictions), count(c.Reuses)), Value: float64(c.Evictions), Args: a}
				if ring < x.NBuffers {
					row = factSheet(row, fmt.Sprintf("%s evictions: the ring's first round, from the clock sweep", count(ring)), float64(ring))
				}
				rows = append(rows, row)
			}
		}
	}
	return rows
}

// vacuumRingPages is the fact sheet's count of pages a VACUUM leaves behind: its ring,
// min(limit, NBuffers/8), or the whole table when the limit is 0 (no ring; the table fits).
func vacuumRingPages(major int, limit string, nbuffers, tablePages int64) (int64, string) {
	kb := int64(256)
	if major >= 17 {
		kb = 2048
	}
	if limit != "" {
		var err error
		if kb, err = parseKB(limit); err != nil {
			return -1, "?"
		}
	}
	if kb == 0 {
		return tablePages, fmt.Sprintf("%d pages (no ring: the whole table)", tablePages)
	}
	pages := min(kb/8, nbuffers/8)
	return pages, fmt.Sprintf("%d pages (min(ring, NBuffers/8))", pages)
}

// parseKB parses a size such as "256kB", "2MB" or "0" into kilobytes.
func parseKB(s string) (int64, error) {
	mult := int64(1)
	switch {
	case strings.HasSuffix(s, "kB"):
		s = strings.TrimSuffix(s, "kB")
	case strings.HasSuffix(s, "MB"):
		s, mult = strings.TrimSuffix(s, "MB"), 1024
	case strings.HasSuffix(s, "GB"):
		s, mult = strings.TrimSuffix(s, "GB"), 1024*1024
	}
	n, err := strconv.ParseInt(s, 10, 64)
	return n * mult, err
}

func factSheet(r Row, text string, want float64) Row {
	r.FactSheet = text
	r.FactSheetVerdict = Differs
	if r.Value == want {
		r.FactSheetVerdict = Agrees
	}
	return r
}

func orDefault(s string) string {
	if s == "" {
		return "default"
	}
	return s
}

func count(n int64) string {
	if n < 0 {
		return "n/a"
	}
	return strconv.FormatInt(n, 10)
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// setups describes each experiment in the report.
var setups = map[Experiment]string{
	ExpVacuumRing: "shared_buffers 128MB (NBuffers 16,384; NBuffers/8 = 2,048). An 80MB table without indexes; " +
		"before each case a new slice of its rows is deleted (every page keeps live rows, so VACUUM never truncates), " +
		"then CHECKPOINT and a restart empty shared buffers. After `VACUUM`, pg_buffercache counts the table's " +
		"main-fork pages still in shared buffers. On 16+ `vacuum_buffer_usage_limit` is also set to 256kB, 2MB, 16MB and 0.",
	ExpSeqScanRing: "shared_buffers 128MB; the same 80MB table (over NBuffers/4 = 4,096 pages, so the scan uses the " +
		"bulk-read ring), vacuumed and checkpointed (no hint bits left to set), then a restart for a cold pool and " +
		"`SELECT count(*)` with no parallel workers; pg_buffercache counts the table's pages left.",
	ExpVacuumWAL: "shared_buffers 128MB; the 80MB table with a new slice of rows deleted before each case, so VACUUM " +
		"dirties every page; CHECKPOINT, restart; \"cached\" then loads the table with pg_prewarm, \"cold\" does not. " +
		"synchronous_commit on, WAL writer defaults, checksums as initdb sets them (on in 18). WAL syncs are " +
		"cluster-wide (pg_stat_wal.wal_sync on 14–17, pg_stat_io object 'wal' fsyncs on 18, where \"backend syncs\" " +
		"are the client backends' own); reuses/writes/reads are pg_stat_io's client-backend counters for context " +
		"'vacuum' (16+; reads are I/O operations, which 18 combines up to io_combine_limit pages). Counters are differences around the VACUUM. " +
		"WAL volumes are not comparable between cases: each case vacuums a thinner table.",
	ExpDrop: fmt.Sprintf("On a primary, %d tables of one block each, dropped one `DROP TABLE` (one transaction) at a "+
		"time at shared_buffers %s; synchronous_commit off; time per drop measured by the client (median). A "+
		"primary has no cached relation sizes, so every drop scans all NBuffers descriptors: only the growth with "+
		"NBuffers is compared, never the milliseconds.", DropRelations, strings.Join(DropPools, ", ")),
	ExpReplay: fmt.Sprintf("CHECKPOINT, then %d one-block tables created and each truncated in its own "+
		"transaction; `pg_ctl -m immediate stop` and start; the replay time is \"redo done\" minus \"redo starts\" "+
		"in the server log (ms stamps), fastest of %d crashes, divided by %d; fsync off (each replayed commit also "+
		"rewrites pg_control). 14+ should drop the truncated relations' buffers by per-block lookups (cached "+
		"sizes, far below NBuffers/32) and stay flat; 13 scans every descriptor and grows.", DropRelations, replayTrials, DropRelations),
	ExpRingCost: fmt.Sprintf("shared_buffers 128MB. A hot table of %d rows (about 18,100 pages, more than NBuffers) and a cold one "+
		"of %d rows (about 25,000 pages, more than shared_buffers), both without indexes. For each limit (the "+
		"version's default; on 16+ also 256kB, 2MB, 16MB and 0): a new slice of the cold table's rows deleted, "+
		"CHECKPOINT, a restart for an empty pool, `pg_prewarm('hot_t')` (which fills every buffer), then `VACUUM "+
		"cold_t` alone. pg_buffercache counts the hot table's main-fork pages before and after the VACUUM; pg_stat_io "+
		"(16+) counts the client backend's evictions and reuses in context vacuum around it. Counts, not timings. "+
		"Then every limit again with %d clients reading the hot table during the VACUUM, each on its own connection, "+
		"one random page at a time (`SELECT 1 FROM hot_t WHERE ctid = '(n,1)'`, a TID scan through shared buffers), "+
		"until the VACUUM ends.",
		costHotRows, costColdRows, costClients),
	ExpLPDead: fmt.Sprintf("A table (id int primary key, filler text) of %d rows (one leaf), vacuumed, then ids %d–%d "+
		"deleted and committed; enable_seqscan and enable_bitmapscan off; scans select the non-indexed column "+
		"(plain MVCC index scans; the plan is checked). Dead items are counted on the leaf with pageinspect's "+
		"`bt_page_items`. Cursor cases FETCH 5 rows, then FETCH ALL; \"+ insert\" means another session inserted a "+
		"row into the leaf between the fetches (moving a logged page's LSN). The VACUUM cases open a cursor, FETCH 1, "+
		"and run VACUUM in another session while a third watches pg_stat_activity for wait_event 'BufferPin' "+
		"(a waiting VACUUM is cancelled).", lpRows, lpFirstDeleted, lpLastDeleted),
}

// Report writes the results as Markdown: per experiment its setup, then one table row per real
// figure with the fact sheet's expectation, the simulated figure from hooks and a verdict.
func Report(w io.Writer, res *Results, hooks Hooks) error {
	var b strings.Builder
	b.WriteString("# Checked against a real PostgreSQL\n\n")
	b.WriteString("Written by `make fidelity` (package `fidelity`): every figure below was measured on real PostgreSQL " +
		"servers, throwaway clusters started for the run. Exact counts are compared as they are; timings only by " +
		"their shape (growth with NBuffers). \"Fact sheet\" is what `postgres-internals.md` leads one to expect; " +
		"\"Simulated\" is bufferscope's figure for the same case and \"Verdict\" compares it with the real one.\n\n")
	var versions []string
	for _, m := range res.Majors {
		versions = append(versions, fmt.Sprintf("%d (%s)", m, Releases[m]))
	}
	fmt.Fprintf(&b, "Run %s on %d CPUs (%s/%s), %s in all. Servers: npm `%s` %s.\n\n",
		res.Started.UTC().Format("2006-01-02 15:04 MST"), runtime.NumCPU(), runtime.GOOS, runtime.GOARCH,
		res.Elapsed.Round(time.Second), Package, strings.Join(versions, ", "))
	if len(res.Errors) > 0 {
		b.WriteString("**Failed experiments:**\n\n")
		for _, e := range res.Errors {
			fmt.Fprintf(&b, "- %s\n", firstLine(e))
		}
		b.WriteString("\n")
	}
	rows := res.Rows()
	for _, e := range Experiments {
		var mine []Row
		for _, r := range rows {
			if r.Experiment == e {
				mine = append(mine, r)
			}
		}
		fmt.Fprintf(&b, "## %s\n\n%s\n\n", titles[e], setups[e])
		hook := hooks[e]
		if hook == nil {
			fmt.Fprintf(&b, "*Simulated side:* %s\n\n", Pending[e])
		} else if n := SimulatedNotes[e]; n != "" {
			fmt.Fprintf(&b, "*Simulated side:* %s\n\n", n)
		}
		if len(mine) == 0 {
			b.WriteString("No results.\n\n")
			continue
		}
		agree := 0
		facts := 0
		b.WriteString("| Version | Case | Real | Fact sheet | Simulated | Verdict |\n|---|---|---|---|---|---|\n")
		for _, r := range mine {
			sim, verdict := "not modelled yet", NotModelled
			if hook != nil {
				if fig, ok2, ok := hook(r); ok {
					sim, verdict = fig, Differs
					if ok2 {
						verdict = Agrees
					}
				}
			}
			fact := r.FactSheet
			if r.FactSheetVerdict != NoVerdict {
				facts++
				if r.FactSheetVerdict == Agrees {
					agree++
				}
				fact += " (" + r.FactSheetVerdict.String() + ")"
			}
			fmt.Fprintf(&b, "| %d | %s | %s | %s | %s | %s |\n", r.Major, r.Case, r.Real, cell(fact), sim, verdict)
		}
		if facts > 0 {
			fmt.Fprintf(&b, "\nThe fact sheet's expectation holds on %d of %d rows.\n", agree, facts)
		}
		b.WriteString("\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

var titles = map[Experiment]string{
	ExpVacuumRing:  "1. VACUUM's ring: pages left in shared buffers",
	ExpSeqScanRing: "2. A sequential scan's ring: pages left in shared buffers",
	ExpVacuumWAL:   "3. VACUUM's WAL flushes",
	ExpDrop:        "4. DROP TABLE on a primary against NBuffers",
	ExpReplay:      "5. Crash recovery of TRUNCATE commits against NBuffers",
	ExpLPDead:      "6. LP_DEAD hints and leaf pins",
	ExpRingCost:    "7. What VACUUM's ring costs the foreground",
}

func cell(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i] + " …"
	}
	return s
}
