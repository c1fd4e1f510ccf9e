//go:build js

package main

import (
	"strings"
	"syscall/js"
	"testing"
	"time"
)

// These tests run as WebAssembly under node (make wasmtest), where syscall/js works as in the
// worker. The jobs themselves are tested natively with their labs (sim/labs/*/jobs_test.go).

// TestHandle sends the worker messages as the page does and reads its answers.
func TestHandle(t *testing.T) {
	got := make(chan map[string]any, 100)
	w := newWorker(func(m map[string]any) { got <- m })
	obj := func(kv map[string]any) js.Value { return js.ValueOf(kv) }

	w.handle(obj(map[string]any{"type": "curve", "lab": "drop", "id": 1, "nbuffers": 5}))
	if m := <-got; m["type"] != "error" || !strings.Contains(m["message"].(string), "nbuffers 5 is not a whole number from 16") {
		t.Errorf("bad nbuffers: %v", m)
	}
	w.handle(obj(map[string]any{"type": "curve", "lab": "drop", "id": 2, "nbuffers": 16384, "op": "truncate", "divisors": []any{64, 32}}))
	var result map[string]any
	deadline := time.After(30 * time.Second)
	for result == nil {
		select {
		case m := <-got:
			switch m["type"] {
			case "progress":
			case "result":
				result = m
			default:
				t.Fatalf("unexpected message %v", m)
			}
		case <-deadline:
			t.Fatal("no result within 30 s")
		}
	}
	if result["id"] != 2 || result["kind"] != "curve" || len(result["points"].([]any)) != 2 || result["op"] != "truncate" {
		t.Errorf("result = %v", result)
	}

	// A long job, cancelled: the worker answers "cancelled".
	w.handle(obj(map[string]any{"type": "measure", "lab": "drop", "id": 3, "nbuffers": 16384, "reps": 1000}))
	w.handle(obj(map[string]any{"type": "cancel", "id": 3}))
	for {
		select {
		case m := <-got:
			if m["type"] == "progress" {
				continue
			}
			if m["type"] != "cancelled" || m["id"] != 3 {
				t.Fatalf("after cancel: %v", m)
			}
			return
		case <-time.After(30 * time.Second):
			t.Fatal("no answer to cancel within 30 s")
		}
	}
}

// TestHandleRefusesWhatNoLabOffers checks the answers to messages that name no job.
func TestHandleRefusesWhatNoLabOffers(t *testing.T) {
	got := make(chan map[string]any, 10)
	w := newWorker(func(m map[string]any) { got <- m })
	for _, c := range []struct {
		msg  any
		want string
	}{
		{"curve", "must be an object"},
		{map[string]any{"type": "curve", "id": 1}, "no lab"},
		{map[string]any{"type": "curve", "lab": "nonesuch", "id": 2}, "no lab"},
		{map[string]any{"type": "nonesuch", "lab": "free", "id": 3}, "has no job"},
	} {
		w.handle(js.ValueOf(c.msg))
		if m := <-got; m["type"] != "error" || !strings.Contains(m["message"].(string), c.want) {
			t.Errorf("%v: %v, want an error saying %q", c.msg, m, c.want)
		}
	}
}

// TestCancelArrivesWhileAJobRuns sends the cancel as the page's message comes, as an event of
// the worker's event loop: a running job must yield to that loop for it to be handled.
func TestCancelArrivesWhileAJobRuns(t *testing.T) {
	got := make(chan map[string]any, 1000)
	w := newWorker(func(m map[string]any) { got <- m })
	w.handle(js.ValueOf(map[string]any{"type": "measure", "lab": "drop", "id": 7, "nbuffers": 1 << 20, "reps": 1000}))
	cancel := js.FuncOf(func(js.Value, []js.Value) any {
		w.handle(js.ValueOf(map[string]any{"type": "cancel", "id": 7}))
		return nil
	})
	defer cancel.Release()
	progressed := false
	deadline := time.After(60 * time.Second)
	for {
		select {
		case m := <-got:
			switch {
			case m["type"] == "progress":
				if !progressed {
					progressed = true
					js.Global().Call("setTimeout", cancel, 0)
				}
			case m["type"] == "cancelled" && m["id"] == 7:
				if !progressed {
					t.Fatal("cancelled before the job ran")
				}
				return
			default:
				t.Fatalf("after an event-loop cancel: %v", m)
			}
		case <-deadline:
			t.Fatal("a cancel sent through the event loop was not answered within 60 s")
		}
	}
}
