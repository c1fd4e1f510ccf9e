//go:build !js

package main

import (
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/bufferscope/bufferscope/sim/labs"
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
	// A stylesheet in a folder keeps it under assets/, and its url()s follow.
	files["vendor/lib/marker.svg"] = true
	nested := `a{background:url(marker.svg?v=2)} b{background:url(../../img/a.png#x)}`
	wantNested := `a{background:url(../../../vendor/lib/marker.svg?v=2)} b{background:url(../../../img/a.png#x)}`
	if got, err := rebaseCSS("vendor/lib/lib.css", []byte(nested), files); err != nil || string(got) != wantNested {
		t.Errorf("rebaseCSS in a folder:\n got %s, %v\nwant %s", got, err, wantNested)
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
// stylesheet with an image, two entry points sharing a module, a vendored
// library with its stylesheet and licence, a worker script, and a static file.
var fakeSite = map[string]string{
	"index.html": `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>test</title>
  <link rel="stylesheet" href="vendor/lib/lib.css">
  <link rel="stylesheet" href="style.css">
</head>
<body>
  <img src="img/logo.svg" alt="">   <a href="embed.html">embed</a>
  <script src="wasm_exec.js"></script>
  <script src="js/main.js"></script>
</body>
</html>
`,
	"embed.html":            `<!doctype html><html><head><title>embed</title></head><body><script src="js/embed.js"></script></body></html>`,
	"style.css":             "body {\n  background: url(img/logo.svg);\n  color: #ffffff;\n}\n",
	"js/shared.js":          "export const wasmURL = __WASM_URL__;\n",
	"js/main.js":            "import { wasmURL } from './shared.js';\nimport lib from '../vendor/lib/lib.esm.js';\nfetch(wasmURL);\nlib(__WASM_EXEC_URL__, __WORKER_URL__, __WORKER_WASM_URL__);\n",
	"js/embed.js":           "import { wasmURL } from './shared.js';\nconsole.log('embed', wasmURL);\n",
	"js/worker/main.js":     "import { hello } from './hello.js';\nself.onmessage = (e) => { importScripts(e.data.exec); hello(); };\n",
	"js/worker/hello.js":    "export function hello() { postMessage('hello from the worker'); }\n",
	"vendor/lib/lib.esm.js": "/*! lib, MIT licence */\nexport default function lib(...a) { console.log('lib', ...a); }\n",
	"vendor/lib/lib.css":    ".lib {\n  color: #ff0000;\n}\n",
	"vendor/lib/LICENSE":    "MIT",
	"img/logo.svg":          `<svg xmlns="http://www.w3.org/2000/svg"/>`,
	".hidden":               "not copied",
}

// fakeCode is what dist would compile for fakeSite.
var fakeCode = code{app: []byte("\x00asm fake module"), worker: []byte("\x00asm fake worker"), exec: []byte("var Go=1;")}

func TestSiteBuild(t *testing.T) {
	s, err := loadSite(writeSite(t, fakeSite))
	if err != nil {
		t.Fatal(err)
	}
	assets, err := s.build(fakeCode)
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
	want := []string{"assets/embed.HASH.js", "assets/main.HASH.js", "assets/style.HASH.css", "assets/vendor/lib/lib.HASH.css",
		"assets/wasm/bufferscope.HASH.wasm", "assets/wasm/worker.HASH.wasm", "assets/wasm_exec.HASH.js", "assets/worker/worker.HASH.js",
		"embed.html", "img/logo.svg", "index.html", "vendor/lib/LICENSE"}
	for _, l := range labs.Names() { // each lab's stills for the embed (stills.go)
		for _, theme := range stillThemes {
			want = append(want, "assets/stills/"+l+"-"+theme+".HASH.png")
		}
	}
	slices.Sort(want)
	slices.Sort(names)
	if joined, want := strings.Join(names, " "), strings.Join(want, " "); joined != want {
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
	workerWasmPath, workerWasm := find("assets/wasm/worker.")
	workerPath, workerJS := find("assets/worker/worker.")
	mainPath, mainJS := find("assets/main.")
	stylePath, style := find("assets/style.")
	libStylePath, libStyle := find("assets/vendor/lib/lib.")
	execPath, _ := find("assets/wasm_exec.")

	if !strings.Contains(mainJS, `"`+wasmPath+`"`) || strings.Contains(mainJS, "__WASM_URL__") || strings.Contains(mainJS, "import") {
		t.Errorf("main bundle does not fetch %s as a bundled IIFE:\n%s", wasmPath, mainJS)
	}
	for _, url := range []string{execPath, workerPath, workerWasmPath} {
		if !strings.Contains(mainJS, `"`+url+`"`) {
			t.Errorf("main bundle does not have the constant %q:\n%s", url, mainJS)
		}
	}
	if !strings.Contains(mainJS, "lib, MIT licence") || !strings.Contains(mainJS, `console.log("lib"`) {
		t.Errorf("main bundle lacks the vendored library or its licence comment:\n%s", mainJS)
	}
	if !strings.Contains(workerJS, "hello from the worker") || strings.Contains(workerJS, "import ") || !strings.Contains(workerJS, "importScripts") {
		t.Errorf("worker bundle:\n%s", workerJS)
	}
	if workerWasm != string(fakeCode.worker) {
		t.Errorf("worker wasm = %q", workerWasm)
	}
	if style != "body{background:url(../img/logo.svg);color:#fff}" {
		t.Errorf("style = %q", style)
	}
	if libStyle != ".lib{color:red}" {
		t.Errorf("vendored style = %q", libStyle)
	}
	wantIndex := `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>test</title><link rel="stylesheet" href="` + libStylePath + `"><link rel="stylesheet" href="` + stylePath + `"></head><body><img src="img/logo.svg" alt> <a href="embed.html">embed</a>
<script src="` + execPath + `"></script><script src="` + mainPath + `"></script></body></html>`
	if got["index.html"] != wantIndex {
		t.Errorf("index.html:\n got %s\nwant %s", got["index.html"], wantIndex)
	}
}

// TestSiteBuildWithoutWorker builds a site that has no worker script: its pages get empty
// worker URLs, and no worker wasm is needed.
func TestSiteBuildWithoutWorker(t *testing.T) {
	s, err := loadSite(writeSite(t, map[string]string{
		"index.html": `<script src="js/main.js"></script>`,
		"js/main.js": "console.log(JSON.stringify([__WORKER_URL__, __WORKER_WASM_URL__]));\n",
	}))
	if err != nil {
		t.Fatal(err)
	}
	assets, err := s.build(code{app: []byte("wasm"), exec: []byte("exec")})
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range assets {
		if strings.HasPrefix(a.path, "assets/main.") && !strings.Contains(string(a.data), `["",""]`) {
			t.Errorf("main bundle: %s", a.data)
		}
		if strings.Contains(a.path, "worker") {
			t.Errorf("built %s for a site without a worker", a.path)
		}
	}
	// A worker script without its wasm is a mistake of the build.
	s, err = loadSite(writeSite(t, map[string]string{"index.html": `<p>`, "js/worker/main.js": "postMessage(1);\n"}))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.build(code{app: []byte("wasm"), exec: []byte("exec")}); err == nil || !strings.Contains(err.Error(), "no worker wasm was built") {
		t.Errorf("worker script without its wasm: got %v", err)
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
			if _, err := s.build(code{app: []byte("wasm"), exec: []byte("exec")}); err == nil || !strings.Contains(err.Error(), tc.want) {
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
	_, err = s.build(code{app: []byte("wasm"), exec: []byte("exec")})
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

// TestServiceWorkerKeepsEveryPageAndAsset builds a site with a service worker: sw.js sits at
// the root, unhashed, and lists the pages and every hashed asset (the wasm modules and the
// worker's script included), nothing else; its cache name changes with any listed file and
// stays the same when nothing changed.
func TestServiceWorkerKeepsEveryPageAndAsset(t *testing.T) {
	files := maps.Clone(fakeSite)
	files["js/sw/main.js"] = "const CACHE = __SW_CACHE__, FILES = __SW_FILES__;\nself.addEventListener('install', () => caches.open(CACHE).then((c) => c.addAll(FILES)));\n"
	build := func(files map[string]string, c code) (sw string, paths []string) {
		t.Helper()
		s, err := loadSite(writeSite(t, files))
		if err != nil {
			t.Fatal(err)
		}
		assets, err := s.build(c)
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range assets {
			paths = append(paths, a.path)
			if a.path == serviceWorkerPath {
				sw = string(a.data)
			}
		}
		return sw, paths
	}
	sw, paths := build(files, fakeCode)
	if sw == "" {
		t.Fatalf("no %s among %v", serviceWorkerPath, paths)
	}
	listed := regexp.MustCompile(`\[("[^\]]*")\]`).FindStringSubmatch(sw)
	if listed == nil {
		t.Fatalf("sw.js lists no files:\n%s", sw)
	}
	var want []string
	for _, p := range paths {
		if strings.HasPrefix(p, "assets/") || p == "index.html" || p == "embed.html" {
			want = append(want, `"`+p+`"`)
		}
	}
	slices.Sort(want)
	if got := strings.Split(listed[1], ","); !slices.Equal(got, want) {
		t.Errorf("sw.js lists\n %v\nwant\n %v", got, want)
	}
	cacheName := regexp.MustCompile(`"bufferscope-[0-9a-f]{12}"`)
	first := cacheName.FindString(sw)
	if first == "" {
		t.Fatalf("sw.js has no cache name bufferscope-<hash>:\n%s", sw)
	}
	if again, _ := build(files, fakeCode); cacheName.FindString(again) != first {
		t.Errorf("the same site built twice gave two cache names: %s and %s", first, cacheName.FindString(again))
	}
	changed := fakeCode
	changed.worker = []byte("\x00asm another worker")
	if other, _ := build(files, changed); cacheName.FindString(other) == first {
		t.Errorf("a new worker wasm kept the cache name %s, so a deploy would keep the old files", first)
	}
	files["embed.html"] = strings.Replace(files["embed.html"], "<title>embed</title>", "<title>embed, changed</title>", 1)
	if other, _ := build(files, fakeCode); cacheName.FindString(other) == first {
		t.Errorf("a changed page kept the cache name %s", first)
	}
}

// TestServedDocs builds a site with the repository's docs beside it: each served document
// becomes a page under docs/ with the site's stylesheet, a link to a page of the site points
// to the served page, a link to another file of the repository keeps only its text, and the
// web's links and the tables stay.
func TestServedDocs(t *testing.T) {
	root := writeSite(t, map[string]string{
		"docs/embed.md": "# Embedding it\n\nSee [the example](../site/embed.html#top) and [its script](../site/js/embed.js), " +
			"or [MDN](https://developer.mozilla.org/).\n\n| a | b |\n|---|---|\n| 1 | 2 |\n",
	})
	files := maps.Clone(fakeSite)
	s, err := loadSite(writeSite(t, files))
	if err != nil {
		t.Fatal(err)
	}
	s.docs = filepath.Join(root, "docs")
	assets, err := s.build(fakeCode)
	if err != nil {
		t.Fatal(err)
	}
	var page, style string
	for _, a := range assets {
		switch {
		case a.path == "docs/embed.html":
			page = string(a.data)
		case strings.HasPrefix(a.path, "assets/style."):
			style = a.path
		}
	}
	if page == "" {
		t.Fatal("no docs/embed.html in the built site")
	}
	for _, want := range []string{
		`<title>Embedding it — bufferscope</title>`,
		`<link rel="stylesheet" href="../` + style + `">`,
		`<a href="../embed.html#top">the example</a>`,
		`and its script,`,
		`<a href="https://developer.mozilla.org/">MDN</a>`,
		`<table>`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("docs/embed.html lacks %q:\n%s", want, page)
		}
	}
	if strings.Contains(page, "js/embed.js") {
		t.Errorf("docs/embed.html links a file the site does not serve:\n%s", page)
	}
	// Without the docs folder the site builds without them.
	s.docs = filepath.Join(root, "no-such-folder")
	if _, err := s.build(fakeCode); err != nil {
		t.Errorf("a site without docs: %v", err)
	}
}
