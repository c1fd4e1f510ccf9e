//go:build js

// Command worker is the WebAssembly program of the site's experiment worker: a Web Worker
// (site/js/worker/experiments.js) runs it off the page's thread, so a sweep that builds
// pools of millions of buffers never freezes the page. It has no Ebiten and no screen; it
// runs the labs' jobs (lab.Jobber: the drop lab's chart and its measurement on this device)
// and sends the results back as plain objects.
//
// The worker script starts it and then hands it every message from the page:
//
//	{type: JOB, lab: LAB, id, …arguments}   run lab LAB's job JOB (sim/labs/LAB/jobs.go)
//	{type: "cancel", id}                    stop a job, waiting or running; id 0 stops them all
//
// and it answers with {type: "progress" | "result" | "error" | "cancelled", id, …}. Jobs run
// one at a time, in the order they came. A running job yields to the worker's event loop
// between experiments (yieldToEventLoop), which is when a cancel message can arrive.
//
// Build with GOOS=js GOARCH=wasm go build -trimpath -ldflags="-s -w -buildid=" ./wasm/worker.
package main

import "syscall/js"

func main() {
	w := newWorker(func(msg map[string]any) { js.Global().Call("postMessage", msg) })
	handle := js.FuncOf(func(_ js.Value, args []js.Value) any {
		if len(args) > 0 {
			w.handle(args[0])
		}
		return nil
	})
	// The worker script forwards messages to bufferscopeWorker.handle once it is set.
	obj := js.Global().Get("Object").New()
	obj.Set("handle", handle)
	js.Global().Set("bufferscopeWorker", obj)
	js.Global().Call("postMessage", map[string]any{"type": "ready"})
	select {}
}
