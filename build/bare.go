//go:build !js

package main

import (
	"fmt"
	"slices"
	"strings"
)

// barePackage is the baseline of the first-view benchmark (internal/bare): the least an Ebiten
// game can be. serve -test-hooks, which the browser tests and make bench use, builds it with
// the app's flags and serves it at bareDir; dist, the site readers get, never has it.
const (
	barePackage = "./internal/bare"
	bareDir     = "bench/bare"
)

// bareApp returns the bare app's files: its wasm beside the app's, started by the same
// wasm_exec.js asset, and a page at bareDir/ that fetches and starts it as plainly as the
// browser allows. The page gets a header rule copied from the main page's, so that it is
// served, compressed and isolated exactly as the page is.
func bareApp(wasm []byte, assets []*asset, rules headerRules) ([]*asset, headerRules, error) {
	var exec string
	for _, a := range assets {
		if strings.HasPrefix(a.path, assetDir+"/wasm_exec.") {
			exec = a.path
		}
	}
	if exec == "" {
		return nil, nil, fmt.Errorf("bare app: the site has no wasm_exec.js asset")
	}
	w := hashedAsset(wasmDir, "bare.wasm", wasm)
	start := fmt.Sprintf(`const go = new Go();
WebAssembly.instantiateStreaming(fetch('/%s'), go.importObject).then((r) => go.run(r.instance), (e) => console.error(String(e)));
`, w.path)
	page := fmt.Sprintf(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>bare Ebiten app</title><link rel="icon" href="data:,">
<script src="/%s"></script><script src="start.js" defer></script></head><body></body></html>
`, exec)
	rule := headerRule{For: "/" + bareDir + "/*"}
	for _, r := range rules {
		if r.For == "/index.html" {
			rule.Values = slices.Clone(r.Values)
		}
	}
	if rule.Values == nil {
		return nil, nil, fmt.Errorf("bare app: %s has no block for /index.html to copy", netlifyConfig)
	}
	out := []*asset{w, {path: bareDir + "/index.html", data: []byte(page)}, {path: bareDir + "/start.js", data: []byte(start)}}
	return out, append(rules, rule), nil
}
