package main

import (
	"fmt"
	"reflect"
	"strconv"
)

// column is one column of a lab's rows: a field of its row struct with a `col` tag.
type column struct {
	name  string // the col tag: "modelled_seconds"
	field int    // the field's index in the struct
	prec  int    // digits after the point for a float, from the prec tag; -1 for as few as exact
}

// columnsOf returns the columns of row struct type rt, in field order: every field with a
// `col` tag, its prec tag read for floats. It fails for a field it cannot print, which is a
// bug in the lab that declared it.
func columnsOf(rt reflect.Type) ([]column, error) {
	if rt.Kind() != reflect.Struct {
		return nil, fmt.Errorf("a row is a %s, not a struct", rt)
	}
	var cols []column
	for i := range rt.NumField() {
		sf := rt.Field(i)
		name, ok := sf.Tag.Lookup("col")
		if !ok {
			continue
		}
		c := column{name: name, field: i, prec: -1}
		switch sf.Type.Kind() {
		case reflect.String, reflect.Bool,
			reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
			reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		case reflect.Float32, reflect.Float64:
			if s, ok := sf.Tag.Lookup("prec"); ok {
				p, err := strconv.Atoi(s)
				if err != nil || p < 0 {
					return nil, fmt.Errorf("%s.%s: prec %q is not a whole number of digits", rt, sf.Name, s)
				}
				c.prec = p
			}
		default:
			return nil, fmt.Errorf("%s.%s: a column cannot hold a %s", rt, sf.Name, sf.Type)
		}
		cols = append(cols, c)
	}
	if len(cols) == 0 {
		return nil, fmt.Errorf("%s has no field with a col tag", rt)
	}
	return cols, nil
}

// cellOf returns the cell of field v: strings and booleans as text, integers plain, floats
// with the column's digits, all as the formats print them.
func cellOf(v reflect.Value, c column) cell {
	switch v.Kind() {
	case reflect.String:
		return text(v.String())
	case reflect.Bool:
		return text(strconv.FormatBool(v.Bool()))
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return cell{text: strconv.FormatInt(v.Int(), 10), kind: numberKind}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return uintCell(v.Uint())
	}
	if c.prec < 0 {
		return cell{text: strconv.FormatFloat(v.Float(), 'g', -1, 64), kind: numberKind}
	}
	return floatCell(v.Float(), c.prec)
}

// rowsTable turns a lab's rows, structs (or pointers to structs) of one type whose fields
// carry `col` and `prec` tags, into the table the formats print.
func rowsTable(rows []any) (*table, error) {
	t := &table{}
	if len(rows) == 0 {
		return t, nil
	}
	rt := reflect.TypeOf(rows[0])
	if rt != nil && rt.Kind() == reflect.Pointer {
		rt = rt.Elem()
	}
	if rt == nil {
		return nil, fmt.Errorf("row 1 is nil")
	}
	cols, err := columnsOf(rt)
	if err != nil {
		return nil, err
	}
	for _, c := range cols {
		t.columns = append(t.columns, c.name)
	}
	for i, r := range rows {
		if r == nil {
			return nil, fmt.Errorf("row %d is nil", i+1)
		}
		v := reflect.ValueOf(r)
		if v.Kind() == reflect.Pointer && !v.IsNil() {
			v = v.Elem()
		}
		if v.Type() != rt {
			return nil, fmt.Errorf("row %d is a %s, not a %s like row 1", i+1, v.Type(), rt)
		}
		cells := make([]cell, len(cols))
		for j, c := range cols {
			cells[j] = cellOf(v.Field(c.field), c)
		}
		t.add(cells...)
	}
	return t, nil
}
