package sim

// strategyGetBuffer mirrors StrategyGetBuffer in freelist.c: with a ring (p.strategy,
// during ReadBufferExtended) GetBufferFromRing first, and the victim found otherwise goes
// into the ring's slot (AddBufferToRing); then, as without one, pop the freelist
// (up to PostgreSQL 18), then run the clock sweep. It returns an unpinned buffer with usage
// count zero (at most one from the ring), which the caller pins.
func (p *Pool) strategyGetBuffer() (int, error) {
	if s := p.strategy; s != nil {
		if id := p.getBufferFromRing(s); id >= 0 {
			s.fromRing = true
			return id, nil
		}
		s.fromRing = false
	}
	for p.firstFree >= 0 {
		id := p.firstFree
		d := &p.desc[id]
		p.firstFree = d.freeNext
		if p.firstFree < 0 {
			p.lastFree = freeNextEndOfList
		}
		d.freeNext = freeNextNotInList
		p.Stats.DescriptorsChecked++
		p.charge(p.Cost.DescriptorCheck)
		// A buffer on the freelist may have been pinned or used since it was freed.
		if d.State.RefCount() == 0 && d.State.UsageCount() == 0 {
			if p.strategy != nil {
				p.strategy.addBufferToRing(int(id))
			}
			return int(id), nil
		}
	}
	trycounter := p.NBuffers
	for {
		id := p.clockSweepTick()
		d := &p.desc[id]
		p.Stats.DescriptorsChecked++
		p.charge(p.Cost.DescriptorCheck)
		if d.State.RefCount() == 0 {
			if d.State.UsageCount() != 0 {
				d.State -= BufUsagecountOne
				trycounter = p.NBuffers
			} else {
				if p.strategy != nil {
					p.strategy.addBufferToRing(id)
				}
				return id, nil
			}
		} else if trycounter--; trycounter == 0 {
			return -1, ErrNoUnpinnedBuffers
		}
	}
}

// clockSweepTick mirrors ClockSweepTick: advance the hand and return the buffer it was on.
func (p *Pool) clockSweepTick() int {
	v := p.nextVictim
	p.nextVictim++
	id := int(v % uint64(p.NBuffers))
	if id == p.NBuffers-1 {
		p.Stats.SweepPasses++
	}
	return id
}

// strategyFreeBuffer mirrors StrategyFreeBuffer: put a buffer at the head of the freelist
// unless it is on it already. PostgreSQL 19 has no freelist and drops the call.
func (p *Pool) strategyFreeBuffer(id int) {
	d := &p.desc[id]
	if !p.Version.HasFreelist() || d.freeNext != freeNextNotInList {
		return
	}
	d.freeNext = p.firstFree
	if p.firstFree < 0 {
		p.lastFree = int32(id)
	}
	p.firstFree = int32(id)
}

// Freelist returns the buffers on the freelist, head first.
func (p *Pool) Freelist() []int {
	var ids []int
	for id := p.firstFree; id >= 0 && len(ids) <= p.NBuffers; id = p.desc[id].freeNext {
		ids = append(ids, int(id))
	}
	return ids
}

// invalidateBuffer mirrors InvalidateBuffer: remove an unpinned buffer's page from the pool
// without writing it, clear its tag, flags and usage count, and put it on the freelist. It
// refuses (returns false) while any backend pins the buffer: PostgreSQL waits for the pin's
// I/O to finish and never invalidates a pinned buffer.
func (p *Pool) invalidateBuffer(id int) bool {
	d := &p.desc[id]
	if !d.State.Has(BM_TAG_VALID) || d.State.RefCount() != 0 {
		return false
	}
	k := packTag(d.Tag)
	hash := k.hash()
	p.lockPartition(hash)
	p.table.delete(k, hash)
	p.setTag(id, BufferTag{}, -1)
	d.LSN = 0
	d.State = 0
	p.Stats.Invalidated++
	p.emit(Event{Kind: EvInvalidate, Buffer: int32(id)})
	p.strategyFreeBuffer(id)
	return true
}

// bgBufferSync is a simplified BgBufferSync: starting at the clock hand (StrategySyncStart,
// which it does not move) it looks at the buffers the sweep will reach next — twice the
// allocations since its last round (bgwriter_lru_multiplier 2.0), at least 16 — and writes
// those that are dirty, unpinned and at usage count zero, at most maxPages
// (bgwriter_lru_maxpages) of them. PostgreSQL smooths the allocation estimate over rounds
// and remembers how far ahead it got; this model does not.
func (p *Pool) bgBufferSync(recentAllocs uint64, maxPages int) int {
	scan := min(max(2*recentAllocs, 16), uint64(p.NBuffers))
	written := 0
	for i, hand := uint64(0), p.nextVictim; i < scan && written < maxPages; i++ {
		id := int((hand + i) % uint64(p.NBuffers))
		d := &p.desc[id]
		p.Stats.DescriptorsChecked++
		p.charge(p.Cost.DescriptorCheck)
		if d.State.RefCount() == 0 && d.State.UsageCount() == 0 && d.State.Has(BM_DIRTY) {
			p.flushBuffer(id, ByBgWriter)
			p.Stats.BgWriterWrites++
			written++
		}
	}
	return written
}

// checkpointBuffers is BufferSync without spreading: write every dirty buffer, in buffer
// order.
func (p *Pool) checkpointBuffers(cause Cause) int {
	written := 0
	for id := range p.desc {
		if p.flushBuffer(id, cause) {
			p.Stats.CheckpointWrites++
			written++
		}
	}
	return written
}
