//go:build !js

package main

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

func TestHashedName(t *testing.T) {
	// SHA-256("abc") starts ba7816bf.
	if got, want := hashedName("main", ".js", []byte("abc")), "main.ba7816bf.js"; got != want {
		t.Errorf("hashedName = %q, want %q", got, want)
	}
}

func TestRewriteRefs(t *testing.T) {
	refs := map[string]string{
		"style.css":    "assets/style.11111111.css",
		"wasm_exec.js": "assets/wasm_exec.22222222.js",
		"js/main.js":   "assets/main.33333333.js",
	}
	page := `<link rel="stylesheet" href="style.css"><link href="style.css?v=1">
<script src="wasm_exec.js"></script><script defer src="js/main.js"></script>
<a href="js/main.jsx">x</a><img src="img/style.css">`
	want := `<link rel="stylesheet" href="assets/style.11111111.css"><link href="style.css?v=1">
<script src="assets/wasm_exec.22222222.js"></script><script defer src="assets/main.33333333.js"></script>
<a href="js/main.jsx">x</a><img src="img/style.css">`
	if got := string(rewriteRefs([]byte(page), refs)); got != want {
		t.Errorf("rewriteRefs:\n got %s\nwant %s", got, want)
	}
}

func TestLocalPath(t *testing.T) {
	for _, tc := range []struct {
		from, ref, want string
		local           bool
	}{
		{"index.html", "img/a.png", "img/a.png", true},
		{"index.html", "./img/a.png?x=1#y", "img/a.png", true},
		{"index.html", "/img/a.png", "img/a.png", true},
		{"index.html", "/", "index.html", true},
		{"index.html", "docs/", "docs/index.html", true},
		{"style.css", "img/a.png", "img/a.png", true},
		{"docs/a.html", "../img/a.png", "img/a.png", true},
		{"index.html", "https://example.com/a.png", "", false},
		{"index.html", "//example.com/a.png", "", false},
		{"index.html", "data:,", "", false},
		{"index.html", "mailto:a@example.com", "", false},
		{"index.html", "#top", "", false},
		{"index.html", "?lab=ring", "", false},
	} {
		got, local := localPath(tc.from, tc.ref)
		if got != tc.want || local != tc.local {
			t.Errorf("localPath(%q, %q) = %q, %v, want %q, %v", tc.from, tc.ref, got, local, tc.want, tc.local)
		}
	}
}

func TestRebaseCSS(t *testing.T) {
	files := map[string]bool{"img/a.png": true, "fonts/b.woff2": true}
	src := `a{background:url(img/a.png)} b{src:url("fonts/b.woff2") url( '/img/a.png' )} c{background:url(data:image/png;base64,AA==)} d{mask:url(#m)}`
	want := `a{background:url(../img/a.png)} b{src:url("../fonts/b.woff2") url( '/img/a.png' )} c{background:url(data:image/png;base64,AA==)} d{mask:url(#m)}`
	got, err := rebaseCSS("style.css", []byte(src), files)
	if err != nil || string(got) != want {
		t.Errorf("rebaseCSS:\n got %s, %v\nwant %s", got, err, want)
	}
	if _, err := rebaseCSS("style.css", []byte(`a{background:url(img/missing.png)}`), files); err == nil ||
		err.Error() != "style.css: url(img/missing.png) names a file that is not in the site" {
		t.Errorf("missing file: got %v", err)
	}
	if _, err := rebaseCSS("style.css", []byte(`@import "other.css";`), files); err == nil || !strings.Contains(err.Error(), "@import is not supported") {
		t.Errorf("@import: got %v", err)
	}
}

// writeSite writes files (slash path → content) under a new directory.
func writeSite(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// fakeSite is a small site with everything dist handles: two pages, a
// stylesheet with an image, two entry points sharing a module, and a static
// file.
var fakeSite = map[string]string{
	"index.html": `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>test</title>
  <link rel="stylesheet" href="style.css">
</head>
<body>
  <img src="img/logo.svg" alt="">   <a href="embed.html">embed</a>
  <script src="wasm_exec.js"></script>
  <script src="js/main.js"></script>
</body>
</html>
`,
	"embed.html":   `<!doctype html><html><head><title>embed</title></head><body><script src="js/embed.js"></script></body></html>`,
	"style.css":    "body {\n  background: url(img/logo.svg);\n  color: #ffffff;\n}\n",
	"js/shared.js": "export const wasmURL = __WASM_URL__;\n",
	"js/main.js":   "import { wasmURL } from './shared.js';\nfetch(wasmURL);\n",
	"js/embed.js":  "import { wasmURL } from './shared.js';\nconsole.log('embed', wasmURL);\n",
	"img/logo.svg": `<svg xmlns="http://www.w3.org/2000/svg"/>`,
	".hidden":      "not copied",
}

func TestSiteBuild(t *testing.T) {
	s, err := loadSite(writeSite(t, fakeSite))
	if err != nil {
		t.Fatal(err)
	}
	assets, err := s.build([]byte("\x00asm fake module"), []byte("var Go=1;"))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, a := range assets {
		got[a.path] = string(a.data)
	}
	hashed := regexp.MustCompile(`\.[0-9a-f]{8}\.`)
	var names []string
	for p := range got {
		names = append(names, hashed.ReplaceAllString(p, ".HASH."))
	}
	want := "assets/embed.HASH.js assets/main.HASH.js assets/style.HASH.css assets/wasm/bufferscope.HASH.wasm assets/wasm_exec.HASH.js embed.html img/logo.svg index.html"
	slices.Sort(names)
	if joined := strings.Join(names, " "); joined != want {
		t.Fatalf("built files:\n got %s\nwant %s", joined, want)
	}
	find := func(prefix string) (string, string) {
		for p, data := range got {
			if strings.HasPrefix(p, prefix) {
				return p, data
			}
		}
		t.Fatalf("no %s*", prefix)
		return "", ""
	}
	wasmPath, _ := find("assets/wasm/bufferscope.")
	mainPath, mainJS := find("assets/main.")
	stylePath, style := find("assets/style.")
	execPath, _ := find("assets/wasm_exec.")

	if !strings.Contains(mainJS, `"`+wasmPath+`"`) || strings.Contains(mainJS, "__WASM_URL__") || strings.Contains(mainJS, "import") {
		t.Errorf("main bundle does not fetch %s as a bundled IIFE:\n%s", wasmPath, mainJS)
	}
	if style != "body{background:url(../img/logo.svg);color:#fff}" {
		t.Errorf("style = %q", style)
	}
	wantIndex := `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>test</title><link rel="stylesheet" href="` + stylePath + `"></head><body><img src="img/logo.svg" alt> <a href="embed.html">embed</a>
<script src="` + execPath + `"></script><script src="` + mainPath + `"></script></body></html>`
	if got["index.html"] != wantIndex {
		t.Errorf("index.html:\n got %s\nwant %s", got["index.html"], wantIndex)
	}
}

func TestSiteBuildMissingFiles(t *testing.T) {
	for _, tc := range []struct {
		name, page, want string
	}{
		{"script", `<script src="js/nope.js"></script>`, "index.html loads js/nope.js, but "},
		{"stylesheet", `<link rel="stylesheet" href="nope.css">`, `index.html: href="nope.css" names a file that is not in `},
		{"image", `<img src="img/nope.png">`, `index.html: src="img/nope.png" names a file that is not in `},
		{"page", `<a href="about.html">`, `index.html: href="about.html" names a file that is not in `},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := loadSite(writeSite(t, map[string]string{"index.html": tc.page}))
			if err != nil {
				t.Fatal(err)
			}
			if _, err := s.build([]byte("wasm"), []byte("exec")); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v, want an error containing %q", err, tc.want)
			}
		})
	}
}

func TestSiteBuildScriptErrors(t *testing.T) {
	s, err := loadSite(writeSite(t, map[string]string{
		"index.html": `<script src="js/main.js"></script>`,
		"js/main.js": "let x = ;\n",
	}))
	if err != nil {
		t.Fatal(err)
	}
	_, err = s.build([]byte("wasm"), []byte("exec"))
	if err == nil || !strings.Contains(err.Error(), "esbuild found 1 error(s)") || !strings.Contains(err.Error(), "main.js:1:8") {
		t.Errorf("got %v, want esbuild's error with its position", err)
	}
}

func TestCheckReplaceable(t *testing.T) {
	dir := t.TempDir()
	if err := checkReplaceable(filepath.Join(dir, "new")); err != nil {
		t.Errorf("missing directory: %v", err)
	}
	if err := checkReplaceable(dir); err != nil {
		t.Errorf("empty directory: %v", err)
	}
	os.WriteFile(filepath.Join(dir, "go.mod"), nil, 0o644)
	if err := checkReplaceable(dir); err == nil {
		t.Error("a directory dist did not write was accepted")
	}
	os.MkdirAll(filepath.Join(dir, wasmDir), 0o755)
	if err := checkReplaceable(dir); err != nil {
		t.Errorf("earlier output: %v", err)
	}
}
