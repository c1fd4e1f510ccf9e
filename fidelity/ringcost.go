package fidelity

import (
	"context"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/jackc/pgx/v5"
)

// Experiment 7: what VACUUM's ring costs the foreground. A hot table larger than shared
// buffers is prewarmed, so that no buffer is free and every buffer VACUUM takes is one of its
// pages; then VACUUM of a cold table larger than shared buffers runs under each ring limit, and
// pg_buffercache counts the hot table's pages still cached, pg_stat_io (16+) VACUUM's
// evictions and reuses. Counts, not timings.

// Sizes of experiment 7's tables, in rows of ring_t's shape (about 58 to a page): the hot table
// about 18,100 pages (141MB), more than NBuffers, the cold one about 25,000 (195MB).
const (
	costHotRows  = 1_050_000
	costColdRows = 1_450_000
)

// costClients are the clients reading the hot table during each VACUUM of experiment 7's
// second pass: each reads one random page at a time (a TID scan of the page's first item)
// until the VACUUM ends.
const costClients = 4

// RingCostCase is one VACUUM of experiment 7.
type RingCostCase struct {
	Limit string // vacuum_buffer_usage_limit ("" = the version's default)
	// HotBefore and HotAfter count the hot table's main-fork pages in shared buffers before
	// and after the VACUUM; Free counts buffers holding no page before it.
	HotBefore, HotAfter, Free int64
	// Evictions and Reuses are pg_stat_io's for the client backend in context vacuum (16+;
	// -1 before).
	Evictions, Reuses int64
	// Clients is how many clients read the hot table during the VACUUM (0 or costClients),
	// ClientReads how many pages they read in all.
	Clients     int
	ClientReads int64
}

// RingCostResult is what RingCost measured on one major.
type RingCostResult struct {
	Major               int
	NBuffers            int64
	HotPages, ColdPages int64
	Cases               []RingCostCase
}

// RingCost runs experiment 7 on one major: for each ring limit (the default, and on 16+ 256kB,
// 2MB, 16MB and 0), a new slice of the cold table's rows is deleted (so VACUUM has work on every
// page and never truncates), CHECKPOINT, a restart for an empty pool, pg_prewarm of the hot
// table, then VACUUM of the cold table.
func RingCost(ctx context.Context, env *Env, major int) (res RingCostResult, err error) {
	res.Major = major
	s, err := env.NewServer(ctx, major, Settings{"shared_buffers": ringPool})
	if err != nil {
		return res, err
	}
	defer closeInto(s, &err)
	err = withConn(ctx, s, func(conn *pgx.Conn) error {
		if err := Exec(ctx, conn,
			"CREATE EXTENSION pg_buffercache",
			"CREATE EXTENSION pg_prewarm",
			"CREATE TABLE hot_t (id int, filler text) WITH (autovacuum_enabled = off)",
			fmt.Sprintf("INSERT INTO hot_t SELECT g, repeat('x', 100) FROM generate_series(1, %d) g", costHotRows),
			"CREATE TABLE cold_t (id int, filler text) WITH (autovacuum_enabled = off)",
			fmt.Sprintf("INSERT INTO cold_t SELECT g, repeat('x', 100) FROM generate_series(1, %d) g", costColdRows),
			// Hint bits and the visibility map of the hot table set once, so prewarming it
			// later dirties nothing.
			"VACUUM hot_t",
		); err != nil {
			return err
		}
		var err error
		if res.NBuffers, err = QueryInt(ctx, conn, "SELECT setting::bigint FROM pg_settings WHERE name = 'shared_buffers'"); err != nil {
			return err
		}
		if res.HotPages, err = QueryInt(ctx, conn, "SELECT pg_relation_size('hot_t') / current_setting('block_size')::bigint"); err != nil {
			return err
		}
		res.ColdPages, err = QueryInt(ctx, conn, "SELECT pg_relation_size('cold_t') / current_setting('block_size')::bigint")
		return err
	})
	if err != nil {
		return res, err
	}
	limits := []string{""}
	if major >= 16 {
		limits = append(limits, "256kB", "2MB", "16MB", "0")
	}
	// The second pass runs every limit again with clients reading the hot table.
	var cases []RingCostCase
	for _, clients := range []int{0, costClients} {
		for _, limit := range limits {
			cases = append(cases, RingCostCase{Limit: limit, Evictions: -1, Reuses: -1, Clients: clients})
		}
	}
	for i, c := range cases {
		limit := c.Limit
		env.logf("pg%d: VACUUM's cost to the foreground, limit %q, %d clients reading", major, limit, c.Clients)
		if err := withConn(ctx, s, func(conn *pgx.Conn) error {
			return Exec(ctx, conn, fmt.Sprintf("DELETE FROM cold_t WHERE id %% %d = %d", len(cases)+1, i), "CHECKPOINT")
		}); err != nil {
			return res, err
		}
		if err := s.Restart(ctx); err != nil {
			return res, err
		}
		var before, after [2]int64
		if err := withConn(ctx, s, func(conn *pgx.Conn) error {
			if err := Exec(ctx, conn, "SELECT pg_prewarm('hot_t')"); err != nil {
				return err
			}
			var err error
			if c.HotBefore, _, err = relationBuffers(ctx, conn, "hot_t"); err != nil {
				return err
			}
			c.Free, err = QueryInt(ctx, conn, "SELECT count(*) FROM pg_buffercache WHERE relfilenode IS NULL")
			return err
		}); err != nil {
			return res, err
		}
		if major >= 16 {
			if before, err = vacuumEvictions(ctx, s); err != nil {
				return res, err
			}
		}
		readers, err := startReaders(ctx, s, c.Clients, res.HotPages)
		if err != nil {
			return res, err
		}
		err = withConn(ctx, s, func(conn *pgx.Conn) error {
			vacuum := []string{"VACUUM cold_t"}
			if limit != "" {
				vacuum = []string{fmt.Sprintf("SET vacuum_buffer_usage_limit = '%s'", limit), "VACUUM cold_t"}
			}
			return Exec(ctx, conn, vacuum...)
		})
		reads, rerr := readers()
		if err == nil {
			err = rerr
		}
		if err != nil {
			return res, err
		}
		c.ClientReads = reads
		// The vacuuming backend has exited, which sends its statistics.
		time.Sleep(1200 * time.Millisecond)
		if err := withConn(ctx, s, func(conn *pgx.Conn) error {
			var err error
			c.HotAfter, _, err = relationBuffers(ctx, conn, "hot_t")
			return err
		}); err != nil {
			return res, err
		}
		if major >= 16 {
			if after, err = vacuumEvictions(ctx, s); err != nil {
				return res, err
			}
			c.Evictions, c.Reuses = after[0]-before[0], after[1]-before[1]
		}
		res.Cases = append(res.Cases, c)
	}
	return res, nil
}

// startReaders starts n clients, each on a connection of its own, reading random pages of
// hot_t (of pages pages) one at a time: a TID scan of the page's first item, which reads the
// page through shared buffers as an index scan would. The returned stop ends them and returns
// how many pages they read, or the first error one met.
func startReaders(ctx context.Context, s *Server, n int, pages int64) (stop func() (int64, error), err error) {
	ctx, cancel := context.WithCancel(ctx)
	var conns []*pgx.Conn
	for range n {
		conn, err := s.Connect(ctx)
		if err != nil {
			cancel()
			for _, c := range conns {
				c.Close(context.Background())
			}
			return nil, err
		}
		conns = append(conns, conn)
	}
	type result struct {
		reads int64
		err   error
	}
	done := make(chan result, n)
	for i, conn := range conns {
		go func() {
			rng := rand.New(rand.NewPCG(uint64(i)+1, uint64(pages)))
			var r result
			for ctx.Err() == nil {
				tid := fmt.Sprintf("(%d,1)", rng.Int64N(max(pages, 1)))
				if _, err := conn.Exec(ctx, "SELECT 1 FROM hot_t WHERE ctid = $1::tid", tid); err != nil {
					if ctx.Err() == nil {
						r.err = fmt.Errorf("fidelity: a reader of hot_t: %w", err)
					}
					break
				}
				r.reads++
			}
			conn.Close(context.Background())
			done <- r
		}()
	}
	return func() (int64, error) {
		cancel()
		var reads int64
		var first error
		for range conns {
			r := <-done
			reads += r.reads
			if first == nil {
				first = r.err
			}
		}
		return reads, first
	}, nil
}

// vacuumEvictions reads pg_stat_io's evictions and reuses of client backends in context
// vacuum, from a new session.
func vacuumEvictions(ctx context.Context, s *Server) (out [2]int64, err error) {
	err = withConn(ctx, s, func(conn *pgx.Conn) error {
		return conn.QueryRow(ctx, `
			SELECT coalesce(sum(evictions), 0)::bigint, coalesce(sum(reuses), 0)::bigint
			FROM pg_stat_io
			WHERE backend_type = 'client backend' AND context = 'vacuum' AND object = 'relation'`).Scan(&out[0], &out[1])
	})
	if err != nil {
		err = fmt.Errorf("fidelity: reading pg_stat_io for context vacuum: %w", err)
	}
	return out, err
}
