package app

import (
	"testing"

	"github.com/bufferscope/bufferscope/sim/labs"
)

// TestStatsCountTheLabsEvents checks the event counts the page's event log reads: each of
// a lab's kinds of interest is counted from the events of every chunk of steps, so in free
// play the evictions and WAL flushes counted equal the pool's own statistics, and a new run
// counts from zero.
func TestStatsCountTheLabsEvents(t *testing.T) {
	a := newApp(t)
	load(t, a, "", map[string]string{"shared_buffers": "1MB", "seed": "7"})
	if _, err := a.Step(20_000); err != nil {
		t.Fatal(err)
	}
	st := a.Stats()
	ps := a.run.Sim().Stats()
	if st.Events["evict"] != ps.Evictions || ps.Evictions == 0 {
		t.Errorf("events.evict = %d, the pool evicted %d", st.Events["evict"], ps.Evictions)
	}
	if st.Events["walflush"] != ps.WALFlushes {
		t.Errorf("events.walflush = %d, the pool flushed WAL %d times", st.Events["walflush"], ps.WALFlushes)
	}
	if len(st.Events) != len(labs.All[0].Events()) {
		t.Errorf("events has %d kinds, the lab declares %d: %v", len(st.Events), len(labs.All[0].Events()), st.Events)
	}
	a.Reset()
	for k, n := range a.Stats().Events {
		if n != 0 {
			t.Errorf("after reset events.%s = %d, want 0", k, n)
		}
	}
}
