//go:build !js

package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/evanw/esbuild/pkg/api"
)

// wasmBuildFlags are the flags of every wasm build. -trimpath is part of the
// build cache key, so any other build of ./wasm or ./wasm/worker should use the
// same flags to share the cache.
var wasmBuildFlags = []string{"-trimpath", "-ldflags=-s -w -buildid="}

// testHooksTag is the build tag of the test hooks (wasm/testhooks_on_js.go,
// wasm/worker/testhooks_on.go): bufferscope.__panicForTest and the worker's
// death on request. Only serve -test-hooks, for the browser tests, builds with
// it; dist has no such flag, so the site readers get never holds the hooks.
const testHooksTag = "bufferscope_testhooks"

// wasmBuildArgs returns the arguments of go that compile pkg to out, with the
// test hooks when testHooks is set.
func wasmBuildArgs(out, pkg string, testHooks bool) []string {
	args := append([]string{"build"}, wasmBuildFlags...)
	if testHooks {
		args = append(args, "-tags="+testHooksTag)
	}
	return append(args, "-o", out, pkg)
}

// The Go programs dist compiles to WebAssembly: the app the page runs, and the
// experiments its Web Worker runs (no Ebiten, so a tenth of the size).
const (
	appPackage    = "./wasm"
	workerPackage = "./wasm/worker"
)

// buildWasm compiles the Go package pkg for GOOS=js GOARCH=wasm into tmp/name,
// with the test hooks when testHooks is set, and returns the module.
func buildWasm(tmp, pkg, name string, testHooks bool) ([]byte, error) {
	out := filepath.Join(tmp, name)
	args := wasmBuildArgs(out, pkg, testHooks)
	cmd := exec.Command("go", args...)
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	if msg, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("GOOS=js GOARCH=wasm go %s: %v\n%s", strings.Join(args, " "), err, msg)
	}
	return os.ReadFile(out)
}

// wasmExecJS returns Go's wasm_exec.js, which starts a Go wasm module in the
// browser, minified and still a classic script.
func wasmExecJS() ([]byte, error) {
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		return nil, fmt.Errorf("go env GOROOT: %v", err)
	}
	name := filepath.Join(strings.TrimSpace(string(goroot)), "lib", "wasm", "wasm_exec.js")
	src, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	result := api.Transform(string(src), api.TransformOptions{
		Loader:            api.LoaderJS,
		Sourcefile:        name,
		MinifyWhitespace:  true,
		MinifyIdentifiers: true,
		MinifySyntax:      true,
		Target:            api.ES2020,
	})
	if len(result.Errors) > 0 {
		msgs := api.FormatMessages(result.Errors, api.FormatMessagesOptions{Kind: api.ErrorMessage})
		return nil, fmt.Errorf("minifying %s:\n%s", name, strings.Join(msgs, ""))
	}
	return result.Code, nil
}
