//go:build !js

package main

import (
	"slices"
	"strings"
	"testing"
)

// TestNetlifyConfig checks the repository's netlify.toml as the local server
// and Netlify read it.
func TestNetlifyConfig(t *testing.T) {
	rules, err := readHeaderRules("../" + netlifyConfig)
	if err != nil {
		t.Fatal(err)
	}
	const csp = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data: blob:; connect-src 'self'; worker-src 'self' blob:; object-src 'none'; base-uri 'self'; "
	for _, tc := range []struct {
		path, name, want string
	}{
		{"/", "Content-Security-Policy", csp + "frame-ancestors 'self'"},
		{"/", "Cache-Control", "no-cache"},
		{"/", "X-Content-Type-Options", "nosniff"},
		{"/index.html", "Content-Security-Policy", csp + "frame-ancestors 'self'"},
		{"/embed.html", "Content-Security-Policy", csp + "frame-ancestors *"},
		{"/embed.html", "Cache-Control", "no-cache"},
		{"/embed.html", "X-Frame-Options", ""},
		{"/embed", "Content-Security-Policy", csp + "frame-ancestors *"},
		{"/embed-host.html", "Content-Security-Policy", csp + "frame-ancestors 'self'"},
		{"/embed-host", "Content-Security-Policy", csp + "frame-ancestors 'self'"},
		{"/assets/main.0123abcd.js", "Cache-Control", "public, max-age=31536000, immutable"},
		{"/assets/main.0123abcd.js", "Content-Security-Policy", ""},
		{"/assets/wasm/bufferscope.0123abcd.wasm", "Content-Type", "application/wasm"},
		{"/assets/wasm/bufferscope.0123abcd.wasm", "Cache-Control", "public, max-age=31536000, immutable"},
		{"/assets/wasm/bufferscope.0123abcd.wasm", "Referrer-Policy", "same-origin"},
		{"/img/logo.png", "Cache-Control", ""},
		{"/assets/worker/worker.0123abcd.js", "Content-Security-Policy", "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; connect-src 'self'"},
		{"/assets/worker/worker.0123abcd.js", "Cache-Control", "public, max-age=31536000, immutable"},
		{"/assets/wasm/worker.0123abcd.wasm", "Content-Type", "application/wasm"},
		{"/sw.js", "Content-Security-Policy", "default-src 'none'; script-src 'self'; connect-src 'self'"},
		{"/sw.js", "Cache-Control", "no-cache"},
		{"/sw.js", "X-Content-Type-Options", "nosniff"},
	} {
		h, err := rules.headersFor(tc.path)
		if err != nil {
			t.Fatal(err)
		}
		if got := h.Get(tc.name); got != tc.want {
			t.Errorf("%s %s = %q, want %q", tc.path, tc.name, got, tc.want)
		}
	}
	site := []string{"index.html", "embed.html", "embed-host.html", "assets/main.0123abcd.js", "assets/wasm/bufferscope.0123abcd.wasm", "img/logo.png",
		"assets/worker/worker.0123abcd.js", "assets/wasm/worker.0123abcd.wasm", "sw.js"}
	if err := rules.checkSite(site); err != nil {
		t.Error(err)
	}
}

func TestParseHeaderRules(t *testing.T) {
	src := `# comment
[build]
  command = "make dist" # trailing comment
  publish = 'dist'
[build.environment]
  GO_VERSION = "1.26.8"
[[redirects]]
  from = "/old"
  status = 301
  force = true

[[headers]]
  for = "/*"
  [headers.values]
    X-B = "tab\there \"quoted\" \u00e9"
    'X-A' = 'C:\literal'
[[headers]]
  "for" = "/x.html"
  values = { "X-C" = """
    c""" }
`
	rules, err := parseHeaderRules(src)
	if err != nil {
		t.Fatal(err)
	}
	want := headerRules{
		{For: "/*", Values: []headerField{{"X-A", `C:\literal`}, {"X-B", "tab\there \"quoted\" é"}}},
		{For: "/x.html", Values: []headerField{{"X-C", "    c"}}},
	}
	if len(rules) != len(want) {
		t.Fatalf("got %d rules, want %d: %+v", len(rules), len(want), rules)
	}
	for i := range want {
		g, w := rules[i], want[i]
		if g.For != w.For || len(g.Values) != len(w.Values) {
			t.Fatalf("rule %d = %+v, want %+v", i, g, w)
		}
		for j := range w.Values {
			if g.Values[j] != w.Values[j] {
				t.Errorf("rule %d value %d = %q, want %q", i, j, g.Values[j], w.Values[j])
			}
		}
	}
}

func TestParseHeaderRulesErrors(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		// Malformed TOML: the library's message, with the line.
		{"[[headers]]\nfor = \"/\"\n[headers.values]\nX = \"a", "line 4: unexpected EOF"},
		{"[[headers]]\nfor = \"/\"\n[headers.values]\nX = \"a\\qb\"", `line 4: invalid escape in string '\q'`},
		{"[[headers]]\nfor = \"/\"\n[headers.values]\nX = \"a\" b", "line 4: expected a top-level item to end"},
		{"[[headers]]\nfor = \"/\"\n[headers.values]\nX = \"a\"\nX = \"b\"", "line 5: Key 'headers.values.X' has already been defined"},
		{"[build\nx = 1", "line 2: expected '.' or ']' to end table name"},
		// Valid TOML of the wrong shape.
		{"[[headers]]\nfor = \"/\"\n[headers.values]\nX = \"a\"\n[[headers]]\nfor = \"/x\"\n[headers.values]\nX = 1",
			`[[headers]] block 2 (for = "/x"): header X = 1: the value must be a string`},
		{"[[headers]]\nfor = \"/\"\n[headers.values]\nX = { Y = \"a\" }", `header X = map[Y:a]: the value must be a string`},
		{"[[headers]]\nfor = 1\n[headers.values]\nX = \"a\"", `[[headers]] block 1: for = 1: the path must be a string`},
		{"[[headers]]\nfor = \"/*\"\n[headers.values]\nX.Y = \"a\"", `header X = map[Y:a]: the value must be a string`},
		{"[headers.values]\nX = \"a\"", "each [[headers]] block takes for"},
		{"[headers]\nfor = \"/\"", `line 1 (last key "headers"): incompatible types`},
		{"[[headers]]\nfor = \"/*\"\nto = \"/x\"", "unsupported key headers.to: a [[headers]] block takes only for"},
		{"[[headers]]\nfor = \"/\"\n[headers.values]\nX = \"a\"\n[headers.extra]\nY = \"b\"", "unsupported key headers.extra:"},
		// Blocks that do not make sense as headers.
		{"[[headers]]\nfor = \"/\"\n[headers.values]\nX = \"a\"\n[[headers]]\nfor = \"/assets/*.js\"\n[headers.values]\nX = \"a\"",
			`[[headers]] block 2 (for = "/assets/*.js"): for = "/assets/*.js": only exact paths and a final /* are supported`},
		{"[[headers]]\nfor = \"/:page/x\"\n[headers.values]\nX = \"a\"", "only exact paths and a final /* are supported"},
		{"[[headers]]\nfor = \"assets/*\"\n[headers.values]\nX = \"a\"", "a path must start with /"},
		{"[[headers]]\nfor = \"/\"\n[headers.values]\nX = \"a\"\nx = \"b\"", `[[headers]] block 1 (for = "/"): header X is set twice, as X and x`},
		{"[[headers]]\nfor = \"/\"\n[headers.values]\n\"Bad Name\" = \"a\"", "invalid header Bad Name"},
		{"[[headers]]\nfor = \"/\"\n[headers.values]\nX = \"a\\nb\"", "invalid header X"},
		{"[[headers]]\nfor = \"/\"\n[headers.values]\nX = \"a\\u0001b\"", "invalid header X"},
		{"[[headers]]\nfor = \"/*\"\n[headers.values]\nX = '''a\nb'''", "invalid header X"},
		{"[[headers]]\nfor = \"/\"", `[[headers]] block 1: needs for = "/path" and at least one header`},
		{"[[headers]]\n[headers.values]\nX = \"a\"", `[[headers]] block 1: needs for`},
	} {
		_, err := parseHeaderRules(tc.src)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("parseHeaderRules(%q) = %v, want an error containing %q", tc.src, err, tc.want)
		}
	}
}

func TestMatchPattern(t *testing.T) {
	for _, tc := range []struct {
		pattern, path string
		want          bool
	}{
		{"/*", "/", true},
		{"/*", "/a/b.js", true},
		{"/assets/*", "/assets/a.js", true},
		{"/assets/*", "/assets/wasm/a.wasm", true},
		{"/assets/*", "/assets", true},
		{"/assets/*", "/assetsx/a.js", false},
		{"/assets/*", "/a.js", false},
		{"/", "/", true},
		{"/", "/index.html", false},
		{"/embed.html", "/embed.html", true},
		{"/embed.html", "/embed.html/", true},
		{"/embed", "/embed.html", false},
		{"/embed/", "/embed", true},
	} {
		if got := matchPattern(tc.pattern, tc.path); got != tc.want {
			t.Errorf("matchPattern(%q, %q) = %v, want %v", tc.pattern, tc.path, got, tc.want)
		}
	}
}

func TestHeadersForConflict(t *testing.T) {
	rules, err := parseHeaderRules(`
[[headers]]
  for = "/*"
  [headers.values]
    Content-Security-Policy = "frame-ancestors 'self'"
[[headers]]
  for = "/embed.html"
  [headers.values]
    content-security-policy = "frame-ancestors *"
`)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := rules.headersFor("/index.html"); err != nil {
		t.Errorf("/index.html: %v", err)
	}
	want := `/embed.html gets Content-Security-Policy from [[headers]] blocks 1 (for = "/*") and 2 (for = "/embed.html")`
	if _, err := rules.headersFor("/embed.html"); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("/embed.html: got %v, want an error containing %q", err, want)
	}
	if err := rules.checkSite([]string{"index.html", "embed.html"}); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("checkSite: got %v, want an error containing %q", err, want)
	}
}

func TestCheckSiteNeedsCSP(t *testing.T) {
	rules, err := parseHeaderRules("[[headers]]\nfor = \"/\"\n[headers.values]\nContent-Security-Policy = \"default-src 'self'; frame-ancestors 'self'\"\n")
	if err != nil {
		t.Fatal(err)
	}
	err = rules.checkSite([]string{"index.html", "style.css"})
	want := `page /index.html has no Content-Security-Policy: add a [[headers]] block for "/index.html"`
	if err == nil || err.Error() != netlifyConfig+": "+want {
		t.Errorf("checkSite = %v, want %q", err, want)
	}
	// A page's policy must say who may frame it.
	open, err := parseHeaderRules("[[headers]]\nfor = \"/*\"\n[headers.values]\nContent-Security-Policy = \"default-src 'self'\"\n")
	if err != nil {
		t.Fatal(err)
	}
	err = open.checkSite([]string{"embed.html"})
	want = `page /embed.html has no frame-ancestors in its Content-Security-Policy, so any site may frame it`
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("checkSite = %v, want an error containing %q", err, want)
	}
	// A worker runs under its own script's policy, so its script needs one too.
	err = rules.checkSite([]string{"assets/main.0123abcd.js", "assets/worker/worker.0123abcd.js"})
	want = `worker script /assets/worker/worker.0123abcd.js has no Content-Security-Policy: add a [[headers]] block for "/assets/worker/*"`
	if err == nil || err.Error() != netlifyConfig+": "+want {
		t.Errorf("checkSite = %v, want %q", err, want)
	}
	// So does the service worker, which must also not be cached: a cached sw.js hides a deploy.
	err = rules.checkSite([]string{"sw.js"})
	for _, want := range []string{
		`the service worker /sw.js has no Content-Security-Policy: add a [[headers]] block for "/sw.js"`,
		`the service worker /sw.js may be cached (Cache-Control "")`,
	} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("checkSite = %v, want an error containing %q", err, want)
		}
	}
}

// TestOnlyTheEmbedIsFramable checks who may frame each page of the built site,
// by its file name and as Netlify's pretty URLs serve it: any site may frame
// embed.html, made for that (docs/embed.md); every other page only this site.
// X-Frame-Options, which would override nothing in browsers that know
// frame-ancestors but forbid framing in those that do not, is sent for none.
func TestOnlyTheEmbedIsFramable(t *testing.T) {
	rules, assets := rulesAndSite(t)
	paths := []string{"/"}
	for _, a := range assets {
		if strings.HasSuffix(a.path, ".html") {
			paths = append(paths, "/"+a.path, "/"+strings.TrimSuffix(a.path, ".html"))
		}
	}
	if !slices.Contains(paths, "/embed.html") || !slices.Contains(paths, "/index.html") {
		t.Fatalf("the built site's pages are %v; want index.html and embed.html among them", paths)
	}
	for _, p := range paths {
		if p == "/index" {
			continue // Netlify serves index.html at /, which is checked
		}
		h, err := rules.headersFor(p)
		if err != nil {
			t.Fatal(err)
		}
		want := "'self'"
		if p == "/embed.html" || p == "/embed" {
			want = "*"
		}
		if got := frameAncestors(h.Get("Content-Security-Policy")); got != want {
			t.Errorf("%s: frame-ancestors %q, want %q (Content-Security-Policy %q)", p, got, want, h.Get("Content-Security-Policy"))
		}
		if x := h.Get("X-Frame-Options"); x != "" {
			t.Errorf("%s: X-Frame-Options %q; frame-ancestors says who may frame a page", p, x)
		}
	}
}

func TestFrameAncestors(t *testing.T) {
	for _, tc := range []struct{ csp, want string }{
		{"default-src 'self'; frame-ancestors 'self'", "'self'"},
		{"frame-ancestors *; default-src 'none'", "*"},
		{"default-src 'self';  Frame-Ancestors  https://a.example https://b.example ", "https://a.example https://b.example"},
		{"default-src 'self'; frame-ancestors", "'none'"},
		{"default-src 'self'", ""},
		{"", ""},
		{"default-src 'self'; frame-src 'self'", ""},
	} {
		if got := frameAncestors(tc.csp); got != tc.want {
			t.Errorf("frameAncestors(%q) = %q, want %q", tc.csp, got, tc.want)
		}
	}
}

// TestNetlifyConfigPathsExist checks that every "for" path of netlify.toml
// names something the built site has, so that no block is left behind for a
// page that was removed or not yet added. The site is built with fake compiled
// code, which changes only the hashes in the file names.
func TestNetlifyConfigPathsExist(t *testing.T) {
	rules, assets := rulesAndSite(t)
	built := map[string]bool{}
	for _, a := range assets {
		built[a.path] = true
	}
	for _, r := range rules {
		if !namesBuiltPath(r.For, built) {
			t.Errorf("%s: [[headers]] for = %q matches no file of the built site: remove the block or add the page", netlifyConfig, r.For)
		}
	}
}

// namesBuiltPath reports whether the "for" pattern names a file or folder of
// the built site, whose slash paths are the keys of built. A splat names a
// folder with at least one file; "/" and a path ending in / name the folder's
// index.html; an exact path names a file, or a page as Netlify's pretty URLs
// serve it (/about for about.html or about/index.html).
func namesBuiltPath(pattern string, built map[string]bool) bool {
	p := strings.TrimPrefix(pattern, "/")
	if dir, ok := strings.CutSuffix(p, "*"); ok {
		for f := range built {
			if strings.HasPrefix(f, dir) {
				return true
			}
		}
		return false
	}
	if p == "" || strings.HasSuffix(p, "/") {
		return built[p+"index.html"]
	}
	return built[p] || built[p+".html"] || built[p+"/index.html"]
}

func TestNamesBuiltPath(t *testing.T) {
	built := map[string]bool{"index.html": true, "about.html": true, "docs/index.html": true, "assets/wasm/a.wasm": true}
	for _, tc := range []struct {
		pattern string
		want    bool
	}{
		{"/", true},
		{"/*", true},
		{"/index.html", true},
		{"/about.html", true},
		{"/about", true},
		{"/docs", true},
		{"/docs/", true},
		{"/assets/*", true},
		{"/assets/wasm/*", true},
		{"/embed.html", false},
		{"/embed", false},
		{"/assets/worker/*", false},
		{"/img/*", false},
		{"/assets", false},
	} {
		if got := namesBuiltPath(tc.pattern, built); got != tc.want {
			t.Errorf("namesBuiltPath(%q) = %v, want %v", tc.pattern, got, tc.want)
		}
	}
}

// rulesAndSite reads the Netlify header rules and builds the site with fake code.
func rulesAndSite(t *testing.T) (headerRules, []*asset) {
	t.Helper()
	rules, err := readHeaderRules("../" + netlifyConfig)
	if err != nil {
		t.Fatal(err)
	}
	s, err := loadSite("../site")
	if err != nil {
		t.Fatal(err)
	}
	s.docs = "../docs"
	c := fakeCode
	c.pglite = fakePGlite(t) // as a build that could fetch it
	assets, err := s.build(c)
	if err != nil {
		t.Fatal(err)
	}
	return rules, assets
}
