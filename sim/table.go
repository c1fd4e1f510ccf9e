package sim

import "math/bits"

// bufTable mirrors the shared buffer mapping table of buf_table.c: BufferTag → buf_id.
//
// PostgreSQL keeps it in a partitioned dynahash; here it is an open-addressing table with
// linear probing and backward-shift deletion, keyed by the tag packed into two words plus the
// fork. The partition of a tag (hashcode % NUM_BUFFER_PARTITIONS) only decides which partition
// lock a lookup would take; the simulation counts those acquisitions per partition.
type bufTable struct {
	slots []tableSlot
	shift uint // 64 - log2(len(slots)): the slot index is the hash's top bits
	count int
}

// tableSlot holds one entry. id is buf_id+1, so the zero slot is empty.
type tableSlot struct {
	a, b uint64 // packed tag: spc<<32|db, rel<<32|block
	id   int32
	fork ForkNumber
}

// packTag packs a tag into the words the table compares.
func packTag(t BufferTag) (a, b uint64) {
	return uint64(t.Locator.SpcOid)<<32 | uint64(t.Locator.DbOid),
		uint64(t.Locator.RelNumber)<<32 | uint64(t.Block)
}

// BufTableHashCode mirrors BufTableHashCode: the hash of a tag. PostgreSQL uses hash_bytes
// over the 20 tag bytes; this uses a 64-bit multiply-xorshift mix, so partitions differ from a
// real server's but are as uniform.
func BufTableHashCode(t BufferTag) uint64 {
	a, b := packTag(t)
	h := a*0x9E3779B97F4A7C15 ^ b*0xC2B2AE3D27D4EB4F ^ uint64(t.Fork)*0x165667B19E3779F9
	h ^= h >> 29
	h *= 0xBF58476D1CE4E5B9
	h ^= h >> 32
	return h
}

// BufTablePartition returns the mapping partition of a hash code (BufTableHashPartition).
func BufTablePartition(hash uint64) int { return int(hash % NumBufferPartitions) }

// newBufTable sizes the table for entries keys, as InitBufTable sizes it for
// NBuffers + NUM_BUFFER_PARTITIONS, at a load factor of at most 0.8.
func newBufTable(entries int) *bufTable {
	n := 16
	for n < entries+entries/4 {
		n <<= 1
	}
	return &bufTable{slots: make([]tableSlot, n), shift: uint(64 - bits.TrailingZeros(uint(n)))}
}

func (t *bufTable) home(hash uint64) int { return int(hash >> t.shift) }

// lookup mirrors BufTableLookup: the buf_id holding tag, or -1.
func (t *bufTable) lookup(tag BufferTag, hash uint64) int {
	a, b := packTag(tag)
	mask := len(t.slots) - 1
	for i := t.home(hash); ; i = (i + 1) & mask {
		s := &t.slots[i]
		if s.id == 0 {
			return -1
		}
		if s.a == a && s.b == b && s.fork == tag.Fork {
			return int(s.id - 1)
		}
	}
}

// insert mirrors BufTableInsert: it adds tag → id unless tag is present, and returns the
// buf_id already there, or -1 when it inserted.
func (t *bufTable) insert(tag BufferTag, hash uint64, id int) int {
	a, b := packTag(tag)
	mask := len(t.slots) - 1
	for i := t.home(hash); ; i = (i + 1) & mask {
		s := &t.slots[i]
		if s.id == 0 {
			*s = tableSlot{a: a, b: b, id: int32(id + 1), fork: tag.Fork}
			t.count++
			return -1
		}
		if s.a == a && s.b == b && s.fork == tag.Fork {
			return int(s.id - 1)
		}
	}
}

// delete mirrors BufTableDelete. It reports whether tag was present, and closes the gap by
// shifting later entries of the probe run back, so no tombstones are left.
func (t *bufTable) delete(tag BufferTag, hash uint64) bool {
	a, b := packTag(tag)
	mask := len(t.slots) - 1
	i := t.home(hash)
	for {
		s := &t.slots[i]
		if s.id == 0 {
			return false
		}
		if s.a == a && s.b == b && s.fork == tag.Fork {
			break
		}
		i = (i + 1) & mask
	}
	for j := (i + 1) & mask; t.slots[j].id != 0; j = (j + 1) & mask {
		s := t.slots[j]
		h := t.home(BufTableHashCode(s.tag()))
		// Move s back into the hole at i unless its home lies cyclically in (i, j].
		if (j > i && (h <= i || h > j)) || (j < i && h <= i && h > j) {
			t.slots[i] = s
			i = j
		}
	}
	t.slots[i] = tableSlot{}
	t.count--
	return true
}

func (s tableSlot) tag() BufferTag {
	return BufferTag{
		Locator: RelFileLocator{SpcOid: Oid(s.a >> 32), DbOid: Oid(s.a), RelNumber: Oid(s.b >> 32)},
		Fork:    s.fork,
		Block:   BlockNumber(s.b),
	}
}
