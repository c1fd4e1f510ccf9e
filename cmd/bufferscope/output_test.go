package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"math"
	"slices"
	"strings"
	"testing"
)

// sampleTable has a text column with characters each format must escape, a count and a
// ratio, one of them not a number.
func sampleTable() *table {
	t := &table{columns: []string{"name", "count", "ratio"}}
	t.add(text(`a|b, "c"`), uintCell(math.MaxUint64), floatCell(0.25, 2))
	t.add(text("007"), intCell(-3), floatCell(math.NaN(), 2))
	return t
}

func TestMarkdown(t *testing.T) {
	var b bytes.Buffer
	if err := sampleTable().write(&b, markdown); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	if len(lines) != 4 {
		t.Fatalf("%d lines, want header, rule and 2 rows:\n%s", len(lines), b.String())
	}
	for _, l := range lines {
		if n := strings.Count(l, "|") - strings.Count(l, `\|`); n != 4 {
			t.Errorf("line %q has %d cell separators, want 4", l, n)
		}
		if len(l) != len(lines[0]) {
			t.Errorf("line %q is not padded to the header's width %d", l, len(lines[0]))
		}
	}
	rule := strings.Fields(strings.ReplaceAll(lines[1], "|", " "))
	if strings.HasSuffix(rule[0], ":") || !strings.HasSuffix(rule[1], ":") || !strings.HasSuffix(rule[2], ":") {
		t.Errorf("rule %q: want the text column left-aligned and the number columns right-aligned", lines[1])
	}
	if !strings.Contains(lines[2], `a\|b, "c"`) {
		t.Errorf("row %q does not escape the pipe", lines[2])
	}
}

func TestCSV(t *testing.T) {
	tab := sampleTable()
	var b bytes.Buffer
	if err := tab.write(&b, csvFormat); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&b).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 1+len(tab.rows) || !slices.Equal(recs[0], tab.columns) {
		t.Fatalf("records %q, want the header then %d rows", recs, len(tab.rows))
	}
	for i, row := range tab.rows {
		for j, c := range row {
			if recs[i+1][j] != c.text {
				t.Errorf("row %d column %d: %q, want %q", i, j, recs[i+1][j], c.text)
			}
		}
	}
}

func TestJSON(t *testing.T) {
	tab := sampleTable()
	var b bytes.Buffer
	if err := tab.write(&b, jsonFormat); err != nil {
		t.Fatal(err)
	}
	var rows []map[string]json.RawMessage
	if err := json.Unmarshal(b.Bytes(), &rows); err != nil {
		t.Fatalf("%v in\n%s", err, b.String())
	}
	if len(rows) != len(tab.rows) {
		t.Fatalf("%d objects, want %d", len(rows), len(tab.rows))
	}
	want := []map[string]string{
		{"name": `"a|b, \"c\""`, "count": "18446744073709551615", "ratio": "0.25"},
		{"name": `"007"`, "count": "-3", "ratio": "null"},
	}
	for i := range want {
		for k, v := range want[i] {
			if got := string(rows[i][k]); got != v {
				t.Errorf("row %d %q = %s, want %s", i, k, got, v)
			}
		}
	}
	// The first object's keys keep the column order.
	dec := json.NewDecoder(&b)
	for range 2 { // [ {
		if _, err := dec.Token(); err != nil {
			t.Fatal(err)
		}
	}
	var keys []string
	for dec.More() {
		k, _ := dec.Token()
		s, _ := k.(string)
		keys = append(keys, s)
		if _, err := dec.Token(); err != nil { // the value, a scalar here
			t.Fatal(err)
		}
	}
	if !slices.Equal(keys, tab.columns) {
		t.Errorf("keys in order %q, want %q", keys, tab.columns)
	}
}

func TestAddChecksRowLength(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("add accepted a row shorter than the header")
		}
	}()
	tab := &table{columns: []string{"a", "b"}}
	tab.add(text("x"))
}

func TestParseFormat(t *testing.T) {
	for _, f := range []format{markdown, csvFormat, jsonFormat} {
		if got, err := parseFormat(f.String()); err != nil || got != f {
			t.Errorf("parseFormat(%q) = %v, %v", f.String(), got, err)
		}
	}
	if _, err := parseFormat("xml"); err == nil {
		t.Error("parseFormat accepted xml")
	}
}
