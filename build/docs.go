//go:build !js

package main

import (
	"bytes"
	"fmt"
	"html"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// servedDocs are the documents of the repository's docs/ that the site also serves, as
// pages under docs/, for its readers rather than its developers: the guide to embedding,
// which the Embed dialog links to.
var servedDocs = []string{"embed.md"}

// docsDir is where the site's served documents go in the built site.
const docsDir = "docs"

// buildDocs renders each of servedDocs found in dir as a page docs/<name>.html that uses the
// site's stylesheet (style, the built path of style.css relative to the site's root). A
// link to a page of the site (../site/embed.html) points to the served page; a link to any
// other file of the repository becomes its text, as the site does not serve it. A missing
// dir renders nothing (a site built without its repository).
func buildDocs(dir, style string, pages map[string]bool) ([]*asset, error) {
	if dir == "" {
		return nil, nil
	}
	if _, err := os.Stat(dir); os.IsNotExist(err) {
		return nil, nil
	}
	md := goldmark.New(goldmark.WithExtensions(extension.GFM), goldmark.WithParserOptions(parser.WithAutoHeadingID()))
	var out []*asset
	for _, name := range servedDocs {
		src, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			return nil, fmt.Errorf("reading the served document: %w", err)
		}
		doc := md.Parser().Parse(text.NewReader(src))
		title := ""
		err = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
			if !entering {
				return ast.WalkContinue, nil
			}
			switch n := n.(type) {
			case *ast.Heading:
				if title == "" && n.Level == 1 {
					title = string(n.Lines().Value(src))
				}
			case *ast.Link:
				n.Destination = []byte(servedLink(string(n.Destination), pages))
			}
			return ast.WalkContinue, nil
		})
		if err != nil {
			return nil, err
		}
		unlinkRepositoryFiles(doc)
		var body bytes.Buffer
		if err := md.Renderer().Render(&body, src, doc); err != nil {
			return nil, fmt.Errorf("rendering %s: %w", name, err)
		}
		page := fmt.Sprintf(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>%s — bufferscope</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="../%s">
</head>
<body>
<main class="doc">
<p class="doc-back"><a href="../index.html">bufferscope</a></p>
%s</main>
</body>
</html>
`, html.EscapeString(title), style, body.Bytes())
		out = append(out, &asset{path: docsDir + "/" + strings.TrimSuffix(name, ".md") + ".html", data: []byte(page)})
	}
	return out, nil
}

// servedLink returns the address a document's link has on the site: a page of the site
// (../site/embed.html) the served page, a link of the web as it is, and "" for a file of the
// repository the site does not serve.
func servedLink(dest string, pages map[string]bool) string {
	switch {
	case strings.Contains(dest, "://") || strings.HasPrefix(dest, "#") || strings.HasPrefix(dest, "mailto:"):
		return dest
	case strings.HasPrefix(dest, "../site/"):
		page, frag, _ := strings.Cut(strings.TrimPrefix(dest, "../site/"), "#")
		if pages[page] {
			if frag != "" {
				page += "#" + frag
			}
			return "../" + page
		}
	case path.Ext(dest) == ".md" && !strings.Contains(dest, "/"):
		for _, d := range servedDocs {
			if d == dest {
				return strings.TrimSuffix(dest, ".md") + ".html"
			}
		}
	}
	return ""
}

// unlinkRepositoryFiles replaces every link servedLink emptied with its text.
func unlinkRepositoryFiles(doc ast.Node) {
	var links []*ast.Link
	ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if l, ok := n.(*ast.Link); ok && entering && len(l.Destination) == 0 {
			links = append(links, l)
		}
		return ast.WalkContinue, nil
	})
	for _, l := range links {
		parent := l.Parent()
		for c := l.FirstChild(); c != nil; {
			next := c.NextSibling()
			parent.InsertBefore(parent, l, c)
			c = next
		}
		parent.RemoveChild(parent, l)
	}
}
