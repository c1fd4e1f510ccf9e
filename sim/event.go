package sim

import "fmt"

// EventKind says what happened to a buffer during a step. The zero value is no event.
type EventKind uint8

// The events a step can report, for rendering and for invariant checks.
const (
	EvNone       EventKind = iota
	EvHit                  // ReadBuffer found the page in the pool
	EvRead                 // ReadBuffer loaded the page into a victim buffer
	EvEvict                // a valid page was evicted to make room
	EvWrite                // a dirty page was written (FlushBuffer)
	EvWALFlush             // XLogFlush wrote and synced WAL
	EvDirty                // MarkBufferDirty
	EvPin                  // a backend's first pin of a buffer
	EvUnpin                // a backend's last unpin of a buffer
	EvInvalidate           // InvalidateBuffer dropped the page without writing it
	EvLookup               // a drop's lookup found the buffer, or missed (Buffer -1)
)

var eventNames = [...]string{"none", "hit", "read", "evict", "write", "walflush", "dirty", "pin", "unpin", "invalidate", "lookup"}

// String returns the event's lower-case name.
func (k EventKind) String() string {
	if int(k) < len(eventNames) {
		return eventNames[k]
	}
	return fmt.Sprintf("event%d", uint8(k))
}

// Cause says who made a write or a WAL flush happen. The zero value is a client backend.
type Cause uint8

// The causes of writes and flushes.
const (
	ByBackend    Cause = iota // a client evicting a dirty victim
	ByWALWriter               // the WAL writer's background flush
	ByBgWriter                // the background writer cleaning ahead of the clock hand
	ByCheckpoint              // an explicit checkpoint
	ByCommand                 // an explicit command (transcripts, the bridge)
	ByCommit                  // a committing transaction (RecordTransactionCommit)
	ByStrategy                // a ring's owner (VACUUM, COPY) writing its own dirty buffer
)

var causeNames = [...]string{"backend", "walwriter", "bgwriter", "checkpoint", "command", "commit", "strategy"}

// String returns the cause's lower-case name.
func (c Cause) String() string {
	if int(c) < len(causeNames) {
		return causeNames[c]
	}
	return fmt.Sprintf("cause%d", uint8(c))
}

// Event is one thing that happened in the last step. Buffer is a buf_id, or -1 for events
// that concern no buffer (a WAL flush).
type Event struct {
	Kind    EventKind
	Cause   Cause
	Backend int16
	Buffer  int32
	// LSN is the page LSN of a written page, or the target of a WAL flush.
	LSN LSN
	// Flushed is the WAL flush position when the event happened.
	Flushed LSN
	// Permanent reports whether a written page belongs to a WAL-logged relation.
	Permanent bool
	// N is how many things a lab's event stands for (items marked LP_DEAD, hints lost),
	// for counting them; 0 means one, as for every event of the core.
	N uint32
}

// Count returns how many things e stands for: N, or 1 when N is 0.
func (e *Event) Count() uint64 { return uint64(max(e.N, 1)) }
