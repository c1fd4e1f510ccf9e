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

// htmlSink matches the places in the site's scripts where text can become markup, code or
// an address the browser follows: innerHTML and its kin, code from strings, event-handler
// and address attributes, and assigned addresses. Text from an address, a host page's
// message, a parameter value or the bridge must reach none of them; messages are set with
// textContent.
var htmlSink = regexp.MustCompile(`\.(innerHTML|outerHTML)\s*\+?=|insertAdjacentHTML|` +
	`document\.write(ln)?\s*\(|\bnew\s+Function\b|\beval\s*\(|set(Timeout|Interval)\s*\(\s*['"` + "`" + `]|` +
	`createContextualFragment|\bDOMParser\b|\bsrcdoc\b|\.setHTML(Unsafe)?\s*\(|` +
	`setAttribute\(\s*['"](on\w*|href|src|srcdoc|action|formaction|xlink:href)['"]|` +
	`\.(href|src|action)\s*=[^=]|\blocation(\.href)?\s*=[^=]|\bwindow\.open\s*\(|javascript:`)

// allowedSinks are the sinks the site uses, each with why no untrusted text reaches it: file,
// the line as written (trimmed), and the reason. A new sink fails TestNoHTMLSinks until it
// is listed here with its reason, and a listed one that is gone fails it too, so the list
// stays short and true.
var allowedSinks = []struct{ file, line, why string }{
	{"site/js/errors.js", "panel.innerHTML = `", "the panel's fixed markup, a template without substitutions; messages go in with textContent"},
	{"site/js/main.js", "$('lab-intro').innerHTML = page.intro || '';", "a lab's introduction, a constant of its page module"},
	{"site/js/main.js", "a.href = i === 0 ? './' : `?lab=${encodeURIComponent(l.name)}`;", "a lab's name from bufferscope.labs(), the app's own list, encoded"},
	{"site/js/labs/drop/index.js", "panel.innerHTML = PANEL;", "the lab's fixed markup, a constant"},
	{"site/js/labs/drop/index.js", "wide.innerHTML = WIDE;", "the lab's fixed markup, a constant"},
	{"site/js/labs/pins/index.js", "wide.innerHTML = WIDE;", "the lab's fixed markup, a constant"},
	{"site/js/labs/ring/index.js", "wide.innerHTML = WIDE;", "the lab's fixed markup, a constant"},
	{"site/js/embed.js", "if (a.getAttribute('href') !== href) a.setAttribute('href', href);", "./ and the query URLSearchParams writes: always a relative address of the site"},
	{"site/js/snippet.js", "$('embed-preview').href = src;", "new URL('embed.html', location.href): the site's own origin and path"},
	{"site/js/embed-host.js", "frame.src = `embed.html${location.search}`;", "a relative path followed by the page's own query"},
	{"site/js/download.js", "a.href = URL.createObjectURL(blob);", "a blob: address the page made from its own data"},
	{"site/js/still.js", "img.src = s.src[theme.current()] || s.src.light;", "a still's path from __EMBED_STILLS__, which the build writes: a hashed file of the site"},
	{"site/js/boot.js", "img.src = URL.createObjectURL(new Blob([png.data], { type: 'image/png' }));", "a blob: address of the PNG bytes bufferscope.gridPNG() drew: the grid's last frame"},
}

// TestNoHTMLSinks scans the site's scripts for htmlSink and allows only allowedSinks.
func TestNoHTMLSinks(t *testing.T) {
	root, err := moduleRoot()
	if err != nil {
		t.Fatal(err)
	}
	found := map[string]bool{}
	err = filepath.WalkDir(filepath.Join(root, "site"), func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == "vendor" {
				return filepath.SkipDir // third-party code, pinned by version
			}
			return nil
		}
		if filepath.Ext(path) != ".js" && filepath.Ext(path) != ".html" {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		for _, s := range htmlSinks(rel, src) {
			key := rel + "\x00" + s
			found[key] = true
			if !slices.ContainsFunc(allowedSinks, func(a struct{ file, line, why string }) bool { return a.file == rel && a.line == s }) {
				t.Errorf("%s: %s\n\tmay turn text into markup, code or an address. Set text with textContent, build elements with el (controls.js), or add the line to allowedSinks with why no untrusted text reaches it", rel, s)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range allowedSinks {
		if a.why == "" {
			t.Errorf("allowedSinks: %s %q has no reason", a.file, a.line)
		}
		if !found[a.file+"\x00"+a.line] {
			t.Errorf("allowedSinks lists %s: %s, which is no longer there; take it off the list", a.file, a.line)
		}
	}
}

// htmlSinks returns the trimmed lines of src, outside comments, that hold an htmlSink.
func htmlSinks(file string, src []byte) []string {
	code := string(src)
	if filepath.Ext(file) == ".js" {
		// Comments go, line breaks stay; "javascript:" in a comment is prose.
		code = jsComment.ReplaceAllStringFunc(code, func(c string) string {
			keep := ""
			if c != "" && c[0] != '/' { // the character before a // comment
				keep = c[:1]
			}
			return keep + strings.Repeat("\n", strings.Count(c, "\n"))
		})
	}
	var out []string
	for _, line := range strings.Split(code, "\n") {
		if htmlSink.MatchString(line) {
			out = append(out, strings.TrimSpace(line))
		}
	}
	return out
}

// TestHTMLSinksCanFail checks the scanner on code that has sinks and code that has none.
func TestHTMLSinksCanFail(t *testing.T) {
	for _, c := range []struct {
		src  string
		want int
	}{
		{"el.innerHTML = msg;\nel.textContent = msg;\n", 1},
		{"list.insertAdjacentHTML('beforeend', row);\n", 1},
		{"const f = new Function('return 1');\nsetTimeout('go()', 5);\n", 2},
		{"a.setAttribute('onclick', code);\na.setAttribute('aria-label', t);\n", 1},
		{"link.href = query.back;\nif (link.href === x) go();\n", 1},
		{"location = next;\nlocation.href = next;\nconst l = location.search;\n", 2},
		{"// innerHTML in a comment, javascript: too\nconst t = el.textContent;\n", 0},
		{"/* eval(x) */ x.innerText = y;\n", 0},
		{"document.write('<p>');\n", 1},
	} {
		if got := htmlSinks("a.js", []byte(c.src)); len(got) != c.want {
			t.Errorf("%q: %d sinks %q, want %d", c.src, len(got), got, c.want)
		}
	}
}
