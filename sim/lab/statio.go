package lab

import (
	"strconv"

	"github.com/bufferscope/bufferscope/sim"
)

// StatIOColumns are the columns of StatIO's rows: pg_stat_io's of PostgreSQL 16 and 17,
// without stats_reset (PostgreSQL 18 replaced op_bytes with read_bytes, write_bytes and
// extend_bytes, and added the rows of object wal, which StatIO has too).
var StatIOColumns = []string{
	"backend_type", "object", "context", "reads", "read_time", "writes", "write_time",
	"writebacks", "writeback_time", "extends", "extend_time", "op_bytes", "hits",
	"evictions", "reuses", "fsyncs", "fsync_time",
}

// StatIONotModelled names the columns StatIO always leaves empty, and why.
const StatIONotModelled = "read_time, write_time, writeback_time, extend_time and fsync_time " +
	"(the simulation keeps modelled time per run, not per operation), writebacks and extends " +
	"(it neither issues writeback requests nor extends relations) and fsyncs of relation files " +
	"(it does not sync data files); the WAL rows (object wal, as PostgreSQL 18 has them) count " +
	"each WAL flush as one write and one fsync, by the process that made it"

// IORow is one row of pg_stat_io: what one backend type did to one kind of object in one
// context. A nil count is NULL: an operation PostgreSQL does not track there, or one the
// simulation does not model (StatIONotModelled).
type IORow struct {
	BackendType string // "client backend", "background writer", "checkpointer", "walwriter", "startup"
	Object      string // "relation" or "wal"
	Context     string // "normal", "bulkread", "bulkwrite", "vacuum"
	Reads       *uint64
	Writes      *uint64
	OpBytes     int // 8192 for relation rows, 0 (NULL) for WAL rows
	Hits        *uint64
	Evictions   *uint64
	Reuses      *uint64
	Fsyncs      *uint64
}

// BackendType returns the pg_stat_io backend_type of s's backends: the startup process when
// the pool replays WAL (Pool.InRecovery), a client backend otherwise.
func BackendType(s *sim.Sim) string {
	if s.Pool.InRecovery {
		return "startup"
	}
	return "client backend"
}

// StatIO returns the pool's I/O as pg_stat_io rows, from the counters every pool keeps
// (sim.Stats and its IO by context): the backends' relation I/O in each context, named by
// BackendType; the background writer's and the checkpointer's writes; and the WAL flushes of
// each process. The rows are the same, in the same order, for every run.
//
// Reference: src/backend/utils/activity/pgstat_io.c, pgstat_tracks_io_op (reuses are not
// tracked in the normal context, the background writer and checkpointer never read).
func StatIO(s *sim.Sim) []IORow {
	backendType := BackendType(s)
	st := s.Stats()
	n := func(v uint64) *uint64 { return &v }
	var rows []IORow
	for ctx := sim.BAS_NORMAL; ctx <= sim.BAS_VACUUM; ctx++ {
		io := st.IOIn(ctx)
		r := IORow{BackendType: backendType, Object: "relation", Context: ctx.String(), OpBytes: sim.BLCKSZ,
			Reads: n(io.Reads), Writes: n(io.Writes), Hits: n(io.Hits), Evictions: n(io.Evictions)}
		if ctx != sim.BAS_NORMAL {
			r.Reuses = n(io.Reuses)
		}
		rows = append(rows, r)
	}
	rows = append(rows,
		IORow{BackendType: "background writer", Object: "relation", Context: "normal", OpBytes: sim.BLCKSZ, Writes: n(st.BgWriterWrites)},
		IORow{BackendType: "checkpointer", Object: "relation", Context: "normal", OpBytes: sim.BLCKSZ, Writes: n(st.CheckpointWrites)},
	)
	others := st.WALFlushes - st.WALFlushesWriter - st.WALFlushesBgWriter - st.WALFlushesCheckpointer
	for _, w := range []struct {
		bt      string
		flushes uint64
	}{{backendType, others}, {"background writer", st.WALFlushesBgWriter}, {"checkpointer", st.WALFlushesCheckpointer}, {"walwriter", st.WALFlushesWriter}} {
		rows = append(rows, IORow{BackendType: w.bt, Object: "wal", Context: "normal", Writes: n(w.flushes), Fsyncs: n(w.flushes)})
	}
	return rows
}

// Record returns the row's values in StatIOColumns' order, "" for NULL.
func (r IORow) Record() []string {
	num := func(p *uint64) string {
		if p == nil {
			return ""
		}
		return strconv.FormatUint(*p, 10)
	}
	ob := ""
	if r.OpBytes > 0 {
		ob = strconv.Itoa(r.OpBytes)
	}
	return []string{r.BackendType, r.Object, r.Context, num(r.Reads), "", num(r.Writes), "",
		"", "", "", "", ob, num(r.Hits), num(r.Evictions), num(r.Reuses), num(r.Fsyncs), ""}
}
