//go:build !js

package e2e

import (
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// offlineSite builds the site from siteDir with the suite's build program and serves it at
// addr ("127.0.0.1:0" for a free port) in its own process, so that a test can take it away.
// Brotli is skipped: it costs time and this test is not about sizes.
func offlineSite(t *testing.T, siteDir, addr string) *siteServer {
	t.Helper()
	if suite == nil || suite.tool == "" {
		t.Skip("needs the suite to build the site itself (not BUFFERSCOPE_E2E_URL)")
	}
	s, err := startSite(suite.tool, "-addr", addr, "-site", siteDir, "-out", t.TempDir()+"/dist", "-brotli-quality", "0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.stop)
	return s
}

// waitKept waits until the site's service worker controls the page, which it does only once
// it has cached every file of its build, and returns the names of the site's caches.
func waitKept(p *page) []string {
	p.t.Helper()
	waitJS[bool](p, loadTimeout, "the service worker to keep the site", `navigator.serviceWorker.controller !== null`)
	return eval[[]string](p, `caches.keys()`)
}

// TestOffline: after one visit the site works with its server gone: every lab opens and
// runs, and the experiment worker computes the drop lab's chart. Then a new build served at
// the same address replaces the files the service worker kept: the page runs the new build's
// assets, online and offline, and the old build's cache is gone. (One test, so that the
// site is built twice rather than three times.)
func TestOffline(t *testing.T) {
	root, err := moduleRoot()
	if err != nil {
		t.Fatal(err)
	}
	first := offlineSite(t, filepath.Join(root, "site"), "127.0.0.1:0")
	// Two builds and nine page loads: more than one page's test.
	p := openPageWith(t, tabOptions{base: first.url, serviceWorker: true, limit: 3 * testTimeout}, "/?shared_buffers=1MB")
	old := waitKept(p)
	if len(old) != 1 {
		t.Fatalf("the site keeps %d caches %v, want one", len(old), old)
	}
	styleJS := `document.querySelector('link[href*="assets/style."]').getAttribute("href")`
	oldStyle := eval[string](p, styleJS)
	labs := eval[[]string](p, `bufferscope.labs().map((l) => l.name)`)
	first.stop()
	if _, err := (&http.Client{Timeout: 5 * time.Second}).Get(first.url); err == nil {
		t.Fatalf("%s still answers after its server stopped", first.url)
	}

	for _, lab := range labs {
		p.load("/?lab=" + url.QueryEscape(lab) + "&shared_buffers=1MB")
		if got := eval[string](p, `bufferscope.stats().lab`); got != lab {
			t.Errorf("offline, ?lab=%s opened %q", lab, got)
		}
		if step := eval[int](p, `bufferscope.step(100).step`); step == 0 {
			t.Errorf("offline, the %s lab did not step: %s", lab, p.state())
		}
	}
	p.load("/?lab=drop&shared_buffers=128MB&play=0")
	waitJS[bool](p, 60*time.Second, "the drop lab's chart, computed by the worker offline",
		`document.querySelector("#curve-card")?.dataset.state === "done"`)

	// The second build differs in one stylesheet, so its hashed name and the cache change.
	changed := t.TempDir()
	if err := os.CopyFS(changed, os.DirFS(filepath.Join(root, "site"))); err != nil {
		t.Fatal(err)
	}
	style := filepath.Join(changed, "style.css")
	css, err := os.ReadFile(style)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(style, append(css, "\n.e2e-new-deploy { outline: 1px solid red; }\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	addr := strings.TrimSuffix(strings.TrimPrefix(first.url, "http://"), "/")
	second := offlineSite(t, changed, addr)

	// The page finds the new sw.js on the next visit; the new worker takes over, and a
	// reload shows the new build.
	p.load("/?shared_buffers=1MB")
	waitJS[bool](p, loadTimeout, "the new build's service worker to replace the old one's cache", fmt.Sprintf(
		`caches.keys().then((k) => k.length === 1 && k[0] !== %q)`, old[0]))
	p.reload()
	newStyle := eval[string](p, styleJS)
	if newStyle == oldStyle {
		t.Fatalf("after the new deploy the page still links %s", newStyle)
	}
	kept := eval[[]string](p, `(async () => {
		const cache = await caches.open((await caches.keys())[0]);
		return (await cache.keys()).map((r) => new URL(r.url).pathname);
	})()`)
	if !slices.Contains(kept, "/"+newStyle) || slices.Contains(kept, "/"+oldStyle) {
		t.Errorf("the kept files %v should hold %s and not %s", kept, newStyle, oldStyle)
	}
	second.stop()
	p.reload()
	if got := eval[string](p, styleJS); got != newStyle {
		t.Errorf("offline after the new deploy the page links %s, want %s", got, newStyle)
	}
}
