package main

import (
	"strings"
	"testing"
)

// TestDropCosts lists the cost parts, with an override in the value column and the
// default beside it.
func TestDropCosts(t *testing.T) {
	r := invoke("drop", "--costs", "--cost", "memory_latency=200ns", "--shared-buffers", "100GB")
	if r.code != 0 || r.stderr != "" {
		t.Fatalf("status %d, stderr %q", r.code, r.stderr)
	}
	for _, want := range []string{"| memory_latency | 200ns | 90ns | duration |", "| control_file_sync | 100µs | 100µs |",
		"| cache_size | 15MB | 15MB | bytes |", "a lookup costs 255ns"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("--costs lacks %q:\n%s", want, r.stdout)
		}
	}
}

// TestDropCostRepeats gives --cost twice: both overrides apply, and a dearer lookup makes
// the lookup path slower.
func TestDropCostRepeats(t *testing.T) {
	args := []string{"--tables", "100x1", "--op", "truncate"}
	base := number(t, dropRows(t, args...)[0], "modelled_seconds")
	dear := number(t, dropRows(t, append(args, "--cost", "cache_probe=10us", "--cost", "control_file_sync=1ms")...)[0], "modelled_seconds")
	// 100 commits: each pays 900µs more for pg_control, and its lookup and invalidation
	// about 20µs more (a lookup and a delete).
	if d := dear - base; d < 0.0919 || d > 0.0921 {
		t.Errorf("two overrides add %.6fs, want about 0.092s", d)
	}
	for _, bad := range [][]string{{"--cost", "nope=1ns"}, {"--cost", "memory_latency=fast"}, {"--device", "floppy"}} {
		r := invoke(append([]string{"drop"}, bad...)...)
		if r.code != 2 || !strings.Contains(r.stderr, "--"+strings.TrimPrefix(bad[0], "--")) {
			t.Errorf("%q: status %d, stderr %q", bad, r.code, r.stderr)
		}
	}
}
