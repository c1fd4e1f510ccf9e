package sim

import (
	"errors"
	"math/rand/v2"
	"testing"
)

// naiveVictim predicts the clock sweep in closed form: the victim is the first unpinned
// buffer at or after the hand whose usage count is the smallest among unpinned buffers;
// every unpinned buffer loses that many counts, and those the hand passes before the victim
// in the final pass lose one more. It returns the victim, the usage counts afterwards and the
// number of ticks, or victim -1 when every buffer is pinned.
func naiveVictim(states []BufferState, hand int) (int, []int, int) {
	n := len(states)
	umin := -1
	for _, s := range states {
		if s.RefCount() == 0 && (umin < 0 || s.UsageCount() < umin) {
			umin = s.UsageCount()
		}
	}
	if umin < 0 {
		return -1, nil, 0
	}
	victim, dist := -1, 0
	for d := range n {
		i := (hand + d) % n
		if states[i].RefCount() == 0 && states[i].UsageCount() == umin {
			victim, dist = i, d
			break
		}
	}
	usage := make([]int, n)
	for i, s := range states {
		usage[i] = s.UsageCount()
		if s.RefCount() != 0 {
			continue
		}
		usage[i] -= umin
		if d := (i - hand + n) % n; d < dist {
			usage[i]--
		}
	}
	return victim, usage, umin*n + dist + 1
}

// TestClockSweepAgainstNaive runs StrategyGetBuffer on random pools and compares it with
// the closed form.
// Reference: src/backend/storage/buffer/freelist.c, StrategyGetBuffer
func TestClockSweepAgainstNaive(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	for trial := range 3000 {
		n := MinNBuffers + r.IntN(200)
		p, err := NewPool(n, 18, CostModel{})
		if err != nil {
			t.Fatal(err)
		}
		p.firstFree, p.lastFree = freeNextEndOfList, freeNextEndOfList
		pinShare := r.IntN(4) // sometimes no pins, sometimes most buffers pinned
		states := make([]BufferState, n)
		for i := range states {
			st := BM_TAG_VALID | BM_VALID | BufferState(r.IntN(BMMaxUsageCount+1))<<BufUsagecountShift
			if r.IntN(4) < pinShare {
				st += BufferState(1 + r.IntN(3))
			}
			if trial%50 == 0 {
				st += BufRefcountOne // every buffer pinned
			}
			states[i] = st
			p.desc[i].State = st
			p.desc[i].freeNext = freeNextNotInList
		}
		hand := r.IntN(n)
		p.nextVictim = uint64(r.IntN(3)*n + hand)
		start := p.nextVictim
		wantVictim, wantUsage, wantTicks := naiveVictim(states, hand)

		got, err := p.strategyGetBuffer()
		if wantVictim < 0 {
			if !errors.Is(err, ErrNoUnpinnedBuffers) {
				t.Fatalf("trial %d: all pinned: got buffer %d, err %v; want %v", trial, got, err, ErrNoUnpinnedBuffers)
			}
			if ticks := p.nextVictim - start; ticks != uint64(n) {
				t.Fatalf("trial %d: gave up after %d ticks, want NBuffers = %d", trial, ticks, n)
			}
			continue
		}
		if err != nil || got != wantVictim {
			t.Fatalf("trial %d: victim %d (%v), naive says %d", trial, got, err, wantVictim)
		}
		if ticks := int(p.nextVictim - start); ticks != wantTicks {
			t.Fatalf("trial %d: %d ticks, naive says %d", trial, ticks, wantTicks)
		}
		for i := range n {
			if u := p.desc[i].State.UsageCount(); u != wantUsage[i] {
				t.Fatalf("trial %d: buffer %d usage %d, naive says %d", trial, i, u, wantUsage[i])
			}
			if p.desc[i].State.RefCount() != states[i].RefCount() {
				t.Fatalf("trial %d: buffer %d refcount changed", trial, i)
			}
		}
	}
}

// TestFreelistFirst checks that StrategyGetBuffer pops the freelist before sweeping and
// passes over a listed buffer that is pinned or used.
// Reference: src/backend/storage/buffer/freelist.c, StrategyGetBuffer
func TestFreelistFirst(t *testing.T) {
	p, err := NewPool(16, 17, CostModel{})
	if err != nil {
		t.Fatal(err)
	}
	p.desc[0].State = BM_TAG_VALID | BM_VALID | BufUsagecountOne // used since it was freed
	p.desc[1].State = BM_TAG_VALID | BM_VALID | BufRefcountOne   // pinned
	got, err := p.strategyGetBuffer()
	if err != nil || got != 2 {
		t.Fatalf("got %d, %v; want buffer 2, the first listed buffer that is free", got, err)
	}
	if p.nextVictim != 0 {
		t.Fatalf("the clock hand moved to %d; the freelist should have served", p.nextVictim)
	}
	if fl := p.Freelist(); len(fl) != 13 || fl[0] != 3 {
		t.Fatalf("freelist %v, want 3..15", fl)
	}
}
