package sim

import "math/bits"

// bufTable mirrors the shared buffer mapping table of buf_table.c: BufferTag → buf_id.
//
// PostgreSQL keeps it in a partitioned dynahash; here it is an open-addressing table with
// linear probing and backward-shift deletion, keyed by the tag packed into two words plus the
// fork (a tableKey). Like a dynahash element, each slot also keeps the top bits of its key's
// hash code, so deletion finds an entry's home slot without rehashing the tag. The partition
// of a tag (hashcode % NUM_BUFFER_PARTITIONS) only decides which partition lock a lookup would
// take; the simulation counts those acquisitions per partition.
type bufTable struct {
	slots []tableSlot
	shift uint // 64 - log2(len(slots)): the slot index is the hash's top bits
	count int
	// touched keeps touch's reads from being dropped as unused.
	touched uint32
}

// tableSlot holds one entry in 24 bytes. The zero slot is empty.
type tableSlot struct {
	a, b uint64 // the packed tag, as in tableKey
	// val holds the fork in its top byte and buf_id+1 in the low 24 bits (MaxNBuffers is
	// below 2^24), so it is never zero in a used slot.
	val uint32
	// hash is the top 32 bits of the tag's hash code; the home slot is its top bits.
	hash uint32
}

// slotBufMask selects buf_id+1 in tableSlot.val; the fork sits above it.
const (
	slotBufMask   = 1<<24 - 1
	slotForkShift = 24
)

// Every buf_id+1 fits below the fork: the array length is negative, and the build fails, if
// MaxNBuffers outgrows slotBufMask.
var _ [slotBufMask - MaxNBuffers]struct{}

// tableKey is a BufferTag packed into the words the mapping table hashes and compares. Go
// keeps it in registers where the five-field tag would go through memory.
type tableKey struct {
	a, b uint64 // spc<<32|db, rel<<32|block
	fork ForkNumber
}

// packTag packs a tag into its table key.
func packTag(t BufferTag) tableKey {
	return tableKey{
		a:    uint64(t.Locator.SpcOid)<<32 | uint64(t.Locator.DbOid),
		b:    uint64(t.Locator.RelNumber)<<32 | uint64(t.Block),
		fork: t.Fork,
	}
}

// hash is BufTableHashCode of the key's tag.
func (k tableKey) hash() uint64 {
	h := k.a*0x9E3779B97F4A7C15 ^ k.b*0xC2B2AE3D27D4EB4F ^ uint64(k.fork)*0x165667B19E3779F9
	h ^= h >> 29
	h *= 0xBF58476D1CE4E5B9
	h ^= h >> 32
	return h
}

// BufTableHashCode mirrors BufTableHashCode: the hash of a tag. PostgreSQL uses hash_bytes
// over the 20 tag bytes; this uses a 64-bit multiply-xorshift mix, so partitions differ from a
// real server's but are as uniform.
func BufTableHashCode(t BufferTag) uint64 { return packTag(t).hash() }

// BufTablePartition returns the mapping partition of a hash code (BufTableHashPartition).
func BufTablePartition(hash uint64) int { return int(hash % NumBufferPartitions) }

// newBufTable sizes the table for entries keys, as InitBufTable sizes it for
// NBuffers + NUM_BUFFER_PARTITIONS, at a load factor of at most 0.8.
func newBufTable(entries int) *bufTable {
	n := tableSlots(entries)
	return &bufTable{slots: make([]tableSlot, n), shift: uint(64 - bits.TrailingZeros(uint(n)))}
}

// tableSlots is the slots of a table for entries: a power of two with a quarter to spare.
func tableSlots(entries int) int {
	n := 16
	for n < entries+entries/4 {
		n <<= 1
	}
	return n
}

// home returns the slot a hash code's probe run starts at.
func (t *bufTable) home(hash uint64) int { return int(hash >> t.shift) }

// slotHome returns the home slot of the entry in s, from the hash bits it keeps.
func (t *bufTable) slotHome(s *tableSlot) int { return int(s.hash >> (t.shift - 32)) }

// holds reports whether slot s holds key k. It compares all three words at once: each && of
// a field-by-field comparison is a branch, and branches are dear in WebAssembly.
func (s *tableSlot) holds(k tableKey) bool {
	return (s.a^k.a)|(s.b^k.b)|uint64(s.val>>slotForkShift^uint32(k.fork)) == 0
}

// touch reads the home slot of each hash code, so that the inserts that follow find them in
// the cache. In a table far larger than the caches (a 100GB pool's is 400 MB) each insert's
// probe waits for its slot's miss in turn; these reads do not depend on one another, so the
// processor overlaps their misses. It changes nothing in the table.
func (t *bufTable) touch(hashes []uint64) {
	var v uint32
	for _, h := range hashes {
		v |= t.slots[t.home(h)].val
	}
	t.touched = v
}

// lookup mirrors BufTableLookup: the buf_id holding k, or -1. It is small enough to inline
// into BufferAlloc.
func (t *bufTable) lookup(k tableKey, hash uint64) int {
	for i := t.home(hash); ; i = (i + 1) & (len(t.slots) - 1) {
		// An empty slot ends the probe run; its val of zero gives -1.
		if s := &t.slots[i]; s.val == 0 || s.holds(k) {
			return int(s.val&slotBufMask) - 1
		}
	}
}

// insert mirrors BufTableInsert: it adds k → id unless k is present, and returns the buf_id
// already there, or -1 when it inserted.
func (t *bufTable) insert(k tableKey, hash uint64, id int) int {
	for i := t.home(hash); ; i = (i + 1) & (len(t.slots) - 1) {
		s := &t.slots[i]
		if s.val == 0 {
			*s = tableSlot{a: k.a, b: k.b, val: uint32(k.fork)<<slotForkShift | uint32(id+1), hash: uint32(hash >> 32)}
			t.count++
			return -1
		}
		if s.holds(k) {
			return int(s.val&slotBufMask) - 1
		}
	}
}

// delete mirrors BufTableDelete. It reports whether k was present, and closes the gap by
// shifting later entries of the probe run back, so no tombstones are left.
func (t *bufTable) delete(k tableKey, hash uint64) bool {
	mask := len(t.slots) - 1
	i := t.home(hash)
	for {
		s := &t.slots[i]
		if s.val == 0 {
			return false
		}
		if s.holds(k) {
			break
		}
		i = (i + 1) & mask
	}
	for j := (i + 1) & mask; t.slots[j].val != 0; j = (j + 1) & mask {
		// Move the entry at j back into the hole at i unless its home lies cyclically in
		// (i, j], that is, unless it is nearer to its home than the hole is.
		if h := t.slotHome(&t.slots[j]); (j-h)&mask >= (j-i)&mask {
			t.slots[i] = t.slots[j]
			i = j
		}
	}
	t.slots[i] = tableSlot{}
	t.count--
	return true
}

// key returns the key held in slot s.
func (s *tableSlot) key() tableKey {
	return tableKey{a: s.a, b: s.b, fork: ForkNumber(s.val >> slotForkShift)}
}
