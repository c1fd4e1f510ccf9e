//go:build !js

package main

import (
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestMarkdownLinks checks that every relative link and image in the
// repository's Markdown files points at a file or folder that exists.
func TestMarkdownLinks(t *testing.T) {
	root, err := moduleRoot()
	if err != nil {
		t.Fatal(err)
	}
	problems, err := checkMarkdownLinks(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Error(p)
	}
}

// moduleRoot returns the directory of go.mod, above the working directory.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("no go.mod above the working directory")
		}
		dir = parent
	}
}

// skippedDirs are folders whose Markdown is not the project's: version
// control, installed packages, build output and vendored libraries.
var skippedDirs = []string{".git", "node_modules", "dist", "vendor"}

var (
	// fence opens or closes a fenced code block.
	fence = regexp.MustCompile("^ {0,3}(```|~~~)")
	// codeSpan is inline code, in which brackets are not links.
	codeSpan = regexp.MustCompile("``[^`]*``|`[^`]*`")
	// inlineLink is the "](target" of [text](target) and ![alt](target), with
	// an optional <...> around the target. The text may start on an earlier
	// line, as it does in wrapped prose.
	inlineLink = regexp.MustCompile(`\]\(\s*(<[^>]*>|[^)\s]*)`)
	// refDefinition is a reference-style link's definition, [label]: target.
	refDefinition = regexp.MustCompile(`^ {0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)`)
)

// checkMarkdownLinks walks root for *.md files and returns one problem, as
// file:line: message, for each relative link whose target does not exist.
// Links to http(s) and mailto addresses and pure #anchors are not checked; a
// #fragment or ?query is dropped and the file part checked. A target starting
// with / is relative to root, as on GitHub.
func checkMarkdownLinks(root string) ([]string, error) {
	var problems []string
	err := filepath.WalkDir(root, func(name string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name != root && slices.Contains(skippedDirs, d.Name()) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.EqualFold(filepath.Ext(name), ".md") {
			return nil
		}
		src, err := os.ReadFile(name)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, name)
		if err != nil {
			return err
		}
		for _, l := range markdownLinks(string(src)) {
			if msg := checkLinkTarget(root, filepath.Dir(name), l.target); msg != "" {
				problems = append(problems, fmt.Sprintf("%s:%d: link %q %s", filepath.ToSlash(rel), l.line, l.target, msg))
			}
		}
		return nil
	})
	return problems, err
}

type markdownLink struct {
	line   int
	target string
}

// markdownLinks returns the link targets of a Markdown file outside code
// blocks and code spans, with their lines.
func markdownLinks(src string) []markdownLink {
	var links []markdownLink
	inFence := ""
	for i, line := range strings.Split(src, "\n") {
		if m := fence.FindStringSubmatch(line); m != nil {
			switch inFence {
			case "":
				inFence = m[1]
			case m[1]:
				inFence = ""
			}
			continue
		}
		if inFence != "" {
			continue
		}
		line = codeSpan.ReplaceAllString(line, "")
		var targets []string
		for _, m := range inlineLink.FindAllStringSubmatch(line, -1) {
			targets = append(targets, m[1])
		}
		if m := refDefinition.FindStringSubmatch(line); m != nil {
			targets = append(targets, m[1])
		}
		for _, t := range targets {
			links = append(links, markdownLink{i + 1, strings.TrimSuffix(strings.TrimPrefix(t, "<"), ">")})
		}
	}
	return links
}

// checkLinkTarget returns why the link target, found in a Markdown file in
// dir, is broken, or "" when it is fine or not a relative link.
func checkLinkTarget(root, dir, target string) string {
	lower := strings.ToLower(target)
	for _, scheme := range []string{"http:", "https:", "mailto:"} {
		if strings.HasPrefix(lower, scheme) {
			return ""
		}
	}
	if strings.HasPrefix(target, "#") {
		return ""
	}
	file, _, _ := strings.Cut(target, "#")
	file, _, _ = strings.Cut(file, "?")
	if file == "" {
		return "has no target"
	}
	file, err := url.PathUnescape(file)
	if err != nil {
		return fmt.Sprintf("is not a valid path: %v", err)
	}
	var p string
	if strings.HasPrefix(file, "/") {
		p = filepath.Join(root, filepath.FromSlash(file))
	} else {
		p = filepath.Join(dir, filepath.FromSlash(file))
	}
	if rel, err := filepath.Rel(root, p); err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "points outside the repository"
	}
	if _, err := os.Stat(p); err != nil {
		return "points at a file that does not exist"
	}
	return ""
}

// TestCheckMarkdownLinks shows that the check finds broken links, and only
// those.
func TestCheckMarkdownLinks(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		"README.md": "# x\n![shot](docs/shot.png) and [api](site/api.d.ts#load), [home](https://example.com/a.md),\n" +
			"[mail](mailto:a@b.c), [top](#x), [root](/docs/guide.md), [dir](docs/), [<sp>](<docs/a b.md>) [enc](docs/a%20b.md)\n" +
			"[missing](reference/internals.md) and [wrapped\ntext](docs/js-api.md \"title\").\n" +
			"```\n[in a fence](nope.md)\n```\n`[in code](nope.md)` [up](../outside.md)\n[ref]: docs/gone.md\n",
		"docs/guide.md":              "[back](../README.md) [self](guide.md#top) [image](shot.png) [sibling](other.md)\n",
		"docs/shot.png":              "",
		"docs/a b.md":                "",
		"site/api.d.ts":              "",
		"node_modules/pkg/README.md": "[broken](nope.md)\n",
		"site/vendor/lib/README.md":  "[broken](nope.md)\n",
		"dist/README.md":             "[broken](nope.md)\n",
	}
	for name, data := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := checkMarkdownLinks(root)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`README.md:4: link "reference/internals.md" points at a file that does not exist`,
		`README.md:5: link "docs/js-api.md" points at a file that does not exist`,
		`README.md:9: link "../outside.md" points outside the repository`,
		`README.md:10: link "docs/gone.md" points at a file that does not exist`,
		`docs/guide.md:1: link "other.md" points at a file that does not exist`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("checkMarkdownLinks found\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
