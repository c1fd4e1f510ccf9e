//go:build !js

package main

import (
	"net/http"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
)

// FuzzHeaderRules reads fuzz text as a netlify.toml and a request path. parseHeaderRules
// must never panic, and refuse with one clean line (no newline, no crash, naming where)
// or return rules that keep what it promises: each pattern an exact path or a final /*,
// each header a token with a value HTTP can carry (RFC 9110 section 5.5: no control
// character but the tab), no header twice in a block; rules that, written back as TOML,
// read back the same. headersFor the path must never panic and give exactly the headers of
// the blocks whose pattern matches it, and a pattern must match its own path.
func FuzzHeaderRules(f *testing.F) {
	f.Add("[[headers]]\nfor = \"/*\"\n[headers.values]\nX-A = \"a\"\n", "/index.html")
	f.Add("[[headers]]\n  for = \"/assets/*\"\n  [headers.values]\n    Cache-Control = \"public, max-age=31536000, immutable\"\n[[headers]]\n  for = \"/embed.html\"\n  [headers.values]\n    x-frame-options = 'DENY'\n", "/assets")
	f.Add("[build]\ncommand = \"make dist\"\n[[redirects]]\nfrom = \"/a\"\n[[headers]]\n\"for\" = \"/\"\nvalues = { \"X-C\" = \"\"\"\n c\"\"\" }\n", "/")
	f.Add("[[headers]]\nfor = \"/x/\"\n[headers.values]\nX = \"a\\u0001b\"\n", "/x")
	f.Add("[[headers]]\nfor = \"/*\"\n[headers.values]\nX = \"a\"\n[[headers]]\nfor = \"/a\"\n[headers.values]\nx = \"b\"\n", "/a/")
	if src, err := os.ReadFile("../" + netlifyConfig); err == nil {
		f.Add(string(src), "/embed")
	}
	f.Fuzz(func(t *testing.T, src, path string) {
		rules, err := parseHeaderRules(src)
		if err != nil {
			msg := err.Error()
			if msg == "" || strings.Contains(msg, "\n") || strings.Contains(msg, "panic") || strings.Contains(msg, "goroutine") {
				t.Fatalf("parseHeaderRules(%q): an unclean error %q", src, msg)
			}
			return
		}
		type block struct {
			For    string            `toml:"for"`
			Values map[string]string `toml:"values"`
		}
		var back struct {
			Headers []block `toml:"headers"`
		}
		for i, r := range rules {
			if err := checkPattern(r.For); err != nil {
				t.Errorf("rule %d: accepted pattern %q: %v", i, r.For, err)
			}
			if !matchPattern(r.For, strings.TrimSuffix(r.For, "*")) {
				t.Errorf("rule %d: pattern %q does not match its own path", i, r.For)
			}
			if dir, ok := strings.CutSuffix(r.For, "/*"); ok {
				// A splat matches its directory and everything below it, nothing else.
				if want := path == dir || strings.HasPrefix(path, dir+"/"); matchPattern(r.For, path) != want {
					t.Errorf("matchPattern(%q, %q) = %v, want %v", r.For, path, !want, want)
				}
			}
			b := block{For: r.For, Values: map[string]string{}}
			seen := map[string]bool{}
			for _, h := range r.Values {
				if !isToken(h.Name) || !fieldValue(h.Value) || seen[http.CanonicalHeaderKey(h.Name)] {
					t.Errorf("rule %d: accepted header %q = %q", i, h.Name, h.Value)
				}
				seen[http.CanonicalHeaderKey(h.Name)] = true
				b.Values[h.Name] = h.Value
			}
			back.Headers = append(back.Headers, b)
		}
		text, err := toml.Marshal(back)
		if err != nil {
			t.Fatalf("the rules %+v do not write as TOML: %v", rules, err)
		}
		again, err := parseHeaderRules(string(text))
		if err != nil || !reflect.DeepEqual(again, rules) {
			t.Errorf("the rules %+v, written back as\n%s\nread back as %+v (%v)", rules, text, again, err)
		}
		h, err := rules.headersFor(path)
		if err != nil {
			return // two matching blocks set one header: refused, which TestHeadersForConflict covers
		}
		want := http.Header{}
		for _, r := range rules {
			if matchPattern(r.For, path) {
				for _, f := range r.Values {
					want.Set(f.Name, f.Value)
				}
			}
		}
		if !reflect.DeepEqual(h, want) {
			t.Errorf("headersFor(%q) = %v, want %v", path, h, want)
		}
	})
}

// fieldValue reports whether v is a value HTTP can carry in a header field (RFC 9110
// section 5.5): no control character but the horizontal tab.
func fieldValue(v string) bool {
	for i := 0; i < len(v); i++ {
		if c := v[i]; c < ' ' && c != '\t' || c == 0x7f {
			return false
		}
	}
	return true
}
