package sim

// ReadStream mirrors PostgreSQL 18's read stream (src/backend/storage/aio/read_stream.c) over
// one fork of one relation, read in the order a callback gives its blocks: it pins buffers
// ahead of the one its consumer is working on, up to a look-ahead distance that starts at 1
// and doubles each time the consumer waits for a read, and reads runs of consecutive blocks
// in one I/O of up to io_combine_limit blocks (StartReadBuffers). Through a ring, the buffers
// pinned ahead are taken from the ring before the consumer has dirtied the ones before them:
// VACUUM's ring then flushes WAL once per read instead of once per ring-ful.
//
// I/O completes when the consumer waits for it (WaitReadBuffers); the model has no time of its
// own for that, only the order of pins, reads and victims, which is the order PostgreSQL
// takes them in. Left out: the fast path (an equivalent of the distance-1 case for hits),
// read-ahead advice, and forwarded buffers (a read split at a hit pins the hit buffer again
// in the next read rather than keeping it pinned), none of which changes which buffers are
// taken.
type ReadStream struct {
	p        *Pool
	b        *Backend
	strategy *BufferAccessStrategy
	loc      RelFileLocator
	fork     ForkNumber
	next     func() (BlockNumber, bool)
	// otherPins are pins the consumer holds besides the stream's and the buffer it was last
	// handed (VACUUM's visibility map buffer), which GetAdditionalPinLimit counts.
	otherPins int

	maxPinned, maxIOs, ioCombineLimit int
	distance                          int

	queue   []int // the buffers pinned ahead, oldest first
	head    int   // buffers handed to the consumer so far
	ios     []int // for each read in progress, the sequence number of its first buffer
	handed  bool  // the consumer holds a buffer the stream handed it
	pending struct {
		blk BlockNumber
		n   int
	}
	unget struct {
		blk BlockNumber
		ok  bool
	}

	// Reads counts the reads the stream started that had I/O to do (each of up to
	// io_combine_limit blocks), Blocks the blocks they read.
	Reads, Blocks uint64
}

// ReadStreamFlags are read_stream_begin_relation's flags the model uses.
type ReadStreamFlags uint8

const (
	// ReadStreamMaintenance mirrors READ_STREAM_MAINTENANCE: the stream is a maintenance
	// command's, whose concurrent I/Os are maintenance_io_concurrency's.
	ReadStreamMaintenance ReadStreamFlags = 1 << iota
	// ReadStreamFull mirrors READ_STREAM_FULL: the whole relation will be read, so the
	// distance starts at a full read.
	ReadStreamFull
)

// NewReadStream mirrors read_stream_begin_relation: a stream for backend b over fork of the
// relation at loc through strategy (nil for none), whose blocks next returns in turn (false:
// the end). The most buffers it pins is (max_ios + 1) × io_combine_limit, capped by the
// strategy's pin limit (GetAccessStrategyPinLimit) and the backend's (GetPinLimit); otherPins
// are pins the consumer holds besides the stream's.
func (p *Pool) NewReadStream(b *Backend, strategy *BufferAccessStrategy, loc RelFileLocator, fork ForkNumber, flags ReadStreamFlags, otherPins int, next func() (BlockNumber, bool)) *ReadStream {
	s := &ReadStream{p: p, b: b, strategy: strategy, loc: loc, fork: fork, next: next, otherPins: otherPins}
	s.maxIOs = p.IO.EffectiveIOConcurrency
	if flags&ReadStreamMaintenance != 0 {
		s.maxIOs = p.IO.MaintenanceIOConcurrency
	}
	s.ioCombineLimit = max(p.IO.IOCombineLimit, 1)
	// PostgreSQL 18 pins up to (max_ios + 1) × io_combine_limit ahead (55918f798b); 17, whose
	// streams began it, Max(max_ios × 4, io_combine_limit).
	pins := (s.maxIOs + 1) * s.ioCombineLimit
	if p.Version.Resolve() < 18 {
		pins = max(s.maxIOs*4, s.ioCombineLimit)
	}
	s.maxPinned = min(pins, strategy.PinLimit(p.NBuffers), p.PinLimit())
	s.maxPinned = max(s.maxPinned, 1)
	if s.maxIOs == 0 {
		s.maxIOs = 1 // one synchronous read at a time
	}
	s.distance = 1
	if flags&ReadStreamFull != 0 {
		s.distance = min(s.maxPinned, s.ioCombineLimit)
	}
	return s
}

// PinLimit mirrors GetPinLimit: MaxProportionalPins, NBuffers / (MaxBackends +
// NUM_AUXILIARY_PROCS), the pins a backend should hold at most.
func (p *Pool) PinLimit() int { return p.NBuffers / max(p.IO.PinLimitProcs, 1) }

// PinLimit mirrors GetAccessStrategyPinLimit for a pool of nbuffers: no limit but the pool
// without a ring, the whole ring for BAS_BULKREAD (StrategyRejectBuffer keeps dirty buffers
// out of it), half the ring otherwise, so that look-ahead does not force dirty ring buffers
// out, with their WAL, too early.
func (s *BufferAccessStrategy) PinLimit(nbuffers int) int {
	switch {
	case s == nil:
		return nbuffers
	case s.Type == BAS_BULKREAD:
		return s.RingSize()
	default:
		return s.RingSize() / 2
	}
}

// MaxPinned returns the most buffers the stream pins ahead.
func (s *ReadStream) MaxPinned() int { return s.maxPinned }

// Distance returns the stream's look-ahead distance now.
func (s *ReadStream) Distance() int { return s.distance }

// Pinned returns the buffers the stream has pinned ahead of its consumer, oldest first. The
// slice is the stream's own.
func (s *ReadStream) Pinned() []int { return s.queue }

// getBlock returns the next block, the one given back by ungetBlock first.
func (s *ReadStream) getBlock() (BlockNumber, bool) {
	if s.unget.ok {
		s.unget.ok = false
		return s.unget.blk, true
	}
	return s.next()
}

// Next mirrors read_stream_next_buffer: it hands the consumer the next buffer, pinned, which
// the consumer releases (ReleaseBuffer) before it asks for the next; false at the end.
func (s *ReadStream) Next() (int, bool, error) {
	if len(s.queue) == 0 {
		if s.distance == 0 {
			return -1, false, nil
		}
		if err := s.lookAhead(); err != nil {
			return -1, false, err
		}
		if len(s.queue) == 0 {
			return -1, false, nil
		}
	}
	id := s.queue[0]
	if len(s.ios) > 0 && s.ios[0] == s.head {
		// WaitReadBuffers: the consumer waited for a read, so look further ahead.
		s.ios = s.ios[1:]
		s.distance = min(s.distance*2, s.maxPinned)
	}
	s.queue = s.queue[1:]
	s.head++
	s.handed = true
	return id, true, s.lookAhead()
}

// End mirrors read_stream_end: the buffers pinned ahead are released.
func (s *ReadStream) End() error {
	for _, id := range s.queue {
		if err := s.p.ReleaseBuffer(s.b, id); err != nil {
			return err
		}
	}
	s.queue, s.ios, s.distance = nil, nil, 0
	return nil
}

// lookAhead mirrors read_stream_look_ahead: it gathers the next blocks into a pending read,
// starting it when it reaches io_combine_limit blocks or cannot grow, as long as the buffers
// pinned and pending stay under the distance and reads in progress under max_ios.
func (s *ReadStream) lookAhead() error {
	for len(s.ios) < s.maxIOs && len(s.queue)+s.pending.n < s.distance {
		if s.pending.n == s.ioCombineLimit {
			if _, err := s.startPending(); err != nil {
				return err
			}
			continue
		}
		blk, ok := s.getBlock()
		if !ok {
			s.distance = 0 // the end of the stream
			break
		}
		if s.pending.n > 0 && s.pending.blk+BlockNumber(s.pending.n) == blk {
			s.pending.n++
			continue
		}
		for s.pending.n > 0 {
			started, err := s.startPending()
			if err != nil {
				return err
			}
			if !started || len(s.ios) == s.maxIOs {
				s.unget.blk, s.unget.ok = blk, true // the buffer or I/O limit: stop here
				return nil
			}
		}
		s.pending.blk, s.pending.n = blk, 1
	}
	// The pending read is kept to grow to a full read once more buffers are consumed, unless
	// it is full, nothing is pinned to give the consumer, or the stream has ended.
	if s.pending.n > 0 && (s.pending.n == s.ioCombineLimit || s.pending.n >= s.distance && len(s.queue) == 0 || s.distance == 0) &&
		len(s.ios) < s.maxIOs {
		if _, err := s.startPending(); err != nil {
			return err
		}
	}
	return nil
}

// startPending mirrors read_stream_start_pending_read: it starts the pending read, or as much
// of it as the backend's pin limit allows (GetAdditionalPinLimit), and reports whether it
// started anything.
func (s *ReadStream) startPending() (bool, error) {
	limit := max(s.p.PinLimit()-s.estimatedPins(), 0)
	if limit == 0 && len(s.queue) == 0 {
		limit = 1 // guarantee progress
	}
	n := s.pending.n
	if limit < n {
		// No more look-ahead until buffers are released.
		s.distance = min(s.distance, len(s.queue)+limit)
		if len(s.queue) > 0 {
			return false, nil
		}
		n = limit
	}
	first := s.head + len(s.queue)
	got, wait, err := s.p.StartReadBuffers(s.b, s.strategy, BufferTag{Locator: s.loc, Fork: s.fork, Block: s.pending.blk}, n, &s.queue)
	if err != nil {
		return false, err
	}
	if !wait {
		if s.distance > 1 {
			s.distance-- // all hits: the look-ahead decays
		}
	} else {
		s.ios = append(s.ios, first)
		s.Reads++
		s.Blocks += uint64(got)
	}
	s.pending.blk += BlockNumber(got)
	s.pending.n -= got
	return true, nil
}

// estimatedPins mirrors GetAdditionalPinLimit's estimate of the pins the backend holds:
// those beyond the private refcount array exactly (PrivateRefCountOverflowed), plus the
// array's entries, all taken as used. The model's backend holds the stream's pins, the
// buffer last handed to the consumer and the consumer's other pins.
func (s *ReadStream) estimatedPins() int {
	held := len(s.queue) + s.otherPins
	if s.handed {
		held++
	}
	return max(held-refCountArrayEntries, 0) + refCountArrayEntries
}

// StartReadBuffers mirrors StartReadBuffers for up to n blocks from tag on: it pins a buffer
// for each block in turn (through strategy, a victim from its ring for each miss), appending
// them to ids, and reports how many it took and whether any needs reading (the caller waits
// for it). A block already in the pool ends the range before it, unless it is the first,
// which is then returned alone as a hit.
func (p *Pool) StartReadBuffers(b *Backend, strategy *BufferAccessStrategy, tag BufferTag, n int, ids *[]int) (int, bool, error) {
	for i := range n {
		t := tag
		t.Block += BlockNumber(i)
		if id := p.Lookup(t); id >= 0 && p.desc[id].State.Has(BM_VALID) {
			if i > 0 {
				return i, true, nil // the read is split before the hit
			}
			id, err := p.ReadBufferExtended(b, t, strategy)
			if err != nil {
				return 0, false, err
			}
			*ids = append(*ids, id)
			return 1, false, nil
		}
		id, err := p.ReadBufferExtended(b, t, strategy)
		if err != nil {
			return i, i > 0, err
		}
		*ids = append(*ids, id)
	}
	return n, true, nil
}
