package free

import (
	"testing"

	"github.com/bufferscope/bufferscope/sim/lab"
)

// TestRealJobCountsUsageUpToTheMaximum: the usage count of a page read n times is n up to
// BM_MAX_USAGE_COUNT (5), which the page's PostgreSQL 18 shows the same.
//
// Reference: src/backend/storage/buffer/bufmgr.c, PinBuffer (BM_MAX_USAGE_COUNT in
// buf_internals.h).
func TestRealJobCountsUsageUpToTheMaximum(t *testing.T) {
	out, err := runReal(lab.Args{"reads": []float64{1, 2, 5, 6, 40}}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []int{1, 2, 5, 5, 5}
	got := out["usage"].([]any)
	for i := range want {
		if got[i].(int) != want[i] {
			t.Errorf("usage after %v reads: %v, want %d", []int{1, 2, 5, 6, 40}[i], got[i], want[i])
		}
	}
	if _, err := runReal(lab.Args{"reads": []float64{0}}, nil, nil); err == nil {
		t.Error("0 reads was accepted")
	}
}
