package fidelity

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// WALCase is one VACUUM whose WAL flushes and ring traffic were counted.
type WALCase struct {
	// Cached is true when the table was read into shared buffers (pg_prewarm) before the
	// VACUUM, false when the server was restarted just before it (a cold pool).
	Cached bool
	// Limit is the vacuum_buffer_usage_limit ("" = the version's default).
	Limit string
	// WALBytes is the WAL the VACUUM wrote (pg_current_wal_lsn before and after).
	WALBytes int64
	// WALSyncs counts WAL fsyncs in the whole cluster during the VACUUM (pg_stat_wal.wal_sync
	// on 14–17, the sum of pg_stat_io's fsyncs for object 'wal' on 18); -1 before 14.
	WALSyncs int64
	// BackendWALSyncs counts the WAL fsyncs of client backends only (18+; -1 before).
	BackendWALSyncs int64
	// Reuses, Writes and Reads are pg_stat_io's counters of the client backends for context
	// 'vacuum' (16+; -1 before): ring buffers reused, dirty buffers written, pages read.
	Reuses, Writes, Reads int64
}

// WALResult is what VacuumWAL measured on one major.
type WALResult struct {
	Major      int
	NBuffers   int64
	TablePages int64
	Cases      []WALCase
}

// walCases are experiment 3's VACUUMs on major, in the order they run: case i first deletes
// the rows whose id % (len+1) is i, so each finds the slices before it gone.
func walCases(major int) []WALCase {
	cases := []WALCase{{Cached: false}, {Cached: true}}
	if major >= 16 {
		cases = append(cases, WALCase{Limit: "256kB"}, WALCase{Limit: "16MB"})
	}
	return cases
}

// walCounters are cumulative statistics read before and after a VACUUM.
type walCounters struct {
	lsn                            string
	syncs, backendSyncs            int64
	reuses, writes, reads          int64
	hasWAL, hasIO, hasWALInIOStats bool
}

// VacuumWAL counts the WAL flushes of a VACUUM that dirties every page of an 80MB table (each
// case first deletes a new slice of rows, then checkpoints), from a cold pool and with the table
// cached, at the default vacuum ring and on 16+ also at 256kB and 16MB. synchronous_commit is
// on and the WAL writer runs with its defaults, so the cluster-wide sync count includes the WAL
// writer's and the commits'; the VACUUM runs alone.
func VacuumWAL(ctx context.Context, env *Env, major int) (res WALResult, err error) {
	res.Major = major
	s, err := env.NewServer(ctx, major, Settings{"shared_buffers": ringPool})
	if err != nil {
		return res, err
	}
	defer closeInto(s, &err)
	var rr RingResult
	if err := createRingTable(ctx, s, &rr); err != nil {
		return res, err
	}
	res.NBuffers, res.TablePages = rr.NBuffers, rr.TablePages
	if err := withConn(ctx, s, func(c *pgx.Conn) error { return Exec(ctx, c, "CREATE EXTENSION pg_prewarm") }); err != nil {
		return res, err
	}
	cases := walCases(major)
	for i, c := range cases {
		env.logf("pg%d: VACUUM WAL flushes, cached=%v limit %q", major, c.Cached, c.Limit)
		err := withConn(ctx, s, func(conn *pgx.Conn) error {
			return Exec(ctx, conn,
				fmt.Sprintf("DELETE FROM ring_t WHERE id %% %d = %d", len(cases)+1, i),
				"CHECKPOINT")
		})
		if err != nil {
			return res, err
		}
		if err := s.Restart(ctx); err != nil {
			return res, err
		}
		if c.Cached {
			if err := withConn(ctx, s, func(conn *pgx.Conn) error { return Exec(ctx, conn, "SELECT pg_prewarm('ring_t')") }); err != nil {
				return res, err
			}
		}
		before, err := readWALCounters(ctx, s)
		if err != nil {
			return res, err
		}
		err = withConn(ctx, s, func(conn *pgx.Conn) error {
			if c.Limit != "" {
				if err := Exec(ctx, conn, fmt.Sprintf("SET vacuum_buffer_usage_limit = '%s'", c.Limit)); err != nil {
					return err
				}
			}
			return Exec(ctx, conn, "VACUUM ring_t")
		})
		if err != nil {
			return res, err
		}
		// The vacuuming backend has exited, which sends its statistics; give 14's statistics
		// collector time to take them in.
		time.Sleep(1200 * time.Millisecond)
		after, err := readWALCounters(ctx, s)
		if err != nil {
			return res, err
		}
		if err := withConn(ctx, s, func(conn *pgx.Conn) error {
			var err error
			c.WALBytes, err = QueryInt(ctx, conn, "SELECT pg_wal_lsn_diff($1::pg_lsn, $2::pg_lsn)::bigint", after.lsn, before.lsn)
			return err
		}); err != nil {
			return res, err
		}
		c.WALSyncs, c.BackendWALSyncs, c.Reuses, c.Writes, c.Reads = -1, -1, -1, -1, -1
		if after.hasWAL {
			c.WALSyncs = after.syncs - before.syncs
		}
		if after.hasWALInIOStats {
			c.BackendWALSyncs = after.backendSyncs - before.backendSyncs
		}
		if after.hasIO {
			c.Reuses, c.Writes, c.Reads = after.reuses-before.reuses, after.writes-before.writes, after.reads-before.reads
		}
		res.Cases = append(res.Cases, c)
	}
	return res, nil
}

// readWALCounters reads the WAL position and the cumulative counters from a new session (so
// that no statistics snapshot of an earlier query is reused).
func readWALCounters(ctx context.Context, s *Server) (w walCounters, err error) {
	err = withConn(ctx, s, func(conn *pgx.Conn) error {
		if err := conn.QueryRow(ctx, "SELECT pg_current_wal_lsn()::text").Scan(&w.lsn); err != nil {
			return err
		}
		switch {
		case s.Major >= 18:
			w.hasWAL, w.hasWALInIOStats = true, true
			if err := conn.QueryRow(ctx, `
				SELECT coalesce(sum(fsyncs), 0)::bigint,
				       coalesce(sum(fsyncs) FILTER (WHERE backend_type = 'client backend'), 0)::bigint
				FROM pg_stat_io WHERE object = 'wal'`).Scan(&w.syncs, &w.backendSyncs); err != nil {
				return fmt.Errorf("fidelity: reading pg_stat_io for WAL: %w", err)
			}
		case s.Major >= 14:
			w.hasWAL = true
			if err := conn.QueryRow(ctx, "SELECT wal_sync FROM pg_stat_wal").Scan(&w.syncs); err != nil {
				return fmt.Errorf("fidelity: reading pg_stat_wal: %w", err)
			}
		}
		if s.Major >= 16 {
			w.hasIO = true
			if err := conn.QueryRow(ctx, `
				SELECT coalesce(sum(reuses), 0)::bigint, coalesce(sum(writes), 0)::bigint, coalesce(sum(reads), 0)::bigint
				FROM pg_stat_io
				WHERE backend_type = 'client backend' AND context = 'vacuum' AND object = 'relation'`).Scan(&w.reuses, &w.writes, &w.reads); err != nil {
				return fmt.Errorf("fidelity: reading pg_stat_io for context vacuum: %w", err)
			}
		}
		return nil
	})
	return w, err
}
