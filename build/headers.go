//go:build !js

package main

import (
	"errors"
	"fmt"
	"net/http"
	"os"
	"slices"
	"strings"
	"unicode/utf8"
)

// netlifyConfig is the file Netlify reads; its [[headers]] blocks are the
// single source of the site's response headers.
const netlifyConfig = "netlify.toml"

// headerRule is one [[headers]] block of netlify.toml: the headers Netlify
// sends for every request path that For matches.
type headerRule struct {
	For    string
	Values []headerField
	line   int
}

// headerField is one header name and value, in file order.
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
		return nil, fmt.Errorf("%s:%w", path, err)
	}
	return rules, nil
}

// parseHeaderRules reads the [[headers]] blocks of a netlify.toml.
//
// It understands the subset of TOML that netlify.toml uses: # comments,
// [table] and [[array of tables]] lines, and one-line key = value pairs whose
// key is bare or quoted and whose value is a "basic" or 'literal' string or a
// bare scalar (a number, true, false). Only [[headers]] (key "for") and
// [headers.values] (header name = string) are interpreted; other tables are
// checked for syntax and skipped. Anything else (multi-line strings, arrays,
// inline tables, dotted keys) is an error naming the line, so nothing is
// silently misread.
//
// A "for" pattern is an exact path ("/embed.html") or a path ending in a
// splat ("/assets/*", "/*"), which matches the path without the splat and
// everything below it. Netlify's :placeholders and mid-path wildcards are
// rejected.
func parseHeaderRules(src string) (headerRules, error) {
	var rules headerRules
	table := ""
	for i, raw := range strings.Split(src, "\n") {
		line := i + 1
		s := strings.TrimSpace(strings.TrimSuffix(raw, "\r"))
		if s == "" || s[0] == '#' {
			continue
		}
		errorf := func(format string, args ...any) error {
			return fmt.Errorf("%d: %s", line, fmt.Sprintf(format, args...))
		}
		if s[0] == '[' {
			name, array, err := parseTableHeader(s)
			if err != nil {
				return nil, errorf("%v", err)
			}
			switch {
			case array && name == "headers":
				rules = append(rules, headerRule{line: line})
			case name == "headers.values" && !array:
				if len(rules) == 0 || table != "headers" {
					return nil, errorf("[headers.values] must follow its [[headers]] line")
				}
			case name == "headers" || strings.HasPrefix(name, "headers."):
				return nil, errorf("unsupported table [%s]: use [[headers]] and [headers.values]", name)
			}
			table = name
			continue
		}
		key, value, quoted, err := parseKeyValue(s)
		if err != nil {
			return nil, errorf("%v", err)
		}
		switch table {
		case "headers":
			r := &rules[len(rules)-1]
			if key != "for" || !quoted {
				return nil, errorf("[[headers]] takes only for = \"/path\" and a [headers.values] table, not %s", key)
			}
			if r.For != "" {
				return nil, errorf("for is set twice")
			}
			if err := checkPattern(value); err != nil {
				return nil, errorf("%v", err)
			}
			r.For = value
		case "headers.values":
			r := &rules[len(rules)-1]
			if !quoted {
				return nil, errorf("header %s: the value must be a string", key)
			}
			if !isToken(key) || strings.ContainsAny(value, "\r\n\x00") {
				return nil, errorf("invalid header %s = %q", key, value)
			}
			for _, f := range r.Values {
				if http.CanonicalHeaderKey(f.Name) == http.CanonicalHeaderKey(key) {
					return nil, errorf("header %s is set twice in one block", key)
				}
			}
			r.Values = append(r.Values, headerField{key, value})
		}
	}
	for _, r := range rules {
		if r.For == "" || len(r.Values) == 0 {
			return nil, fmt.Errorf("%d: [[headers]] needs for = \"/path\" and at least one header in [headers.values]", r.line)
		}
	}
	return rules, nil
}

// parseTableHeader parses "[a.b]" or "[[a.b]]" with an optional comment.
func parseTableHeader(s string) (name string, array bool, err error) {
	open, close := "[", "]"
	if strings.HasPrefix(s, "[[") {
		open, close, array = "[[", "]]", true
	}
	end := strings.Index(s, close)
	if end < 0 {
		return "", false, fmt.Errorf("unterminated table header %s", s)
	}
	if rest := strings.TrimSpace(s[end+len(close):]); rest != "" && rest[0] != '#' {
		return "", false, fmt.Errorf("unexpected %q after table header", rest)
	}
	name = strings.TrimSpace(s[len(open):end])
	for _, part := range strings.Split(name, ".") {
		if !isBareKey(part) {
			return "", false, fmt.Errorf("unsupported table name %q", name)
		}
	}
	return name, array, nil
}

// parseKeyValue parses `key = value # comment`. Quoted reports whether the
// value was a string; bare scalars are returned as written.
func parseKeyValue(s string) (key, value string, quoted bool, err error) {
	rest := s
	if rest[0] == '"' || rest[0] == '\'' {
		key, rest, err = parseString(rest)
		if err != nil {
			return "", "", false, err
		}
	} else {
		n := strings.IndexAny(rest, " \t=")
		if n < 0 {
			return "", "", false, fmt.Errorf("expected key = value")
		}
		key, rest = rest[:n], rest[n:]
		if !isBareKey(key) {
			return "", "", false, fmt.Errorf("unsupported key %q (dotted keys are not supported)", key)
		}
	}
	rest = strings.TrimLeft(rest, " \t")
	if !strings.HasPrefix(rest, "=") {
		return "", "", false, fmt.Errorf("expected = after %s", key)
	}
	rest = strings.TrimLeft(rest[1:], " \t")
	switch {
	case strings.HasPrefix(rest, `"""`), strings.HasPrefix(rest, "'''"):
		return "", "", false, fmt.Errorf("%s: multi-line strings are not supported; keep the value on one line", key)
	case rest != "" && (rest[0] == '"' || rest[0] == '\''):
		value, rest, err = parseString(rest)
		quoted = true
	default:
		n := strings.IndexAny(rest, " \t#")
		if n < 0 {
			n = len(rest)
		}
		value, rest = rest[:n], rest[n:]
		if value == "" || strings.Trim(value, "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_.:+-") != "" {
			return "", "", false, fmt.Errorf("%s: unsupported value %q (strings, numbers and booleans only)", key, value)
		}
	}
	if err != nil {
		return "", "", false, err
	}
	if rest = strings.TrimSpace(rest); rest != "" && rest[0] != '#' {
		return "", "", false, fmt.Errorf("unexpected %q after the value of %s", rest, key)
	}
	return key, value, quoted, nil
}

// parseString parses a TOML basic ("...") or literal ('...') string at the
// start of s and returns it and the text after it.
func parseString(s string) (str, rest string, err error) {
	if s[0] == '\'' {
		end := strings.IndexByte(s[1:], '\'')
		if end < 0 {
			return "", "", fmt.Errorf("unterminated string %s", s)
		}
		return s[1 : end+1], s[end+2:], nil
	}
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"':
			return b.String(), s[i+1:], nil
		case c != '\\':
			b.WriteByte(c)
			continue
		}
		i++
		if i == len(s) {
			break
		}
		switch s[i] {
		case '"', '\\':
			b.WriteByte(s[i])
		case 'b':
			b.WriteByte('\b')
		case 't':
			b.WriteByte('\t')
		case 'n':
			b.WriteByte('\n')
		case 'f':
			b.WriteByte('\f')
		case 'r':
			b.WriteByte('\r')
		case 'u', 'U':
			n := 4
			if s[i] == 'U' {
				n = 8
			}
			var r rune
			if i+n >= len(s) || !parseHex(s[i+1:i+1+n], &r) || !utf8.ValidRune(r) {
				return "", "", fmt.Errorf("invalid escape in %s", s)
			}
			b.WriteRune(r)
			i += n
		default:
			return "", "", fmt.Errorf("invalid escape \\%c in %s", s[i], s)
		}
	}
	return "", "", fmt.Errorf("unterminated string %s", s)
}

func parseHex(s string, r *rune) bool {
	for _, c := range s {
		switch {
		case '0' <= c && c <= '9':
			*r = *r<<4 | (c - '0')
		case 'a' <= c && c <= 'f':
			*r = *r<<4 | (c - 'a' + 10)
		case 'A' <= c && c <= 'F':
			*r = *r<<4 | (c - 'A' + 10)
		default:
			return false
		}
	}
	return true
}

func isBareKey(s string) bool {
	return s != "" && strings.Trim(s, "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_-") == ""
}

// isToken reports whether s is a valid HTTP header name (RFC 9110 token).
func isToken(s string) bool {
	return s != "" && strings.Trim(s, "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ!#$%&'*+-.^_`|~") == ""
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
	for _, r := range rs {
		if !matchPattern(r.For, p) {
			continue
		}
		for _, f := range r.Values {
			k := http.CanonicalHeaderKey(f.Name)
			if line, ok := from[k]; ok {
				return nil, fmt.Errorf("%s: %s gets %s from the [[headers]] blocks on lines %d and %d; set each header in one block per path", netlifyConfig, p, k, line, r.line)
			}
			from[k] = r.line
			h.Set(k, f.Value)
		}
	}
	return h, nil
}

// checkSite reports paths of the built site whose headers are ambiguous, and
// pages and worker scripts that would be served without a
// Content-Security-Policy (a worker runs under the policy of its own script's
// response, not the page's).
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
		if (p == "/" || strings.HasSuffix(p, ".html")) && h.Get("Content-Security-Policy") == "" {
			problems = append(problems, fmt.Sprintf("%s: page %s has no Content-Security-Policy: add a [[headers]] block for %q", netlifyConfig, p, p))
		}
		if strings.HasPrefix(p, "/"+workerDir+"/") && h.Get("Content-Security-Policy") == "" {
			problems = append(problems, fmt.Sprintf("%s: worker script %s has no Content-Security-Policy: add a [[headers]] block for %q", netlifyConfig, p, "/"+workerDir+"/*"))
		}
	}
	slices.Sort(problems)
	if len(problems) > 0 {
		return errors.New(strings.Join(slices.Compact(problems), "\n"))
	}
	return nil
}
