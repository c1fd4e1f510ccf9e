package lab

import (
	"fmt"
	"reflect"
	"strings"
)

// Counter describes one field of a lab's counters struct, from its tags:
//
//	Evictions uint64 `counter:"evictions" label:"Evictions" unit:"pages" format:"count" doc:"…"`
//
// The key is what the bridge calls the field; format tells the page how to write it:
// "count" (grouped digits), "ratio" (a percentage of Of), "seconds", "lsn", "text",
// "bool", "number".
//
// An embedded struct's counters come in its place. Its field may carry a hidden tag that
// lists, by key, those of them the lab keeps off the page's panel because its own counters
// say the same more exactly:
//
//	lab.Pool `hidden:"walFlushes,walFlushesBackend"`
type Counter struct {
	Key    string `json:"key"`
	Label  string `json:"label"`
	Unit   string `json:"unit,omitempty"`
	Format string `json:"format"`
	Doc    string `json:"doc,omitempty"`
	// Of names the counter a ratio is taken of, so the page can say "–" before any.
	Of string `json:"of,omitempty"`
	// Hidden counters cross the bridge (tests and charts read them) but the page's panel
	// does not list them.
	Hidden bool `json:"hidden,omitempty"`
	// Sub counters are part of the one above them ("of which …"), shown indented under it.
	Sub  bool   `json:"sub,omitempty"`
	Type string `json:"type"` // the TypeScript type: "number", "string", "boolean"
}

// formats are the values a format tag may take.
var formats = []string{"count", "ratio", "seconds", "lsn", "text", "bool", "number"}

// Describe lists the counters of a counters struct (or a pointer to one), in field order.
// It panics on a field without a counter tag or with an unknown format: a lab's counters
// are a fixed type, and a mistake in one shows in every test.
func Describe(counters any) []Counter {
	t := reflect.TypeOf(counters)
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		panic(fmt.Sprintf("lab: counters of type %s are not a struct", t))
	}
	var out []Counter
	for i := range t.NumField() {
		f := t.Field(i)
		if f.Anonymous {
			out = append(out, hide(Describe(reflect.New(f.Type).Interface()), f.Tag.Get("hidden"), t.Name()+"."+f.Name)...)
			continue
		}
		key := f.Tag.Get("counter")
		if key == "" {
			panic(fmt.Sprintf("lab: %s.%s has no counter tag", t.Name(), f.Name))
		}
		c := Counter{
			Key: key, Label: f.Tag.Get("label"), Unit: f.Tag.Get("unit"), Format: f.Tag.Get("format"),
			Doc: f.Tag.Get("doc"), Of: f.Tag.Get("of"), Hidden: f.Tag.Get("hidden") == "true", Sub: f.Tag.Get("sub") == "true",
			Type: tsType(f.Type),
		}
		if c.Label == "" {
			c.Label = key
		}
		if !contains(formats, c.Format) {
			panic(fmt.Sprintf("lab: %s.%s has format %q, not one of %s", t.Name(), f.Name, c.Format, strings.Join(formats, ", ")))
		}
		out = append(out, c)
	}
	return out
}

// hide marks the counters of cs named in list (keys separated by commas) hidden, and panics
// on a key that is not among them: a lab that hides a counter by a name the embedded struct
// no longer has would show it again without a word.
func hide(cs []Counter, list, field string) []Counter {
	if list == "" {
		return cs
	}
	for _, key := range strings.Split(list, ",") {
		key = strings.TrimSpace(key)
		found := false
		for i := range cs {
			if cs[i].Key == key {
				cs[i].Hidden, found = true, true
			}
		}
		if !found {
			panic(fmt.Sprintf("lab: %s hides %q, which it has no counter for", field, key))
		}
	}
	return cs
}

// CounterValues returns a counters struct's fields by their keys, with the Go values as they are
// (numbers, strings, booleans), for the bridge to send as one object.
func CounterValues(counters any) map[string]any {
	v := reflect.ValueOf(counters)
	if v.Kind() == reflect.Pointer {
		v = v.Elem()
	}
	out := map[string]any{}
	values(v, out)
	return out
}

func values(v reflect.Value, out map[string]any) {
	t := v.Type()
	for i := range t.NumField() {
		if t.Field(i).Anonymous {
			values(v.Field(i), out)
			continue
		}
		out[t.Field(i).Tag.Get("counter")] = v.Field(i).Interface()
	}
}

func tsType(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Bool:
		return "boolean"
	case reflect.String:
		return "string"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64:
		return "number"
	}
	panic(fmt.Sprintf("lab: a counter of type %s cannot cross the bridge", t))
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
