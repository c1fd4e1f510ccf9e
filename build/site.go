//go:build !js

package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/tdewolff/minify/v2"
	"github.com/tdewolff/minify/v2/css"
	"github.com/tdewolff/minify/v2/html"
)

// site is the source of the site as dist reads it: the pages (*.html at the top
// of the directory), the stylesheets (*.css anywhere, such as a vendored
// library's), the scripts under js/ that esbuild bundles (the pages' entry
// points js/<name>.js, and the Web Worker's js/worker/main.js), the vendored
// libraries' scripts under vendor/ that they import, and every other file,
// copied unchanged.
type site struct {
	dir    string
	docs   string // the repository's docs/, of which servedDocs become pages; "" for none
	pages  []*asset
	styles []*asset
	static []*asset
	files  map[string]bool // every file, slash path relative to dir
}

// workerEntry is the script of the site's one Web Worker, which runs every lab's
// long experiments off the page's thread on the worker wasm (./wasm/worker).
const workerEntry = "js/worker/main.js"

// serviceWorkerEntry is the script of the site's service worker, which keeps the site working
// offline after a first visit; it is written to serviceWorkerPath, unhashed, because a
// service worker is known by its address, and the browser fetches it again to find a new
// deploy.
const (
	serviceWorkerEntry = "js/sw/main.js"
	serviceWorkerPath  = "sw.js"
)

// isScriptSource reports whether the site file rel is a script esbuild reads,
// which is bundled rather than copied.
func isScriptSource(rel string) bool {
	return strings.HasPrefix(rel, "js/") || strings.HasPrefix(rel, "vendor/") && path.Ext(rel) == ".js"
}

// loadSite reads the site directory. Dot files are ignored.
func loadSite(dir string) (*site, error) {
	s := &site{dir: dir, files: map[string]bool{}}
	err := filepath.WalkDir(dir, func(name string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, name)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if rel != "." && strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.IsDir() || !d.Type().IsRegular() {
			return nil
		}
		s.files[rel] = true
		if isScriptSource(rel) {
			return nil // bundled by esbuild from the entry points
		}
		data, err := os.ReadFile(name)
		if err != nil {
			return err
		}
		a := &asset{path: rel, data: data}
		switch {
		case !strings.Contains(rel, "/") && path.Ext(rel) == ".html":
			s.pages = append(s.pages, a)
		case path.Ext(rel) == ".css":
			s.styles = append(s.styles, a)
		default:
			s.static = append(s.static, a)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("reading the site: %w", err)
	}
	if len(s.pages) == 0 {
		return nil, fmt.Errorf("reading the site: %s has no *.html pages", dir)
	}
	return s, nil
}

// hashedName returns base.<first 8 hex digits of the SHA-256 of data>ext.
func hashedName(base, ext string, data []byte) string {
	sum := sha256.Sum256(data)
	return fmt.Sprintf("%s.%x%s", base, sum[:4], ext)
}

var (
	scriptEntry = regexp.MustCompile(`<script\b[^>]*?\bsrc="js/([^"/]+)\.js"`)
	attrRef     = regexp.MustCompile(`\b(src|href)="([^"]*)"`)
	cssURL      = regexp.MustCompile(`url\(\s*(['"]?)([^'")\s]*)['"]?\s*\)`)
)

// code is what dist compiles for the site: the app's WebAssembly module, the
// Web Worker's, and Go's wasm_exec.js, which starts either.
type code struct {
	app, worker, exec []byte
	testHooks         bool       // app and worker were compiled with the test hooks
	pglite            *pglitePkg // the real PostgreSQL of the "Real PostgreSQL 18" panel; nil when this build has none
}

// build turns the site and its compiled code into the files of dist: hashed
// assets under assets/, pages with their references rewritten to them, and the
// static files.
//
// Page scripts get the paths of the hashed files, relative to the page, as
// string constants: __WASM_URL__ (the app's wasm), __WASM_EXEC_URL__,
// __WORKER_URL__ (the bundled js/worker/main.js) and __WORKER_WASM_URL__; the
// last two are "" when the site has no worker. A worker resolves relative URLs
// against its own script, so the page passes it absolute ones. Every script,
// the worker's too, gets __TEST_HOOKS__, the boolean c.testHooks: code under
// if (__TEST_HOOKS__) is the scripts' side of the test hooks, and esbuild drops
// it from a build without them. Page scripts also get __EMBED_STILLS__, each
// lab's title and still (buildStills), which embed.html shows before it loads
// the app.
func (s *site) build(c code) ([]*asset, error) {
	m := minify.New()
	m.AddFunc("text/css", css.Minify)
	m.Add("text/html", &html.Minifier{KeepDocumentTags: true, KeepEndTags: true, KeepQuotes: true})

	wasmAsset := hashedAsset(wasmDir, "bufferscope.wasm", c.app)
	execAsset := hashedAsset(assetDir, "wasm_exec.js", c.exec)
	out := []*asset{wasmAsset, execAsset}
	// refs maps each reference a page may make to a source to the built file.
	refs := map[string]string{"wasm_exec.js": execAsset.path}
	styles, err := s.buildStyles(m, refs)
	if err != nil {
		return nil, err
	}
	workers, err := s.buildWorker(c.worker, c.testHooks)
	if err != nil {
		return nil, err
	}
	urls := map[string]string{"__WASM_URL__": wasmAsset.path, "__WASM_EXEC_URL__": execAsset.path, "__WORKER_URL__": "", "__WORKER_WASM_URL__": ""}
	if len(workers) == 2 {
		urls["__WORKER_URL__"], urls["__WORKER_WASM_URL__"] = workers[0].path, workers[1].path
	}
	pglite, pgliteJSON, err := s.buildPGlite(c.pglite, c.testHooks)
	if err != nil {
		return nil, err
	}
	stills, raw, err := buildStills()
	if err != nil {
		return nil, err
	}
	raw["__PGLITE__"] = pgliteJSON
	scripts, err := s.buildScripts(urls, raw, c.testHooks, refs)
	if err != nil {
		return nil, err
	}
	names := map[string]bool{}
	for _, p := range s.pages {
		names[p.path] = true
	}
	docs, err := buildDocs(s.docs, refs["style.css"], names)
	if err != nil {
		return nil, err
	}
	var pages []*asset
	for _, p := range slices.Concat(s.pages, docs) {
		min, err := m.Bytes("text/html", rewriteRefs(p.data, refs))
		if err != nil {
			return nil, fmt.Errorf("minifying %s: %w", p.path, err)
		}
		pages = append(pages, &asset{path: p.path, data: min})
	}
	out = slices.Concat(out, styles, workers, pglite, stills, scripts, pages, s.static)
	sw, err := s.buildServiceWorker(out)
	if err != nil {
		return nil, err
	}
	out = append(out, sw...)

	built := map[string]bool{}
	for _, a := range out {
		built[a.path] = true
	}
	var problems []string
	for _, p := range pages {
		problems = append(problems, checkRefs(p.path, p.data, built, s.dir)...)
	}
	if len(problems) > 0 {
		return nil, errors.New(strings.Join(problems, "\n"))
	}
	return out, nil
}

// buildWorker bundles the worker script, when the site has one, and returns it
// and the worker's wasm as hashed assets, in that order; neither when the site
// has no worker script.
func (s *site) buildWorker(wasm []byte, testHooks bool) ([]*asset, error) {
	if !s.files[workerEntry] {
		return nil, nil
	}
	if len(wasm) == 0 {
		return nil, fmt.Errorf("%s has a worker script, %s, but no worker wasm was built", s.dir, workerEntry)
	}
	bundles, err := bundleScripts(s.dir, []string{workerEntry}, hooksDefine(testHooks))
	if err != nil {
		return nil, err
	}
	return []*asset{
		hashedAsset(workerDir, "worker.js", bundles[workerEntry]),
		hashedAsset(wasmDir, "worker.wasm", wasm),
	}, nil
}

// buildServiceWorker bundles the service worker, when the site has one, with the files it
// keeps for offline use: the pages (the served documents too) and every asset under assets/, relative to the site's root,
// and the name of its cache, which changes whenever one of those files does.
func (s *site) buildServiceWorker(built []*asset) ([]*asset, error) {
	if !s.files[serviceWorkerEntry] {
		return nil, nil
	}
	var files []string
	sum := sha256.New()
	for _, a := range built {
		if !strings.HasPrefix(a.path, assetDir+"/") && path.Ext(a.path) != ".html" {
			continue
		}
		if strings.HasPrefix(a.path, pgliteDir+"/") {
			continue // fetched only when a reader opens the real PostgreSQL, and cached then
		}
		files = append(files, a.path)
	}
	slices.Sort(files)
	byPath := map[string]*asset{}
	for _, a := range built {
		byPath[a.path] = a
	}
	for _, f := range files {
		page := sha256.Sum256(byPath[f].data)
		fmt.Fprintf(sum, "%s %x\n", f, page)
	}
	cache := fmt.Sprintf("bufferscope-%x", sum.Sum(nil)[:6])
	filesJSON, err := json.Marshal(files)
	if err != nil {
		return nil, err
	}
	cacheJSON, err := json.Marshal(cache)
	if err != nil {
		return nil, err
	}
	bundles, err := bundleScripts(s.dir, []string{serviceWorkerEntry}, map[string]string{"__SW_FILES__": string(filesJSON), "__SW_CACHE__": string(cacheJSON)})
	if err != nil {
		return nil, err
	}
	return []*asset{{path: serviceWorkerPath, data: bundles[serviceWorkerEntry]}}, nil
}

// hashedAsset returns data as dir/<base>.<hash><ext>, for the file name base+ext.
func hashedAsset(dir, name string, data []byte) *asset {
	ext := path.Ext(name)
	return &asset{path: dir + "/" + hashedName(strings.TrimSuffix(name, ext), ext, data), data: data}
}

// buildStyles minifies every stylesheet and adds it to refs. A stylesheet keeps
// its folder under assets/ (vendor/uplot/uPlot.min.css becomes
// assets/vendor/uplot/uPlot.min.<hash>.css).
func (s *site) buildStyles(m *minify.M, refs map[string]string) ([]*asset, error) {
	var out []*asset
	for _, st := range s.styles {
		rebased, err := rebaseCSS(st.path, st.data, s.files)
		if err != nil {
			return nil, err
		}
		min, err := m.Bytes("text/css", rebased)
		if err != nil {
			return nil, fmt.Errorf("minifying %s: %w", st.path, err)
		}
		a := hashedAsset(path.Join(assetDir, path.Dir(st.path)), path.Base(st.path), min)
		refs[st.path] = a.path
		out = append(out, a)
	}
	return out, nil
}

// hooksDefine returns the define of __TEST_HOOKS__.
func hooksDefine(testHooks bool) map[string]string {
	return map[string]string{"__TEST_HOOKS__": strconv.FormatBool(testHooks)}
}

// buildScripts bundles every js/<name>.js that a page loads with a script tag,
// with the constants of defines (identifier → string), of raw (identifier → a
// JavaScript literal, such as a JSON object) and __TEST_HOOKS__, and adds it to
// refs.
func (s *site) buildScripts(defines, raw map[string]string, testHooks bool, refs map[string]string) ([]*asset, error) {
	var entries, missing []string
	for _, p := range s.pages {
		for _, sm := range scriptEntry.FindAllSubmatch(p.data, -1) {
			name := string(sm[1])
			if !s.files["js/"+name+".js"] {
				missing = append(missing, fmt.Sprintf("%s loads js/%s.js, but %s does not exist", p.path, name, filepath.Join(s.dir, "js", name+".js")))
			} else if !slices.Contains(entries, "js/"+name+".js") {
				entries = append(entries, "js/"+name+".js")
			}
		}
	}
	if len(missing) > 0 {
		return nil, errors.New(strings.Join(missing, "\n"))
	}
	literals := hooksDefine(testHooks)
	for k, v := range defines {
		lit, err := json.Marshal(v)
		if err != nil {
			return nil, err
		}
		literals[k] = string(lit)
	}
	maps.Copy(literals, raw)
	bundles, err := bundleScripts(s.dir, entries, literals)
	if err != nil {
		return nil, err
	}
	var out []*asset
	for _, e := range entries {
		a := hashedAsset(assetDir, path.Base(e), bundles[e])
		refs[e] = a.path
		out = append(out, a)
	}
	return out, nil
}

// rewriteRefs replaces every src="X" and href="X" attribute whose X is a key
// of refs with the value of that key.
func rewriteRefs(page []byte, refs map[string]string) []byte {
	return attrRef.ReplaceAllFunc(page, func(m []byte) []byte {
		sm := attrRef.FindSubmatch(m)
		to, ok := refs[string(sm[2])]
		if !ok {
			return m
		}
		return fmt.Appendf(nil, `%s="%s"`, sm[1], to)
	})
}

// localPath returns the file a reference from the page or stylesheet at from
// points to, relative to the site root, and false for references to other
// sites, data: URLs and fragments.
func localPath(from, ref string) (string, bool) {
	u, err := url.Parse(ref)
	if err != nil || u.Scheme != "" || u.Host != "" || u.Path == "" {
		return "", false
	}
	p := u.Path
	if strings.HasPrefix(p, "/") {
		p = path.Clean(p)[1:]
	} else {
		p = path.Join(path.Dir(from), p)
	}
	if strings.HasSuffix(u.Path, "/") || p == "." || p == "" {
		p = path.Join(p, "index.html")
	}
	return p, true
}

// checkRefs returns a message for every local src or href of the built page
// that names a file the built site does not have.
func checkRefs(page string, data []byte, built map[string]bool, siteDir string) []string {
	var problems []string
	for _, sm := range attrRef.FindAllSubmatch(data, -1) {
		ref := string(sm[2])
		if p, ok := localPath(page, ref); ok && !built[p] {
			problems = append(problems, fmt.Sprintf("%s: %s=%q names a file that is not in %s", page, sm[1], ref, siteDir))
		}
	}
	return problems
}

// rebaseCSS rewrites the relative url()s of the stylesheet name, which moves
// from its place in the site to the same place under assets/, so that they
// point at the same files, and fails on a url() that names no file of the site.
// Stylesheets are minified one by one, so @import is refused.
func rebaseCSS(name string, data []byte, files map[string]bool) ([]byte, error) {
	if bytes.Contains(data, []byte("@import")) {
		return nil, fmt.Errorf("%s: @import is not supported; link each stylesheet from the page", name)
	}
	up := strings.Repeat("../", strings.Count(path.Join(assetDir, name), "/"))
	var problems []string
	out := cssURL.ReplaceAllFunc(data, func(m []byte) []byte {
		sm := cssURL.FindSubmatch(m)
		ref := string(sm[2])
		p, ok := localPath(name, ref)
		switch {
		case !ok:
			return m
		case !files[p] || isScriptSource(p):
			problems = append(problems, fmt.Sprintf("%s: url(%s) names a file that is not in the site", name, ref))
			return m
		case strings.HasPrefix(ref, "/"):
			return m
		}
		suffix := ref[strings.IndexAny(ref+"?", "?#"):] // a query or fragment stays
		return fmt.Appendf(nil, "url(%s%s%s%s%s)", sm[1], up, p, suffix, sm[1])
	})
	if len(problems) > 0 {
		return nil, errors.New(strings.Join(problems, "\n"))
	}
	return out, nil
}
