package main

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
)

// mustColumns returns the columns of row's struct type, failing the program if it has none:
// for tests that name a lab's columns.
func mustColumns(row any) []column {
	cols, err := columnsOf(reflect.TypeOf(row))
	if err != nil {
		panic(err)
	}
	return cols
}

// sampleRow has a column of each kind a row may hold, and a field that is no column.
type sampleRow struct {
	Name   string  `col:"name"`
	Count  uint64  `col:"count"`
	Delta  int     `col:"delta"`
	Ratio  float64 `col:"ratio" prec:"3"`
	Exact  float64 `col:"exact"`
	OK     bool    `col:"ok"`
	hidden int
}

func TestRowsTable(t *testing.T) {
	tb, err := rowsTable([]any{
		sampleRow{Name: "a|b", Count: 1 << 63, Delta: -3, Ratio: 0.25, Exact: 0.1, OK: true, hidden: 9},
		&sampleRow{Name: "c", Ratio: 2.0005, Exact: 1e21},
	})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := tb.write(&b, csvFormat); err != nil {
		t.Fatal(err)
	}
	const want = "name,count,delta,ratio,exact,ok\n" +
		"a|b,9223372036854775808,-3,0.250,0.1,true\n" +
		"c,0,0,2.001,1e+21,false\n"
	if b.String() != want {
		t.Errorf("CSV\n%s\nwant\n%s", b.String(), want)
	}
	b.Reset()
	if err := tb.write(&b, jsonFormat); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"name": "a|b"`, `"count": 9223372036854775808`, `"delta": -3`, `"ratio": 0.250`, `"ok": "true"`} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("JSON lacks %s:\n%s", want, b.String())
		}
	}
}

func TestRowsTableRefusesWhatItCannotPrint(t *testing.T) {
	type noCols struct{ A int }
	type badKind struct {
		A []int `col:"a"`
	}
	type badPrec struct {
		A float64 `col:"a" prec:"x"`
	}
	for name, rows := range map[string][]any{
		"not a struct": {3},
		"no columns":   {noCols{}},
		"a slice":      {badKind{}},
		"bad prec":     {badPrec{}},
		"mixed types":  {sampleRow{}, noCols{}},
		"nil row":      {sampleRow{}, nil},
		"nil first":    {nil},
	} {
		if _, err := rowsTable(rows); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	if tb, err := rowsTable(nil); err != nil || len(tb.rows) != 0 {
		t.Errorf("no rows: %v, %v", tb, err)
	}
}
