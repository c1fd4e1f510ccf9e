package labs

import (
	"reflect"
	"strings"
	"testing"

	"github.com/bufferscope/bufferscope/sim"
	"github.com/bufferscope/bufferscope/sim/lab"
)

// TestSharedBuffersOfferedInOrder: every lab offers its pool sizes from the smallest to the
// largest, its default among them, so the page's list never puts a lab's own default (the ring
// lab's 256MB) after 100GB.
func TestSharedBuffersOfferedInOrder(t *testing.T) {
	for _, l := range All {
		p := l.Params().Param("shared_buffers")
		if p == nil {
			t.Errorf("%s: no shared_buffers", l.Info().Name)
			continue
		}
		last, hasDefault := 0, false
		for _, o := range p.Presets {
			n, err := sim.SharedBuffersToNBuffers(o.Value)
			if err != nil || n <= last {
				t.Errorf("%s: shared_buffers offers %s after a size at least as large (or not a size: %v): %v", l.Info().Name, o.Value, err, p.Presets)
			}
			last = n
			hasDefault = hasDefault || o.Value == p.Default
		}
		if !hasDefault {
			t.Errorf("%s: the default shared_buffers %s is not among the sizes offered, so the page adds it after the largest", l.Info().Name, p.Default)
		}
	}
}

// TestEveryLabHasTheShape checks each registered lab against the lab shape: its table reads
// its own defaults without a problem, every parameter is documented, its counters describe
// themselves and a run's counters have the same type, a run steps with its invariants
// intact, its legend has a colour for every relation, and its experiment says what it does.
func TestEveryLabHasTheShape(t *testing.T) {
	seen := map[string]bool{}
	for _, l := range All {
		info := l.Info()
		t.Run(info.Name, func(t *testing.T) {
			if info.Name == "" || info.Command == "" || info.Title == "" || info.Summary == "" || seen[info.Name] || seen["cmd:"+info.Command] {
				t.Fatalf("info %+v is incomplete or repeats another lab's", info)
			}
			seen[info.Name], seen["cmd:"+info.Command] = true, true
			if l.Params() != l.Params() {
				t.Error("Params returns a different table on each call")
			}
			v, problems := l.Params().Parse(nil)
			if len(problems) > 0 {
				t.Fatalf("the defaults have problems: %v", problems)
			}
			keys := map[string]bool{}
			for _, p := range l.Params().Params {
				if p.Doc == "" || p.Key == "" || keys[p.Key] {
					t.Errorf("parameter %q has no doc, no key, or repeats a key", p.Key)
				}
				keys[p.Key] = true
			}
			if _, ok := keys["shared_buffers"]; !ok {
				t.Error("no shared_buffers: every lab has a pool")
			}
			counters := lab.Describe(l.Counters())
			if len(counters) == 0 {
				t.Fatal("no counters")
			}
			v["shared_buffers"] = "1MB" // small, so the test is quick
			r, err := l.New(v)
			if err != nil {
				t.Fatal(err)
			}
			if reflect.TypeOf(r.Counters()) != reflect.TypeOf(l.Counters()) {
				t.Errorf("a run's counters are %T, the lab describes %T", r.Counters(), l.Counters())
			}
			s := r.Sim()
			for range 20 {
				if err := s.Step(50); err != nil {
					t.Fatal(err)
				}
				if err := r.CheckInvariants(); err != nil {
					t.Fatal(err)
				}
			}
			if s.Stats().Steps == 0 {
				t.Error("the run took no step")
			}
			got := lab.CounterValues(r.Counters())
			for _, c := range counters {
				if _, ok := got[c.Key]; !ok {
					t.Errorf("counter %s has no value", c.Key)
				}
			}
			leg := r.Legend()
			for i := range s.Relations() {
				if role := leg.RoleOf(i); role < 0 || role >= len(leg.Roles) {
					t.Errorf("relation %d has role %d of %d", i, role, len(leg.Roles))
				}
			}
			for _, m := range append(leg.Roles, leg.Marks...) {
				if m.Key == "" {
					t.Errorf("a legend entry without a key: %+v", m)
				}
			}
			if !strings.Contains(l.Experiment().About(), "bufferscope "+info.Command) {
				t.Errorf("the experiment's usage does not name bufferscope %s", info.Command)
			}
		})
	}
	if _, ok := ByName(All[0].Info().Name); !ok || len(Names()) != len(All) {
		t.Error("ByName or Names disagree with All")
	}
}

// TestBadValuesNameTheRange holds every lab's table to what the page, the bridge, a host
// page and the command line show for a bad value: the key, the value quoted short (never
// the 100 kB given), what the parameter accepts — the range of a number, size or duration,
// the choices of a choice — and a safe value the table itself accepts. Formats that are
// lists of settings (tables, cost) are checked for all but the range.
func TestBadValuesNameTheRange(t *testing.T) {
	long := strings.Repeat("9", 100_000)
	for _, l := range All {
		table := l.Params()
		defaults := table.Defaults()
		for _, p := range table.Params {
			for _, bad := range []string{"x", "1PB", "-5", "<img src=x onerror=alert(1)>", "\u202e1\u200b", long} {
				norm, pr := table.Value(p.Key, bad, defaults)
				if pr == nil {
					continue // a value this parameter takes, such as -5 for none
				}
				msg := pr.Error()
				name := l.Info().Name + " " + p.Key
				if len(msg) > 400 || !strings.HasPrefix(msg, p.Key+" \"") {
					t.Errorf("%s %.20q: the message does not start with the key and the value, or is %d bytes: %.300s", name, bad, len(msg), msg)
				}
				if strings.ContainsAny(msg, "\u202e\u200b") {
					t.Errorf("%s: the message carries invisible characters unescaped: %q", name, msg)
				}
				ranged := p.Kind == lab.Int || p.Kind == lab.Float || p.Kind == lab.Uint || p.Unit == "size" || p.Unit == "duration"
				if ranged && !strings.Contains(msg, " to ") && !strings.Contains(msg, "between") && !strings.Contains(msg, "above") {
					t.Errorf("%s %.20q: the message names no range: %s", name, bad, msg)
				}
				if p.Kind == lab.Choice && !strings.Contains(msg, p.Choices[0].Value) {
					t.Errorf("%s %.20q: the message names no choice: %s", name, bad, msg)
				}
				if _, again := table.Value(p.Key, norm, defaults); again != nil || norm != pr.Used {
					t.Errorf("%s %.20q: the safe value %q (used %q) is not one the table takes: %v", name, bad, norm, pr.Used, again)
				}
			}
		}
	}
}
