package sim

import "fmt"

// CheckInvariants verifies the rules PostgreSQL's buffer manager keeps (postgres-internals.md
// section 1) over the whole pool, and the WAL-before-data rule over the last command's events.
// It returns the first violation found. It reads the state and never changes it.
func (s *Sim) CheckInvariants() error {
	p := s.Pool
	pins := make([]int, p.NBuffers)
	count := func(b *Backend) {
		b.pinned(func(id, n int) {
			if n > 0 {
				pins[id]++
			}
		})
	}
	for i := range s.clients {
		count(&s.clients[i].backend)
	}
	for _, b := range s.manual {
		count(b)
	}
	s.scenarioBackends(count)
	tagged := 0
	for id := range p.desc {
		d := &p.desc[id]
		st := d.State
		if st.RefCount() != pins[id] {
			return fmt.Errorf("buffer %d: refcount %d but %d backends pin it", id, st.RefCount(), pins[id])
		}
		if p.relNums[id] != d.Tag.Locator.RelNumber {
			return fmt.Errorf("buffer %d: packed relfilenumber %d for tag %s", id, p.relNums[id], d.Tag)
		}
		if st.UsageCount() > BMMaxUsageCount {
			return fmt.Errorf("buffer %d: usage count %d above %d", id, st.UsageCount(), BMMaxUsageCount)
		}
		if st.Has(BM_VALID) && !st.Has(BM_TAG_VALID) {
			return fmt.Errorf("buffer %d: VALID without TAG_VALID", id)
		}
		if st.Has(BM_DIRTY) && !st.Has(BM_VALID) {
			return fmt.Errorf("buffer %d: DIRTY without VALID", id)
		}
		if st.Has(BM_LOCKED) || st.Has(BM_IO_IN_PROGRESS) {
			return fmt.Errorf("buffer %d: %s held between steps", id, st.FlagString())
		}
		if st.Has(BM_TAG_VALID) {
			tagged++
			k := packTag(d.Tag)
			if got := p.table.lookup(k, k.hash()); got != id {
				return fmt.Errorf("buffer %d: tag %s maps to buffer %d", id, d.Tag, got)
			}
			if st.Has(BM_PERMANENT) && d.LSN > p.WAL.Insert {
				return fmt.Errorf("buffer %d: page LSN %s beyond the WAL insert position %s", id, d.LSN, p.WAL.Insert)
			}
		} else if d.Tag != (BufferTag{}) || st&^BufRefcountMask != 0 {
			return fmt.Errorf("buffer %d: no TAG_VALID but tag %s, state %s", id, d.Tag, st.FlagString())
		}
	}
	if p.table.count != tagged {
		return fmt.Errorf("mapping table holds %d entries for %d tagged buffers", p.table.count, tagged)
	}
	if err := s.checkFreelist(); err != nil {
		return err
	}
	if p.WAL.Flushed > p.WAL.Insert {
		return fmt.Errorf("WAL flushed to %s beyond the insert position %s", p.WAL.Flushed, p.WAL.Insert)
	}
	for _, e := range p.events {
		if e.Kind == EvWrite && e.Permanent && e.Flushed < e.LSN {
			return fmt.Errorf("buffer %d written with page LSN %s before WAL was flushed past it (%s)", e.Buffer, e.LSN, e.Flushed)
		}
	}
	return nil
}

func (s *Sim) checkFreelist() error {
	p := s.Pool
	onList := 0
	last := freeNextEndOfList
	for id := p.firstFree; id >= 0; id = p.desc[id].freeNext {
		if onList++; onList > p.NBuffers {
			return fmt.Errorf("freelist has a cycle")
		}
		last = id
	}
	if last != p.lastFree {
		return fmt.Errorf("freelist ends at %d but lastFreeBuffer is %d", last, p.lastFree)
	}
	linked := 0
	for id := range p.desc {
		if p.desc[id].freeNext != freeNextNotInList {
			linked++
		}
	}
	if linked != onList {
		return fmt.Errorf("%d buffers claim a freelist link but %d are on the list", linked, onList)
	}
	return nil
}
