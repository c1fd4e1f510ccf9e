package app

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bufferscope/bufferscope/sim/lab"
	"github.com/bufferscope/bufferscope/sim/labs"
	simdrop "github.com/bufferscope/bufferscope/sim/labs/drop"
	"github.com/bufferscope/bufferscope/sim/labs/free"
	"github.com/bufferscope/bufferscope/sim/labs/pins"
	"github.com/bufferscope/bufferscope/wasm/grid"
	wlabs "github.com/bufferscope/bufferscope/wasm/labs"
	"github.com/bufferscope/bufferscope/wasm/labview"
	"github.com/bufferscope/bufferscope/wasm/playback"
)

func newApp(t *testing.T) *App {
	t.Helper()
	a := New(wlabs.Views)
	a.Resize(600, 400)
	return a
}

func load(t *testing.T, a *App, name string, values map[string]string) LoadResult {
	t.Helper()
	res, err := a.Load(name, values)
	if err != nil {
		t.Fatalf("load %s %v: %v", name, values, err)
	}
	return res
}

func TestNewStartsWithTheFirstLabAtItsDefaults(t *testing.T) {
	a := newApp(t)
	st := a.Stats()
	if st.Lab != labs.All[0].Info().Name || st.Step != 0 || st.Playing || st.Done {
		t.Errorf("a new app: %+v", st)
	}
	want := labs.All[0].Params().Defaults()
	for k, v := range a.Params() {
		if k != "lab" && want[k] != v {
			t.Errorf("param %s = %q, default %q", k, v, want[k])
		}
	}
}

func TestLoadReportsProblemsClampsAndUnknownKeys(t *testing.T) {
	a := newApp(t)
	res := load(t, a, "free", map[string]string{
		"shared_buffers": "1MB", "clients": "5000", "updates": "lots", "colour": "red", "lab": "free",
	})
	byKey := map[string]bool{}
	for _, p := range res.Problems {
		byKey[p.Key] = p.Clamped
	}
	if clamped, ok := byKey["clients"]; !ok || !clamped {
		t.Errorf("clients 5000 in 1MB: problems %v", res.Problems)
	}
	if clamped, ok := byKey["updates"]; !ok || clamped {
		t.Errorf("updates lots: problems %v", res.Problems)
	}
	if res.Params["clients"] != "64" || res.Params["updates"] != labs.All[0].Params().Param("updates").Default {
		t.Errorf("params used: %v", res.Params)
	}
	if !slices.Equal(res.Unknown, []string{"colour"}) {
		t.Errorf("unknown %v, want [colour]", res.Unknown)
	}
	if len(res.Warnings) != len(res.Problems)+1 {
		t.Errorf("warnings %q", res.Warnings)
	}
	if lim := res.Limits["clients"]; lim.Min == nil || *lim.Min != 0 || lim.Max == nil || *lim.Max != 64 {
		t.Errorf("clients limits %+v for a pool of 128 buffers", lim)
	}
	if res.Params["lab"] != "free" || a.Stats().NBuffers != 128 {
		t.Errorf("lab %q, %d buffers", res.Params["lab"], a.Stats().NBuffers)
	}
	if _, ok := res.Params["steps"]; ok {
		t.Error("a parameter only the headless command uses was returned")
	}
}

func TestLoadUnknownLabFallsBackToTheFirst(t *testing.T) {
	a := newApp(t)
	load(t, a, "drop", nil)
	res := load(t, a, "bogus", map[string]string{"shared_buffers": "2MB"})
	if len(res.Problems) != 1 || res.Problems[0].Key != "lab" || res.Problems[0].Used != labs.All[0].Info().Name {
		t.Fatalf("problems %v", res.Problems)
	}
	if a.Stats().Lab != labs.All[0].Info().Name || a.Stats().NBuffers != 256 {
		t.Errorf("stats after an unknown lab: %+v", a.Stats())
	}
}

// failing is a lab whose runs cannot be built.
type failing struct{ free.Lab }

func (failing) Info() lab.Info                  { return lab.Info{Name: "failing", Title: "Failing"} }
func (failing) New(lab.Values) (lab.Run, error) { return nil, errors.New("no room") }

func TestLoadKeepsTheOldRunWhenTheNewCannotBeBuilt(t *testing.T) {
	labs.All = append(labs.All, failing{})
	defer func() { labs.All = labs.All[:len(labs.All)-1] }()
	a := newApp(t)
	load(t, a, "free", map[string]string{"shared_buffers": "1MB", "seed": "3"})
	a.Step(100)
	res, err := a.Load("failing", map[string]string{"shared_buffers": "2MB"})
	if err == nil || !strings.Contains(err.Error(), "no room") {
		t.Fatalf("load of a failing lab: %v", err)
	}
	if st := a.Stats(); st.Lab != "free" || st.Step != 100 || res.Params["seed"] != "3" || res.Params["lab"] != "free" {
		t.Errorf("after a failed load: %+v, params %v", st, res.Params)
	}
	// A failed load after the old pool was let go builds the old one again.
	load(t, a, "free", map[string]string{"shared_buffers": "8GB"})
	if err := a.Finish(); err != nil { // a large pool is built as a job
		t.Fatal(err)
	}
	if _, err := a.Load("failing", map[string]string{"shared_buffers": "1GB"}); err == nil {
		t.Fatal("the failing lab built")
	}
	if st := a.Stats(); st.Lab != "free" || st.SharedBuffers != "8GB" {
		t.Errorf("after a failed load of a large pool: %+v", st)
	}
}

// TestEveryLabLoadsAndSteps: every lab of sim/labs loads at its defaults, steps, and shows
// pixels.
func TestEveryLabLoadsAndSteps(t *testing.T) {
	a := newApp(t)
	for _, l := range labs.All {
		name := l.Info().Name
		t.Run(name, func(t *testing.T) {
			res := load(t, a, name, nil)
			if len(res.Problems) > 0 || res.Params["lab"] != name {
				t.Fatalf("load: %+v", res)
			}
			ran, err := a.Step(1000)
			if err != nil || ran != 1000 && !a.Done() {
				t.Fatalf("step 1000: ran %d, %v", ran, err)
			}
			if st := a.Stats(); st.Step != uint64(ran) || st.Lab != name {
				t.Errorf("ran %d: stats %+v", ran, st)
			}
			a.Tick(time.Now())
			if !a.Paint() {
				t.Error("nothing painted")
			}
			a.BuildOverlay()
			if len(a.Legend().Roles) == 0 || len(a.Relations()) == 0 {
				t.Error("no legend or relations")
			}
			if info := a.Inspect(0, 0); info == nil || info.Buffer != 0 {
				t.Errorf("inspect 0: %+v", info)
			}
			if a.Inspect(a.Stats().NBuffers, 0) != nil {
				t.Error("a buffer past the pool was inspected")
			}
			if len(a.Speeds()) == 0 {
				t.Error("no speeds")
			}
		})
	}
}

// TestCountersAreTheDescribedKeys: the counters the bridge sends have exactly the keys
// lab.Describe lists for the lab, in every lab.
func TestCountersAreTheDescribedKeys(t *testing.T) {
	a := newApp(t)
	for _, l := range labs.All {
		load(t, a, l.Info().Name, nil)
		a.Step(10)
		var want []string
		for _, c := range lab.Describe(l.Counters()) {
			want = append(want, c.Key)
		}
		slices.Sort(want)
		got := slices.Sorted(maps.Keys(lab.CounterValues(a.Stats().Counters)))
		if !slices.Equal(got, want) {
			t.Errorf("%s: counters %v, described %v", l.Info().Name, got, want)
		}
		plain := Plain(a.Stats()).(map[string]any)["counters"].(map[string]any)
		if got := slices.Sorted(maps.Keys(plain)); !slices.Equal(got, want) {
			t.Errorf("%s: counters for the bridge %v, described %v", l.Info().Name, got, want)
		}
	}
}

// golden reads the hashes sim/testdata/determinism.golden records for free play.
func golden(t *testing.T) map[string]string {
	b, err := os.ReadFile("../../sim/testdata/determinism.golden")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if f := strings.Fields(line); len(f) == 2 {
			out[f[0]] = f[1]
		}
	}
	return out
}

// TestSameParamsSameHash: stepped through the app in its chunks, a run reaches the hash of
// the lab built directly and stepped in one go, as bufferscope run and bufferscope drop do.
func TestSameParamsSameHash(t *testing.T) {
	a := newApp(t)
	want := golden(t)
	for _, c := range []struct {
		name   string
		params map[string]string
		steps  int
	}{
		{"default-1MB", map[string]string{"shared_buffers": "1MB"}, 50_000},
		{"uniform-8MB", map[string]string{"shared_buffers": "8MB", "distribution": "uniform", "updates": "50", "seed": "7"}, 50_000},
		{"pg19-1MB", map[string]string{"shared_buffers": "1MB", "version": "19", "os_cache": "50"}, 20_000},
	} {
		load(t, a, "free", c.params)
		if _, err := a.Step(c.steps); err != nil {
			t.Fatal(err)
		}
		if got := a.Hash(); got != want[c.name] {
			t.Errorf("%s: hash %s, golden %s", c.name, got, want[c.name])
		}
	}
	// The drop lab: stepped to the end in the view's chunks, the same state as one call.
	params := map[string]string{"shared_buffers": "1MB", "tables": "3x20,1x100", "op": "truncate"}
	load(t, a, "drop", params)
	for !a.Done() {
		if _, err := a.Step(777); err != nil {
			t.Fatal(err)
		}
	}
	l := simdrop.Lab{}
	v, _ := l.Params().Parse(params)
	run, err := l.New(v)
	if err != nil {
		t.Fatal(err)
	}
	for !run.Done() {
		if err := run.Sim().Step(1 << 20); err != nil {
			t.Fatal(err)
		}
	}
	if got, want := a.Hash(), fmt.Sprintf("%016x", run.Sim().Hash()); got != want {
		t.Errorf("drop: hash %s, built directly %s", got, want)
	}
	if a.Stats().Step != run.Sim().Stats().Steps {
		t.Errorf("drop: %d steps, built directly %d", a.Stats().Step, run.Sim().Stats().Steps)
	}
}

func TestPlayPauseStepDone(t *testing.T) {
	a := newApp(t)
	load(t, a, "drop", map[string]string{"shared_buffers": "128kB", "tables": "1x40", "policy": "lookup"})
	// Step runs exactly n units, then stops at the end of the replay.
	if ran, err := a.Step(5); err != nil || ran != 5 || a.Stats().Step != 5 {
		t.Fatalf("step 5: ran %d, at %d, %v", ran, a.Stats().Step, err)
	}
	if err := a.Play(); err != nil || !a.Playing() {
		t.Fatalf("play: %v", err)
	}
	a.Pause()
	at := a.Stats().Step
	now := time.Now()
	for i := range 5 {
		a.Tick(now.Add(time.Duration(i) * time.Second / 60))
	}
	if a.Stats().Step != at {
		t.Errorf("paused, the run moved from %d to %d", at, a.Stats().Step)
	}
	// Played at max, the replay ends and playback stops.
	a.SetSpeed(playback.Max)
	a.Play()
	for i := 0; !a.Done() && i < 1000; i++ {
		a.Tick(now.Add(time.Duration(i) * time.Second / 60))
	}
	if !a.Done() || a.Playing() {
		t.Fatalf("after playing to the end: done %v, playing %v", a.Done(), a.Playing())
	}
	end := a.Stats().Step
	if ran, _ := a.Step(10); ran != 0 || a.Stats().Step != end {
		t.Errorf("stepping a finished replay ran %d", ran)
	}
	// Play on a finished run starts it again.
	if err := a.Play(); err != nil || a.Stats().Step != 0 || a.Done() || !a.Playing() {
		t.Errorf("play after the end: %v, %+v", err, a.Stats())
	}
	// Free play at a finite speed advances by the pacer.
	load(t, a, "free", map[string]string{"shared_buffers": "1MB"})
	a.SetSpeed(600)
	a.Play()
	for i := range 61 {
		a.Tick(now.Add(time.Duration(i) * time.Second / 60))
	}
	if got := a.Stats().Step; got < 590 || got > 610 {
		t.Errorf("a second at 600 steps/s ran %d steps", got)
	}
}

func TestStepIsBounded(t *testing.T) {
	a := newApp(t)
	_, err := a.Step(MaxStepsPerCall + 1)
	if err == nil || !strings.Contains(err.Error(), "use play for longer runs") || a.Stats().Step != 0 {
		t.Errorf("step past the bound: %v, at %d", err, a.Stats().Step)
	}
	if a.Failure() != "" {
		t.Error("a refused step counted as a failure")
	}
	if err := a.Apply(fmt.Sprintf("step %d", MaxStepsPerCall+1)); err == nil {
		t.Error("apply step past the bound was not refused")
	}
	if _, err := a.Step(-1); err == nil {
		t.Error("a negative step was not refused")
	}
	if ran, err := a.Step(MaxStepsPerCall); err != nil || ran != MaxStepsPerCall {
		t.Errorf("step at the bound: ran %d, %v", ran, err)
	}
}

func TestErrorsPausePlayback(t *testing.T) {
	a := newApp(t)
	load(t, a, "drop", map[string]string{"shared_buffers": "128kB", "tables": "1x4", "policy": "lookup"})
	// Pin the relation's first page: the replay's InvalidateBuffer must wait for it.
	rel := a.Relations()[0].Name
	if err := a.Apply("pin b=0 rel=" + rel + " blk=0"); err != nil {
		t.Fatal(err)
	}
	a.Play()
	_, err := a.Step(100)
	if err == nil || a.Failure() == "" || a.Playing() {
		t.Fatalf("stepping into a pinned buffer: %v, failure %q, playing %v", err, a.Failure(), a.Playing())
	}
	if err := a.Play(); err == nil {
		t.Error("play after a failure did not refuse")
	}
	if st := a.Stats(); st.Error == nil {
		t.Error("stats show no error")
	}
	if err := a.Reset(); err != nil || a.Failure() != "" {
		t.Errorf("reset: %v, failure %q", err, a.Failure())
	}
}

func TestSetSeed(t *testing.T) {
	a := newApp(t)
	load(t, a, "free", map[string]string{"shared_buffers": "1MB"})
	w, err := a.SetSeed(99)
	if err != nil || len(w) != 0 || a.Stats().Seed != "99" || a.Params()["seed"] != "99" {
		t.Errorf("set seed: %v %q %+v", err, w, a.Stats())
	}
	load(t, a, "drop", nil)
	w, err = a.SetSeed(5)
	if err != nil || len(w) != 1 || !strings.Contains(w[0], "draws no random numbers") {
		t.Errorf("drop: set seed: %v %q", err, w)
	}
}

func TestApply(t *testing.T) {
	a := newApp(t)
	load(t, a, "free", map[string]string{"shared_buffers": "1MB"})
	if err := a.Apply("step 42"); err != nil || a.Stats().Step != 42 {
		t.Errorf("step 42: %v, at %d", err, a.Stats().Step)
	}
	if err := a.Apply("checkpoint"); err != nil {
		t.Error(err)
	}
	if err := a.Apply("nonsense"); err == nil {
		t.Error("nonsense was applied")
	}
	load(t, a, "drop", nil)
	if err := a.Apply("until 1s"); err == nil {
		t.Error("until in a lab with a scenario was not refused")
	}
}

func TestSpeedsArePerLab(t *testing.T) {
	a := newApp(t)
	load(t, a, "free", nil)
	free := a.Speeds()
	if _, w := a.SetSpeed(1e8); w == "" {
		t.Error("free play took 1e8 steps/s without a warning")
	}
	load(t, a, "drop", nil)
	if len(a.Speeds()) <= len(free) {
		t.Errorf("the drop lab's ladder (%d) is no longer than free play's (%d)", len(a.Speeds()), len(free))
	}
	if s, w := a.SetSpeed(1e8); w != "" || s.Value != 1e8 {
		t.Errorf("drop at 1e8: %+v %q", s, w)
	}
	if s, _ := a.SetSpeed(math.Inf(1)); s.Param != "max" {
		t.Errorf("max: %+v", s)
	}
}

// TestLegendMatchesTheGrid: the legend's colours are the theme's, in both base themes, and
// every relation is listed under its role.
func TestLegendMatchesTheGrid(t *testing.T) {
	a := newApp(t)
	load(t, a, "drop", map[string]string{"tables": "6x2"})
	for _, name := range []string{"light", "dark"} {
		if _, err := a.SetTheme(name); err != nil {
			t.Fatal(err)
		}
		lg := a.Legend()
		src := a.run.Legend()
		n := 0
		for i, r := range lg.Roles {
			want := src.Roles[i].Light
			if name == "dark" {
				want = src.Roles[i].Dark
			}
			if r.Color != want {
				t.Errorf("%s: role %s colour %s, legend %s", name, r.Key, r.Color, want)
			}
			n += len(r.Relations)
		}
		if n != len(a.Relations()) {
			t.Errorf("%s: %d relations under roles, %d in the catalog", name, n, len(a.Relations()))
		}
		for _, m := range lg.Marks {
			if m.Color == "" {
				t.Errorf("%s: mark %s has no colour", name, m.Key)
			}
		}
		for _, r := range a.Relations() {
			if r.Role == "" || r.Color != lg.Roles[slices.IndexFunc(lg.Roles, func(x RoleInfo) bool { return x.Key == r.Role })].Color {
				t.Errorf("%s: relation %+v", name, r)
			}
		}
	}
	if _, err := a.SetTheme("purple"); err == nil {
		t.Error("an unknown theme was taken")
	}
}

func TestSwatch(t *testing.T) {
	a := newApp(t)
	load(t, a, "drop", nil)
	for _, sp := range []SwatchSpec{
		{Role: 1, Usage: 5, Size: 24},
		{RoleKey: "others", Dirty: true, Size: 24},
		{Role: -1, Burn: 1, Size: 24},
		{Mark: "checked", Size: 24},
		{Mark: "burn", Size: 24},
		{Mark: "lane", Size: 24},
		{Mark: "empty", Size: 24},
		{Mark: "checked", Shape: "hollow", Size: 24},
	} {
		px, size, err := a.Swatch(sp)
		if err != nil || size != 24 || len(px) != 24*24*4 {
			t.Errorf("%+v: %d bytes, size %d, %v", sp, len(px), size, err)
		}
	}
	for _, sp := range []SwatchSpec{{Mark: "nonsense"}, {RoleKey: "nonsense"}, {Mark: "checked", Shape: "nonsense"}} {
		if _, _, err := a.Swatch(sp); err == nil {
			t.Errorf("%+v was painted", sp)
		}
	}
	// The burn swatch shows the legend's burn colour.
	px, _, _ := a.Swatch(SwatchSpec{Mark: "burn", Size: 24})
	c := grid.RGBA{R: px[(12*24+12)*4], G: px[(12*24+12)*4+1], B: px[(12*24+12)*4+2], A: 255}
	if c == a.Theme().Empty {
		t.Error("the burn mark's swatch does not burn")
	}
	// Free play's marks are the grid's own, each painted as a cell.
	load(t, a, "free", nil)
	for _, m := range a.Legend().Marks {
		if px, _, err := a.Swatch(SwatchSpec{Mark: m.Key, Size: 24}); err != nil || len(px) != 24*24*4 {
			t.Errorf("free play's mark %s: %v", m.Key, err)
		}
	}
}

func TestLabsDescribesEveryLab(t *testing.T) {
	a := newApp(t)
	got := a.Labs()
	if len(got) != len(labs.All) {
		t.Fatalf("%d labs described, %d registered", len(got), len(labs.All))
	}
	for i, l := range got {
		if l.Name != labs.All[i].Info().Name || len(l.Params) == 0 || len(l.Counters) == 0 || len(l.Events) == 0 {
			t.Errorf("lab %d: %+v", i, l)
		}
	}
}

// TestInspectAddsTheLabsFields: the drop lab's view adds its fields under Lab; free play
// adds none.
func TestInspectAddsTheLabsFields(t *testing.T) {
	a := newApp(t)
	load(t, a, "drop", nil)
	if info := a.Inspect(0, 0); info.Lab == nil || !strings.HasPrefix(lookup(info.Lab, "Dropped by the replay"), "yes") {
		t.Errorf("drop: %+v", info)
	}
	load(t, a, "free", nil)
	a.Step(100)
	if info := a.Inspect(0, 0); info.Lab != nil {
		t.Errorf("free: %+v", info.Lab)
	}
	a.Tick(time.Now())
	w, h := a.CanvasSize()
	if info := a.InspectAt(w/2, h/2); info == nil {
		t.Error("nothing under the middle of the canvas")
	}
}

func TestPlain(t *testing.T) {
	type inner struct {
		A int `counter:"a"`
	}
	type outer struct {
		inner
		Name    string            `json:"name"`
		Skip    string            `json:"-"`
		Omit    []int             `json:"omit,omitempty"`
		Speed   float64           `json:"speed"`
		Ptr     *string           `json:"ptr"`
		Camel   bool              // no tag
		Values  map[string]uint64 `json:"values"`
		private int
	}
	got := Plain(outer{inner: inner{A: 3}, Name: "x", Skip: "y", Speed: math.Inf(1), Camel: true, Values: map[string]uint64{"k": 7}})
	want := map[string]any{"a": 3.0, "name": "x", "speed": math.Inf(1), "ptr": nil, "camel": true, "values": map[string]any{"k": 7.0}}
	m := got.(map[string]any)
	if len(m) != len(want) {
		t.Fatalf("Plain = %v, want %v", m, want)
	}
	for k, v := range want {
		if fmt.Sprint(m[k]) != fmt.Sprint(v) {
			t.Errorf("%s = %v, want %v", k, m[k], v)
		}
	}
	if Plain(nil) != nil || Plain([]string(nil)) != nil {
		t.Error("nil is not nil")
	}
}

// jsReady reports the first value in v that js.ValueOf would refuse, or "".
func jsReady(v any, path string) string {
	switch x := v.(type) {
	case nil, bool, float64, string:
		return ""
	case []any:
		for i, e := range x {
			if p := jsReady(e, fmt.Sprintf("%s[%d]", path, i)); p != "" {
				return p
			}
		}
		return ""
	case map[string]any:
		for k, e := range x {
			if p := jsReady(e, path+"."+k); p != "" {
				return p
			}
		}
		return ""
	}
	return fmt.Sprintf("%s: %T", path, v)
}

// TestResultsAreReadyForJavaScript: every result the bridge passes through Plain is made
// of the values js.ValueOf takes, in every lab, so no bridge call can panic converting one.
func TestResultsAreReadyForJavaScript(t *testing.T) {
	a := newApp(t)
	for _, l := range labs.All {
		name := l.Info().Name
		res := load(t, a, name, map[string]string{"shared_buffers": "nonsense", "extra": "1"})
		a.Step(300)
		a.Tick(time.Now())
		for what, v := range map[string]any{
			"load": res, "stats": a.Stats(), "labs": a.Labs(), "legend": a.Legend(),
			"relations": a.Relations(), "buffer": a.Inspect(0, 0), "view": a.View(), "speeds": a.Speeds(),
		} {
			if p := jsReady(Plain(v), what); p != "" {
				t.Errorf("%s: %s is not a JavaScript value", name, p)
			}
		}
	}
}

// TestEventLogCountsWhatTheCountersCount: the event log's hints set and lost (from the app's
// tally of the pins lab's events) add up to the counters Hints set and Hints lost, whether a
// scan's _bt_killitems, an insert's unique check or a split set or lost them.
func TestEventLogCountsWhatTheCountersCount(t *testing.T) {
	a := newApp(t)
	for _, policy := range []string{"keep-pin", "drop-pin"} {
		load(t, a, "pins", map[string]string{"clients": "40", "policy": policy, "select_share": "0.5", "seed": "3"})
		if _, err := a.Step(60_000); err != nil {
			t.Fatal(err)
		}
		st := a.Stats()
		b, err := json.Marshal(st.Counters)
		if err != nil {
			t.Fatal(err)
		}
		var c struct{ HintsSet, HintsLost uint64 }
		if err := json.Unmarshal(b, &c); err != nil {
			t.Fatal(err)
		}
		set, lost := st.Events[pins.EvHintSet.String()], st.Events[pins.EvHintLost.String()]
		if c.HintsSet == 0 || c.HintsLost == 0 {
			t.Fatalf("%s: %d hints set and %d lost in 60,000 steps; the test needs both", policy, c.HintsSet, c.HintsLost)
		}
		if set != c.HintsSet || lost != c.HintsLost {
			t.Errorf("%s: the event log counts %d hints set and %d lost, the counters %d and %d", policy, set, lost, c.HintsSet, c.HintsLost)
		}
	}
}

// TestFitHeightLeavesNoBlankRows: the height FitHeight gives for a canvas shows the whole pool
// at the zoom the taller canvas had, with no row of pixels to spare, and never more than asked.
func TestFitHeightLeavesNoBlankRows(t *testing.T) {
	a := newApp(t)
	for _, c := range []struct {
		shared string
		w, h   int
	}{{"128MB", 874, 474}, {"128MB", 874, 572}, {"1MB", 600, 900}, {"1GB", 1200, 700}, {"128kB", 874, 572}} {
		load(t, a, "free", map[string]string{"shared_buffers": c.shared})
		a.Resize(c.w, c.h)
		a.Fit()
		tall := a.View()
		fh := a.FitHeight(c.w, c.h)
		if fh > c.h || fh < 1 {
			t.Fatalf("%s on %d×%d: FitHeight %d", c.shared, c.w, c.h, fh)
		}
		a.Resize(c.w, fh)
		a.Fit()
		fitted := a.View()
		if fitted.Cell != tall.Cell || fitted.Block != tall.Block || fitted.Cols != tall.Cols || fitted.Rows != tall.Rows {
			t.Errorf("%s on %d×%d: at height %d the pool is drawn %+v, at %d %+v", c.shared, c.w, c.h, fh, fitted, c.h, tall)
		}
		a.Resize(c.w, fh-1)
		a.Fit()
		if v := a.View(); v.Cell == tall.Cell && v.Block == tall.Block && v.Rows == tall.Rows {
			t.Errorf("%s on %d×%d: one pixel less than %d still shows the pool as before: it was not the least height", c.shared, c.w, c.h, fh)
		}
	}
}

// lookup returns the value of a lab's detail, or "".
func lookup(ds []labview.Detail, label string) string {
	v, _ := labview.Lookup(ds, label)
	return v
}
