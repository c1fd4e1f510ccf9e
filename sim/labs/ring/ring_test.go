package ring

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/bufferscope/bufferscope/sim"
	"github.com/bufferscope/bufferscope/sim/lab"
)

// fidelityTable is the fidelity harness's table (docs/fidelity.md experiments 1 and 3): 80MB,
// 10,345 pages, at shared_buffers 128MB, no other load.
func fidelitySetup(version sim.Version, ringKB int) Setup {
	v := table.Defaults()
	set := SetupOf(v)
	set.NBuffers, set.Version, set.RingKB, set.TableBlocks, set.Clients = 16384, version, ringKB, 10345, 0
	return set
}

// tablePages counts the pages of the vacuumed table left in shared buffers.
func tablePages(r *Run) int {
	p := r.Sim().Pool
	n := 0
	for id := range p.NBuffers {
		if d := p.Desc(id); d.State.Has(sim.BM_VALID) && d.Tag.Locator == r.vr.table.Locator {
			n++
		}
	}
	return n
}

// TestVacuumLeavesRingInPool: VACUUM of a table larger than its ring leaves exactly
// min(ring, NBuffers/8) of its pages in shared buffers, the whole table with no ring; a real
// PostgreSQL 16–18 leaves the same (docs/fidelity.md experiment 1).
// Reference: src/backend/storage/buffer/freelist.c, GetAccessStrategyWithSize, GetBufferFromRing
func TestVacuumLeavesRingInPool(t *testing.T) {
	for _, tt := range []struct {
		v      sim.Version
		ringKB int
		want   int
	}{
		{14, -1, 32}, {16, -1, 32}, {16, 256, 32}, {16, 2048, 256}, {16, 16384, 2048}, {16, 0, 10345},
		{17, -1, 256}, {17, 256, 32}, {17, 16384, 2048}, {17, 65536, 2048}, {17, 0, 10345}, {18, -1, 256},
	} {
		r, err := NewRun(fidelitySetup(tt.v, tt.ringKB))
		if err != nil {
			t.Fatal(err)
		}
		for !r.Done() {
			if err := r.Sim().Step(1000); err != nil {
				t.Fatal(err)
			}
		}
		if got := tablePages(r); got != tt.want {
			t.Errorf("PG%d ring %dkB: %d pages of the table left, want %d", tt.v, tt.ringKB, got, tt.want)
		}
	}
}

// TestVacuumWALFlushesPerRingful: VACUUM of the fidelity table with the 32-buffer ring and no
// other load flushes WAL itself about once per ring-ful when it reads the table, and never
// when the table is already in shared buffers; a real PostgreSQL 14–17 made ~329 WAL syncs
// cold and ~5 cached (docs/fidelity.md experiment 3).
// Reference: src/backend/storage/buffer/bufmgr.c, GetVictimBuffer; commit d526575f89
func TestVacuumWALFlushesPerRingful(t *testing.T) {
	cold, err := RunToEnd(fidelitySetup(16, -1))
	if err != nil {
		t.Fatal(err)
	}
	ringfuls := uint64(10345 / 32)
	if cold.VacuumWALFlushes < ringfuls-10 || cold.VacuumWALFlushes > ringfuls+1 {
		t.Errorf("cold: VACUUM flushed WAL %d times, want about one per ring-ful, %d", cold.VacuumWALFlushes, ringfuls)
	}
	if all := cold.WALFlushes; all < 300 || all > 360 {
		t.Errorf("cold: %d WAL flushes in all, a real server ~329", all)
	}
	set := fidelitySetup(16, -1)
	set.Prewarmed = true
	cached, err := RunToEnd(set)
	if err != nil {
		t.Fatal(err)
	}
	if cached.VacuumWALFlushes != 0 || cached.WALFlushes > 6 {
		t.Errorf("cached: VACUUM flushed %d times, %d in all; want none and at most ~5", cached.VacuumWALFlushes, cached.WALFlushes)
	}
}

// TestInvariantsEveryStep checks the pool's and the ring's invariants after every step of
// small runs: ring length within NBuffers/8, no permanent page written before WAL is flushed
// past its LSN, no page of the vacuumed table above usage count 1.
func TestInvariantsEveryStep(t *testing.T) {
	for i, kb := range []int{-1, 0, 256, 16384} {
		for _, sync := range []bool{true, false} {
			set := SetupOf(table.Defaults())
			set.NBuffers, set.TableBlocks, set.RingKB, set.SyncCommit, set.Clients = 512, 3000, kb, sync, 4
			set.Version = []sim.Version{14, 17, 18, 19}[i]
			r, err := NewRun(set)
			if err != nil {
				t.Fatal(err)
			}
			for steps := 0; !r.Done(); steps++ {
				if err := r.Sim().Step(1); err != nil {
					t.Fatal(err)
				}
				if err := r.CheckInvariants(); err != nil {
					t.Fatalf("ring %dkB sync %v, step %d: %v", kb, sync, steps, err)
				}
			}
		}
	}
}

// TestSameSeedSameRun: the page's stepping and the headless command's agree, and a run is
// the same for the same seed.
func TestSameSeedSameRun(t *testing.T) {
	set := SetupOf(table.Defaults())
	set.NBuffers, set.TableBlocks = 2048, 20000
	a, err := RunToEnd(set)
	if err != nil {
		t.Fatal(err)
	}
	r, _ := NewRun(set)
	for !r.Done() {
		if err := r.Sim().Step(7); err != nil {
			t.Fatal(err)
		}
	}
	b := r.Counters().(*Counters)
	if *a != *b {
		t.Errorf("stepped by 7 the counters differ:\n%+v\n%+v", a, b)
	}
	if a.Now != a.VacuumSeconds {
		t.Errorf("the Sim's clock %v is not VACUUM's end %v", a.Now, a.VacuumSeconds)
	}
}

// TestRowsRepeatSizes: the command's rows repeat each size as written.
func TestRowsRepeatSizes(t *testing.T) {
	v, problems := table.Parse(map[string]string{"ring": "256kB", "shared_buffers": "8MB", "table": "16MB", "clients": "2"})
	if len(problems) > 0 {
		t.Fatal(problems)
	}
	rows, err := experiment{}.Run([]lab.Values{v}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	row := rows[0].(Row)
	if row.Ring != "256kB" || row.SharedBuffers != "8MB" || row.Table != "16MB" || row.PagesVacuumed != 2048 {
		t.Errorf("row %+v", row)
	}
}

// TestReproduce runs the reproduction (about two seconds) and requires every target.
func TestReproduce(t *testing.T) {
	if testing.Short() {
		t.Skip("the reproduction runs nine VACUUMs of 4–6GB")
	}
	var out bytes.Buffer
	pass, err := experiment{}.Reproduce(&out, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if !pass || strings.Contains(out.String(), "FAIL") {
		t.Errorf("a target failed:\n%s", out.String())
	}
}

// TestSweepJob: the page's chart job runs one VACUUM per ring and agrees with the command.
func TestSweepJob(t *testing.T) {
	args := lab.Args{"shared_buffers": "8MB", "table": "16MB", "clients": "2", "rings": []float64{256, 2048}}
	out, err := Lab{}.Jobs()["sweep"](args, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	v, _ := table.Parse(map[string]string{"shared_buffers": "8MB", "table": "16MB", "clients": "2", "ring": "2MB"})
	c, err := RunToEnd(SetupOf(v))
	if err != nil {
		t.Fatal(err)
	}
	if got := out["vacuumSeconds"].([]any); len(got) != 2 || got[1] != c.VacuumSeconds {
		t.Errorf("sweep %v, the command's 2MB row %v", got, c.VacuumSeconds)
	}
	if _, err := (Lab{}).Jobs()["sweep"](lab.Args{"rings": []float64{1}}, nil, nil); err == nil {
		t.Error("a ring of 1kB was accepted")
	}
	// Progress counts pages over all the runs, within each VACUUM too, and a cancel stops
	// the sweep within a VACUUM.
	var seen []int
	calls := 0
	args["table"] = "512MB"
	_, err = Lab{}.Jobs()["sweep"](args, nil, func(done, total int, _ string, _ bool) bool {
		if total != 2*65536 {
			t.Fatalf("progress total %d, want the pages of two VACUUMs of 512MB", total)
		}
		seen = append(seen, done)
		calls++
		return done < 65536/2
	})
	if err != lab.ErrCancelled {
		t.Errorf("a sweep told to stop returned %v", err)
	}
	if last := seen[len(seen)-1]; last < 65536/2 || last >= 65536 || calls < 3 {
		t.Errorf("progress %v: the first VACUUM was not stopped half way", seen)
	}
}

// TestCrowdedPoolWaitsForTheDeviceOnce: when command-driven backends pin nearly every buffer,
// each client's page comes in over a dirty victim whose WAL a flush under way covers
// (XLogFlush waits for it) and then flushes WAL itself. The unit must wait for the device
// once: its own flush is asked after the wait it was charged. Counting the device's backlog
// again from the unit's start doubled every client's wait, and 370 steps took the clock to
// 47s; 370 units, each waiting at most for the flushes of 27 clients (27 × 50µs) and a
// random read, stay under a second.
// Reference: src/backend/access/transam/xlog.c, XLogFlush (waits for WALWriteLock, then
// flushes what is still needed).
func TestCrowdedPoolWaitsForTheDeviceOnce(t *testing.T) {
	v, problems := table.Parse(map[string]string{"shared_buffers": "128kB", "version": "16", "ring": "64MB",
		"os_cache": "none", "dirty_share": "0", "flush_latency": "50µs", "clients": "27", "hot_set": "56", "seed": "11944931243687046934"})
	if len(problems) > 0 {
		t.Fatal(problems[0])
	}
	r, err := NewRun(SetupOf(v))
	if err != nil {
		t.Fatal(err)
	}
	s := r.Sim()
	var lines []string
	for blk := 359775; blk <= 359780; blk++ {
		lines = append(lines, fmt.Sprintf("pin b=1 rel=vacuumed blk=%d", blk))
	}
	lines = append(lines, "step 8", "relation extra blocks=71 unlogged")
	for blk := 30; blk <= 36; blk++ {
		lines = append(lines, fmt.Sprintf("pin b=1 rel=extra blk=%d", blk))
	}
	lines = append(lines, "pin b=3 rel=hot blk=4", "pin b=3 rel=hot blk=5", "step 362")
	for _, line := range lines {
		c, err := sim.ParseCommand(line)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Apply(c); err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		if err := r.CheckInvariants(); err != nil {
			t.Fatal(err)
		}
	}
	if s.Stats().Steps != 370 || s.Now() >= sim.Second {
		t.Fatalf("after %d steps the clock is at %v; want 370 steps in under a second", s.Stats().Steps, s.Now())
	}
}
