package drop

import (
	"testing"

	"github.com/bufferscope/bufferscope/sim"
)

// TestDropLabSteps checks that stepping a drop lab one unit at a time ends where the
// experiment run in one go ends, for every operation, and that the scan cursor sweeps.
func TestDropLabSteps(t *testing.T) {
	for _, op := range []Operation{OpVacuum, OpTruncate, OpDrop} {
		for _, pol := range []sim.DropPolicy{sim.DropPG13, sim.DropPG14} {
			e := Experiment{NBuffers: 1024, Tables: []TableGroup{{Count: 3, Blocks: 5}, {Count: 2, Blocks: 40}}, Op: op, InRecovery: true}
			want, err := RunExperiment(e, pol)
			if err != nil {
				t.Fatal(err)
			}
			s, err := NewReplay(e, pol)
			if err != nil {
				t.Fatal(err)
			}
			cursors := map[int]bool{}
			for steps := 0; !ProgressOf(s).Done; steps++ {
				if steps > 100_000 {
					t.Fatalf("%v %v: not done after %d steps", op, pol, steps)
				}
				if err := s.Step(1); err != nil {
					t.Fatal(err)
				}
				if err := s.CheckInvariants(); err != nil {
					t.Fatal(err)
				}
				if c := ProgressOf(s).Cursor; c >= 0 {
					cursors[c] = true
				}
			}
			got := ProgressOf(s).Result
			if got != want[0] {
				t.Fatalf("%v %v: stepped %+v, in one go %+v", op, pol, got, want[0])
			}
			if s.Now() != got.Time {
				t.Fatalf("%v %v: the clock says %v, the replay %v", op, pol, s.Now(), got.Time)
			}
			if scans := got.DescriptorsChecked > 0; scans != (len(cursors) == 1024) {
				t.Fatalf("%v %v: the cursor visited %d of 1024 descriptors (scanned: %v)", op, pol, len(cursors), scans)
			}
		}
	}
}
