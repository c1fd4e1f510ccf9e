package pins

import (
	"fmt"
	"slices"
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
		if page, _ := labview.Lookup(info, "Index page"); !strings.HasPrefix(page, "leaf, block ") {
			continue
		}
		found = true
		items := info[1]
		if items.Label != "Items" || len(items.Table) < 2 || strings.Join(items.Table[0], " | ") != "itemoffset | ctid | dead | data | heap tuple" || items.Table[1][0] != "1" {
			t.Fatalf("leaf in buffer %d: %+v", id, info)
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

// Stats describes the leftmost leaves in key order, each in its own buffer, and each one's
// item states agree with the inspector's counts.
func TestStatsDescribeTheLeftmostLeaves(t *testing.T) {
	v, _ := steppedView(t, 50000)
	leaves := v.Stats()["leaves"].([]Leaf)
	if len(leaves) != leavesShown {
		t.Fatalf("%d leaves described, want %d", len(leaves), leavesShown)
	}
	last := -1
	for _, lf := range leaves {
		info := v.Inspect(0, lf.Buffer)
		if page, _ := labview.Lookup(info, "Index page"); page != fmt.Sprintf("leaf, block %d", lf.Block) {
			t.Fatalf("buffer %d: the inspector says %q, the leaves card leaf %d", lf.Buffer, page, lf.Block)
		}
		if lf.Block <= last {
			t.Errorf("leaf %d after leaf %d: not in key order", lf.Block, last)
		}
		states := lf.States
		want := fmt.Sprintf("%d: %d live, %d dead not yet marked, %d LP_DEAD", len(states),
			strings.Count(states, "L"), strings.Count(states, "d"), strings.Count(states, "X"))
		if items, _ := labview.Lookup(info, "Items"); !strings.HasPrefix(items, want) {
			t.Errorf("buffer %d: the inspector says %q, the drawn item states %q", lf.Buffer, items, want)
		}
		if lf.Live != strings.Count(states, "L") || lf.LPDead != strings.Count(states, "X") {
			t.Errorf("leaf %d: counts %+v disagree with its states", lf.Block, lf)
		}
		last = lf.Block
	}
}

// A heap page under the pointer says which block of the table it is, its tuples and its
// visibility map bit, in words.
func TestInspectHeapPage(t *testing.T) {
	v, run := steppedView(t, 20000)
	s := run.Sim()
	for id := range s.Pool.NBuffers {
		info := v.Inspect(0, id)
		page, ok := labview.Lookup(info, "Heap page")
		if !ok {
			continue
		}
		if !strings.HasPrefix(page, "block ") || !strings.HasSuffix(page, " of "+simpins.HeapRelation) {
			t.Fatalf("buffer %d: heap page %q", id, page)
		}
		tuples, _ := labview.Lookup(info, "Tuples")
		vm, _ := labview.Lookup(info, "Visibility map")
		if !strings.Contains(tuples, fmt.Sprintf(" of %d: ", simpins.HeapTuplesPerPage)) || !strings.Contains(vm, "all-visible") {
			t.Fatalf("buffer %d: tuples %q, visibility map %q", id, tuples, vm)
		}
		return
	}
	t.Fatal("no heap page in the pool")
}

// The marks of hints set and lost stay while the run is paused, however much wall time
// passes, and fade once it plays again; Stats lists them as the overlay draws them.
func TestMarksStayWhilePaused(t *testing.T) {
	l := simpins.Lab{}
	vals, _ := l.Params().Parse(map[string]string{"clients": "20"})
	run, err := l.New(vals)
	if err != nil {
		t.Fatal(err)
	}
	v := NewView().(*View)
	v.Attach(run, run.Legend(), func(int, int32) int { return -1 })
	wall := 0.0
	tick := func(step bool) {
		wall += 1.0 / 60
		v.Tick(1, wall)
		if step {
			if _, err := v.Step(run, 200, func() bool { return false }, nil); err != nil {
				t.Fatal(err)
			}
		}
	}
	marks := func() []Mark { return v.Stats()["marks"].([]Mark) }
	for range 600 {
		tick(true)
		if len(marks()) > 0 {
			break
		}
	}
	shown := marks()
	if len(shown) == 0 {
		t.Fatal("no hint was set or lost in 10 s of play")
	}
	for range 600 { // ten seconds of wall time, paused
		tick(false)
	}
	if got := marks(); !slices.Equal(got, shown) {
		t.Fatalf("paused, the marks went from %v to %v", shown, got)
	}
	noted := map[Mark]float64{}
	for _, m := range shown {
		noted[m] = v.recent[int32(m.Buffer)].at
	}
	for range int(markSeconds*60) + 2 { // playing on past the marks' time
		tick(true)
	}
	for _, m := range marks() {
		if at, ok := noted[m]; ok && v.recent[int32(m.Buffer)].at == at {
			t.Errorf("mark %v outlived its %.1f s of play", m, markSeconds)
		}
	}
}
