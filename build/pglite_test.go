//go:build !js

package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha512"
	"encoding/base64"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// fakePGliteTarball is a tarball shaped like the npm package: the files the panel loads and a
// module that stands for PGlite's JavaScript.
func fakePGliteTarball(t *testing.T, skip string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	add := func(name, data string) {
		if name == skip {
			return
		}
		if err := tw.WriteHeader(&tar.Header{Name: "package/" + name, Mode: 0o644, Size: int64(len(data)), Typeflag: tar.TypeReg}); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write([]byte(data)); err != nil {
			t.Fatal(err)
		}
	}
	add("package.json", `{"name":"@electric-sql/pglite","module":"dist/index.js"}`)
	add("dist/index.js", "export const PGlite = { create: async (o) => ({ fake: Object.keys(o) }) };\n")
	add("dist/index.js.map", "{}")
	for _, f := range pgliteFiles {
		add(f.name, "contents of "+f.name)
	}
	add("../escape.js", "never written")
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// fakePGlite is the package unpacked from fakePGliteTarball.
func fakePGlite(t *testing.T) *pglitePkg {
	t.Helper()
	p, err := unpackPGlite(fakePGliteTarball(t, ""), filepath.Join(t.TempDir(), pgliteVersion))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func integrityOf(data []byte) string {
	sum := sha512.Sum512(data)
	return "sha512-" + base64.StdEncoding.EncodeToString(sum[:])
}

func TestCheckIntegrity(t *testing.T) {
	data := []byte("a tarball")
	if err := checkIntegrity(data, integrityOf(data)); err != nil {
		t.Errorf("the data's own sha512 was refused: %v", err)
	}
	if err := checkIntegrity([]byte("a tarbalL"), integrityOf(data)); err == nil || !strings.Contains(err.Error(), "not the published") {
		t.Errorf("changed data: err = %v, want a sha512 mismatch", err)
	}
	if err := checkIntegrity(data, "sha1-abc"); err == nil {
		t.Error("a sha1 integrity was taken")
	}
	if !strings.HasPrefix(pgliteIntegrity, "sha512-") || len(pgliteIntegrity) != len(integrityOf(data)) {
		t.Errorf("pgliteIntegrity %q is not a sha512 integrity string", pgliteIntegrity)
	}
}

func TestFetchTarball(t *testing.T) {
	tgz := fakePGliteTarball(t, "")
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/@electric-sql/pglite/-/pglite-"+pgliteVersion+".tgz" {
			http.NotFound(w, r)
			return
		}
		w.Write(tgz)
	}))
	defer srv.Close()
	ctx := context.Background()
	url := pgliteTarballURL(srv.URL + "/")
	got, err := fetchTarball(ctx, url, integrityOf(tgz))
	if err != nil || !bytes.Equal(got, tgz) {
		t.Fatalf("fetchTarball = %d bytes, %v; want the tarball", len(got), err)
	}
	if _, err := fetchTarball(ctx, url, integrityOf([]byte("another"))); err == nil || !strings.Contains(err.Error(), "sha512") {
		t.Errorf("a tarball that is not the published one: err = %v, want a sha512 mismatch", err)
	}
	if _, err := fetchTarball(ctx, srv.URL+"/missing.tgz", integrityOf(tgz)); err == nil || !strings.Contains(err.Error(), "404") {
		t.Errorf("a missing tarball: err = %v, want its status", err)
	}
}

// TestLoadPGliteRefusesABadCache: a cached tarball that is not the pinned one is fetched again,
// and when the registry cannot be reached the build is told, rather than handed the bad file.
func TestLoadPGliteRefusesABadCache(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "pglite-"+pgliteVersion+".tgz"), fakePGliteTarball(t, ""), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.NotFoundHandler())
	defer srv.Close()
	t.Setenv("npm_config_registry", srv.URL)
	if p, err := loadPGlite(context.Background(), dir); err == nil {
		t.Fatalf("loadPGlite took a cached tarball whose sha512 is not %s: %v", pgliteIntegrity, p)
	}
}

func TestUnpackPGlite(t *testing.T) {
	dir := filepath.Join(t.TempDir(), pgliteVersion)
	p, err := unpackPGlite(fakePGliteTarball(t, ""), dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range pgliteFiles {
		if got, want := string(p.files[f.name]), "contents of "+f.name; got != want {
			t.Errorf("%s = %q, want %q", f.name, got, want)
		}
	}
	root := filepath.Join(p.nodeModules, "@electric-sql", "pglite")
	if _, err := os.Stat(filepath.Join(root, "dist", "index.js")); err != nil {
		t.Errorf("the package's JavaScript was not unpacked for esbuild: %v", err)
	}
	if _, err := os.Stat(filepath.Join(root, "dist", "index.js.map")); err == nil {
		t.Error("a source map was unpacked; only what the bundle reads should be")
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(dir), "escape.js")); err == nil {
		t.Error("an entry naming ../ was written outside the package")
	}
	if _, err := unpackPGlite(fakePGliteTarball(t, "dist/pglite.data"), filepath.Join(t.TempDir(), "x")); err == nil || !strings.Contains(err.Error(), "pglite.data") {
		t.Errorf("a tarball without pglite.data: err = %v, want it named", err)
	}
}

// TestSiteBuildWithPGlite: the real PostgreSQL's worker is bundled as a module with the hashed
// names of the files it fetches, which are served beside it, the page learns the worker's URL
// and the bytes a start costs, and the service worker does not fetch any of them on install.
func TestSiteBuildWithPGlite(t *testing.T) {
	p := fakePGlite(t)
	files := maps.Clone(fakeSite)
	files["js/main.js"] += "console.log('real', __PGLITE__);\n"
	files[pgliteEntry] = "import { PGlite } from '@electric-sql/pglite';\nconst FILES = __PGLITE_FILES__;\nPGlite.create({ files: FILES, url: import.meta.url }).then((db) => postMessage(db));\n"
	files["js/sw/main.js"] = "const FILES = __SW_FILES__, CACHE = __SW_CACHE__;\nconsole.log(FILES, CACHE);\n"
	s, err := loadSite(writeSite(t, files))
	if err != nil {
		t.Fatal(err)
	}
	c := fakeCode
	c.pglite = p
	assets, err := s.build(c)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, a := range assets {
		got[a.path] = string(a.data)
	}
	var worker, mainJS string
	for path, data := range got {
		switch {
		case strings.HasPrefix(path, pgliteDir+"/worker."):
			worker = path
		case strings.HasPrefix(path, "assets/main."):
			mainJS = data
		}
	}
	if worker == "" {
		t.Fatalf("no %s/worker.*.js among the built files", pgliteDir)
	}
	for _, f := range pgliteFiles {
		base := filepath.Base(f.name)
		if f.key == "" {
			if got[pgliteDir+"/LICENSE.txt"] != "contents of "+f.name {
				t.Errorf("the licence is not served beside the files")
			}
			continue
		}
		ext := filepath.Ext(base)
		name := hashedName(strings.TrimSuffix(base, ext), ext, []byte("contents of "+f.name))
		if got[pgliteDir+"/"+name] != "contents of "+f.name {
			t.Errorf("%s is not served as %s/%s", f.name, pgliteDir, name)
		}
		if !strings.Contains(got[worker], `"`+name+`"`) {
			t.Errorf("the worker does not know %s by its hashed name %s", f.name, name)
		}
	}
	if js := got[worker]; !strings.Contains(js, "import.meta.url") || strings.Contains(js, "__PGLITE_FILES__") || !strings.Contains(js, "create") {
		t.Errorf("the worker is not an ES module bundling PGlite with its files:\n%s", js)
	}
	total := len("contents of dist/pglite.wasm") + len("contents of dist/initdb.wasm") + len("contents of dist/pglite.data")
	if want := regexp.MustCompile(`bytes:` + strconv.Itoa(total) + `\b`); !want.MatchString(mainJS) || !strings.Contains(mainJS, worker) {
		t.Errorf("the page does not learn the worker %s and the %d bytes it fetches:\n%s", worker, total, mainJS)
	}
	if sw := got[serviceWorkerPath]; strings.Contains(sw, pgliteDir+"/") || !strings.Contains(sw, "assets/main.") {
		t.Errorf("the service worker's install list holds the real PostgreSQL's files, or not the site's:\n%s", sw)
	}

	// Without the package (it could not be fetched) the site still builds, and the page is told.
	c.pglite = nil
	assets, err = s.build(c)
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range assets {
		if strings.HasPrefix(a.path, pgliteDir+"/") {
			t.Errorf("a build without PGlite has %s", a.path)
		}
		if strings.HasPrefix(a.path, "assets/main.") && !strings.Contains(string(a.data), `"real",null`) {
			t.Errorf("a build without PGlite does not give the page null:\n%s", a.data)
		}
	}
}
