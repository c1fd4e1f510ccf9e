package pins

import (
	"fmt"
	"strings"
	"testing"

	"github.com/bufferscope/bufferscope/sim"
	"github.com/bufferscope/bufferscope/sim/lab"
	simpins "github.com/bufferscope/bufferscope/sim/labs/pins"
	"github.com/bufferscope/bufferscope/wasm/labview"
)

// steppedView is the view of a pins run of 20 clients in an 8MB pool, stepped steps times.
func steppedView(t *testing.T, steps int) (labview.View, lab.Run) {
	t.Helper()
	l := simpins.Lab{}
	vals, _ := l.Params().Parse(map[string]string{"shared_buffers": "8MB", "clients": "20"})
	run, err := l.New(vals)
	if err != nil {
		t.Fatal(err)
	}
	v := NewView()
	v.Attach(run, run.Legend(), func(int, int32) int { return -1 })
	if _, err := v.Step(run, steps, nil, nil); err != nil {
		t.Fatal(err)
	}
	return v, run
}

// The inspector lists a leaf's items as bt_page_items does, with its LSN and counts, and
// says nothing about an empty buffer.
func TestInspectLeaf(t *testing.T) {
	v, run := steppedView(t, 20000)
	s := run.Sim()
	found := false
	for id := range s.Pool.NBuffers {
		info := v.Inspect(0, id)
		d := s.Pool.Desc(id)
		if !d.State.Has(sim.BM_TAG_VALID) {
			if info != nil {
				t.Fatalf("empty buffer %d inspected as %v", id, info)
			}
			continue
		}
		if info["page"] != "leaf" {
			continue
		}
		found = true
		if !strings.HasPrefix(info["btPageItems"].(string), "itemoffset | ctid | dead | data\n1 | ") || info["items"].(int) == 0 {
			t.Fatalf("leaf in buffer %d: %v", id, info)
		}
		break
	}
	if !found {
		t.Fatal("no leaf page in the pool")
	}
	if !v.Options().HideHand {
		t.Error("the clock hand is shown")
	}
}

// Stats names the leftmost leaves' buffers in key order, and each one's item states agree
// with the inspector's counts.
func TestStatsNameTheLeftmostLeaves(t *testing.T) {
	v, _ := steppedView(t, 50000)
	ids := strings.Split(v.Stats()["leafBuffers"].(string), ",")
	if len(ids) != leavesShown {
		t.Fatalf("leafBuffers = %v, want %d buffers", ids, leavesShown)
	}
	last := -1
	for _, s := range ids {
		var id int
		if _, err := fmt.Sscan(s, &id); err != nil {
			t.Fatal(err)
		}
		info := v.Inspect(0, id)
		if info["page"] != "leaf" {
			t.Fatalf("buffer %d is not a leaf: %v", id, info)
		}
		if info["block"].(int) == last {
			t.Errorf("buffer %d holds leaf %d again", id, last)
		}
		states := info["itemStates"].(string)
		if len(states) != info["items"].(int) ||
			strings.Count(states, "L") != info["live"].(int) ||
			strings.Count(states, "d") != info["deadUnmarked"].(int) ||
			strings.Count(states, "X") != info["lpDead"].(int) {
			t.Errorf("buffer %d: itemStates %q disagree with %v", id, states, info)
		}
		last = info["block"].(int)
	}
}
