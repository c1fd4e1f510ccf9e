package fidelity

import (
	"encoding/json"
	"os"
	"reflect"
	"testing"
)

// TestCommittedResultsRender: the real figures committed beside the report
// (docs/fidelity.json, written by make fidelity) load back into Results unchanged and render
// with every hook, so make fidelity-render can rewrite the report without servers.
func TestCommittedResultsRender(t *testing.T) {
	b, err := os.ReadFile("../docs/fidelity.json")
	if err != nil {
		t.Skip("no committed figures:", err)
	}
	var res Results
	if err := json.Unmarshal(b, &res); err != nil {
		t.Fatal(err)
	}
	again, err := json.Marshal(&res)
	if err != nil {
		t.Fatal(err)
	}
	var back Results
	if err := json.Unmarshal(again, &back); err != nil || !reflect.DeepEqual(res, back) {
		t.Fatalf("the figures do not survive a round trip: %v", err)
	}
	if len(res.Majors) == 0 || len(res.VacuumRing) == 0 || len(res.LPDead) == 0 {
		t.Fatalf("figures missing: %d majors, %d ring, %d LP_DEAD", len(res.Majors), len(res.VacuumRing), len(res.LPDead))
	}
	var out nopWriter
	if err := Report(&out, &res, AllHooks()); err != nil {
		t.Fatal(err)
	}
}

type nopWriter struct{}

func (*nopWriter) Write(p []byte) (int, error) { return len(p), nil }
