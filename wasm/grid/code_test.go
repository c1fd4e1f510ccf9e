package grid

import (
	"testing"

	"github.com/bufferscope/bufferscope/sim"
)

func TestCodeParts(t *testing.T) {
	c := MakeCode(3, 4, true, true)
	if c.Rel() != 3 || c.Usage() != 4 || !c.Dirty() || !c.Pinned() || c.Empty() {
		t.Errorf("MakeCode(3,4,dirty,pinned) reads back as rel %d usage %d dirty %v pinned %v", c.Rel(), c.Usage(), c.Dirty(), c.Pinned())
	}
	if e := MakeCode(-1, 5, true, false); !e.Empty() || e.Rel() != -1 || e.Dirty() || e != 0 {
		t.Errorf("an empty buffer's code is %#x", uint16(e))
	}
	if c := MakeCode(1000, 2, false, false); c.Rel() != MaxRelCode {
		t.Errorf("relation 1000 saturates at %d, want %d", c.Rel(), MaxRelCode)
	}
}

func TestEncodeMatchesTheSnapshot(t *testing.T) {
	s, err := sim.New(sim.Config{NBuffers: 1024, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Step(20000); err != nil {
		t.Fatal(err)
	}
	views := make([]sim.BufferView, 1024)
	s.Snapshot(views, 0)
	codes := make([]Code, 1024)
	var r Refresher
	r.RefreshAll(s, codes)
	seen := map[string]bool{}
	for i, v := range views {
		c := codes[i]
		if c != Encode(v) {
			t.Fatalf("buffer %d: Refresher and Encode disagree", i)
		}
		valid := v.State.Has(sim.BM_TAG_VALID)
		if c.Empty() == valid || (valid && c.Rel() != int(v.Rel)) {
			t.Fatalf("buffer %d: code rel %d, view rel %d valid %v", i, c.Rel(), v.Rel, valid)
		}
		if valid && (c.Usage() != v.State.UsageCount() || c.Dirty() != v.State.Has(sim.BM_DIRTY) || c.Pinned() != (v.State.RefCount() > 0)) {
			t.Fatalf("buffer %d: code %#x does not match state %s", i, uint16(c), v.State.FlagString())
		}
		if c.Dirty() {
			seen["dirty"] = true
		}
		if c.Pinned() {
			seen["pinned"] = true
		}
	}
	if !seen["dirty"] || !seen["pinned"] {
		t.Errorf("the run left no dirty or no pinned buffer to compare (%v)", seen)
	}
	// RefreshOne and a partial Refresh agree with the whole.
	again := make([]Code, 1024)
	r.Refresh(s, again, 0, 500)
	r.Refresh(s, again, 500, 10000)
	for i := range again {
		if again[i] != codes[i] {
			t.Fatalf("partial refresh differs at %d", i)
		}
	}
	codes[7] = 0
	r.RefreshOne(s, codes, 7)
	r.RefreshOne(s, codes, -1)
	r.RefreshOne(s, codes, 5000)
	if codes[7] != again[7] {
		t.Error("RefreshOne did not restore buffer 7")
	}
}
