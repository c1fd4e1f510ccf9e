//go:build !js

package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/evanw/esbuild/pkg/api"
)

// bundleScripts bundles and minifies the site's scripts entries (slash paths relative to
// siteDir, such as "js/main.js") in one esbuild build and returns each bundle by its entry.
// Each key of defines is an identifier that the scripts may use as a constant, replaced by
// its value, a JavaScript literal ("__WASM_URL__" → `"assets/wasm/…"`). Imports resolve as
// usual: relative paths (the vendored libraries under site/vendor/) and bare names from
// node_modules directories, including the one at the repository root; none needs to exist.
func bundleScripts(siteDir string, entries []string, defines map[string]string) (map[string][]byte, error) {
	return bundle(siteDir, entries, defines, api.FormatIIFE, nil, nil)
}

// bundle is bundleScripts in the given format, resolving bare names in nodePaths too, with
// esbuild's plugins.
func bundle(siteDir string, entries []string, defines map[string]string, format api.Format, nodePaths []string, plugins []api.Plugin) (map[string][]byte, error) {
	if len(entries) == 0 {
		return nil, nil
	}
	cwd, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	dir, err := filepath.Abs(siteDir)
	if err != nil {
		return nil, err
	}
	var points []string
	for _, e := range entries {
		points = append(points, filepath.Join(dir, filepath.FromSlash(e)))
	}
	outdir := filepath.Join(cwd, "esbuild-out") // never written: Write is false
	result := api.Build(api.BuildOptions{
		EntryPoints:       points,
		Bundle:            true,
		MinifyWhitespace:  true,
		MinifyIdentifiers: true,
		MinifySyntax:      true,
		Format:            format,
		Target:            api.ES2020,
		Platform:          api.PlatformBrowser,
		Define:            defines,
		NodePaths:         append([]string{filepath.Join(cwd, "node_modules")}, nodePaths...),
		Plugins:           plugins,
		AbsWorkingDir:     cwd,
		Outbase:           dir, // so each output is named by its entry: js/main.js
		Outdir:            outdir,
		Write:             false,
		LogLevel:          api.LogLevelSilent,
	})
	if len(result.Errors) > 0 {
		msgs := api.FormatMessages(result.Errors, api.FormatMessagesOptions{Kind: api.ErrorMessage})
		return nil, fmt.Errorf("esbuild found %d error(s) in %s/js:\n%s", len(result.Errors), siteDir, strings.Join(msgs, ""))
	}
	for _, msg := range api.FormatMessages(result.Warnings, api.FormatMessagesOptions{Kind: api.WarningMessage}) {
		fmt.Fprint(os.Stderr, msg)
	}
	bundles := map[string][]byte{}
	for _, f := range result.OutputFiles {
		rel, err := filepath.Rel(outdir, f.Path)
		rel = filepath.ToSlash(rel)
		if err != nil || filepath.Ext(rel) != ".js" || !slices.Contains(entries, rel) {
			return nil, fmt.Errorf("esbuild wrote %s: site scripts may import only JavaScript; link stylesheets and images from the page", f.Path)
		}
		bundles[rel] = f.Contents
	}
	return bundles, nil
}
