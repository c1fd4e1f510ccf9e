//go:build !js

package main

import (
	"strings"
	"testing"
)

// TestBareAppIsServedAsThePage checks that the bare app's page starts its own wasm with the
// site's wasm_exec.js, and gets the main page's headers (the same policy, isolation and
// caching), so that the first-view benchmark compares like with like.
func TestBareAppIsServedAsThePage(t *testing.T) {
	rules := headerRules{
		{For: "/*", Values: []headerField{{"X-Content-Type-Options", "nosniff"}}},
		{For: "/index.html", Values: []headerField{{"Content-Security-Policy", "default-src 'self'; frame-ancestors 'self'"}, {"Cross-Origin-Opener-Policy", "same-origin"}}},
	}
	exec := &asset{path: assetDir + "/wasm_exec.0123abcd.js"}
	files, got, err := bareApp([]byte("\x00asm\x01\x00\x00\x00"), []*asset{exec}, rules)
	if err != nil {
		t.Fatal(err)
	}
	byPath := map[string]string{}
	for _, f := range files {
		byPath[f.path] = string(f.data)
	}
	page, start := byPath[bareDir+"/index.html"], byPath[bareDir+"/start.js"]
	if !strings.Contains(page, `src="/`+exec.path+`"`) || !strings.Contains(page, `src="start.js"`) {
		t.Errorf("the bare page does not load the site's wasm_exec.js and its start script:\n%s", page)
	}
	var wasm string
	for p := range byPath {
		if strings.HasPrefix(p, wasmDir+"/bare.") && strings.HasSuffix(p, ".wasm") {
			wasm = p
		}
	}
	if wasm == "" || !strings.Contains(start, "/"+wasm) {
		t.Errorf("the start script does not fetch the bare wasm (%q):\n%s", wasm, start)
	}
	h, err := got.headersFor("/" + bareDir + "/index.html")
	if err != nil {
		t.Fatal(err)
	}
	if h.Get("Cross-Origin-Opener-Policy") != "same-origin" || !strings.Contains(h.Get("Content-Security-Policy"), "frame-ancestors 'self'") || h.Get("X-Content-Type-Options") != "nosniff" {
		t.Errorf("the bare page's headers are not the main page's: %v", h)
	}
	if _, _, err := bareApp(nil, nil, rules); err == nil {
		t.Error("bareApp without a wasm_exec.js asset gave no error")
	}
}
