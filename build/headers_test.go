//go:build !js

package main

import (
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
		{"/embed", "Content-Security-Policy", csp + "frame-ancestors *"},
		{"/embed.html", "Cache-Control", "no-cache"},
		{"/assets/main.0123abcd.js", "Cache-Control", "public, max-age=31536000, immutable"},
		{"/assets/main.0123abcd.js", "Content-Security-Policy", ""},
		{"/assets/wasm/bufferscope.0123abcd.wasm", "Content-Type", "application/wasm"},
		{"/assets/wasm/bufferscope.0123abcd.wasm", "Cache-Control", "public, max-age=31536000, immutable"},
		{"/assets/wasm/bufferscope.0123abcd.wasm", "Referrer-Policy", "same-origin"},
		{"/img/logo.png", "Cache-Control", ""},
		{"/assets/worker/worker.0123abcd.js", "Content-Security-Policy", "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; connect-src 'self'"},
		{"/assets/worker/worker.0123abcd.js", "Cache-Control", "public, max-age=31536000, immutable"},
		{"/assets/wasm/worker.0123abcd.wasm", "Content-Type", "application/wasm"},
	} {
		h, err := rules.headersFor(tc.path)
		if err != nil {
			t.Fatal(err)
		}
		if got := h.Get(tc.name); got != tc.want {
			t.Errorf("%s %s = %q, want %q", tc.path, tc.name, got, tc.want)
		}
	}
	site := []string{"index.html", "embed.html", "assets/main.0123abcd.js", "assets/wasm/bufferscope.0123abcd.wasm", "img/logo.png",
		"assets/worker/worker.0123abcd.js", "assets/wasm/worker.0123abcd.wasm"}
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
    X-A = "tab\there \"quoted\" \u00e9"
    'X-B' = 'C:\literal'
[[headers]]
  "for" = "/x.html"
  [headers.values]
    "X-C" = "c"
`
	rules, err := parseHeaderRules(src)
	if err != nil {
		t.Fatal(err)
	}
	want := headerRules{
		{For: "/*", Values: []headerField{{"X-A", "tab\there \"quoted\" é"}, {"X-B", `C:\literal`}}, line: 12},
		{For: "/x.html", Values: []headerField{{"X-C", "c"}}, line: 17},
	}
	if len(rules) != len(want) {
		t.Fatalf("got %d rules, want %d: %+v", len(rules), len(want), rules)
	}
	for i := range want {
		g, w := rules[i], want[i]
		if g.For != w.For || g.line != w.line || len(g.Values) != len(w.Values) {
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
		{"[[headers]]\nfor = \"/*\"\n[headers.values]\nX = '''a\nb'''", "4: X: multi-line strings are not supported"},
		{"[[headers]]\nfor = \"/*\"\nvalues = { X = \"a\" }", `3: values: unsupported value "{"`},
		{"[[headers]]\nfor = \"/*\"\nto = \"/x\"", "3: [[headers]] takes only for"},
		{"[[headers]]\nfor = \"/*\"\n[headers.values]\nX.Y = \"a\"", "4: unsupported key \"X.Y\""},
		{"[headers.values]\nX = \"a\"", "1: [headers.values] must follow its [[headers]] line"},
		{"[[headers]]\nfor = \"/assets/*.js\"", `2: for = "/assets/*.js": only exact paths and a final /* are supported`},
		{"[[headers]]\nfor = \"/:page/x\"", "only exact paths and a final /* are supported"},
		{"[[headers]]\nfor = \"assets/*\"", "a path must start with /"},
		{"[[headers]]\nfor = \"/\"\n[headers.values]\nX = \"a\"\nx = \"b\"", "5: header x is set twice in one block"},
		{"[[headers]]\nfor = \"/\"\n[headers.values]\nX = \"a", "4: unterminated string"},
		{"[[headers]]\nfor = \"/\"\n[headers.values]\nX = \"a\\qb\"", `4: invalid escape \q`},
		{"[[headers]]\nfor = \"/\"\n[headers.values]\nX = 1", "4: header X: the value must be a string"},
		{"[[headers]]\nfor = \"/\"\n[headers.values]\n\"Bad Name\" = \"a\"", "4: invalid header Bad Name"},
		{"[[headers]]\nfor = \"/\"\n[headers.values]\nX = \"a\\nb\"", "4: invalid header X"},
		{"[[headers]]\nfor = \"/\"\n[headers.values]\nX = \"a\" b", `4: unexpected "b" after the value of X`},
		{"[[headers]]\nfor = \"/\"", "1: [[headers]] needs for"},
		{"[[headers]]\n[headers.values]\nX = \"a\"", "1: [[headers]] needs for"},
		{"[build]\nx = [1, 2]", "2: x: unsupported value"},
		{"[build\nx = 1", "1: unterminated table header"},
		{"[headers]\nfor = \"/\"", "1: unsupported table [headers]"},
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
	want := "/embed.html gets Content-Security-Policy from the [[headers]] blocks on lines 2 and 6"
	if _, err := rules.headersFor("/embed.html"); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("/embed.html: got %v, want an error containing %q", err, want)
	}
	if err := rules.checkSite([]string{"index.html", "embed.html"}); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("checkSite: got %v, want an error containing %q", err, want)
	}
}

func TestCheckSiteNeedsCSP(t *testing.T) {
	rules, err := parseHeaderRules("[[headers]]\nfor = \"/\"\n[headers.values]\nContent-Security-Policy = \"default-src 'self'\"\n")
	if err != nil {
		t.Fatal(err)
	}
	err = rules.checkSite([]string{"index.html", "style.css"})
	want := `page /index.html has no Content-Security-Policy: add a [[headers]] block for "/index.html"`
	if err == nil || err.Error() != netlifyConfig+": "+want {
		t.Errorf("checkSite = %v, want %q", err, want)
	}
	// A worker runs under its own script's policy, so its script needs one too.
	err = rules.checkSite([]string{"assets/main.0123abcd.js", "assets/worker/worker.0123abcd.js"})
	want = `worker script /assets/worker/worker.0123abcd.js has no Content-Security-Policy: add a [[headers]] block for "/assets/worker/*"`
	if err == nil || err.Error() != netlifyConfig+": "+want {
		t.Errorf("checkSite = %v, want %q", err, want)
	}
}
