package sim

// Backend is one simulated PostgreSQL process that can pin buffers. Its private pin counts
// mirror PrivateRefCountArray in bufmgr.c: eight array entries, then an overflow hash. A
// backend changes a buffer's shared refcount only on its first pin and its last unpin.
type Backend struct {
	ID       int
	refs     [8]privateRef
	overflow map[int32]int32
}

// privateRef is one entry of the private pin array; buf is buf_id+1, so zero is free.
type privateRef struct {
	buf   int32
	count int32
}

// PinCount returns how many times the backend has pinned buffer id (GetPrivateRefCount).
func (b *Backend) PinCount(id int) int {
	key := int32(id + 1)
	for i := range b.refs {
		if b.refs[i].buf == key {
			return int(b.refs[i].count)
		}
	}
	if b.overflow == nil {
		return 0
	}
	return int(b.overflow[key])
}

// addPin adds one private pin of buffer id and returns the new count.
func (b *Backend) addPin(id int) int32 {
	key := int32(id + 1)
	free := -1
	for i := range b.refs {
		switch b.refs[i].buf {
		case key:
			b.refs[i].count++
			return b.refs[i].count
		case 0:
			if free < 0 {
				free = i
			}
		}
	}
	if n, ok := b.overflow[key]; ok && b.overflow != nil {
		b.overflow[key] = n + 1
		return n + 1
	}
	if free >= 0 {
		b.refs[free] = privateRef{buf: key, count: 1}
		return 1
	}
	if b.overflow == nil {
		b.overflow = make(map[int32]int32)
	}
	b.overflow[key] = 1
	return 1
}

// dropPin removes one private pin of buffer id and returns the remaining count, or -1 if the
// backend held no pin on it.
func (b *Backend) dropPin(id int) int32 {
	key := int32(id + 1)
	for i := range b.refs {
		if b.refs[i].buf == key {
			b.refs[i].count--
			n := b.refs[i].count
			if n == 0 {
				b.refs[i] = privateRef{}
			}
			return n
		}
	}
	if b.overflow == nil {
		return -1
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
