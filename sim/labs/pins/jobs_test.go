package pins

import (
	"testing"

	"github.com/bufferscope/bufferscope/sim/lab"
)

// The compare job runs both policies with the page's settings and the same seed: each
// policy's numbers are what a run of that policy alone gives.
func TestCompareJobRunsBothPoliciesAlike(t *testing.T) {
	args := lab.Args{"clients": "8", "duration": "20s", "naptime": "2s", "seed": "3", "policy": "pg19"}
	out, err := Lab{}.Jobs()["compare"](args, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	pols := out["policies"].([]any)
	if len(pols) != 2 || pols[0] != "keep-pin" || pols[1] != "drop-pin" {
		t.Fatalf("policies = %v", pols)
	}
	for i, p := range pols {
		v, problems := table.Parse(map[string]string{"clients": "8", "duration": "20s", "naptime": "2s", "seed": "3", "policy": p.(string)})
		if len(problems) > 0 {
			t.Fatal(problems)
		}
		cfg, nb, dur, slice := ConfigOf(v)
		want, err := Run(cfg, nb, dur, slice)
		if err != nil {
			t.Fatal(err)
		}
		if got := out["tps"].([]any)[i].(float64); got != want.TPS {
			t.Errorf("%s: tps %v, a run alone gives %v", p, got, want.TPS)
		}
		if got := len(out["sliceTPS"].([]any)[i].([]any)); got != len(want.SliceTPS) {
			t.Errorf("%s: %d slices, a run alone has %d", p, got, len(want.SliceTPS))
		}
		if out["sliceSeconds"] != want.SliceLen.Seconds() || out["firstSlice"] != want.FirstSlice {
			t.Errorf("%s: slices of %v s from slice %v; a run alone has %v s from %d", p, out["sliceSeconds"], out["firstSlice"], want.SliceLen.Seconds(), want.FirstSlice)
		}
	}
}

// The clients job refuses a bad list and can be cancelled.
func TestClientsJobArguments(t *testing.T) {
	if _, err := (Lab{}).Jobs()["clients"](lab.Args{"counts": []float64{0}}, nil, nil); err == nil {
		t.Error("counts [0] was accepted")
	}
	stop := func(int, int, string, bool) bool { return false }
	if _, err := (Lab{}).Jobs()["clients"](lab.Args{"counts": []float64{2}, "duration": "10s"}, nil, stop); err != lab.ErrCancelled {
		t.Errorf("a cancelled job returned %v", err)
	}
	out, err := (Lab{}).Jobs()["clients"](lab.Args{"counts": []float64{2, 4}, "duration": "10s", "naptime": "2s"}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if xs := out["clients"].([]any); len(xs) != 2 || xs[0] != 2 || xs[1] != 4 {
		t.Errorf("clients = %v", xs)
	}
	for _, row := range out["tps"].([]any) {
		if ys := row.([]any); len(ys) != 2 || ys[0].(float64) <= 0 {
			t.Errorf("tps row %v", ys)
		}
	}
}
