//go:build !js

package e2e

import (
	"context"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// TestPoolOverTheDeviceBudgetIsRefused: on a device that reports 2 GB of memory the
// simulator may use a quarter of it, so a 100GB pool (about 1 GB) is refused before
// anything is allocated, in words that say what it needs, what is allowed and what fits; the
// run in force stays, and the form shows its size again.
func TestPoolOverTheDeviceBudgetIsRefused(t *testing.T) {
	p := newTabWith(t, tabOptions{})
	p.do(waitTimeout, "reporting 2 GB of device memory", chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, cdppage.AddScriptToEvaluateOnNewDocument, cdppage.AddScriptToEvaluateOnNewDocumentParams{
			Source: `Object.defineProperty(Navigator.prototype, "deviceMemory", {get: () => 2, configurable: true})`})
		return err
	}))
	p.load("/?shared_buffers=128MB&play=0")
	p.choose("#p-shared_buffers", "100GB")
	said := waitJS[string](p, waitTimeout, "the refusal", `(e => !e.hidden && e.textContent)(document.querySelector("#error-panel"))`)
	for _, want := range []string{"a pool of 100GB needs about ", "a quarter of the 2 GB this device reports", "nothing was allocated", "or less"} {
		if !strings.Contains(said, want) {
			t.Errorf("the refusal %q does not say %q", said, want)
		}
	}
	st := eval[map[string]any](p, `(s => ({size: s.sharedBuffers, job: s.time.job, form: document.querySelector("#p-shared_buffers").value}))(bufferscope.stats())`)
	if st["size"] != "128MB" || st["job"] != nil || st["form"] != "128MB" {
		t.Errorf("after the refusal: %v", st)
	}
}
