package fidelity

// AllHooks merges every lab's simulated side: the ring lab's (experiments 1–3), the drop
// lab's (4, 5) and the pins lab's (6).
func AllHooks() Hooks {
	h := Hooks{}
	for _, part := range []Hooks{RingHooks(), DropHooks(), PinsHooks()} {
		for e, f := range part {
			h[e] = f
		}
	}
	return h
}
