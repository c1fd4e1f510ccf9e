package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

// format is how a subcommand prints its table. The zero value is markdown.
type format uint8

// The output formats of --format.
const (
	markdown   format = iota // a GitHub-flavoured Markdown table
	csvFormat                // RFC 4180 CSV with a header row
	jsonFormat               // an array of objects keyed by column name
)

// formatNames are the names --format accepts, indexed by format.
var formatNames = []string{"markdown", "csv", "json"}

// String returns the name --format accepts ("markdown", "csv" or "json").
func (f format) String() string { return formatNames[f] }

// parseFormat parses a --format value.
func parseFormat(s string) (format, error) {
	for i, n := range formatNames {
		if s == n {
			return format(i), nil
		}
	}
	return 0, fmt.Errorf("not %s", orList(formatNames))
}

// cellKind says how a cell is written in JSON.
type cellKind uint8

// The kinds of cell. Text is the zero value.
const (
	textKind   cellKind = iota // a JSON string
	numberKind                 // a JSON number, or null when not finite
)

// cell is one value of a table: its text as every format prints it, and whether JSON writes
// it as a number. Keeping one text per cell makes the three formats agree digit for digit.
type cell struct {
	text string
	kind cellKind
}

// text returns a cell written as a string in every format.
func text(s string) cell { return cell{text: s} }

// uintCell returns a cell holding a count.
func uintCell(v uint64) cell { return cell{text: strconv.FormatUint(v, 10), kind: numberKind} }

// intCell returns a cell holding a signed whole number.
func intCell(v int) cell { return cell{text: strconv.Itoa(v), kind: numberKind} }

// floatCell returns a cell holding v with prec digits after the point.
func floatCell(v float64, prec int) cell {
	return cell{text: strconv.FormatFloat(v, 'f', prec, 64), kind: numberKind}
}

// table is what a subcommand prints: a header of column names and rows of cells, each row
// as long as the header. Subcommands build one and hand it to write.
type table struct {
	columns []string
	rows    [][]cell
}

// add appends a row; it panics if the row's length differs from the header's, which is a
// bug in the subcommand that built it.
func (t *table) add(row ...cell) {
	if len(row) != len(t.columns) {
		panic(fmt.Sprintf("table row has %d cells for %d columns", len(row), len(t.columns)))
	}
	t.rows = append(t.rows, row)
}

// numeric reports whether every cell of column i is a number; Markdown right-aligns it.
func (t *table) numeric(i int) bool {
	for _, r := range t.rows {
		if r[i].kind != numberKind {
			return false
		}
	}
	return len(t.rows) > 0
}

// write prints t to w in format f.
func (t *table) write(w io.Writer, f format) error {
	switch f {
	case csvFormat:
		return t.writeCSV(w)
	case jsonFormat:
		return t.writeJSON(w)
	}
	return t.writeMarkdown(w)
}

// writeMarkdown prints t as a Markdown table with padded columns, numbers right-aligned.
func (t *table) writeMarkdown(w io.Writer) error {
	esc := func(s string) string { return strings.ReplaceAll(s, "|", `\|`) }
	width := make([]int, len(t.columns))
	for i, c := range t.columns {
		width[i] = max(utf8.RuneCountInString(esc(c)), 3)
		for _, r := range t.rows {
			width[i] = max(width[i], utf8.RuneCountInString(esc(r[i].text)))
		}
	}
	var b bytes.Buffer
	line := func(cells []string, right func(int) bool) {
		for i, c := range cells {
			pad := strings.Repeat(" ", width[i]-utf8.RuneCountInString(c))
			if right(i) {
				fmt.Fprintf(&b, "| %s%s ", pad, c)
			} else {
				fmt.Fprintf(&b, "| %s%s ", c, pad)
			}
		}
		b.WriteString("|\n")
	}
	right := make([]bool, len(t.columns))
	for i := range right {
		right[i] = t.numeric(i)
	}
	header := make([]string, len(t.columns))
	rule := make([]string, len(t.columns))
	for i, c := range t.columns {
		header[i] = esc(c)
		if right[i] {
			rule[i] = strings.Repeat("-", width[i]-1) + ":"
		} else {
			rule[i] = strings.Repeat("-", width[i])
		}
	}
	line(header, func(int) bool { return false })
	line(rule, func(int) bool { return false })
	for _, r := range t.rows {
		cells := make([]string, len(r))
		for i, c := range r {
			cells[i] = esc(c.text)
		}
		line(cells, func(i int) bool { return right[i] })
	}
	_, err := w.Write(b.Bytes())
	return err
}

// writeCSV prints t as CSV: the header, then one record per row.
func (t *table) writeCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(t.columns); err != nil {
		return err
	}
	rec := make([]string, len(t.columns))
	for _, r := range t.rows {
		for i, c := range r {
			rec[i] = c.text
		}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// writeJSON prints t as an indented JSON array with one object per row, keys in column
// order; number cells are JSON numbers.
func (t *table) writeJSON(w io.Writer) error {
	objs := make([]jsonRow, len(t.rows))
	for i, r := range t.rows {
		objs[i] = jsonRow{columns: t.columns, cells: r}
	}
	out, err := json.MarshalIndent(objs, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(out, '\n'))
	return err
}

// jsonRow is one row as a JSON object whose keys keep the table's column order.
type jsonRow struct {
	columns []string
	cells   []cell
}

// MarshalJSON writes the row as {"column": value, ...}.
func (r jsonRow) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, c := range r.cells {
		if i > 0 {
			b.WriteByte(',')
		}
		k, err := json.Marshal(r.columns[i])
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		if err := writeJSONCell(&b, c); err != nil {
			return nil, err
		}
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// writeJSONCell writes a text cell as a JSON string and a number cell as a JSON number, or
// null when its text is no finite JSON number (NaN and infinities have no JSON form).
func writeJSONCell(b *bytes.Buffer, c cell) error {
	if c.kind == numberKind {
		if _, err := json.Marshal(json.Number(c.text)); err != nil {
			b.WriteString("null")
		} else {
			b.WriteString(c.text)
		}
		return nil
	}
	s, err := json.Marshal(c.text)
	if err != nil {
		return err
	}
	b.Write(s)
	return nil
}
