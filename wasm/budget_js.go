package main

import (
	"fmt"
	"syscall/js"
)

// wasmShare is the most memory a pool may take in any browser: half of WebAssembly's 4 GiB,
// leaving the rest for the collector's headroom, the grid and the JavaScript around it.
const wasmShare = 2 << 30

// memoryBudget is the most memory a pool may take on this device, and where the figure
// comes from: a quarter of the memory the browser reports (navigator.deviceMemory, which
// Chromium gives in GB, rounded and capped at 8), and at most wasmShare. A browser that does
// not report it gets wasmShare.
func memoryBudget() (int64, string) {
	dm := js.Global().Get("navigator").Get("deviceMemory")
	if dm.Type() != js.TypeNumber || dm.Float() <= 0 {
		return wasmShare, "half of WebAssembly's 4 GB"
	}
	gb := dm.Float()
	b := int64(gb * (1 << 30) / 4)
	if b >= wasmShare {
		return wasmShare, "half of WebAssembly's 4 GB"
	}
	return b, fmt.Sprintf("a quarter of the %g GB this device reports", gb)
}
