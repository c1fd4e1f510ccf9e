package pins

import (
	"testing"

	"github.com/bufferscope/bufferscope/sim"
)

// TestRealJobIsExperiment6: the job gives the real panel experiment 6's two LP_DEAD figures
// for PostgreSQL 18, which the fidelity harness checks on real servers.
//
// Reference: src/backend/access/nbtree/nbtutils.c, _bt_killitems.
func TestRealJobIsExperiment6(t *testing.T) {
	out, err := runReal(nil, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	want, err := FidelityExperiment6(sim.Version(18))
	if err != nil {
		t.Fatal(err)
	}
	if out["plain"] != want["plain index scan, logged"] || out["cursor"] != want["cursor + insert into the leaf, logged"] || out["rows"] != FidelityRows {
		t.Errorf("real job %v, experiment 6 %v", out, want)
	}
	if out["plain"] == out["cursor"] {
		t.Errorf("the plain scan and the cursor with an insert mark as many dead items (%v): the pair shows nothing", out["plain"])
	}
}
