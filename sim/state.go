package sim

import "strings"

// BufferState mirrors the 32-bit state word of a BufferDesc (buf_internals.h, PostgreSQL
// 9.6–18): bits 0–17 hold the shared refcount, bits 18–21 the usage_count and bits 22–31 the
// flags.
type BufferState uint32

// Layout of the state word, as in buf_internals.h.
const (
	BufRefcountOne     BufferState = 1
	BufRefcountMask    BufferState = (1 << 18) - 1
	BufUsagecountMask  BufferState = 0x003C0000
	BufUsagecountOne   BufferState = 1 << 18
	BufUsagecountShift             = 18
	BufFlagMask        BufferState = 0xFFC00000
)

// The buffer flags, with PostgreSQL's names and bit positions.
const (
	BM_LOCKED            BufferState = 1 << 22 // header spinlock; never held between steps here
	BM_DIRTY             BufferState = 1 << 23 // data needs writing
	BM_VALID             BufferState = 1 << 24 // data is valid
	BM_TAG_VALID         BufferState = 1 << 25 // tag is assigned and in the mapping table
	BM_IO_IN_PROGRESS    BufferState = 1 << 26 // read or write in progress
	BM_IO_ERROR          BufferState = 1 << 27 // previous I/O failed
	BM_JUST_DIRTIED      BufferState = 1 << 28 // dirtied since write started
	BM_PIN_COUNT_WAITER  BufferState = 1 << 29 // have waiter for sole pin
	BM_CHECKPOINT_NEEDED BufferState = 1 << 30 // must write for checkpoint
	BM_PERMANENT         BufferState = 1 << 31 // permanent buffer (not unlogged or init fork)
)

// RefCount returns the number of backends pinning the buffer (BUF_STATE_GET_REFCOUNT).
func (s BufferState) RefCount() int { return int(s & BufRefcountMask) }

// UsageCount returns the clock-sweep usage count, 0 to BMMaxUsageCount
// (BUF_STATE_GET_USAGECOUNT).
func (s BufferState) UsageCount() int { return int((s & BufUsagecountMask) >> BufUsagecountShift) }

// Has reports whether every bit of flag is set.
func (s BufferState) Has(flag BufferState) bool { return s&flag == flag }

var flagNames = []struct {
	bit  BufferState
	name string
}{
	{BM_LOCKED, "LOCKED"},
	{BM_DIRTY, "DIRTY"},
	{BM_VALID, "VALID"},
	{BM_TAG_VALID, "TAG_VALID"},
	{BM_IO_IN_PROGRESS, "IO_IN_PROGRESS"},
	{BM_IO_ERROR, "IO_ERROR"},
	{BM_JUST_DIRTIED, "JUST_DIRTIED"},
	{BM_PIN_COUNT_WAITER, "PIN_COUNT_WAITER"},
	{BM_CHECKPOINT_NEEDED, "CHECKPOINT_NEEDED"},
	{BM_PERMANENT, "PERMANENT"},
}

// FlagNames returns the names of the set flags without the BM_ prefix, in bit order.
func (s BufferState) FlagNames() []string {
	var names []string
	for _, f := range flagNames {
		if s&f.bit != 0 {
			names = append(names, f.name)
		}
	}
	return names
}

// FlagString joins FlagNames with "|", or returns "-" when no flag is set.
func (s BufferState) FlagString() string {
	n := s.FlagNames()
	if len(n) == 0 {
		return "-"
	}
	return strings.Join(n, "|")
}
