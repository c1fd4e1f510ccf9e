//go:build !js

package main

import (
	"go/scanner"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/bufferscope/bufferscope/sim/labs"
)

// The one registration list of each layer: the only files outside a lab's own folders that
// may name a lab (docs/architecture.md, "How to add a lab").
var registrations = []string{
	"sim/labs/labs.go",
	"wasm/labs/labs.go",
	"site/js/labs/index.js",
	typingsPath, // generated from the registry by go run ./build typings
}

// labFolders are where a lab's own code lives, one folder per layer: <prefix><name>/.
var labFolders = []string{"sim/labs/", "wasm/labs/", "site/js/labs/"}

// TestNoLabSwitchOutsideLabs checks the lab shape: outside a lab's own folders and the
// registration lists, no code names a lab — no string literal that is a lab's name (a
// switch on lab identity: lab === 'drop', case "drop"), no import of a lab's package or
// module, no HTML attribute that selects a lab. Tests, documents and the fidelity harness,
// which compares each lab with a real server, may name labs.
func TestNoLabSwitchOutsideLabs(t *testing.T) {
	root, err := moduleRoot()
	if err != nil {
		t.Fatal(err)
	}
	names := labs.Names()
	if len(names) < 2 {
		t.Fatalf("labs.All lists %v; the check needs the labs", names)
	}
	var problems []string
	err = filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			switch d.Name() {
			case ".git", "node_modules", "dist", "vendor", "testdata", "e2e", "fidelity", "docs", ".cache":
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(rel, "_test.go") || slices.Contains(registrations, rel) || inLabFolder(rel, names) {
			return nil
		}
		ext := filepath.Ext(rel)
		if ext != ".go" && ext != ".js" && ext != ".html" && ext != ".css" && ext != ".ts" {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, p := range labMentions(rel, src, names) {
			problems = append(problems, rel+": "+p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Error(p)
	}
	if len(problems) > 0 {
		t.Log("code outside a lab's folders must not ask which lab is running: move it into the lab's folder " +
			"(sim/labs/<lab>, wasm/labs/<lab>, site/js/labs/<lab>) behind the lab shape, or add the lab to a registration list")
	}
}

// TestLabMentionsCanFail checks the checker on code that does name a lab.
func TestLabMentionsCanFail(t *testing.T) {
	names := []string{"free", "drop"}
	for _, c := range []struct {
		file, src string
		want      int
	}{
		{"a.go", "package a\nfunc f(l string) bool { return l == \"drop\" } // \"free\" in a comment\n", 1},
		{"a.go", "package a\nimport \"github.com/bufferscope/bufferscope/sim/labs/drop\"\n", 1},
		{"a.go", "package a\nvar s = \"dropall rels=a\"\n", 0},
		{"a.js", "// 'drop' in a comment\nif (s.lab === 'drop') x();\n", 1},
		{"a.js", "import m from './labs/drop/index.js';\nconst t = `free`;\n", 2},
		{"a.js", "const s = 'freelist';\n", 0},
		{"a.html", "<section data-lab=\"drop\">\n<a href=\"?lab=drop\">\n", 2},
		{"a.css", "body[data-lab=\"free\"] .x { }\n", 1},
	} {
		if got := labMentions(c.file, []byte(c.src), names); len(got) != c.want {
			t.Errorf("%s %q: %d mentions %v, want %d", c.file, c.src, len(got), got, c.want)
		}
	}
}

func inLabFolder(rel string, names []string) bool {
	for _, prefix := range labFolders {
		for _, n := range names {
			if strings.HasPrefix(rel, prefix+n+"/") {
				return true
			}
		}
	}
	return false
}

var (
	jsComment   = regexp.MustCompile(`(?s)/\*.*?\*/|(^|[^:\\])//[^\n]*`)
	jsString    = regexp.MustCompile("'([^'\\\\\\n]|\\\\.)*'|\"([^\"\\\\\\n]|\\\\.)*\"|`[^`]*`")
	htmlAttr    = regexp.MustCompile(`[\w-]+="([^"]*)"`)
	cssSelector = regexp.MustCompile(`\[[\w-]+="([^"]*)"\]`)
)

// labMentions lists where src names a lab: string literals equal to a lab's name, imports
// of a lab's package or module, and HTML or CSS attribute values that name one.
func labMentions(file string, src []byte, names []string) []string {
	var out []string
	isLab := func(s string) bool { return slices.Contains(names, s) }
	importsLab := func(s string) bool {
		for _, n := range names {
			if strings.Contains(s, "labs/"+n) {
				return true
			}
		}
		return false
	}
	switch filepath.Ext(file) {
	case ".go":
		var s scanner.Scanner
		fset := token.NewFileSet()
		s.Init(fset.AddFile(file, -1, len(src)), src, nil, 0)
		for {
			pos, tok, lit := s.Scan()
			if tok == token.EOF {
				break
			}
			if tok != token.STRING {
				continue
			}
			v, err := strconv.Unquote(lit)
			if err == nil && (isLab(v) || importsLab(v) && strings.Contains(v, "bufferscope/")) {
				out = append(out, fset.Position(pos).String()+": "+lit)
			}
		}
	case ".js", ".ts":
		code := jsComment.ReplaceAllString(string(src), "$1")
		for _, m := range jsString.FindAllString(code, -1) {
			v := m[1 : len(m)-1]
			if isLab(v) || importsLab(v) {
				out = append(out, m)
			}
		}
	case ".html":
		for _, m := range htmlAttr.FindAllStringSubmatch(string(src), -1) {
			v := m[1]
			if isLab(v) || importsLab(v) || strings.Contains(v, "lab=") && isLab(strings.TrimPrefix(v[strings.Index(v, "lab="):], "lab=")) {
				out = append(out, m[0])
			}
		}
	case ".css":
		for _, m := range cssSelector.FindAllStringSubmatch(string(src), -1) {
			if isLab(m[1]) {
				out = append(out, m[0])
			}
		}
	}
	return out
}
