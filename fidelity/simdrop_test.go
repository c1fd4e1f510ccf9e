package fidelity

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestDropHooks gives the drop lab's hooks the rows the real experiments 4 and 5 produce and
// checks the simulated side: on a primary every drop scans and the time grows with NBuffers
// at a slope inside the real servers' 2.9–7.5 ns per descriptor; in replay 13 scans and grows,
// 14+ looks blocks up and stays flat.
// Reference: src/backend/storage/buffer/bufmgr.c, DropRelationsAllBuffers and smgrnblocks_cached
func TestDropHooks(t *testing.T) {
	hooks := DropHooks()
	slope := regexp.MustCompile(`slope (-?[\d.]+) ns per descriptor`)
	for _, tc := range []struct {
		exp    Experiment
		major  int
		shape  string
		path   string
		slopes [2]float64
	}{
		{ExpDrop, 13, "grows", "scan", [2]float64{2.9, 7.5}},
		{ExpDrop, 17, "grows", "scan", [2]float64{2.9, 7.5}},
		{ExpReplay, 13, "grows", "scan", [2]float64{2.9, 7.5}},
		{ExpReplay, 14, "flat", "lookup", [2]float64{-0.5, 0.5}},
		{ExpReplay, 18, "flat", "lookup", [2]float64{-0.5, 0.5}},
	} {
		hook := hooks[tc.exp]
		for _, c := range []string{"shared_buffers 128MB (NBuffers 16384)", "shared_buffers 4GB (NBuffers 524288)"} {
			fig, agrees, ok := hook(Row{Experiment: tc.exp, Major: tc.major, Case: c})
			// A primary's figure starts with its path (buffer work alone); a replay's has it in brackets.
			if !ok || !agrees || !strings.Contains(fig, "("+tc.path+",") && !strings.HasPrefix(fig, tc.path+" of ") {
				t.Errorf("%s pg%d %s: %q agrees=%v ok=%v, want path %s", tc.exp, tc.major, c, fig, agrees, ok, tc.path)
			}
		}
		fig, agrees, ok := hook(Row{Experiment: tc.exp, Major: tc.major, Case: "shape", Shape: tc.shape})
		if !ok || !agrees || !strings.HasPrefix(fig, tc.shape+":") {
			t.Errorf("%s pg%d shape: %q agrees=%v ok=%v, want %s", tc.exp, tc.major, fig, agrees, ok, tc.shape)
		}
		m := slope.FindStringSubmatch(fig)
		if m == nil {
			t.Fatalf("%s pg%d shape: no slope in %q", tc.exp, tc.major, fig)
		}
		if s, _ := strconv.ParseFloat(m[1], 64); s < tc.slopes[0] || s > tc.slopes[1] {
			t.Errorf("%s pg%d: slope %.2f ns per descriptor, want %v–%v", tc.exp, tc.major, s, tc.slopes[0], tc.slopes[1])
		}
		t.Logf("%s pg%d: %s", tc.exp, tc.major, fig)
		// A shape the simulation does not share is a difference.
		if _, agrees, _ := hook(Row{Experiment: tc.exp, Major: tc.major, Case: "shape", Shape: "other"}); agrees {
			t.Errorf("%s pg%d: agrees with a shape it does not have", tc.exp, tc.major)
		}
	}
}
