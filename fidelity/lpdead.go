package fidelity

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
)

// Rows of the LP_DEAD tables: ids 1..lpRows, of which lpFirstDeleted..lpLastDeleted are
// deleted. 200 int4 keys fit on one leaf, which is then the root (block 1 of the index); the
// 400-byte filler spreads the rows over about a dozen heap pages.
const (
	lpRows         = 200
	lpFirstDeleted = 50
	lpLastDeleted  = 149
)

// LPDeadResult is what LPDead measured on one major: LP_DEAD items on the leaf (pageinspect's
// bt_page_items, column dead) after index scans visited the deleted rows, and whether VACUUM
// waited for a cursor's pin.
type LPDeadResult struct {
	Major int
	// Deleted is how many rows were deleted in the range the scans visit.
	Deleted int
	// Plain: a plain index scan over the deleted rows, logged table.
	Plain int64
	// Cursor: a cursor's index scan, fetching some rows, then the rest, logged table.
	Cursor int64
	// CursorInsert: as Cursor, but another session inserts a row into the leaf (moving its
	// LSN) between the fetches.
	CursorInsert int64
	// UnloggedCursorInsert: as CursorInsert, on an UNLOGGED table.
	UnloggedCursorInsert int64
	// Pins are the VACUUM-against-a-cursor cases.
	Pins []PinCase
}

// PinCase is one VACUUM run while a cursor, having fetched one row, sits on the leaf.
type PinCase struct {
	// Name says which table and scan: "logged, index scan", "logged, index-only scan" or
	// "unlogged, index scan".
	Name string
	// Plan is the scan node PostgreSQL chose for the cursor ("Index Scan", "Index Only Scan").
	Plan string
	// Waited is true when pg_stat_activity showed the VACUUM with wait_event 'BufferPin'.
	Waited bool
	// Finished is true when the VACUUM completed while the cursor was open (it is cancelled
	// once it is seen waiting, or after pinTimeout).
	Finished bool
}

// pinTimeout bounds each VACUUM of the pin cases.
const pinTimeout = 5 * time.Second

// LPDead runs the LP_DEAD and pin experiments on one major, each on a fresh table.
//
// Reference: src/backend/access/nbtree/nbtutils.c, _bt_killitems (a scan that dropped its leaf
// pin sets LP_DEAD only if the page LSN is unchanged); nbtsearch.c, _bt_drop_lock_and_maybe_pin
// (pins are dropped by MVCC plain index scans of WAL-logged indexes); nbtree.c, btvacuumpage
// (a cleanup lock on every leaf).
func LPDead(ctx context.Context, env *Env, major int) (res LPDeadResult, err error) {
	res.Major, res.Deleted = major, lpLastDeleted-lpFirstDeleted+1
	s, err := env.NewServer(ctx, major, nil)
	if err != nil {
		return res, err
	}
	defer closeInto(s, &err)
	conn, err := s.Connect(ctx)
	if err != nil {
		return res, err
	}
	defer conn.Close(context.Background())
	other, err := s.Connect(ctx)
	if err != nil {
		return res, err
	}
	defer other.Close(context.Background())
	if err := Exec(ctx, conn, "CREATE EXTENSION pageinspect",
		"SET enable_seqscan = off", "SET enable_bitmapscan = off"); err != nil {
		return res, err
	}
	scan := func(table string) string {
		return fmt.Sprintf("SELECT filler FROM %s WHERE id BETWEEN 1 AND %d ORDER BY id", table, lpRows)
	}

	env.logf("pg%d: LP_DEAD after a plain index scan", major)
	if err := makeLeafTable(ctx, conn, "lp_plain", false, true); err != nil {
		return res, err
	}
	if err := expectPlan(ctx, conn, scan("lp_plain"), "Index Scan"); err != nil {
		return res, err
	}
	if err := Exec(ctx, conn, scan("lp_plain")); err != nil {
		return res, err
	}
	if res.Plain, err = deadItems(ctx, conn, "lp_plain_pkey"); err != nil {
		return res, err
	}

	cursorCase := func(table string, unlogged, insert bool) (int64, error) {
		env.logf("pg%d: LP_DEAD with a cursor on %s", major, table)
		if err := makeLeafTable(ctx, conn, table, unlogged, true); err != nil {
			return 0, err
		}
		err := Exec(ctx, conn, "BEGIN",
			"DECLARE c CURSOR FOR "+scan(table),
			"FETCH 5 FROM c")
		if err == nil && insert {
			err = Exec(ctx, other, fmt.Sprintf("INSERT INTO %s VALUES (%d, 'new')", table, lpRows+1))
		}
		if err == nil {
			err = Exec(ctx, conn, "FETCH ALL FROM c", "CLOSE c", "COMMIT")
		}
		if err != nil {
			_, _ = conn.Exec(context.Background(), "ROLLBACK")
			return 0, err
		}
		return deadItems(ctx, conn, table+"_pkey")
	}
	if res.Cursor, err = cursorCase("lp_cursor", false, false); err != nil {
		return res, err
	}
	if res.CursorInsert, err = cursorCase("lp_cursor_insert", false, true); err != nil {
		return res, err
	}
	if res.UnloggedCursorInsert, err = cursorCase("lp_unlogged", true, true); err != nil {
		return res, err
	}

	for _, pc := range []struct {
		name, table, query, plan string
		unlogged                 bool
	}{
		{"logged, index scan", "pin_logged", "SELECT filler FROM pin_logged WHERE id >= 1 ORDER BY id", "Index Scan", false},
		{"logged, index-only scan", "pin_ios", "SELECT id FROM pin_ios WHERE id >= 1 ORDER BY id", "Index Only Scan", false},
		{"unlogged, index scan", "pin_unlogged", "SELECT filler FROM pin_unlogged WHERE id >= 1 ORDER BY id", "Index Scan", true},
	} {
		env.logf("pg%d: VACUUM against a cursor, %s", major, pc.name)
		if err := makeLeafTable(ctx, conn, pc.table, pc.unlogged, true); err != nil {
			return res, err
		}
		if err := expectPlan(ctx, conn, pc.query, pc.plan); err != nil {
			return res, err
		}
		c := PinCase{Name: pc.name, Plan: pc.plan}
		c.Waited, c.Finished, err = vacuumAgainstCursor(ctx, s, conn, pc.table, pc.query)
		if err != nil {
			return res, err
		}
		res.Pins = append(res.Pins, c)
	}
	return res, nil
}

// makeLeafTable creates table (id int primary key, filler text) with ids 1..lpRows, vacuums
// and analyzes it (so the visibility map is set and the planner knows its size), then deletes
// the ids lpFirstDeleted..lpLastDeleted when deleteRows is set. It checks that the index is a
// single leaf page (block 1).
func makeLeafTable(ctx context.Context, conn *pgx.Conn, table string, unlogged, deleteRows bool) error {
	kind := ""
	if unlogged {
		kind = "UNLOGGED "
	}
	stmts := []string{
		fmt.Sprintf("CREATE %sTABLE %s (id int PRIMARY KEY, filler text) WITH (autovacuum_enabled = off)", kind, table),
		fmt.Sprintf("INSERT INTO %s SELECT g, repeat('x', 400) FROM generate_series(1, %d) g", table, lpRows),
		"VACUUM ANALYZE " + table,
	}
	if deleteRows {
		stmts = append(stmts, fmt.Sprintf("DELETE FROM %s WHERE id BETWEEN %d AND %d", table, lpFirstDeleted, lpLastDeleted))
	}
	if err := Exec(ctx, conn, stmts...); err != nil {
		return err
	}
	pages, err := QueryInt(ctx, conn, "SELECT pg_relation_size($1::regclass) / current_setting('block_size')::bigint", table+"_pkey")
	if err != nil {
		return err
	}
	if pages != 2 {
		return fmt.Errorf("fidelity: %s_pkey has %d pages, want 2 (the metapage and one leaf)", table, pages)
	}
	return nil
}

// deadItems counts the items marked LP_DEAD on the index's leaf (block 1).
func deadItems(ctx context.Context, conn *pgx.Conn, index string) (int64, error) {
	return QueryInt(ctx, conn, "SELECT count(*) FROM bt_page_items($1, 1) WHERE dead", index)
}

// expectPlan checks that EXPLAIN of query names the node (e.g. "Index Scan"), so that a result
// is never read from a scan of the wrong kind.
func expectPlan(ctx context.Context, conn *pgx.Conn, query, node string) error {
	rows, err := conn.Query(ctx, "EXPLAIN (COSTS OFF) "+query)
	if err != nil {
		return err
	}
	var plan []string
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			return err
		}
		plan = append(plan, line)
	}
	if err := rows.Err(); err != nil {
		return err
	}
	text := strings.Join(plan, "\n")
	if !strings.Contains(text, node+" using") {
		return fmt.Errorf("fidelity: want an %s for %q, PostgreSQL planned:\n%s", node, query, text)
	}
	return nil
}

// vacuumAgainstCursor opens a cursor for query on conn and fetches one row, then runs VACUUM of
// table in another session while a third watches pg_stat_activity for wait_event 'BufferPin'.
// A VACUUM seen waiting is cancelled; one that neither waits nor finishes within pinTimeout is
// cancelled by statement_timeout.
func vacuumAgainstCursor(ctx context.Context, s *Server, conn *pgx.Conn, table, query string) (waited, finished bool, err error) {
	if err := Exec(ctx, conn, "BEGIN", "DECLARE c CURSOR FOR "+query, "FETCH 1 FROM c"); err != nil {
		_, _ = conn.Exec(context.Background(), "ROLLBACK")
		return false, false, err
	}
	defer func() {
		if cerr := Exec(context.Background(), conn, "CLOSE c", "COMMIT"); cerr != nil && err == nil {
			err = cerr
		}
	}()
	vac, err := s.Connect(ctx)
	if err != nil {
		return false, false, err
	}
	defer vac.Close(context.Background())
	watch, err := s.Connect(ctx)
	if err != nil {
		return false, false, err
	}
	defer watch.Close(context.Background())
	var vacPID int64
	if vacPID, err = QueryInt(ctx, vac, "SELECT pg_backend_pid()"); err != nil {
		return false, false, err
	}
	if err := Exec(ctx, vac, fmt.Sprintf("SET statement_timeout = %d", pinTimeout.Milliseconds())); err != nil {
		return false, false, err
	}
	done := make(chan error, 1)
	go func() {
		_, err := vac.Exec(ctx, "VACUUM "+table)
		done <- err
	}()
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case verr := <-done:
			var pgErr interface{ SQLState() string }
			if verr != nil && !(errors.As(verr, &pgErr) && pgErr.SQLState() == "57014") { // query_canceled
				return waited, false, fmt.Errorf("fidelity: VACUUM %s: %w", table, verr)
			}
			return waited, verr == nil, nil
		case <-tick.C:
			if waited {
				continue
			}
			var n int64
			n, err = QueryInt(ctx, watch, "SELECT count(*) FROM pg_stat_activity WHERE pid = $1 AND wait_event = 'BufferPin'", vacPID)
			if err != nil {
				return false, false, err
			}
			if n > 0 {
				waited = true
				if err := Exec(ctx, watch, fmt.Sprintf("SELECT pg_cancel_backend(%d)", vacPID)); err != nil {
					return waited, false, err
				}
			}
		}
	}
}
