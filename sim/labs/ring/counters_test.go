package ring

import (
	"strings"
	"testing"

	"github.com/bufferscope/bufferscope/sim/lab"
)

// TestWALCountersTellWaitsFromFlushes: in the lab's default setting (16 clients committing
// with synchronous_commit on) the commits flush WAL so often that VACUUM's ring writes mostly
// wait for a commit's flush instead of flushing themselves. The panel must then say so, not
// show "forced WAL flushes" beside a pool counter of "flushes forced by a dirty victim" that
// reads 0: its ring writes that waited for WAL split into those that waited on another's
// flush and those whose flush VACUUM made itself, the WAL flushes split by who made them and
// add up, and the pool's own WAL lines, which leave VACUUM's ring writes out, stay off the
// panel.
// Reference: src/backend/access/transam/xlog.c, XLogFlush (LWLockAcquireOrWait on WALWriteLock)
// Reference: src/backend/storage/buffer/bufmgr.c, FlushBuffer
func TestWALCountersTellWaitsFromFlushes(t *testing.T) {
	set := SetupOf(table.Defaults())
	set.TableBlocks = 20000
	c, err := RunToEnd(set)
	if err != nil {
		t.Fatal(err)
	}
	if c.VacuumWALFlushes == 0 || c.VacuumWALWaits == 0 {
		t.Fatalf("VACUUM's ring writes never waited for WAL (%d, %d on another's flush): the setting no longer shows the case", c.VacuumWALFlushes, c.VacuumWALWaits)
	}
	if c.VacuumWALFlushes != c.VacuumWALWaits+c.VacuumWALSyncs {
		t.Errorf("ring writes that waited for WAL %d != %d on another's flush + %d flushed by VACUUM", c.VacuumWALFlushes, c.VacuumWALWaits, c.VacuumWALSyncs)
	}
	if sum := c.VacuumWALSyncs + c.CommitFlushes + c.WALWriterFlushes + c.ClientFlushes + c.SegmentSyncs; sum != c.WALFlushesAll || c.WALFlushesAll != c.Pool.WALFlushes {
		t.Errorf("WAL flushes %d (the pool's %d), but by VACUUM %d + commits %d + the WAL writer %d + clients' victims %d + segments %d = %d",
			c.WALFlushesAll, c.Pool.WALFlushes, c.VacuumWALSyncs, c.CommitFlushes, c.WALWriterFlushes, c.ClientFlushes, c.SegmentSyncs, sum)
	}

	shown := map[string]lab.Counter{}
	for _, d := range lab.Describe(c) {
		if !d.Hidden {
			shown[d.Key] = d
		}
	}
	for _, key := range []string{"walFlushes", "walFlushesBackend", "walFlushesWriter"} {
		if d, ok := shown[key]; ok {
			t.Errorf("the pool's %q (%q) is on the panel beside the lab's own WAL flushes", key, d.Label)
		}
	}
	for _, key := range []string{"vacuumWalFlushes", "vacuumWalWaits", "walFlushesAll", "vacuumWalSyncs", "commitFlushes", "walwriterFlushes", "clientFlushes"} {
		d, ok := shown[key]
		if !ok {
			t.Errorf("%q is not on the panel", key)
			continue
		}
		if strings.Contains(strings.ToLower(d.Label), "forced") {
			t.Errorf("%q is labelled %q: a wait for another's flush is not a flush VACUUM was forced to make", key, d.Label)
		}
	}
	// A count of waits is not labelled a count of flushes.
	if l := strings.ToLower(shown["vacuumWalFlushes"].Label); strings.Contains(l, "flushes") {
		t.Errorf("vacuumWalFlushes, which counts waits too, is labelled %q", shown["vacuumWalFlushes"].Label)
	}
	for _, key := range []string{"vacuumWalFlushes", "vacuumWalWaits", "walFlushesAll", "vacuumWalSyncs"} {
		if doc := shown[key].Doc; !strings.Contains(doc, "xlog.c") && !strings.Contains(doc, "pg_stat_io") && !strings.Contains(doc, "pg_stat_wal") {
			t.Errorf("%q's doc cites neither the source nor the statistics view: %q", key, doc)
		}
	}
}

// TestWALNowShowsVacuumWaiting: while VACUUM waits in XLogFlush to write a ring buffer, the
// WAL as the run stands has the position it waits for past what is durable, and the flush it
// waits for under way.
// Reference: src/backend/storage/buffer/bufmgr.c, FlushBuffer (XLogFlush before smgrwrite)
func TestWALNowShowsVacuumWaiting(t *testing.T) {
	set := fidelitySetup(16, 256) // VACUUM alone through 32 buffers: it flushes WAL itself
	r, err := NewRun(set)
	if err != nil {
		t.Fatal(err)
	}
	waits, idle := 0, 0
	for step := 0; step < 3000 && !r.Done(); step++ {
		if err := r.Sim().Step(1); err != nil {
			t.Fatal(err)
		}
		w := r.WALNow()
		if w.Durable > w.Flushing || w.Flushing > w.Inserted {
			t.Fatalf("step %d: durable %v, flushing %v, inserted %v out of order", step, w.Durable, w.Flushing, w.Inserted)
		}
		if w.VacuumWaitsFor == 0 {
			idle++
			continue
		}
		waits++
		if w.VacuumWaitsFor <= w.Durable || w.VacuumWaitsFor > w.Flushing {
			t.Fatalf("step %d: VACUUM waits for %v, durable %v, flushing %v", step, w.VacuumWaitsFor, w.Durable, w.Flushing)
		}
	}
	if waits == 0 || idle == 0 {
		t.Errorf("VACUUM waited at %d steps and not at %d: the setting shows no waiting", waits, idle)
	}
}
