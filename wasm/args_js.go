//go:build js

package main

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"syscall/js"

	"github.com/bufferscope/bufferscope/sim/param"
)

// Reading JavaScript arguments. A page may hand the bridge anything: an object whose
// getter throws, a Proxy that throws on every trap, a BigInt, a symbol, a function. With
// syscall/js alone a getter that throws, read with Value.Get, unwinds as a JavaScript
// exception through the Go frames (the call throws at the page, past the bridge's
// recover), and Value.Type panics on a BigInt. So the bridge reads its arguments only
// through these helpers. Each asks JavaScript (Reflect.get, Object.keys, String) inside a
// call that catches, never runs the page's own code to turn a value into text (an
// object's toString, a function's source), and turns what went wrong into an error that
// names the value, short.

var (
	reflectGet   = global.Get("Reflect").Get("get")
	objectKeys   = global.Get("Object").Get("keys")
	isArray      = global.Get("Array").Get("isArray")
	jsString     = global.Get("String")
	objectToStr  = global.Get("Object").Get("prototype").Get("toString")
	reflectApply = global.Get("Reflect").Get("apply")
)

// maxKeys is the most keys an object argument may have (load's parameters): a lab has a
// few dozen, and every key unknown to it is named in a warning.
const maxKeys = 256

// kind names v's JavaScript type: "undefined", "null", "boolean", "number", "string",
// "symbol", "function", "array", "object", "bigint", or "value" for one syscall/js cannot
// hold (document.all).
func kind(v js.Value) (k string) {
	defer func() {
		if recover() != nil { // syscall/js has no type for these
			k = "value"
			if s, err := call(reflectApply, objectToStr, v, []any{}); err == nil && s.String() == "[object BigInt]" {
				k = "bigint"
			}
		}
	}()
	switch t := v.Type(); t {
	case js.TypeObject:
		if a, err := call(isArray, v); err == nil && a.Type() == js.TypeBoolean && a.Bool() {
			return "array"
		}
		return "object"
	default:
		return t.String()
	}
}

// call calls fn, a function of the page's realm the bridge trusts, with args, and returns
// what it threw as an error instead of a panic.
func call(fn js.Value, args ...any) (v js.Value, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = thrown(r)
		}
	}()
	return fn.Invoke(args...), nil
}

// thrown describes a panic of a JavaScript call: threw "message" for an exception with a
// message, threw an object (or a string, …) for others.
func thrown(r any) error {
	e, ok := r.(js.Error)
	if !ok {
		return fmt.Errorf("failed: %v", r)
	}
	if m := messageOf(e.Value); m != "" {
		return fmt.Errorf("threw %s", param.Quote(m))
	}
	return fmt.Errorf("threw %s", describe(e.Value))
}

// messageOf returns the message of an exception, or "" when it has none it can give:
// reading it may throw again, and that is not followed.
func messageOf(e js.Value) (m string) {
	defer func() {
		if recover() != nil {
			m = ""
		}
	}()
	if kind(e) != "object" {
		return ""
	}
	if v := reflectGet.Invoke(e, "message"); kind(v) == "string" {
		return v.String()
	}
	return ""
}

// get reads property key of object o (Reflect.get), catching a getter or a Proxy that
// throws.
func get(o js.Value, key string) (js.Value, error) {
	v, err := call(reflectGet, o, key)
	if err != nil {
		return js.Undefined(), fmt.Errorf("reading %s %v", param.Quote(key), err)
	}
	return v, nil
}

// keys returns object o's own enumerable string keys (Object.keys), catching a Proxy that
// throws, and refuses more than maxKeys.
func keys(o js.Value) ([]string, error) {
	ks, err := call(objectKeys, o)
	if err != nil {
		return nil, fmt.Errorf("listing its keys %v", err)
	}
	n := ks.Length() // Object.keys returns a true array
	if n > maxKeys {
		return nil, fmt.Errorf("it has %d keys, more than %d", n, maxKeys)
	}
	out := make([]string, n)
	for i := range n {
		out[i] = ks.Index(i).String()
	}
	return out, nil
}

// text returns a string as it is, and a number, a boolean or a BigInt as String() writes
// it ("NaN", "true", "10"); ok is false for anything else, whose String() would run the
// page's code or say nothing useful ("[object Object]", "Symbol(x)").
func text(v js.Value) (string, bool) {
	switch kind(v) {
	case "string":
		return v.String(), true
	case "number", "boolean", "bigint":
		s, err := call(jsString, v)
		if err != nil {
			return "", false
		}
		return s.String(), true
	}
	return "", false
}

// describe names a value for a message, short, without running the page's code: the
// string "…" (as param.Quote writes it), 12.5, NaN, true, 10n, null, undefined, a
// symbol, a function, an array, an object.
func describe(v js.Value) string {
	switch k := kind(v); k {
	case "string":
		return "the string " + param.Quote(v.String())
	case "number", "boolean":
		s, _ := text(v)
		return s
	case "bigint":
		if s, _ := text(v); len(s) <= 24 {
			return s + "n"
		}
		return "a BigInt of more than 24 digits"
	case "null", "undefined":
		return k
	case "array", "object":
		return "an " + k
	case "function", "symbol":
		return "a " + k
	}
	return "a value of another kind"
}

// number reads a number, or a string that holds one (" 5 ", "1e3"); ok is false
// otherwise.
func number(v js.Value) (float64, bool) {
	switch kind(v) {
	case "number":
		return v.Float(), true
	case "string":
		x, err := strconv.ParseFloat(strings.TrimSpace(v.String()), 64)
		return x, err == nil
	}
	return 0, false
}

// finite reads a number that is neither NaN nor infinite.
func finite(v js.Value) (float64, bool) {
	x, ok := number(v)
	return x, ok && !math.IsNaN(x) && !math.IsInf(x, 0)
}

// whole reads a whole number from lo to hi.
func whole(v js.Value, lo, hi float64) (float64, bool) {
	x, ok := finite(v)
	return x, ok && x == math.Trunc(x) && x >= lo && x <= hi
}

// truthy is JavaScript's truthiness, also for a BigInt.
func truthy(v js.Value) bool {
	switch kind(v) {
	case "bigint":
		s, _ := text(v)
		return s != "0"
	case "value":
		return false // document.all is falsy
	}
	return v.Truthy()
}

func missing(v js.Value) bool { return v.IsUndefined() || v.IsNull() }

// isObject reports whether v is a plain object: not null, an array or a function.
func isObject(v js.Value) bool { return kind(v) == "object" }

func arg(args []js.Value, i int) js.Value {
	if i < len(args) {
		return args[i]
	}
	return js.Undefined()
}

// group writes a whole number with commas: 1,000,000.
func group(n float64) string {
	s := strconv.FormatInt(int64(n), 10)
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	return b.String()
}
