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
