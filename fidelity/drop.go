package fidelity

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
)

// DropPools are the shared_buffers sizes of the drop and replay experiments.
var DropPools = []string{"128MB", "1GB", "4GB"}

// DropRelations is how many one-block tables the drop and replay experiments drop.
const DropRelations = 200

// PoolTiming is one shared_buffers size of a timed experiment.
type PoolTiming struct {
	SharedBuffers string
	NBuffers      int64
	// PerOp is the time of one operation: the median DROP TABLE on a primary, or the replay
	// time divided by the number of TRUNCATE commits replayed.
	PerOp time.Duration
	// Total is the replay time (redo done minus redo starts, from the server log); zero for
	// the drop experiment.
	Total time.Duration
}

// ScaleResult is a timed experiment at several shared_buffers sizes on one major.
type ScaleResult struct {
	Major int
	Pools []PoolTiming
}

// NsPerDescriptor is the least-squares slope of PerOp against NBuffers, in nanoseconds per
// buffer descriptor: about the cost of checking one descriptor when every operation scans
// the whole pool, about zero when the operation does not depend on NBuffers.
func (r ScaleResult) NsPerDescriptor() float64 {
	n := float64(len(r.Pools))
	if n < 2 {
		return 0
	}
	var sx, sy, sxx, sxy float64
	for _, p := range r.Pools {
		x, y := float64(p.NBuffers), float64(p.PerOp.Nanoseconds())
		sx, sy, sxx, sxy = sx+x, sy+y, sxx+x*x, sxy+x*y
	}
	den := n*sxx - sx*sx
	if den == 0 {
		return 0
	}
	return (n*sxy - sx*sy) / den
}

// Growth is PerOp at the largest pool divided by PerOp at the smallest.
func (r ScaleResult) Growth() float64 {
	if len(r.Pools) < 2 || r.Pools[0].PerOp <= 0 {
		return 0
	}
	return float64(r.Pools[len(r.Pools)-1].PerOp) / float64(r.Pools[0].PerOp)
}

// Shape names the growth: "grows" when the largest pool's PerOp is at least 1.5 times the
// smallest's, otherwise "flat".
func (r ScaleResult) Shape() string {
	if r.Growth() >= 1.5 {
		return "grows"
	}
	return "flat"
}

// DropOnPrimary times DROP TABLE of DropRelations one-block tables, one transaction each, at
// each of DropPools. A primary has no cached relation sizes, so every drop scans all NBuffers
// descriptors (DropRelationsAllBuffers). synchronous_commit is off so that the commit's WAL
// flush does not blur the scan; the time is taken by the client around each statement.
func DropOnPrimary(ctx context.Context, env *Env, major int) (res ScaleResult, err error) {
	res.Major = major
	s, err := env.NewServer(ctx, major, Settings{"shared_buffers": DropPools[0], "synchronous_commit": "off"})
	if err != nil {
		return res, err
	}
	defer closeInto(s, &err)
	for i, pool := range DropPools {
		env.logf("pg%d: DROP TABLE on a primary, shared_buffers %s", major, pool)
		if i > 0 {
			s.Settings["shared_buffers"] = pool
			if err := s.Restart(ctx); err != nil {
				return res, err
			}
		}
		p := PoolTiming{SharedBuffers: pool}
		err := withConn(ctx, s, func(conn *pgx.Conn) error {
			var err error
			if p.NBuffers, err = QueryInt(ctx, conn, "SELECT setting::bigint FROM pg_settings WHERE name = 'shared_buffers'"); err != nil {
				return err
			}
			if err := Exec(ctx, conn, createOneBlockTables(DropRelations), "CHECKPOINT"); err != nil {
				return err
			}
			times := make([]time.Duration, 0, DropRelations)
			for t := range DropRelations {
				start := time.Now()
				if _, err := conn.Exec(ctx, fmt.Sprintf("DROP TABLE drop_t%d", t)); err != nil {
					return fmt.Errorf("fidelity: DROP TABLE drop_t%d: %w", t, err)
				}
				times = append(times, time.Since(start))
			}
			slices.Sort(times)
			p.PerOp = times[len(times)/2]
			return nil
		})
		if err != nil {
			return res, err
		}
		res.Pools = append(res.Pools, p)
	}
	return res, nil
}

// createOneBlockTables returns one statement (one transaction) that creates n tables of one
// row, hence one block, each: drop_t0, drop_t1, ...
func createOneBlockTables(n int) string {
	var b strings.Builder
	b.WriteString("DO $$ BEGIN FOR i IN 0..")
	fmt.Fprintf(&b, "%d", n-1)
	b.WriteString(" LOOP EXECUTE format('CREATE TABLE drop_t%s (i int) WITH (autovacuum_enabled = off)', i);" +
		" EXECUTE format('INSERT INTO drop_t%s VALUES (1)', i); END LOOP; END $$")
	return b.String()
}
