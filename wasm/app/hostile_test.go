package app

import (
	"strings"
	"testing"
	"time"

	"github.com/bufferscope/bufferscope/sim/labs"
)

// hostile are values a clumsy reader or an attacker may give any parameter: out of range,
// malformed, markup, control and invisible characters, and 100 kB.
var hostile = []string{"0", "-5", "1PB", "NaN", "1e400", "0x10", "Infinity", "",
	"<img src=x onerror=alert(1)>", "1\x00\x07\n2", "\u202e1MB\u200b", strings.Repeat("9", 100_000)}

// TestHostileLoads gives every parameter of every lab each hostile value, as an address, a
// control, the bridge and a host page's message all do through Load: the lab builds with
// the values its table chose, every warning is short and names the key, and the run steps.
func TestHostileLoads(t *testing.T) {
	a := newApp(t)
	for _, l := range labs.All {
		name := l.Info().Name
		for _, p := range l.Params().Params {
			for _, bad := range hostile {
				values := map[string]string{p.Key: bad}
				if p.Key != "shared_buffers" {
					values["shared_buffers"] = "1MB" // small, so the test is quick
				}
				res, err := a.Load(name, values)
				if err != nil {
					t.Fatalf("%s %s=%.20q: %v", name, p.Key, bad, err)
				}
				want, _ := l.Params().Parse(values)
				for k, v := range res.Params {
					if k != "lab" && v != want[k] {
						t.Errorf("%s %s=%.20q: the run has %s=%s, the table chose %s", name, p.Key, bad, k, v, want[k])
					}
				}
				for _, w := range res.Warnings {
					if len(w) > 400 || !strings.HasPrefix(w, p.Key+" ") {
						t.Errorf("%s %s=%.20q: warning of %d bytes, or not about the key: %.200s", name, p.Key, bad, len(w), w)
					}
				}
				start := time.Now()
				if _, err := a.Step(100); err != nil {
					t.Errorf("%s %s=%.20q: 100 steps: %v", name, p.Key, bad, err)
				}
				if d := time.Since(start); d > 5*time.Second {
					t.Errorf("%s %s=%.20q: 100 steps took %v", name, p.Key, bad, d)
				}
			}
		}
	}
	// A key or a lab's name of 100 kB comes back short.
	long := strings.Repeat("k", 100_000)
	res, err := a.Load(long, map[string]string{long: "1"})
	if err != nil || len(res.Warnings) != 2 || res.Params["lab"] != labs.All[0].Info().Name {
		t.Fatalf("a lab and a key of 100 kB: %v, %d warnings, lab %s", err, len(res.Warnings), res.Params["lab"])
	}
	for _, w := range res.Warnings {
		if len(w) > 400 || !strings.Contains(w, "(100,000 characters)") {
			t.Errorf("warning of %d bytes: %.200s", len(w), w)
		}
	}
}

// TestHostileTextArguments holds the app's other text inputs — a speed as the address
// writes one, a command, an event's kind, a theme — to the same rule: a bad one is refused
// or replaced with a message that names it short and says what is accepted.
func TestHostileTextArguments(t *testing.T) {
	a := newApp(t)
	load(t, a, labs.All[0].Info().Name, map[string]string{"shared_buffers": "1MB"})
	long := strings.Repeat("x", 100_000)
	short := func(what, msg string) {
		t.Helper()
		if msg == "" || len(msg) > 300 {
			t.Errorf("%s: message of %d bytes: %.200s", what, len(msg), msg)
		}
	}
	a.SetSpeed(500)
	s, w := a.SetSpeedText(long)
	short("a speed of 100 kB", w)
	if s.Value != 500 || !strings.Contains(w, "keeping 500 steps/s") || !strings.Contains(w, "from 0.01 to") {
		t.Errorf("a speed of 100 kB: %+v %q", s, w)
	}
	if s, w := a.SetSpeedText("1e-300"); s.Value != 0.01 || !strings.Contains(w, "using 0.01 steps/s") {
		t.Errorf("speed 1e-300: %+v %q", s, w)
	}
	if s, w := a.SetSpeedText("1e400"); s.Param != "10000000" || !strings.HasPrefix(w, `speed "1e400" is not`) || !strings.Contains(w, "using 10M steps/s") {
		t.Errorf("speed 1e400: %+v %q", s, w)
	}
	if s, w := a.SetSpeedText(" max "); s.Param != "max" || w != "" {
		t.Errorf("speed max: %+v %q", s, w)
	}
	err := a.Apply(long)
	short("a command of 100 kB", err.Error())
	err = a.NextEvent(long)
	short("an event of 100 kB", err.Error())
	_, err = a.SetTheme(long)
	short("a theme of 100 kB", err.Error())
	_, _, err = a.Swatch(SwatchSpec{Mark: long})
	short("a mark of 100 kB", err.Error())
	_, err = a.Step(1e12)
	if err == nil || !strings.Contains(err.Error(), "not 1000000000000") {
		t.Errorf("step 1e12: %v", err)
	}
}
