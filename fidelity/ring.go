package fidelity

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
)

// ringPool is the shared_buffers of the ring experiments: NBuffers = 16,384, so the ring cap
// NBuffers/8 is 2,048 pages (16MB) and the bulk-read threshold NBuffers/4 is 4,096 pages.
const ringPool = "128MB"

// ringTableRows fills ring_t with about 10,300 pages (80MB): larger than NBuffers/4 and much
// larger than any ring, but smaller than the pool, so that VACUUM without a ring keeps it all.
const ringTableRows = 600_000

// RingCase is one measurement of what a ring leaves in shared buffers.
type RingCase struct {
	// Limit is the vacuum_buffer_usage_limit set for the VACUUM ("" = the version's default).
	Limit string
	// PagesLeft is the number of the table's main-fork pages in shared buffers afterwards.
	PagesLeft int64
	// OtherForks counts the table's free-space-map and visibility-map pages in shared buffers.
	OtherForks int64
}

// RingResult is what VacuumRing or SeqScanRing measured on one major.
type RingResult struct {
	Major      int
	NBuffers   int64
	TablePages int64 // size of ring_t in 8kB pages
	Cases      []RingCase
}

// VacuumRing measures VACUUM's ring: a table of 80MB whose every page holds dead tuples is
// vacuumed from a cold pool (the server restarted after a checkpoint), and the table's pages
// left in shared buffers are counted with pg_buffercache. On 16 and later it also runs with
// vacuum_buffer_usage_limit 256kB, 2MB, 16MB and 0 (no ring). Each case deletes a new slice
// of the rows first (every page loses some rows and keeps some), so that every page has work
// for VACUUM and the table is never truncated.
func VacuumRing(ctx context.Context, env *Env, major int) (res RingResult, err error) {
	res.Major = major
	s, err := env.NewServer(ctx, major, Settings{"shared_buffers": ringPool})
	if err != nil {
		return res, err
	}
	defer closeInto(s, &err)
	if err := createRingTable(ctx, s, &res); err != nil {
		return res, err
	}
	limits := []string{""}
	if major >= 16 {
		limits = append(limits, "256kB", "2MB", "16MB", "0")
	}
	for i, limit := range limits {
		env.logf("pg%d: VACUUM ring, limit %q", major, limit)
		setup := []string{
			// One residue more than there are cases, so that rows remain on every page
			// and VACUUM never truncates the table.
			fmt.Sprintf("DELETE FROM ring_t WHERE id %% %d = %d", len(limits)+1, i),
			"CHECKPOINT",
		}
		vacuum := []string{"VACUUM ring_t"}
		if limit != "" {
			vacuum = []string{fmt.Sprintf("SET vacuum_buffer_usage_limit = '%s'", limit), "VACUUM ring_t"}
		}
		c, err := measureRing(ctx, s, setup, vacuum)
		if err != nil {
			return res, err
		}
		c.Limit = limit
		res.Cases = append(res.Cases, c)
	}
	return res, nil
}

// SeqScanRing measures a sequential scan's ring: SELECT count(*) of an 80MB table (over
// NBuffers/4, so the scan uses the bulk-read strategy) from a cold pool. The table is
// vacuumed and checkpointed first, so the scan sets no hint bits and finds no dirty page.
func SeqScanRing(ctx context.Context, env *Env, major int) (res RingResult, err error) {
	res.Major = major
	s, err := env.NewServer(ctx, major, Settings{"shared_buffers": ringPool})
	if err != nil {
		return res, err
	}
	defer closeInto(s, &err)
	if err := createRingTable(ctx, s, &res); err != nil {
		return res, err
	}
	env.logf("pg%d: seqscan ring", major)
	c, err := measureRing(ctx, s, []string{"VACUUM ring_t", "CHECKPOINT"}, []string{"SELECT count(*) FROM ring_t"})
	if err != nil {
		return res, err
	}
	res.Cases = append(res.Cases, c)
	return res, nil
}

// createRingTable creates ring_t and pg_buffercache and records NBuffers and the table size.
func createRingTable(ctx context.Context, s *Server, res *RingResult) error {
	conn, err := s.Connect(ctx)
	if err != nil {
		return err
	}
	defer conn.Close(context.Background())
	err = Exec(ctx, conn,
		"CREATE EXTENSION pg_buffercache",
		"CREATE TABLE ring_t (id int, filler text) WITH (autovacuum_enabled = off)",
		fmt.Sprintf("INSERT INTO ring_t SELECT g, repeat('x', 100) FROM generate_series(1, %d) g", ringTableRows),
	)
	if err != nil {
		return err
	}
	if res.NBuffers, err = QueryInt(ctx, conn, "SELECT setting::bigint FROM pg_settings WHERE name = 'shared_buffers'"); err != nil {
		return err
	}
	res.TablePages, err = QueryInt(ctx, conn, "SELECT pg_relation_size('ring_t') / current_setting('block_size')::bigint")
	return err
}

// measureRing runs setup, restarts the server (emptying shared buffers), runs the measured
// statements in one session and counts ring_t's pages in shared buffers.
func measureRing(ctx context.Context, s *Server, setup, measured []string) (RingCase, error) {
	var c RingCase
	if err := withConn(ctx, s, func(conn *pgx.Conn) error { return Exec(ctx, conn, setup...) }); err != nil {
		return c, err
	}
	if err := s.Restart(ctx); err != nil {
		return c, err
	}
	err := withConn(ctx, s, func(conn *pgx.Conn) error {
		if err := Exec(ctx, conn, measured...); err != nil {
			return err
		}
		var err error
		c.PagesLeft, c.OtherForks, err = relationBuffers(ctx, conn, "ring_t")
		return err
	})
	return c, err
}

// relationBuffers counts the relation's pages in shared buffers: main fork, other forks.
func relationBuffers(ctx context.Context, conn *pgx.Conn, rel string) (main, other int64, err error) {
	err = conn.QueryRow(ctx, `
		SELECT count(*) FILTER (WHERE b.relforknumber = 0),
		       count(*) FILTER (WHERE b.relforknumber <> 0)
		FROM pg_buffercache b
		WHERE b.relfilenode = pg_relation_filenode($1::regclass)
		  AND b.reldatabase = (SELECT oid FROM pg_database WHERE datname = current_database())`,
		rel).Scan(&main, &other)
	if err != nil {
		err = fmt.Errorf("fidelity: counting %s's buffers: %w", rel, err)
	}
	return main, other, err
}

// withConn runs f with a new connection and closes it afterwards.
func withConn(ctx context.Context, s *Server, f func(*pgx.Conn) error) error {
	conn, err := s.Connect(ctx)
	if err != nil {
		return err
	}
	defer conn.Close(context.Background())
	return f(conn)
}

// closeInto closes the server and keeps the first error in *err.
func closeInto(s *Server, err *error) {
	if cerr := s.Close(); cerr != nil && *err == nil {
		*err = cerr
	}
}
