package app

import (
	"reflect"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Plain returns v as the plain values js.ValueOf takes: nil, bool, float64, string,
// []any and map[string]any, so the bridge converts every result the same way and never
// lists fields by hand. Structs become objects keyed by their json tags (a field tagged "-"
// is left out, omitempty leaves out zero values), or by their counter tags (lab counters),
// or else by their names with the first letter in lower case; embedded structs are
// flattened, as encoding/json does. Numbers become float64 (JavaScript's numbers), including
// ±Inf and NaN, which JSON could not carry; nil pointers, slices and maps become nil; []byte
// stays []byte for the caller to copy. Values of other kinds (functions, channels) become
// nil.
func Plain(v any) any {
	if v == nil {
		return nil
	}
	return plain(reflect.ValueOf(v))
}

func plain(v reflect.Value) any {
	switch v.Kind() {
	case reflect.Invalid:
		return nil
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return nil
		}
		return plain(v.Elem())
	case reflect.Bool:
		return v.Bool()
	case reflect.String:
		return v.String()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return float64(v.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return float64(v.Uint())
	case reflect.Float32, reflect.Float64:
		return v.Float()
	case reflect.Slice:
		if v.IsNil() {
			return nil
		}
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return v.Bytes()
		}
		fallthrough
	case reflect.Array:
		out := make([]any, v.Len())
		for i := range out {
			out[i] = plain(v.Index(i))
		}
		return out
	case reflect.Map:
		if v.IsNil() {
			return nil
		}
		out := make(map[string]any, v.Len())
		it := v.MapRange()
		for it.Next() {
			k := it.Key()
			if k.Kind() != reflect.String {
				continue
			}
			out[k.String()] = plain(it.Value())
		}
		return out
	case reflect.Struct:
		out := map[string]any{}
		fields(v, out)
		return out
	}
	return nil
}

// fields adds the exported fields of struct v to out.
func fields(v reflect.Value, out map[string]any) {
	t := v.Type()
	for i := range t.NumField() {
		f := t.Field(i)
		if f.Anonymous && f.Type.Kind() == reflect.Struct {
			fields(v.Field(i), out)
			continue
		}
		if !f.IsExported() {
			continue
		}
		name, omitEmpty := f.Name, false
		if tag, ok := f.Tag.Lookup("json"); ok {
			parts := strings.Split(tag, ",")
			if parts[0] == "-" {
				continue
			}
			if parts[0] != "" {
				name = parts[0]
			}
			omitEmpty = slices.Contains(parts[1:], "omitempty")
		} else if key := f.Tag.Get("counter"); key != "" {
			name = key
		} else {
			r, size := utf8.DecodeRuneInString(name)
			name = string(unicode.ToLower(r)) + name[size:]
		}
		fv := v.Field(i)
		if omitEmpty && fv.IsZero() {
			continue
		}
		if omitEmpty && (fv.Kind() == reflect.Slice || fv.Kind() == reflect.Map) && fv.Len() == 0 {
			continue
		}
		out[name] = plain(fv)
	}
}
