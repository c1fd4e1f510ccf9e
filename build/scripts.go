//go:build !js

package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/evanw/esbuild/pkg/api"
)

// bundleScripts bundles and minifies site/js/<name>.js for every name in one
// esbuild build and returns each bundle by name. The identifier __WASM_URL__
// in the scripts becomes the string wasmURL. Bare imports resolve from
// node_modules directories as usual, including the one at the repository
// root; none needs to exist.
func bundleScripts(siteDir string, names []string, wasmURL string) (map[string][]byte, error) {
	if len(names) == 0 {
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
	var entries []string
	for _, name := range names {
		entries = append(entries, filepath.Join(dir, "js", name+".js"))
	}
	url, err := json.Marshal(wasmURL)
	if err != nil {
		return nil, err
	}
	outdir := filepath.Join(cwd, "esbuild-out") // never written: Write is false
	result := api.Build(api.BuildOptions{
		EntryPoints:       entries,
		Bundle:            true,
		MinifyWhitespace:  true,
		MinifyIdentifiers: true,
		MinifySyntax:      true,
		Format:            api.FormatIIFE,
		Target:            api.ES2020,
		Platform:          api.PlatformBrowser,
		Define:            map[string]string{"__WASM_URL__": string(url)},
		NodePaths:         []string{filepath.Join(cwd, "node_modules")},
		AbsWorkingDir:     cwd,
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
		if err != nil || filepath.Ext(rel) != ".js" || strings.ContainsRune(rel, filepath.Separator) {
			return nil, fmt.Errorf("esbuild wrote %s: site scripts may import only JavaScript; link stylesheets and images from the page", f.Path)
		}
		bundles[strings.TrimSuffix(rel, ".js")] = f.Contents
	}
	return bundles, nil
}
