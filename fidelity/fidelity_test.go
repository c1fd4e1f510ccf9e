package fidelity

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// realEnv installs one PostgreSQL major (BUFFERSCOPE_FIDELITY_MAJOR, default 17) into the
// project's cache and returns an Env whose servers are all stopped when the test ends. It skips
// the test unless BUFFERSCOPE_FIDELITY=1, so plain go test needs no PostgreSQL.
func realEnv(t *testing.T) (*Env, int) {
	t.Helper()
	if os.Getenv("BUFFERSCOPE_FIDELITY") != "1" {
		t.Skip("set BUFFERSCOPE_FIDELITY=1 to run experiments on a real PostgreSQL (make fidelity-quick)")
	}
	major := 17
	if v := os.Getenv("BUFFERSCOPE_FIDELITY_MAJOR"); v != "" {
		var err error
		if major, err = strconv.Atoi(v); err != nil {
			t.Fatalf("BUFFERSCOPE_FIDELITY_MAJOR=%q: %v", v, err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	bins, err := Install(ctx, filepath.Join("..", ".cache", "postgres"), []int{major})
	if err != nil {
		t.Fatal(err)
	}
	env, err := NewEnv(ctx, bins, t.Logf)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := env.Close(); err != nil {
			t.Errorf("stopping the servers: %v", err)
		}
	})
	return env, major
}

// checkFactSheet fails the test for every row whose real figure differs from what the fact
// sheet (docs/reference postgres-internals.md) says, which the simulator follows, and, these
// experiments being exact counts, for every row whose simulated figure (AllHooks) differs
// from the real one.
func checkFactSheet(t *testing.T, res *Results) {
	t.Helper()
	rows := res.Rows()
	if len(rows) == 0 {
		t.Fatal("the experiments produced no rows")
	}
	hooks := AllHooks()
	for _, r := range rows {
		t.Logf("pg%d %s, %s: %s (fact sheet: %s)", r.Major, r.Experiment, r.Case, r.Real, r.FactSheet)
		if r.FactSheetVerdict == Differs {
			t.Errorf("pg%d %s, %s: real %s, the fact sheet says %s", r.Major, r.Experiment, r.Case, r.Real, r.FactSheet)
		}
		if hook := hooks[r.Experiment]; hook != nil {
			if fig, agrees, ok := hook(r); ok && !agrees {
				t.Errorf("pg%d %s, %s: real %s, the simulation %s", r.Major, r.Experiment, r.Case, r.Real, fig)
			}
		}
	}
}

// TestRealRings counts what VACUUM's ring and a sequential scan's ring leave in shared buffers.
//
// Reference: src/backend/storage/buffer/freelist.c, GetAccessStrategyWithSize (ring capped at
// NBuffers/8); src/backend/access/heap/heapam.c, initscan (bulk read over NBuffers/4).
func TestRealRings(t *testing.T) {
	env, major := realEnv(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	vac, err := VacuumRing(ctx, env, major)
	if err != nil {
		t.Fatal(err)
	}
	scan, err := SeqScanRing(ctx, env, major)
	if err != nil {
		t.Fatal(err)
	}
	if vac.TablePages <= vac.NBuffers/4 {
		t.Errorf("the ring table has %d pages, not over NBuffers/4 = %d", vac.TablePages, vac.NBuffers/4)
	}
	checkFactSheet(t, &Results{Majors: []int{major}, VacuumRing: []RingResult{vac}, SeqScanRing: []RingResult{scan}})
}

// TestRealLPDead counts LP_DEAD items after index scans and checks whether VACUUM waits for a
// cursor's leaf pin.
//
// Reference: src/backend/access/nbtree/nbtutils.c, _bt_killitems; nbtsearch.c,
// _bt_drop_lock_and_maybe_pin.
func TestRealLPDead(t *testing.T) {
	env, major := realEnv(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	res, err := LPDead(ctx, env, major)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Pins) != 3 {
		t.Errorf("got %d VACUUM-against-a-cursor cases, want 3", len(res.Pins))
	}
	checkFactSheet(t, &Results{Majors: []int{major}, LPDead: []LPDeadResult{res}})
}

// TestRealSetupFromPrivateFolder runs the harness's setup as a newcomer's clone does: the cache
// inside a folder of mode 0700 (as mktemp -d makes it, or root's home). As root the servers run
// as nobody, who cannot enter that folder; the setup must still start a server that answers,
// and leave nothing behind when it closes.
func TestRealSetupFromPrivateFolder(t *testing.T) {
	if os.Getenv("BUFFERSCOPE_FIDELITY") != "1" {
		t.Skip("set BUFFERSCOPE_FIDELITY=1 to run experiments on a real PostgreSQL (make fidelity-quick)")
	}
	major := 17
	if v := os.Getenv("BUFFERSCOPE_FIDELITY_MAJOR"); v != "" {
		major, _ = strconv.Atoi(v)
	}
	home, err := os.MkdirTemp("", "bufferscope-private-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(home) })
	if err := os.Chmod(home, 0o700); err != nil {
		t.Fatal(err)
	}
	clone := filepath.Join(home, "bufferscope")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	bins, err := Install(ctx, filepath.Join(clone, ".cache", "postgres"), []int{major})
	if err != nil {
		t.Fatal(err)
	}
	env, err := NewEnv(ctx, bins, t.Logf)
	if err != nil {
		t.Fatal(err)
	}
	defer env.Close()
	stage := env.stage
	if os.Geteuid() == 0 && stage == "" {
		t.Errorf("as root, the binaries inside %s (mode 0700) were not staged for %s", home, serverUser)
	}
	srv, err := env.NewServer(ctx, major, nil)
	if err != nil {
		t.Fatal(err)
	}
	conn, err := srv.Connect(ctx)
	if err != nil {
		t.Fatal(err)
	}
	n, err := QueryInt(ctx, conn, "SELECT current_setting('server_version_num')::int / 10000")
	conn.Close(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if int(n) != major {
		t.Errorf("the server says it is PostgreSQL %d, want %d", n, major)
	}
	if err := env.Close(); err != nil {
		t.Fatal(err)
	}
	if stage != "" {
		if _, err := os.Stat(stage); !os.IsNotExist(err) {
			t.Errorf("the staged binaries in %s are still there after Close (%v)", stage, err)
		}
	}
}

// TestBlockingDirNamesThePrivateFolder checks that the harness's advice names the folder that
// others cannot enter, not the file beneath it.
func TestBlockingDirNamesThePrivateFolder(t *testing.T) {
	home, err := os.MkdirTemp("", "bufferscope-open-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(home) })
	private := filepath.Join(home, "private")
	inner := filepath.Join(private, "clone", "bin")
	if err := os.MkdirAll(inner, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(home, 0o755); err != nil {
		t.Fatal(err)
	}
	if got := blockingDir(inner); got == private {
		t.Fatalf("blockingDir(%s) = %s before the folder was made private", inner, got)
	}
	if err := os.Chmod(private, 0o700); err != nil {
		t.Fatal(err)
	}
	if got := blockingDir(inner); got != private {
		t.Errorf("blockingDir(%s) = %s, want %s", inner, got, private)
	}
}
