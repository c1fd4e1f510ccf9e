//go:build !js

package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// axeVersion is the axe-core (npm, MPL-2.0) the tests inject; the Makefile's AXE must say
// the same (TestAxeVersionMatchesMakefile). It lives in .cache/axe, never committed: make
// test installs it, and so does the first test that needs it when npm is on PATH.
const axeVersion = "4.14.1"

// axeDirVar names another directory holding node_modules/axe-core.
const axeDirVar = "BUFFERSCOPE_AXE_DIR"

var axeOnce struct {
	sync.Once
	src string
	err error
}

// axeSource returns axe.min.js, installing the pinned version with npm when it is missing.
// It skips the test, saying how to install it, when it is missing and npm cannot get it.
func axeSource(t *testing.T) string {
	t.Helper()
	axeOnce.Do(func() {
		dir := os.Getenv(axeDirVar)
		if dir == "" {
			root, err := moduleRoot()
			if err != nil {
				axeOnce.err = err
				return
			}
			dir = filepath.Join(root, ".cache", "axe")
		}
		pkg := filepath.Join(dir, "node_modules", "axe-core")
		if v := installedVersion(pkg); v != axeVersion {
			npm, err := exec.LookPath("npm")
			if err != nil {
				axeOnce.err = fmt.Errorf("axe-core %s is not in %s (found %q) and npm is not on PATH to install it: run make axe, or set %s to a directory with node_modules/axe-core", axeVersion, dir, v, axeDirVar)
				return
			}
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, npm, "install", "--no-audit", "--no-fund", "--no-save", "--prefix", dir, "axe-core@"+axeVersion)
			if out, err := cmd.CombinedOutput(); err != nil {
				axeOnce.err = fmt.Errorf("npm install axe-core@%s into %s: %v\n%s", axeVersion, dir, err, out)
				return
			}
		}
		b, err := os.ReadFile(filepath.Join(pkg, "axe.min.js"))
		axeOnce.src, axeOnce.err = string(b), err
	})
	if axeOnce.err != nil {
		t.Skipf("no axe-core: %v", axeOnce.err)
	}
	return axeOnce.src
}

// installedVersion returns the version of the npm package in dir, or "".
func installedVersion(dir string) string {
	b, err := os.ReadFile(filepath.Join(dir, "package.json"))
	if err != nil {
		return ""
	}
	var pkg struct{ Version string }
	if json.Unmarshal(b, &pkg) != nil {
		return ""
	}
	return pkg.Version
}

// TestAxeVersionMatchesMakefile keeps the version make axe installs and the one the tests
// ask for the same.
func TestAxeVersionMatchesMakefile(t *testing.T) {
	root, err := moduleRoot()
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(root, "Makefile"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^AXE = (\S+)$`).FindSubmatch(b)
	if m == nil || string(m[1]) != axeVersion {
		t.Errorf("the Makefile's AXE is %q, the tests' axeVersion %q", m, axeVersion)
	}
}

// violation is one rule axe found broken, with the elements that break it.
type violation struct {
	ID, Impact, Help string
	Nodes            []struct{ Target []string }
}

// axeCheck runs axe-core on the page as it is and fails the test on every serious or
// critical violation, naming the state checked.
func (p *page) axeCheck(state string) {
	p.t.Helper()
	src := axeSource(p.t)
	if !eval[bool](p, `typeof axe === "object"`) {
		// Evaluated through DevTools, so the page's Content-Security-Policy does not apply.
		eval[chromedp.Void](p, src+"\n;undefined")
	}
	vs := run(p, 60*time.Second, "running axe on "+state, chromedp.Evaluate[[]violation](`axe.run(document, {resultTypes: ["violations"]})
		.then(r => r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map(n => ({target: n.target.map(String)}))})))`,
		chromedp.EvalAwaitPromise))
	var bad []string
	for _, v := range vs {
		if v.Impact != "serious" && v.Impact != "critical" {
			continue
		}
		var at []string
		for _, n := range v.Nodes {
			at = append(at, strings.Join(n.Target, " "))
		}
		bad = append(bad, fmt.Sprintf("%s (%s): %s, at %s", v.ID, v.Impact, v.Help, strings.Join(at, "; ")))
	}
	if len(bad) > 0 {
		p.t.Errorf("axe-core %s finds %d serious or critical violations on %s:\n  %s", axeVersion, len(bad), state, strings.Join(bad, "\n  "))
	}
}

// TestAxe checks every page and state the tests visit with axe-core: each lab after load
// (playing), its tour's first step and its first exercise, the shortcuts dialog open,
// presenter mode, and the error panel a bad address shows.
func TestAxe(t *testing.T) {
	axeSource(t)
	first := openPage(t, "/?play=0")
	for _, name := range labNames(first) {
		t.Run(name, func(t *testing.T) {
			p := openPage(t, "/?lab="+name)
			p.waitFrames(10, 500*time.Millisecond)
			p.axeCheck(name + " after load")
			eval[any](p, `bufferscope.pause()`) // the pages opened next load without it playing beside them
			tour := openPage(t, "/?play=0&tour=1&lab="+name)
			waitJS[bool](tour, waitTimeout, "the tour", `document.getElementById("guide") !== null`)
			tour.axeCheck(name + "'s tour, first step")
			ex := eval[string](p, `(b => b ? b.dataset.exercise : "")(document.querySelector("#guide [data-exercise]"))`)
			if ex != "" {
				q := openPage(t, "/?play=0&exseed=1&lab="+name+"&exercise="+ex)
				waitJS[bool](q, waitTimeout, "the exercise", `document.querySelector("#guide [data-answer]") !== null`)
				q.axeCheck(name + "'s exercise " + ex)
			}
		})
	}
	t.Run("dialog", func(t *testing.T) {
		p := openPage(t, "/?play=0")
		p.key("?")
		waitJS[bool](p, waitTimeout, "the shortcuts dialog", `document.getElementById("keys-dialog").open`)
		p.axeCheck("the shortcuts dialog")
		p.key(kb.Escape)
	})
	t.Run("presenter", func(t *testing.T) {
		p := openPage(t, "/?play=0")
		p.key("p")
		waitJS[bool](p, waitTimeout, "presenter mode", `document.documentElement.classList.contains("presenter")`)
		p.axeCheck("presenter mode")
	})
	t.Run("error", func(t *testing.T) {
		p := openPage(t, "/?play=0&shared_buffers=banana&nosuch=1")
		waitJS[bool](p, waitTimeout, "the error panel", `!document.getElementById("error-panel").hidden`)
		p.axeCheck("the error panel of a bad address")
	})
}
