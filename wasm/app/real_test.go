package app

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bufferscope/bufferscope/sim"
)

// realRows is a small real pool as the page would send it: the reader's table t (blocks 0 to
// 4 in buffers 3 to 7, block 2 dirty, block 4 pinned by a cursor), its index, and a page of
// pg_class.
func realRows() RealPool {
	return RealPool{
		Server:   "PostgreSQL 18.6",
		NBuffers: 64,
		Relations: "1663,5,16390,t,f\n" +
			"1663,5,16393,t_pkey,f\n" +
			"1663,5,1259,pg_class,t\n",
		Rows: strings.Join(sim.BufferCacheColumns, ",") + "\n" +
			"1,1259,1663,5,0,0,f,5,0\n" +
			"2,,,,,,,,\n" +
			"3,16390,1663,5,0,0,f,1,0\n" +
			"4,16390,1663,5,0,1,f,1,0\n" +
			"5,16390,1663,5,0,2,t,2,0\n" +
			"6,16390,1663,5,0,3,f,1,0\n" +
			"7,16390,1663,5,0,4,f,1,1\n" +
			"8,16393,1663,5,0,1,f,3,0\n" +
			"9,99999,1663,1,0,0,f,1,0\n",
	}
}

// TestShowRealDrawsTheServersPool shows a real pool on the grid in place of the pins lab's
// simulated one: the grid's codes are the rows' (relation, usage count, dirty, pinned), the
// legend names the reader's relations and greys the catalogs and other databases, and
// inspection gives the real row with PostgreSQL's bufferid; then a step brings the simulated
// pool back, as it was.
func TestShowRealDrawsTheServersPool(t *testing.T) {
	a := newApp(t)
	load(t, a, "pins", nil)
	if _, err := a.Step(40); err != nil {
		t.Fatal(err)
	}
	simHash, simBuffers := a.Hash(), a.run.Sim().Pool.NBuffers
	a.Play()
	shown, err := a.ShowReal(realRows(), false)
	if err != nil {
		t.Fatal(err)
	}
	if shown != (RealShown{Buffers: 64, Full: 8, Dirty: 1, Pinned: 1, Relations: 4}) {
		t.Errorf("ShowReal says %+v", shown)
	}
	if !a.ShowingReal() || a.Playing() {
		t.Fatalf("showing real %v, playing %v: want the real pool shown and playback paused", a.ShowingReal(), a.Playing())
	}
	a.Tick(time.Now())
	a.Paint()
	codes := a.view.panes[0].tracker.Codes
	if len(codes) != 64 {
		t.Fatalf("the grid holds %d codes, want the real pool's 64", len(codes))
	}
	leg := a.Legend()
	role := map[string]int{}
	for i, r := range leg.Roles {
		role[r.Label] = i
	}
	sys, ok := role["System catalogs and other databases"]
	if _, okT := role["t"]; !okT || !ok || len(leg.Roles) != 3 {
		t.Fatalf("legend roles %+v, want t, t_pkey and the system catalogs", leg.Roles)
	}
	for _, m := range leg.Marks {
		if m.Key == "hand" || m.Motion {
			t.Errorf("the real pool's legend lists %q, which pg_buffercache cannot show", m.Key)
		}
	}
	for _, c := range []struct {
		id, role, usage int
		dirty, pinned   bool
	}{
		{0, sys, 5, false, false}, {2, role["t"], 1, false, false}, {4, role["t"], 2, true, false},
		{6, role["t"], 1, false, true}, {7, role["t_pkey"], 3, false, false}, {8, sys, 1, false, false},
	} {
		if got := codes[c.id]; got.Rel() != c.role || got.Usage() != c.usage || got.Dirty() != c.dirty || got.Pinned() != c.pinned {
			t.Errorf("buffer %d drawn as role %d, usage %d, dirty %v, pinned %v; want %+v", c.id+1, got.Rel(), got.Usage(), got.Dirty(), got.Pinned(), c)
		}
	}
	if !codes[1].Empty() || !codes[40].Empty() {
		t.Error("buffers without a valid row are not drawn empty")
	}
	info := a.Inspect(4, 0)
	if info == nil || info.Relation == nil || *info.Relation != "t" || *info.Block != 2 || !info.Dirty || info.Usage != 2 {
		t.Fatalf("buffer 5 inspects as %+v", info)
	}
	if id, _ := lookupDetail(info, "bufferid"); !strings.HasPrefix(id, "5 ") {
		t.Errorf("buffer 5's bufferid detail is %q", id)
	}
	if rels := a.Relations(); len(rels) != 4 || rels[3].Name != "relfilenode 99999" {
		t.Errorf("relations %+v, want the rows' four with the unnamed one named by its relfilenode", rels)
	}
	if h := a.Hash(); h != simHash {
		t.Errorf("showing the real pool changed the simulation's hash from %s to %s", simHash, h)
	}

	// A step is the simulation's: its pool comes back, as it was, and goes on.
	if _, err := a.Step(1); err != nil {
		t.Fatal(err)
	}
	if a.ShowingReal() || len(a.view.panes[0].tracker.Codes) != simBuffers {
		t.Fatalf("after a step the grid shows real %v, %d codes; want the simulated pool's %d", a.ShowingReal(), len(a.view.panes[0].tracker.Codes), simBuffers)
	}
	if got := a.Legend(); len(got.Roles) == 3 && got.Roles[2].Label == "System catalogs and other databases" {
		t.Error("after a step the legend is still the real pool's")
	}
	if a.ShowSimulated() {
		t.Error("ShowSimulated says it brought back a pool already shown")
	}
}

// TestShowRealRefusesWhatNoPoolShows: bad rows, sizes and relations are refused with what is
// wrong, and the simulated pool stays on the grid.
func TestShowRealRefusesWhatNoPoolShows(t *testing.T) {
	a := newApp(t)
	n := len(a.view.panes[0].tracker.Codes)
	good := realRows()
	for _, c := range []struct {
		name string
		mod  func(*RealPool)
		want string
	}{
		{"no buffers", func(p *RealPool) { p.NBuffers = 0 }, "a real pool has 16 to 1048576 buffers, not 0"},
		{"too many", func(p *RealPool) { p.NBuffers = MaxRealBuffers + 1 }, "not 1048577"},
		{"a row beyond", func(p *RealPool) { p.NBuffers = 16; p.Rows += "17,1259,1663,5,0,1,f,1,0\n" }, "buffer 17: the pool has buffers 1 to 16"},
		{"bad row", func(p *RealPool) { p.Rows += "10,1,2\n" }, "3 columns"},
		{"bad relation", func(p *RealPool) { p.Relations = "x,5,1,t,f\n" }, `"x" is not an OID`},
		{"short relation", func(p *RealPool) { p.Relations = "1663,5,1\n" }, "wrong number of fields"},
		{"too much", func(p *RealPool) { p.Rows = strings.Repeat("1", MaxRealText+1) }, "at most 64 MB"},
	} {
		p := good
		c.mod(&p)
		if _, err := a.ShowReal(p, false); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one saying %q", c.name, err, c.want)
		}
		if a.ShowingReal() || len(a.view.panes[0].tracker.Codes) != n {
			t.Fatalf("%s: a refused real pool replaced the simulated one", c.name)
		}
	}
}

// lookupDetail returns the value of the lab detail labelled label.
func lookupDetail(info *BufferInfo, label string) (string, bool) {
	for _, d := range info.Lab {
		if d.Label == label {
			return d.Value, true
		}
	}
	return "", false
}

// TestShowRealBesideTheRun draws the real pool as a pane beside the run's, of the same size:
// the run's pane keeps its codes and goes on stepping, the real pane is drawn in the real
// legend's roles after the run's, without a clock hand, and inspects as the real row; a pool
// of another size is refused with what to change.
func TestShowRealBesideTheRun(t *testing.T) {
	a := newApp(t)
	load(t, a, "free", map[string]string{"shared_buffers": "512kB"})
	if _, err := a.Step(200); err != nil {
		t.Fatal(err)
	}
	a.Tick(time.Now())
	own := len(a.Legend().Roles)
	before := slices.Clone(a.view.panes[0].tracker.Codes)
	if _, err := a.ShowReal(realRows(), true); err != nil {
		t.Fatal(err)
	}
	if a.Panes() != 2 || a.View().Panes[1].Key != "real" || !strings.HasPrefix(a.View().Panes[1].Label, "PostgreSQL 18") || a.View().Panes[0].Label != "Simulation" {
		t.Fatalf("beside: %d panes, %+v", a.Panes(), a.View().Panes)
	}
	a.Tick(time.Now())
	if got := a.view.panes[0].tracker.Codes; !slices.Equal(got, before) {
		t.Error("drawing the real pool beside the run changed the run's pane")
	}
	leg := a.Legend()
	if len(leg.Roles) != own+3 || leg.Roles[own].Label != "t" {
		t.Fatalf("legend roles %d (%+v), want the run's %d and the real pool's 3 after them", len(leg.Roles), leg.Roles, own)
	}
	real := a.view.panes[1].tracker.Codes
	if real[2].Rel() != own || real[7].Rel() != own+1 || real[0].Rel() != own+2 {
		t.Errorf("the real pane draws t, t_pkey and pg_class as roles %d, %d, %d; want %d, %d, %d", real[2].Rel(), real[7].Rel(), real[0].Rel(), own, own+1, own+2)
	}
	if f := a.view.frame(1, 0); f.Hand != -1 {
		t.Errorf("the real pane draws a clock hand at %d", f.Hand)
	}
	if f := a.view.frame(0, 3); f.Hand != 3 {
		t.Errorf("the run's pane lost its clock hand: %d", f.Hand)
	}
	info := a.Inspect(4, 1)
	if info == nil || info.Pane == nil || info.Pane.Key != "real" || *info.Relation != "t" {
		t.Fatalf("buffer 5 of the real pane inspects as %+v", info)
	}
	if _, ok := lookupDetail(info, "pg_buffercache row"); !ok {
		t.Error("the real pane's buffer has no pg_buffercache row")
	}
	step := a.Stats().Step
	if _, err := a.Step(50); err != nil {
		t.Fatal(err)
	}
	if !a.ShowingReal() || a.Panes() != 2 || a.Stats().Step != step+50 {
		t.Errorf("after 50 steps: real %v, %d panes, step %d; want the real pane kept and the run at %d", a.ShowingReal(), a.Panes(), a.Stats().Step, step+50)
	}
	if rels := a.Relations(); len(rels) != len(a.run.Sim().Relations())+4 {
		t.Errorf("relations: %d, want the run's and the real pool's", len(rels))
	}
	a.ShowSimulated()
	if a.Panes() != 1 || len(a.Legend().Roles) != own {
		t.Errorf("after ShowSimulated: %d panes, %d roles", a.Panes(), len(a.Legend().Roles))
	}

	load(t, a, "free", nil) // 16,384 buffers
	var nb ErrNotBeside
	if _, err := a.ShowReal(realRows(), true); !errors.As(err, &nb) || !strings.Contains(err.Error(), "set shared_buffers to 512kB") {
		t.Errorf("a 64-buffer real pool beside a 16,384-buffer run: %v", err)
	}
	if a.ShowingReal() {
		t.Error("a refused real pool is shown")
	}
}
