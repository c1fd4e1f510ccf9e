//go:build !js

package main

import (
	"strings"
	"testing"
)

// tinyWasm assembles a module by hand: one imported function, two defined
// functions with bodies of 3 and 5 bytes, one active data segment of 4 bytes
// and a "name" section naming the defined functions as Go's linker would.
func tinyWasm() []byte {
	sec := func(id byte, body ...byte) []byte { return append([]byte{id, byte(len(body))}, body...) }
	str := func(s string) []byte { return append([]byte{byte(len(s))}, s...) }
	cat := func(parts ...[]byte) []byte {
		var b []byte
		for _, p := range parts {
			b = append(b, p...)
		}
		return b
	}
	m := []byte("\x00asm\x01\x00\x00\x00")
	m = append(m, sec(1, 1, 0x60, 0, 0)...)                                                                                // type: () -> ()
	m = append(m, sec(2, cat([]byte{2}, str("go"), str("f"), []byte{0, 0}, str("go"), str("mem"), []byte{2, 0, 1})...)...) // a func import, a memory import
	m = append(m, sec(3, 2, 0, 0)...)                                                                                      // two defined functions
	m = append(m, sec(10, 2, 2, 0, 0x0b, 4, 0, 0x01, 0x01, 0x0b)...)                                                       // bodies of 2 and 4 bytes
	m = append(m, sec(11, 1, 0, 0x41, 0x80, 0x01, 0x0b, 4, 'a', 'b', 'c', 'd')...)                                         // data at 128: 4 bytes
	names := cat([]byte{2}, []byte{1}, str("math_big.__Int_.Add"), []byte{2}, str("main.main"))
	m = append(m, sec(0, cat(str("name"), []byte{1, byte(len(names))}, names)...)...)
	return m
}

func TestAnalyzeWasm(t *testing.T) {
	r, err := analyzeWasm(tinyWasm(), newPackageNamer([]string{"math", "math/big"}, "example.com/app"))
	if err != nil {
		t.Fatal(err)
	}
	if r.Code != 6 || r.Data != 4 {
		t.Errorf("code %d B, data %d B; want 6 and 4", r.Code, r.Data)
	}
	want := map[string]int{"math/big": 2, "example.com/app": 4}
	if len(r.Packages) != len(want) {
		t.Fatalf("packages %+v; want %v", r.Packages, want)
	}
	for _, p := range r.Packages {
		if want[p.Pkg] != p.Bytes || p.Funcs != 1 {
			t.Errorf("package %s: %d B in %d funcs; want %d B in 1", p.Pkg, p.Bytes, p.Funcs, want[p.Pkg])
		}
	}
	if r.Packages[0].Pkg != "example.com/app" {
		t.Errorf("largest first: got %s first", r.Packages[0].Pkg)
	}
	var secs []string
	for _, s := range r.Sections {
		secs = append(secs, s.Name)
	}
	if got := strings.Join(secs, " "); got != "type import function code data name" {
		t.Errorf("sections %q", got)
	}
}

func TestAnalyzeWasmBadInput(t *testing.T) {
	m := tinyWasm()
	for name, b := range map[string][]byte{
		"empty":     nil,
		"not wasm":  []byte("<html>not a module"),
		"truncated": m[:len(m)-5],
	} {
		if _, err := analyzeWasm(b, newPackageNamer(nil, "main")); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func TestPackageNamer(t *testing.T) {
	n := newPackageNamer([]string{"go/ast", "go/parser", "github.com/x/y", "github.com/x/y/z", "slices"}, "github.com/x/app")
	for name, want := range map[string]string{
		"github.com_x_y_z.__T_.M":                      "github.com/x/y/z",
		"github.com_x_y.F":                             "github.com/x/y",
		"slices.SortFunc_go.shape.__github.com_x_y.T_": "slices",
		"go_parser.ParseExpr":                          "go/parser",
		"main.main":                                    "github.com/x/app",
		"type_.eq.go_ast.Ident":                        "type: (linker's equality and hash functions)",
		"wasm_export_run":                              "? wasm_export_run",
	} {
		if got := n.pkg(name); got != want {
			t.Errorf("pkg(%q) = %q; want %q", name, got, want)
		}
	}
	if got := sanitizeName("math/big.(*Int).Add"); got != "math_big.__Int_.Add" {
		t.Errorf("sanitizeName: %q", got)
	}
}
