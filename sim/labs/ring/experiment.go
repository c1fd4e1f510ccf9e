package ring

import (
	"fmt"
	"io"

	"github.com/bufferscope/bufferscope/sim/lab"
)

// Experiment returns bufferscope ring.
func (Lab) Experiment() lab.Experiment { return experiment{} }

type experiment struct{}

// About is bufferscope ring's usage.
func (experiment) About() string {
	return `Usage: bufferscope ring [flags]
       bufferscope ring --reproduce

Ring runs one lazy VACUUM pass over a table of --table through a ring of --ring
(vacuum_buffer_usage_limit; 0 for no ring, default for the version's) while
--clients clients run OLTP transactions on a hot table and commit, and prints
one row per combination of the lists given to --ring, --shared-buffers, --table
and --os-cache. The ring is capped at NBuffers/8. When VACUUM's ring comes
round to a page it dirtied whose WAL is not yet synced, VACUUM flushes WAL
itself or waits for a flush under way (vacuum_wal_flushes counts both) before
writing the page. Committing clients (synchronous_commit on) and the WAL
writer flush too, on one WAL device whose flushes take --flush-latency each
and run one at a time.

vacuum_seconds is VACUUM's duration in virtual time; foreground_hit_ratio and
foreground_tps are the clients' while VACUUM runs. The same flags and --seed
print the same table.

--reproduce instead runs the setting of the published ring measurements
(pgsql-hackers, "Increase Vacuum ring buffer", July 2017) and prints the
published figures beside the simulated ones as Markdown, each target marked
pass or FAIL; it exits 0 when every target passes and 1 when any fails.

Examples:
  bufferscope ring --ring 256kB,2MB,16MB,64MB --shared-buffers 256MB \
      --table 4GB --os-cache fits --clients 16 --flush-latency 2ms --format csv
  bufferscope ring --ring default,0 --version 16 --table 80MB --clients 0
  bufferscope ring --reproduce > ring.md
`
}

// Row is one line of bufferscope ring. Other tools read the first ten columns by name, in
// this order: change them only with those tools. Sizes repeat what was written.
// vacuum_wal_flushes counts VACUUM's XLogFlush calls that had to wait because its ring came
// round to a page whose WAL was not synced: flushing itself, or waiting for a flush under way
// (the counter vacuumWalWaits of the page says how many were the latter).
type Row struct {
	Ring               string  `col:"ring"`
	SharedBuffers      string  `col:"shared_buffers"`
	Table              string  `col:"table"`
	OSCache            string  `col:"os_cache"`
	VacuumSeconds      float64 `col:"vacuum_seconds" prec:"6"`
	PagesVacuumed      uint64  `col:"pages_vacuumed"`
	VacuumWALFlushes   uint64  `col:"vacuum_wal_flushes"`
	WALWriterFlushes   uint64  `col:"walwriter_flushes"`
	ForegroundHitRatio float64 `col:"foreground_hit_ratio" prec:"6"`
	ForegroundTPS      float64 `col:"foreground_tps" prec:"1"`
	CommitFlushes      uint64  `col:"commit_flushes"`
	RingBuffers        int     `col:"ring_buffers"`
	RingReuses         uint64  `col:"ring_reuses"`
	VacuumWrites       uint64  `col:"vacuum_writes"`
	Version            int     `col:"version"`
}

// Run runs each combination to the end of VACUUM.
func (experiment) Run(combos []lab.Values, progress io.Writer) ([]any, error) {
	var rows []any
	for _, v := range combos {
		fmt.Fprintf(progress, "ring %s, shared_buffers %s, table %s, os_cache %s\n", v.Text("ring"), v.Text("shared_buffers"), v.Text("table"), v.Text("os_cache"))
		c, err := RunToEnd(SetupOf(v))
		if err != nil {
			return nil, err
		}
		rows = append(rows, Row{
			Ring: v.Text("ring"), SharedBuffers: v.Text("shared_buffers"), Table: v.Text("table"), OSCache: v.Text("os_cache"),
			VacuumSeconds: c.VacuumSeconds, PagesVacuumed: c.PagesVacuumed, VacuumWALFlushes: c.VacuumWALFlushes,
			WALWriterFlushes: c.WALWriterFlushes, ForegroundHitRatio: c.ForegroundHitRatio, ForegroundTPS: c.ForegroundTPS,
			CommitFlushes: c.CommitFlushes, RingBuffers: c.RingBuffers, RingReuses: c.RingReuses, VacuumWrites: c.VacuumWrites,
			Version: v.Int("version"),
		})
	}
	return rows, nil
}

// RunToEnd runs set until VACUUM has passed the last page and returns the counters.
func RunToEnd(set Setup) (*Counters, error) {
	r, err := NewRun(set)
	if err != nil {
		return nil, err
	}
	for !r.Done() {
		if err := r.s.Step(1 << 16); err != nil {
			return nil, err
		}
	}
	return r.Counters().(*Counters), nil
}
