package sim

import (
	"fmt"
	"math"
)

// LockBufferForCleanup mirrors LockBufferForCleanup in bufmgr.c for a caller that cannot
// sleep inside one call: it reports whether backend b, which must pin buffer id, holds the
// cleanup ("super-exclusive") lock, that is whether b's pin is the only one (shared
// refcount 1). When other backends pin the buffer it sets BM_PIN_COUNT_WAITER and returns
// false; the caller sleeps and calls it again after the next unpin, as PostgreSQL's waiter
// is woken by the last other UnpinBuffer. PostgreSQL allows one waiter per buffer and
// raises an error for a second: so does this.
//
// The content lock itself is the caller's: the simulation keeps no LWLocks.
func (p *Pool) LockBufferForCleanup(b *Backend, id int) (bool, error) {
	if id < 0 || id >= p.NBuffers || b.PinCount(id) == 0 {
		return false, fmt.Errorf("backend %d must pin buffer %d to take its cleanup lock", b.ID, id)
	}
	d := &p.desc[id]
	if d.State.RefCount() == 1 {
		d.State &^= BM_PIN_COUNT_WAITER
		return true, nil
	}
	if d.State.Has(BM_PIN_COUNT_WAITER) && p.cleanupWaiter[id] != b.ID {
		return false, fmt.Errorf("multiple backends attempting to wait for pincount 1")
	}
	d.State |= BM_PIN_COUNT_WAITER
	if p.cleanupWaiter == nil {
		p.cleanupWaiter = map[int]int{}
	}
	p.cleanupWaiter[id] = b.ID
	return false, nil
}

// UnlockCleanup forgets backend b's wait for the cleanup lock on buffer id, when it gives up
// waiting (LockBufferForCleanup's caller is cancelled) or was granted the lock.
func (p *Pool) UnlockCleanup(b *Backend, id int) {
	if p.cleanupWaiter[id] == b.ID {
		delete(p.cleanupWaiter, id)
		p.desc[id].State &^= BM_PIN_COUNT_WAITER
	}
}

// RefCount returns buffer id's shared refcount: how many backends pin it.
func (p *Pool) RefCount(id int) int { return p.desc[id].State.RefCount() }

// ScenarioBackends is implemented by a Scenario whose own backends pin buffers, so that
// CheckInvariants counts their pins.
type ScenarioBackends interface {
	Backends(fn func(b *Backend))
}

// scenarioBackends calls fn for each backend of the scenario, if it has any.
func (s *Sim) scenarioBackends(fn func(b *Backend)) {
	if sb, ok := s.scenario.(ScenarioBackends); ok {
		sb.Backends(fn)
	}
}

// EvLabBase is the first EventKind a lab may use for events of its own (a hint lost, a
// page split); the core's kinds stay below it.
const EvLabBase EventKind = 64

// EmitLab records a lab's event of kind (EvLabBase or above) on buffer id (-1 for none) by
// backend b, standing for n things (Event.N; 0 for one), among the events of the command
// under way.
func (p *Pool) EmitLab(kind EventKind, b *Backend, id int, n int) {
	if kind < EvLabBase {
		panic(fmt.Sprintf("sim: lab event kind %d is below EvLabBase", kind))
	}
	be := int16(-1)
	if b != nil {
		be = int16(b.ID)
	}
	p.emit(Event{Kind: kind, Backend: be, Buffer: int32(id), N: uint32(min(max(n, 0), math.MaxUint32))})
}
