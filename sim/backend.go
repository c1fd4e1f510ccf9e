package sim

// Backend is one simulated PostgreSQL process that can pin buffers. Its private pin counts
// mirror the private refcount machinery of bufmgr.c: an array of refCountArrayEntries
// entries (PrivateRefCountArray), an overflow hash (PrivateRefCountHash) and a one-entry cache
// of the entry used last (PrivateRefCountEntryLast), which finds the buffer a backend
// releases without a search. A backend changes a buffer's shared refcount only on its first
// pin and its last unpin.
type Backend struct {
	ID   int
	refs [refCountArrayEntries]privateRef
	// last is the index in refs of the entry used last (PrivateRefCountEntryLast); the entry
	// may have been freed since. The zero value is entry 0.
	last uint8
	// inUse counts the entries of refs that hold a buffer, so a backend that pins nothing
	// skips the search.
	inUse    uint8
	overflow map[int32]int32
}

// refCountArrayEntries mirrors REFCOUNT_ARRAY_ENTRIES: the private pins kept in the array
// before the overflow hash is used. It must be a power of two (last is masked with it).
const refCountArrayEntries = 8

// privateRef is one entry of the private pin array; buf is buf_id+1, so zero is free.
type privateRef struct {
	buf   int32
	count int32
}

// PinCount returns how many times the backend has pinned buffer id (GetPrivateRefCount). It
// looks in the entry used last first, and never changes which entry that is.
func (b *Backend) PinCount(id int) int {
	key := int32(id + 1)
	if r := &b.refs[b.last%refCountArrayEntries]; r.buf == key {
		return int(r.count)
	}
	for i := range b.refs {
		if b.refs[i].buf == key {
			return int(b.refs[i].count)
		}
	}
	if len(b.overflow) == 0 {
		return 0
	}
	return int(b.overflow[key])
}

// Buffers returns how many buffers the backend pins, each counted once however many times it
// pins it: what it adds to the buffers' shared refcounts.
func (b *Backend) Buffers() int { return int(b.inUse) + len(b.overflow) }

// tryAddPin is addPin's common case, small enough to inline where PinBuffer is called: the
// buffer is in the entry used last, or the backend pins nothing, so that entry is free and
// takes it. It returns the new count, or 0 when neither holds and the caller must call addPin.
func (b *Backend) tryAddPin(id int) int32 {
	r := &b.refs[b.last%refCountArrayEntries]
	if r.buf != int32(id+1) {
		if b.inUse != 0 || len(b.overflow) != 0 {
			return 0
		}
		r.buf = int32(id + 1)
		b.inUse = 1
	}
	r.count++
	return r.count
}

// addPin adds one private pin of buffer id and returns the new count: in the entry that holds
// the buffer, else in a free array entry, else in the overflow hash.
func (b *Backend) addPin(id int) int32 {
	if n := b.tryAddPin(id); n != 0 {
		return n
	}
	key := int32(id + 1)
	free := -1
	for i := range b.refs {
		switch b.refs[i].buf {
		case key:
			b.last = uint8(i)
			b.refs[i].count++
			return b.refs[i].count
		case 0:
			if free < 0 {
				free = i
			}
		}
	}
	if len(b.overflow) > 0 {
		if n, ok := b.overflow[key]; ok {
			b.overflow[key] = n + 1
			return n + 1
		}
	}
	if free >= 0 {
		b.refs[free] = privateRef{buf: key, count: 1}
		b.last = uint8(free)
		b.inUse++
		return 1
	}
	if b.overflow == nil {
		b.overflow = make(map[int32]int32)
	}
	b.overflow[key] = 1
	return 1
}

// tryDropPin is dropPin's common case, small enough to inline where UnpinBuffer is called:
// the buffer is in the entry used last. It drops one pin and returns the remaining count and
// true, or returns false when the caller must call dropPin.
func (b *Backend) tryDropPin(id int) (int32, bool) {
	r := &b.refs[b.last%refCountArrayEntries]
	if r.buf != int32(id+1) {
		return 0, false
	}
	r.count--
	if r.count == 0 {
		r.buf = 0
		b.inUse--
	}
	return r.count, true
}

// dropPin removes one private pin of buffer id and returns the remaining count, or -1 if the
// backend held no pin on it.
func (b *Backend) dropPin(id int) int32 {
	if n, ok := b.tryDropPin(id); ok {
		return n
	}
	key := int32(id + 1)
	for i := range b.refs {
		if b.refs[i].buf == key {
			b.last = uint8(i)
			n, _ := b.tryDropPin(id)
			return n
		}
	}
	n, ok := b.overflow[key]
	if !ok {
		return -1
	}
	if n == 1 {
		delete(b.overflow, key)
		return 0
	}
	b.overflow[key] = n - 1
	return n - 1
}

// pinned calls fn for every buffer the backend pins, with its private count, in buffer order.
func (b *Backend) pinned(fn func(id int, count int)) {
	var ids []int32
	for _, r := range b.refs {
		if r.buf != 0 {
			ids = append(ids, r.buf)
		}
	}
	for k := range b.overflow {
		ids = append(ids, k)
	}
	sortInt32(ids)
	for _, k := range ids {
		fn(int(k-1), b.PinCount(int(k-1)))
	}
}

func sortInt32(s []int32) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}
