package fidelity

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"
)

// ReplayTruncates times crash recovery of DropRelations TRUNCATE commits at each of DropPools.
// After a CHECKPOINT it creates the one-block tables (so their creation and first block are in
// the WAL to replay, which gives the startup process their cached sizes), truncates each in
// its own transaction, stops the server with pg_ctl -m immediate and starts it again. The
// replay time is read from the server log of the restart (the fastest of replayTrials crashes:
// on a shared machine other work only ever adds time): the time of "redo done" minus that of "redo starts"
// (millisecond stamps), which excludes the start-up and the end-of-recovery checkpoint.
// fsync is off so that the pg_control write each replayed commit forces does not blur the
// buffer work (a throwaway cluster on a machine that does not crash).
//
// Reference: src/backend/storage/buffer/bufmgr.c, DropRelationsAllBuffers (14+ uses per-block
// lookups in recovery below NBuffers/32; 13 always scans every descriptor).
func ReplayTruncates(ctx context.Context, env *Env, major int) (res ScaleResult, err error) {
	res.Major = major
	s, err := env.NewServer(ctx, major, Settings{"shared_buffers": DropPools[0], "fsync": "off"})
	if err != nil {
		return res, err
	}
	defer closeInto(s, &err)
	for i, pool := range DropPools {
		env.logf("pg%d: replay of TRUNCATE commits, shared_buffers %s", major, pool)
		if i > 0 {
			s.Settings["shared_buffers"] = pool
			if err := s.Restart(ctx); err != nil {
				return res, err
			}
		}
		p := PoolTiming{SharedBuffers: pool}
		var totals []time.Duration
		for range replayTrials {
			total, nbuffers, err := replayOnce(ctx, s)
			if err != nil {
				return res, fmt.Errorf("fidelity: PostgreSQL %d at shared_buffers %s: %w", major, pool, err)
			}
			p.NBuffers = nbuffers
			totals = append(totals, total)
		}
		slices.Sort(totals)
		p.Total = totals[0]
		p.PerOp = p.Total / DropRelations
		res.Pools = append(res.Pools, p)
	}
	return res, nil
}

// replayTrials is how many crashes are replayed at each size; the fastest counts, as in
// a benchmark on a machine that other work can only slow down.
const replayTrials = 5

// replayOnce creates and truncates the tables after a checkpoint, crashes the server and
// returns the replay time read from the log of the restart, and NBuffers.
func replayOnce(ctx context.Context, s *Server) (total time.Duration, nbuffers int64, err error) {
	err = withConn(ctx, s, func(conn *pgx.Conn) error {
		var err error
		if nbuffers, err = QueryInt(ctx, conn, "SELECT setting::bigint FROM pg_settings WHERE name = 'shared_buffers'"); err != nil {
			return err
		}
		drop := fmt.Sprintf("DO $$ BEGIN FOR i IN 0..%d LOOP EXECUTE format('DROP TABLE IF EXISTS drop_t%%s', i); END LOOP; END $$", DropRelations-1)
		if err := Exec(ctx, conn, drop, "CHECKPOINT", createOneBlockTables(DropRelations)); err != nil {
			return err
		}
		for t := range DropRelations {
			if err := Exec(ctx, conn, fmt.Sprintf("TRUNCATE drop_t%d", t)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return 0, 0, err
	}
	if err := s.Stop(ctx, "immediate"); err != nil {
		return 0, 0, err
	}
	if err := s.Start(ctx); err != nil {
		return 0, 0, err
	}
	total, err = redoTime(s.LogSinceStart())
	return total, nbuffers, err
}

var (
	redoStarts = regexp.MustCompile(`(?m)^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}) \S+ \[\d+\] LOG:  redo starts at`)
	redoDone   = regexp.MustCompile(`(?m)^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}) \S+ \[\d+\] LOG:  redo done at`)
)

// redoTime returns the time between the "redo starts" and "redo done" lines of a server log
// written with log_line_prefix '%m [%p] '.
func redoTime(log string) (time.Duration, error) {
	a, b := redoStarts.FindStringSubmatch(log), redoDone.FindStringSubmatch(log)
	if a == nil || b == nil {
		return 0, fmt.Errorf("no \"redo starts\"/\"redo done\" lines in the server log:\n%s", log)
	}
	const layout = "2006-01-02 15:04:05.000"
	t0, err := time.Parse(layout, a[1])
	if err != nil {
		return 0, err
	}
	t1, err := time.Parse(layout, b[1])
	if err != nil {
		return 0, err
	}
	return t1.Sub(t0), nil
}
