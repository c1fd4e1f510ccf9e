package lab

import "testing"

// A job reads the page's settings with the lab's table: over replaces a value, a bad one is
// refused with the table's words, a non-text one is refused.
func TestArgsValues(t *testing.T) {
	tab := &Table{Params: []Param{
		{Key: "n", Label: "N", Kind: Int, Default: "3", Min: 1, Max: 10},
		{Key: "name", Label: "Name", Kind: Text, Default: "a"},
	}}
	v, err := Args{"n": "5", "name": "b"}.Values(tab, map[string]string{"name": "c"})
	if err != nil || v.Int("n") != 5 || v.Text("name") != "c" {
		t.Fatalf("Values = %v, %v; want n 5, name c", v, err)
	}
	if v, err := (Args{}).Values(tab, nil); err != nil || v.Int("n") != 3 {
		t.Fatalf("defaults: %v, %v", v, err)
	}
	if _, err := (Args{"n": "x"}).Values(tab, nil); err == nil {
		t.Error("n=x was accepted")
	}
	if _, err := (Args{"n": 5.0}).Values(tab, nil); err == nil {
		t.Error("a number where text was expected was accepted")
	}
}
