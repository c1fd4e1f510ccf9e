package ring

import (
	"strings"
	"testing"

	"github.com/bufferscope/bufferscope/sim/lab"
)

// TestRealJobLeavesTheRing: VACUUM of a cold table larger than every ring leaves the ring's
// pages (limit / 8kB buffers, the default 2MB as 2MB), no ring leaves the whole table, and a
// sequential scan of a table above NBuffers/4 leaves its bulk-read ring; bad arguments are
// refused.
//
// Reference: src/backend/storage/buffer/freelist.c, GetAccessStrategyWithSize and
// GetAccessStrategy (BAS_BULKREAD).
func TestRealJobLeavesTheRing(t *testing.T) {
	const pages = 6000
	out, err := runReal(lab.Args{"nbuffers": 16384.0, "pages": float64(pages), "limits": []float64{256, 2048, -1, 0}}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	left := out["vacuum"].([]any)
	if left[0].(int) != 256/8 || left[1].(int) != 2048/8 || left[2].(int) != left[1].(int) || left[3].(int) != pages {
		t.Errorf("pages left after VACUUM under 256kB, 2MB, the default and no ring: %v; want 32, 256, 256, %d", left, pages)
	}
	if seq := out["seqscan"].(int); seq < 256/8 || seq >= pages {
		t.Errorf("a sequential scan of %d pages left %d: want its ring, at least 256kB and far less than the table", pages, seq)
	}
	// The scan's ring follows the server's settings: fewer processes, a larger pin limit.
	few, err := runReal(lab.Args{"nbuffers": 16384.0, "pages": float64(pages), "limits": []float64{256}, "max_worker_processes": 1.0, "max_wal_senders": 3.0}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if few["pinLimitProcs"].(int) != 160 || few["seqscan"].(int) != 16384/160 {
		t.Errorf("with 1 worker process and 3 WAL senders: %d processes, the scan left %d pages; want 160 and %d", few["pinLimitProcs"], few["seqscan"], 16384/160)
	}
	for _, a := range []lab.Args{{}, {"pages": 10.0, "limits": []float64{64}}, {"pages": 10.0, "nbuffers": 4.0}, {"pages": 10.0, "io_combine_limit": 0.0}} {
		if _, err := runReal(a, nil, nil); err == nil {
			t.Errorf("runReal(%v) was accepted", a)
		}
	}
}

// TestRingRefusedBefore16: 14 and 15 have no vacuum_buffer_usage_limit, so a ring size other
// than the version's default is refused there with a reason, and the default (256kB) is used;
// from 16 every size is taken.
//
// Reference: src/backend/utils/misc/guc_tables.c (vacuum_buffer_usage_limit, 1cbbee0338, 16).
func TestRingRefusedBefore16(t *testing.T) {
	for _, c := range []struct {
		version, ring string
		refused       bool
	}{
		{"14", "16MB", true}, {"15", "0", true}, {"15", "default", false}, {"16", "16MB", false}, {"16", "0", false}, {"18", "256kB", false},
	} {
		v, problems := table.Parse(map[string]string{"version": c.version, "ring": c.ring})
		if refused := len(problems) > 0; refused != c.refused {
			t.Errorf("version %s, ring %s: problems %v, want refused %v", c.version, c.ring, problems, c.refused)
			continue
		}
		if c.refused {
			if !strings.Contains(problems[0].Error(), "does not exist before PostgreSQL 16") || v.Text("ring") != ringDefault {
				t.Errorf("version %s, ring %s: %v, ring used %q; want the reason and the default", c.version, c.ring, problems[0], v.Text("ring"))
			}
		}
	}
}

// TestRingSizesOfferedPerVersion: the sizes the page offers follow the version, as its
// control reads them from Limits: on 14 and 15 every preset but default is refused with
// the reason, from 16 every preset is offered.
//
// Reference: src/backend/utils/misc/guc_tables.c (vacuum_buffer_usage_limit, 1cbbee0338, 16).
func TestRingSizesOfferedPerVersion(t *testing.T) {
	presets := table.Param("ring").Presets
	for _, version := range []string{"14", "15", "16", "17", "18"} {
		v, _ := table.Parse(map[string]string{"version": version})
		refused := table.Limits(v)["ring"].Refused
		for _, o := range presets {
			why, isRefused := refused[o.Value]
			want := version < "16" && o.Value != ringDefault
			if isRefused != want || isRefused && !strings.Contains(why, "does not exist before PostgreSQL 16") {
				t.Errorf("version %s: ring %s refused %v (%q), want refused %v", version, o.Value, isRefused, why, want)
			}
		}
	}
}
