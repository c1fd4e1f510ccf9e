package fidelity

import (
	"strings"
	"testing"
	"time"
)

func TestVacuumRingPages(t *testing.T) {
	for _, tc := range []struct {
		major          int
		limit          string
		nbuffers, want int64
	}{
		{13, "", 16384, 32},         // 256kB before 17
		{16, "", 16384, 32},         // the GUC's default is still 256kB
		{17, "", 16384, 256},        // 2MB from 17
		{18, "2MB", 16384, 256},     // an explicit limit
		{17, "16MB", 16384, 2048},   // exactly NBuffers/8
		{17, "64MB", 16384, 2048},   // capped at NBuffers/8
		{17, "256kB", 128, 16},      // a tiny pool caps even the smallest ring
		{17, "0", 16384, 10345},     // no ring: the whole table stays
		{17, "16GB", 524288, 65536}, // NBuffers/8 at 4GB
	} {
		got, _ := vacuumRingPages(tc.major, tc.limit, tc.nbuffers, 10345)
		if got != tc.want {
			t.Errorf("vacuumRingPages(%d, %q, NBuffers %d) = %d, want %d", tc.major, tc.limit, tc.nbuffers, got, tc.want)
		}
	}
}

func TestScaleShape(t *testing.T) {
	ms := func(f float64) time.Duration { return time.Duration(f * float64(time.Millisecond)) }
	grows := ScaleResult{Pools: []PoolTiming{
		{NBuffers: 16384, PerOp: ms(0.5)}, {NBuffers: 131072, PerOp: ms(1.0)}, {NBuffers: 524288, PerOp: ms(2.5)},
	}}
	if got := grows.Shape(); got != "grows" {
		t.Errorf("Shape = %q, want grows", got)
	}
	// (2.5-0.5) ms over 507,904 descriptors is about 3.9 ns each.
	if got := grows.NsPerDescriptor(); got < 3.8 || got > 4.1 {
		t.Errorf("NsPerDescriptor = %.2f, want about 3.9", got)
	}
	flat := ScaleResult{Pools: []PoolTiming{
		{NBuffers: 16384, PerOp: ms(0.30)}, {NBuffers: 131072, PerOp: ms(0.28)}, {NBuffers: 524288, PerOp: ms(0.31)},
	}}
	if got := flat.Shape(); got != "flat" {
		t.Errorf("Shape = %q, want flat", got)
	}
}

func TestRedoTime(t *testing.T) {
	log := `2026-12-03 02:10:11.100 UTC [42] LOG:  database system was interrupted; last known up at 2026-12-03 02:10:10 UTC
2026-12-03 02:10:11.123 UTC [42] LOG:  redo starts at 0/1A2B3C4
2026-12-03 02:10:11.456 UTC [42] LOG:  redo done at 0/1B00000 system usage: CPU: user: 0.30 s, system: 0.01 s, elapsed: 0.33 s
`
	got, err := redoTime(log)
	if err != nil {
		t.Fatal(err)
	}
	if got != 333*time.Millisecond {
		t.Errorf("redoTime = %v, want 333ms", got)
	}
	if _, err := redoTime("2026-12-03 02:10:11.123 UTC [42] LOG:  database system is ready\n"); err == nil {
		t.Error("redoTime of a log without redo lines: no error")
	}
}

// TestReportHooks checks that an experiment without a hook says why, and that a hook's figure
// and verdict reach the table.
func TestReportHooks(t *testing.T) {
	res := &Results{Majors: []int{17},
		VacuumRing: []RingResult{{Major: 17, NBuffers: 16384, TablePages: 10345,
			Cases: []RingCase{{Limit: "", PagesLeft: 256}, {Limit: "256kB", PagesLeft: 40}}}},
		LPDead: []LPDeadResult{{Major: 17, Deleted: 100, Plain: 100, Cursor: 100, CursorInsert: 0, UnloggedCursorInsert: 100}},
	}
	hooks := Hooks{ExpVacuumRing: func(r Row) (string, bool, bool) {
		if r.Case == "vacuum_buffer_usage_limit 256kB" {
			return "", false, false
		}
		return "256 pages", r.Value == 256, true
	}}
	var b strings.Builder
	if err := Report(&b, res, hooks); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"| 17 | vacuum_buffer_usage_limit default | 256 pages | 256 pages (min(ring, NBuffers/8)) (agrees) | 256 pages | agrees |",
		"| 17 | vacuum_buffer_usage_limit 256kB | 40 pages | 32 pages (min(ring, NBuffers/8)) (differs) | not modelled yet | not modelled yet |",
		"The fact sheet's expectation holds on 1 of 2 rows.",
		Pending[ExpLPDead],
		"| 17 | cursor + insert into the leaf, logged | 0 of 100 dead | 0 (agrees) |",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the report lacks %q:\n%s", want, out)
		}
	}
	ringSection, _, _ := strings.Cut(out, "## 2.")
	if strings.Contains(ringSection, Pending[ExpVacuumRing]) {
		t.Error("the report says the ring lab has not landed although its hook is set")
	}
}
