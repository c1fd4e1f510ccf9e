package sim

// DetPow returns x**y for x > 0 with the simulation's own exp and log, so that a lab's
// distributions come out bit for bit the same natively and in WebAssembly.
func DetPow(x, y float64) float64 { return detPow(x, y) }
