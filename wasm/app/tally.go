package app

import (
	"github.com/bufferscope/bufferscope/sim"
	"github.com/bufferscope/bufferscope/sim/lab"
)

// tally counts the events of the lab's kinds of interest (lab.Lab.Events) since its run was
// built, for the page's text log of events: the page reads the counts with the stats and
// writes what changed between two reads in words. The zero value counts nothing.
type tally struct {
	kinds  []sim.EventKind
	counts []uint64
}

// reset counts the kinds of specs from zero.
func (t *tally) reset(specs []lab.EventSpec) {
	t.kinds = t.kinds[:0]
	for _, s := range specs {
		t.kinds = append(t.kinds, s.Kind)
	}
	t.counts = make([]uint64, len(t.kinds))
}

// note counts events of the kinds it counts, each as the number of things it stands for
// (sim.Event.Count: the items a scan marked LP_DEAD, not the scan).
func (t *tally) note(events []sim.Event) {
	if len(t.kinds) == 0 {
		return
	}
	for i := range events {
		for j, k := range t.kinds {
			if events[i].Kind == k {
				t.counts[j] += events[i].Count()
				break
			}
		}
	}
}

// byKind returns the counts keyed by sim.EventKind.String ("evict"), as labs() names the
// lab's events.
func (t *tally) byKind() map[string]uint64 {
	m := make(map[string]uint64, len(t.kinds))
	for j, k := range t.kinds {
		m[k.String()] = t.counts[j]
	}
	return m
}
