//go:build !js

package main

import (
	"errors"
	"fmt"
	"maps"
	"net/http"
	"os"
	"path"
	"slices"
	"strings"

	"github.com/BurntSushi/toml"
)

// netlifyConfig is the file Netlify reads; its [[headers]] blocks are the
// single source of the site's response headers.
const netlifyConfig = "netlify.toml"

// headerRule is one [[headers]] block of netlify.toml: the headers Netlify
// sends for every request path that For matches.
type headerRule struct {
	For    string
	Values []headerField // sorted by name
}

// headerField is one header name and value.
type headerField struct{ Name, Value string }

// headerRules are the [[headers]] blocks of netlify.toml, in file order.
type headerRules []headerRule

// readHeaderRules parses the [[headers]] blocks of the netlify.toml at path.
func readHeaderRules(path string) (headerRules, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	rules, err := parseHeaderRules(string(src))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return rules, nil
}

// netlifyFile is the part of netlify.toml that dist and serve read.
type netlifyFile struct {
	// For and the values are checked here rather than typed, so that a wrong
	// type names its block: the library reports the line of the last key of
	// that name, which [[headers]] blocks repeat.
	Headers []struct {
		For    any            `toml:"for"`
		Values map[string]any `toml:"values"`
	} `toml:"headers"`
}

// parseHeaderRules reads the [[headers]] blocks of a netlify.toml. The file
// may use any TOML; other tables ([build], [[redirects]], ...) are checked for
// syntax and skipped. An error names the line when the TOML itself is
// malformed, and the [[headers]] block (counting from 1) otherwise.
//
// Each [[headers]] block takes only for = "/path" and a [headers.values] table
// of header names and string values. A "for" pattern is an exact path
// ("/index.html") or a path ending in a splat ("/assets/*", "/*"), which
// matches the path without the splat and everything below it. Netlify's
// :placeholders and mid-path wildcards are rejected.
func parseHeaderRules(src string) (headerRules, error) {
	var file netlifyFile
	md, err := toml.Decode(src, &file)
	if err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return nil, fmt.Errorf("line %d: %s", pe.Position.Line, pe.Message)
		}
		// Valid TOML of the wrong shape, such as a number for a header.
		return nil, fmt.Errorf("%s; each [[headers]] block takes for = \"/path\" and a [headers.values] table of Header-Name = \"value\" strings",
			strings.TrimPrefix(err.Error(), "toml: "))
	}
	// Keys under a header name (X.Y = "a") are reported below, as a header
	// whose value is not a string.
	for _, k := range md.Undecoded() {
		if len(k) > 0 && k[0] == "headers" && (len(k) < 3 || k[1] != "values") {
			return nil, fmt.Errorf("unsupported key %s: a [[headers]] block takes only for = \"/path\" and a [headers.values] table", k)
		}
	}
	var rules headerRules
	for i, b := range file.Headers {
		errorf := func(format string, args ...any) error {
			return fmt.Errorf("[[headers]] block %d: %s", i+1, fmt.Sprintf(format, args...))
		}
		pattern, ok := b.For.(string)
		if !ok && b.For != nil {
			return nil, errorf("for = %v: the path must be a string", b.For)
		}
		if pattern == "" || len(b.Values) == 0 {
			return nil, errorf("needs for = \"/path\" and at least one header in [headers.values]")
		}
		errorf = func(format string, args ...any) error {
			return fmt.Errorf("[[headers]] block %d (for = %q): %s", i+1, pattern, fmt.Sprintf(format, args...))
		}
		if err := checkPattern(pattern); err != nil {
			return nil, errorf("%v", err)
		}
		r := headerRule{For: pattern}
		// TOML keys are case-sensitive and header names are not: X and x are
		// two keys but one header.
		names := map[string]string{}
		for _, name := range slices.Sorted(maps.Keys(b.Values)) {
			value, ok := b.Values[name].(string)
			if !ok {
				return nil, errorf("header %s = %v: the value must be a string", name, b.Values[name])
			}
			if !isToken(name) || !isFieldValue(value) {
				return nil, errorf("invalid header %s = %q", name, value)
			}
			k := http.CanonicalHeaderKey(name)
			if other, ok := names[k]; ok {
				return nil, errorf("header %s is set twice, as %s and %s", k, other, name)
			}
			names[k] = name
			r.Values = append(r.Values, headerField{name, value})
		}
		rules = append(rules, r)
	}
	return rules, nil
}

// isToken reports whether s is a valid HTTP header name (RFC 9110 token).
func isToken(s string) bool {
	return s != "" && strings.Trim(s, "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ!#$%&'*+-.^_`|~") == ""
}

// isFieldValue reports whether s can be a header's value (RFC 9110 section 5.5): no control
// character but the horizontal tab, so no line break, NUL or DEL.
func isFieldValue(s string) bool {
	return !strings.ContainsFunc(s, func(r rune) bool { return r < ' ' && r != '\t' || r == 0x7f })
}

// checkPattern reports whether p is a "for" pattern matchPattern supports.
func checkPattern(p string) error {
	if !strings.HasPrefix(p, "/") {
		return fmt.Errorf("for = %q: a path must start with /", p)
	}
	if strings.ContainsAny(strings.TrimSuffix(p, "/*"), "*:?#") {
		return fmt.Errorf("for = %q: only exact paths and a final /* are supported", p)
	}
	return nil
}

// matchPattern reports whether the request path p matches the "for" pattern.
func matchPattern(pattern, p string) bool {
	if prefix, ok := strings.CutSuffix(pattern, "*"); ok {
		return strings.HasPrefix(p, prefix) || p+"/" == prefix
	}
	return p == pattern || strings.TrimSuffix(p, "/") == strings.TrimSuffix(pattern, "/")
}

// headersFor returns the headers for the request path p. Netlify does not
// document what it sends when two matching blocks set the same header (and
// similar hosts join the values with commas, which turns two CSPs into two
// policies that both apply), so a path that gets one header from two blocks is
// an error: netlify.toml must not rely on it.
func (rs headerRules) headersFor(p string) (http.Header, error) {
	h := http.Header{}
	from := map[string]int{}
	for i, r := range rs {
		if !matchPattern(r.For, p) {
			continue
		}
		for _, f := range r.Values {
			k := http.CanonicalHeaderKey(f.Name)
			if j, ok := from[k]; ok {
				return nil, fmt.Errorf("%s: %s gets %s from [[headers]] blocks %d (for = %q) and %d (for = %q); set each header in one block per path",
					netlifyConfig, p, k, j+1, rs[j].For, i+1, r.For)
			}
			from[k] = i
			h.Set(k, f.Value)
		}
	}
	return h, nil
}

// checkSite reports paths of the built site whose headers are ambiguous, pages,
// worker scripts and the service worker that would be served without a
// Content-Security-Policy (a worker runs under the policy of its own script's
// response, not the page's), a service worker that may be cached, and pages
// whose policy does not say who may frame them.
func (rs headerRules) checkSite(files []string) error {
	var problems []string
	paths := append([]string{"/"}, files...)
	for _, f := range paths {
		p := f
		if p != "/" {
			p = "/" + f
		}
		h, err := rs.headersFor(p)
		if err != nil {
			problems = append(problems, err.Error())
			continue
		}
		if p == "/" || strings.HasSuffix(p, ".html") {
			switch csp := h.Get("Content-Security-Policy"); {
			case csp == "":
				problems = append(problems, fmt.Sprintf("%s: page %s has no Content-Security-Policy: add a [[headers]] block for %q", netlifyConfig, p, p))
			case frameAncestors(csp) == "":
				problems = append(problems, fmt.Sprintf("%s: page %s has no frame-ancestors in its Content-Security-Policy, so any site may frame it: add frame-ancestors 'self' (or * for a page made to be embedded)", netlifyConfig, p))
			}
		}
		for _, dir := range []string{workerDir, pgliteDir} {
			if strings.HasPrefix(p, "/"+dir+"/") && path.Ext(p) == ".js" && h.Get("Content-Security-Policy") == "" {
				problems = append(problems, fmt.Sprintf("%s: worker script %s has no Content-Security-Policy: add a [[headers]] block for %q", netlifyConfig, p, "/"+dir+"/*"))
			}
		}
		if p == "/"+serviceWorkerPath {
			if h.Get("Content-Security-Policy") == "" {
				problems = append(problems, fmt.Sprintf("%s: the service worker %s has no Content-Security-Policy: add a [[headers]] block for %q", netlifyConfig, p, p))
			}
			if cc := h.Get("Cache-Control"); !strings.Contains(cc, "no-cache") && !strings.Contains(cc, "max-age=0") {
				problems = append(problems, fmt.Sprintf("%s: the service worker %s may be cached (Cache-Control %q), so a new deploy could go unseen: give it Cache-Control = \"no-cache\"", netlifyConfig, p, cc))
			}
		}
	}
	slices.Sort(problems)
	if len(problems) > 0 {
		return errors.New(strings.Join(slices.Compact(problems), "\n"))
	}
	return nil
}

// frameAncestors returns the sources of the frame-ancestors directive of the
// Content-Security-Policy csp ("'self'", "*"), or "" when it has none.
func frameAncestors(csp string) string {
	for _, d := range strings.Split(csp, ";") {
		name, value, _ := strings.Cut(strings.TrimSpace(d), " ")
		if strings.EqualFold(name, "frame-ancestors") {
			if v := strings.TrimSpace(value); v != "" {
				return v
			}
			return "'none'" // an empty source list frames nothing
		}
	}
	return ""
}
