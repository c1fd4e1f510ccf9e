package sim

import "testing"

// TestDurationText checks that String writes a duration ParseDuration reads back to the same
// text, including where rounding to three decimals reaches the next unit, and that a
// duration beyond the clock's range is refused rather than wrapped.
func TestDurationText(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"5ns", "5ns"},
		{"1.5ms", "1.5ms"},
		{"66.6s", "66.6s"},
		{"999.9996ms", "1s"},
		{"999.9994ms", "999.999ms"},
		{"999.9996us", "1ms"},
		{"999ps", "999ps"},
	} {
		d, err := ParseDuration(c.in)
		if err != nil {
			t.Fatalf("ParseDuration(%q): %v", c.in, err)
		}
		if got := d.String(); got != c.want {
			t.Errorf("ParseDuration(%q).String() = %q, want %q", c.in, got, c.want)
		}
		if again, err := ParseDuration(d.String()); err != nil || again.String() != d.String() {
			t.Errorf("%q reads back as %v (%v)", d.String(), again, err)
		}
	}
	if d, err := ParseDuration(maxDurationText); err != nil || d != maxDuration {
		t.Errorf("ParseDuration(%q) = %v, %v; want the largest duration", maxDurationText, d, err)
	}
	for _, s := range []string{"9223372.036854775808s", "9223372.037s", "9223372036854775.808ms"} {
		if d, err := ParseDuration(s); err == nil {
			t.Errorf("ParseDuration(%q) = %d, want an error", s, int64(d))
		}
	}
}

// TestDurationExactString checks that ExactString writes every duration so that
// ParseDuration reads back exactly the same, in String's unit when String is exact.
func TestDurationExactString(t *testing.T) {
	for _, c := range []struct {
		d    Duration
		want string
	}{
		{2500 * Microsecond, "2.5ms"},
		{98800712410000, "98.80071241s"},
		{1000000100000, "1.0000001s"},
		{999, "999ps"},
		{1001, "1.001ns"},
		{maxDuration, maxDurationText},
		{-1500 * Nanosecond, "-1.5µs"},
	} {
		if got := c.d.ExactString(); got != c.want {
			t.Errorf("(%d).ExactString() = %q, want %q", int64(c.d), got, c.want)
		}
		if c.d < 0 {
			continue
		}
		if back, err := ParseDuration(c.d.ExactString()); err != nil || back != c.d {
			t.Errorf("%q reads back as %d (%v), want %d", c.d.ExactString(), int64(back), err, int64(c.d))
		}
	}
}
