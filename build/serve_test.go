//go:build !js

package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"testing/fstest"
)

func TestNegotiate(t *testing.T) {
	both := map[string]bool{"br": true, "gzip": true}
	gzOnly := map[string]bool{"gzip": true}
	for _, tc := range []struct {
		accept    string
		available map[string]bool
		want      string
	}{
		{"", both, ""},
		{"gzip, deflate, br, zstd", both, "br"},
		{"gzip, deflate, br", gzOnly, "gzip"},
		{"gzip", both, "gzip"},
		{"br;q=0.5, gzip;q=0.8", both, "gzip"},
		{"BR;Q=1.0, gzip;q=1", both, "br"},
		{"br;q=0, gzip", both, "gzip"},
		{"*", both, "br"},
		{"*;q=0.5, br;q=0", both, "gzip"},
		{"identity", both, ""},
		{"br;q=bogus, gzip;q=2", both, ""},
		{"br", map[string]bool{}, ""},
	} {
		if got := negotiate(tc.accept, tc.available); got != tc.want {
			t.Errorf("negotiate(%q, %v) = %q, want %q", tc.accept, tc.available, got, tc.want)
		}
	}
}

func TestSiteHandler(t *testing.T) {
	rules, err := parseHeaderRules(`
[[headers]]
  for = "/*"
  [headers.values]
    X-Content-Type-Options = "nosniff"
[[headers]]
  for = "/"
  [headers.values]
    Content-Security-Policy = "default-src 'self'"
[[headers]]
  for = "/assets/wasm/*"
  [headers.values]
    Content-Type = "application/wasm"
`)
	if err != nil {
		t.Fatal(err)
	}
	files := fstest.MapFS{
		"index.html":            {Data: []byte("<p>index")},
		"embed.html":            {Data: []byte("<p>embed")},
		"index.html.gz":         {Data: []byte("GZ index")},
		"index.html.br":         {Data: []byte("BR index")},
		"assets/wasm/a.wasm":    {Data: []byte("\x00asm raw")},
		"assets/wasm/a.wasm.br": {Data: []byte("BR wasm")},
		"img/logo.png":          {Data: []byte("\x89PNG")},
	}
	h := &siteHandler{files, rules}
	for _, tc := range []struct {
		method, path, accept string
		status               int
		body                 string
		headers              map[string]string
	}{
		{"GET", "/", "gzip, br", 200, "BR index", map[string]string{
			"Content-Encoding": "br", "Content-Type": "text/html; charset=utf-8", "Vary": "Accept-Encoding",
			"Content-Length": "8", "Content-Security-Policy": "default-src 'self'", "X-Content-Type-Options": "nosniff"}},
		{"GET", "/", "gzip", 200, "GZ index", map[string]string{"Content-Encoding": "gzip", "Vary": "Accept-Encoding"}},
		{"GET", "/", "", 200, "<p>index", map[string]string{"Content-Encoding": "", "Vary": "Accept-Encoding", "Content-Length": "8"}},
		{"HEAD", "/", "br", 200, "", map[string]string{"Content-Encoding": "br", "Content-Length": "8"}},
		{"GET", "/index.html", "", 200, "<p>index", map[string]string{"Content-Security-Policy": ""}},
		{"GET", "/assets/wasm/a.wasm", "gzip, br", 200, "BR wasm", map[string]string{"Content-Encoding": "br", "Content-Type": "application/wasm"}},
		{"GET", "/assets/wasm/a.wasm", "gzip", 200, "\x00asm raw", map[string]string{"Content-Encoding": "", "Content-Type": "application/wasm", "Vary": "Accept-Encoding"}},
		{"GET", "/img/logo.png", "gzip, br", 200, "\x89PNG", map[string]string{"Content-Encoding": "", "Content-Type": "image/png", "Vary": ""}},
		{"GET", "/embed.html", "", 200, "<p>embed", map[string]string{"Content-Type": "text/html; charset=utf-8", "X-Content-Type-Options": "nosniff"}},
		{"GET", "/embed", "", 200, "<p>embed", map[string]string{"Content-Type": "text/html; charset=utf-8", "X-Content-Type-Options": "nosniff"}},
		{"GET", "/embed/", "", 200, "<p>embed", nil},
		{"GET", "/index", "", 200, "<p>index", nil},
		{"GET", "/img", "", 301, "", map[string]string{"Location": "/img/"}},
		{"GET", "/img/", "", 404, "404 page not found\n", nil},
		{"GET", "/missing.js", "br", 404, "404 page not found\n", map[string]string{"Content-Encoding": ""}},
		{"GET", "/../../etc/passwd", "", 404, "404 page not found\n", nil},
		{"POST", "/", "", 405, "method not allowed\n", map[string]string{"Allow": "GET, HEAD"}},
	} {
		req := httptest.NewRequest(tc.method, tc.path, nil)
		if tc.accept != "" {
			req.Header.Set("Accept-Encoding", tc.accept)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		res := rec.Result()
		body, _ := io.ReadAll(res.Body)
		name := tc.method + " " + tc.path + " (Accept-Encoding: " + tc.accept + ")"
		if res.StatusCode != tc.status || tc.status != http.StatusMovedPermanently && string(body) != tc.body {
			t.Errorf("%s: %d %q, want %d %q", name, res.StatusCode, body, tc.status, tc.body)
		}
		for k, want := range tc.headers {
			if got := res.Header.Get(k); got != want {
				t.Errorf("%s: %s = %q, want %q", name, k, got, want)
			}
		}
	}
}
