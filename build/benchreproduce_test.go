//go:build !js

package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/bufferscope/bufferscope/sim/lab"
)

// fakeBufferscope writes a shell script standing in for the bufferscope command: it checks
// that it was asked for <lab> --reproduce, prints a line and exits with status.
func fakeBufferscope(t *testing.T, status string) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "bufferscope")
	script := "#!/bin/sh\n[ \"$2\" = --reproduce ] || exit 7\necho \"reproducing $1\"\n"
	if status != "0" {
		var b strings.Builder
		lab.Targets{{Name: "the published shape", Pass: false, Detail: "not reproduced"}, {Name: "a count", Pass: true, Detail: "equal"}}.WriteMarkdown(&b)
		script += "cat <<'EOF'\n" + b.String() + "EOF\n"
	}
	script += "exit " + status + "\n"
	if err := os.WriteFile(bin, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return bin
}

// TestTimeReproduceRecordsExitStatus runs a fake command that passes and one that misses
// its targets: both are results with their exit status, the second not OK.
func TestTimeReproduceRecordsExitStatus(t *testing.T) {
	for _, tc := range []struct {
		status string
		ok     bool
		code   int
	}{{"0", true, 0}, {"1", false, 1}} {
		var out strings.Builder
		r, err := timeReproduce(fakeBufferscope(t, tc.status), "ring", &out, &out)
		if err != nil {
			t.Fatalf("exit %s: %v", tc.status, err)
		}
		if r.Lab != "ring" || r.OK != tc.ok || r.ExitCode != tc.code {
			t.Errorf("exit %s: got %+v, want lab ring, ok %v, exit code %d", tc.status, r, tc.ok, tc.code)
		}
		if r.Seconds <= 0 || r.PeakBytes <= 0 {
			t.Errorf("exit %s: %v s and %v bytes peak, want both measured", tc.status, r.Seconds, r.PeakBytes)
		}
		if !strings.HasPrefix(out.String(), "reproducing ring\n") {
			t.Errorf("exit %s: the command printed %q, want its output passed on", tc.status, out.String())
		}
		// The failed run names the target it missed, and only that one.
		if want := []string{"the published shape: not reproduced"}; tc.ok && len(r.Failed) != 0 || !tc.ok && !slices.Equal(r.Failed, want) {
			t.Errorf("exit %s: failed targets %q", tc.status, r.Failed)
		}
	}
}

// TestTimeReproduceRefusesAMissingCommand checks that a command that cannot start is an
// error, not a failed run.
func TestTimeReproduceRefusesAMissingCommand(t *testing.T) {
	if _, err := timeReproduce(filepath.Join(t.TempDir(), "none"), "drop", nil, nil); err == nil {
		t.Fatal("a missing command gave no error")
	}
}

// TestReproduceJSONReadsBack writes a report as bench-reproduce does and reads it with the
// report's reader, so the two cannot drift apart on a field name.
func TestReproduceJSONReadsBack(t *testing.T) {
	rep := reproduceReport{Date: "2026-12-05T15:00:00Z", Machine: machineName(), Runs: []reproduceRun{
		{Lab: "drop", Seconds: 12.5, PeakBytes: 3 << 30, OK: true},
		{Lab: "pins", Seconds: 16, PeakBytes: 40 << 20, OK: false, ExitCode: 1, Failed: []string{"the published shape: not reproduced"}},
	}}
	b, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	name := filepath.Join(t.TempDir(), "reproduce.json")
	if err := os.WriteFile(name, b, 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := readReproduce(name)
	if err != nil {
		t.Fatal(err)
	}
	if got.Date != rep.Date || got.Machine != rep.Machine || len(got.Runs) != 2 {
		t.Fatalf("read back %+v from %s", got, b)
	}
	for i, r := range got.Runs {
		w := rep.Runs[i]
		if r.Lab != w.Lab || r.Seconds != w.Seconds || r.PeakBytes != w.PeakBytes || r.OK != w.OK || !slices.Equal(r.Failed, w.Failed) {
			t.Errorf("run %d: read back %+v, wrote %+v", i, r, w)
		}
	}
}
