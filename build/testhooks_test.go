//go:build !js

package main

import (
	"go/build/constraint"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The test hooks (bufferscope.__panicForTest, the worker's death on request) must never
// reach the site readers get. These tests hold the three gates, without compiling any wasm:
// the go command's arguments, the Go files' build constraints, and esbuild's dead-code
// removal of the scripts' hooks.

// TestWasmBuildArgsTestHooks checks that only a build asked for the hooks passes their tag.
func TestWasmBuildArgsTestHooks(t *testing.T) {
	plain := wasmBuildArgs("out.wasm", appPackage, false)
	for _, a := range plain {
		if strings.Contains(a, "tags") || strings.Contains(a, testHooksTag) {
			t.Errorf("a build without the test hooks passes %q: %v", a, plain)
		}
	}
	if hooks := wasmBuildArgs("out.wasm", appPackage, true); !slices.Contains(hooks, "-tags="+testHooksTag) {
		t.Errorf("a build with the test hooks does not pass -tags=%s: %v", testHooksTag, hooks)
	}
}

// TestTestHooksBuildConstraints checks that each Go file of the hooks (testhooks_on*) is
// built only with the tag, and its stand-in (testhooks_off*) only without it.
func TestTestHooksBuildConstraints(t *testing.T) {
	var found int
	for _, dir := range []string{"../wasm", "../wasm/worker"} {
		files, err := filepath.Glob(filepath.Join(dir, "testhooks_*.go"))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			on := strings.Contains(filepath.Base(f), "testhooks_on")
			off := strings.Contains(filepath.Base(f), "testhooks_off")
			if !on && !off {
				continue
			}
			found++
			expr := buildConstraint(t, f)
			with := expr.Eval(func(tag string) bool { return tag == "js" || tag == "wasm" || tag == testHooksTag })
			without := expr.Eval(func(tag string) bool { return tag == "js" || tag == "wasm" })
			if on && (without || !with) {
				t.Errorf("%s (%s): built without -tags=%s: %v, with it: %v; want only with it", f, expr, testHooksTag, without, with)
			}
			if off && (!without || with) {
				t.Errorf("%s (%s): built without -tags=%s: %v, with it: %v; want only without it", f, expr, testHooksTag, without, with)
			}
		}
	}
	if found != 4 {
		t.Errorf("found %d test hook files in wasm/ and wasm/worker/, want 4 (an on and an off file in each)", found)
	}
}

// buildConstraint returns the //go:build line of a Go file.
func buildConstraint(t *testing.T, name string) constraint.Expr {
	t.Helper()
	src, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(src), "\n") {
		if constraint.IsGoBuild(line) {
			expr, err := constraint.Parse(line)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			return expr
		}
	}
	t.Fatalf("%s has no //go:build line", name)
	return nil
}

// TestSiteScriptsWithoutTestHooks bundles the real site's scripts as dist does and checks
// that none of them holds the hooks' code, which a build with the hooks does hold.
func TestSiteScriptsWithoutTestHooks(t *testing.T) {
	if testing.Short() {
		t.Skip("bundles the whole site")
	}
	s, err := loadSite("../site")
	if err != nil {
		t.Fatal(err)
	}
	s.docs = "../docs"
	marks := []string{"bufferscopeTest", "__dieForTest", "killWorker"}
	for _, hooks := range []bool{false, true} {
		assets, err := s.build(code{app: fakeCode.app, worker: fakeCode.worker, exec: fakeCode.exec, testHooks: hooks})
		if err != nil {
			t.Fatal(err)
		}
		seen := map[string]bool{}
		for _, a := range assets {
			if !strings.HasSuffix(a.path, ".js") {
				continue
			}
			for _, m := range marks {
				if strings.Contains(string(a.data), m) {
					seen[m] = true
					if !hooks {
						t.Errorf("%s holds %q in a build without the test hooks", a.path, m)
					}
				}
			}
		}
		if hooks && len(seen) != len(marks) {
			t.Errorf("a build with the test hooks holds only %v of %v: the check above cannot see them", seen, marks)
		}
	}
}
