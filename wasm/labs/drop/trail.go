package drop

// TrailTicks is how long the descriptors a scan checked stay lit behind its cursor: half a
// second at 60 ticks per second.
const TrailTicks = 30

// maxSegments bounds the trail; past it the oldest segments go first. A frame adds one
// segment per scan it runs through, and a scan longer than a frame adds one per frame.
const maxSegments = 96

// Segment is a range of buffers [First, End) a scan checked, at tick Born.
type Segment struct {
	First, End int
	Born       uint32
}

// Trail is the recent ranges of descriptors the scans checked, oldest first.
type Trail struct{ segs []Segment }

// add notes that the scan checked [first, end) at tick now, extending the last segment when
// it continues it.
func (t *Trail) add(first, end int, now uint32) {
	if end <= first {
		return
	}
	if n := len(t.segs); n > 0 {
		if last := &t.segs[n-1]; last.Born == now && last.End == first {
			last.End = end
			return
		}
	}
	if len(t.segs) >= maxSegments {
		t.segs = append(t.segs[:0], t.segs[1:]...)
	}
	t.segs = append(t.segs, Segment{first, end, now})
}

// age forgets the segments older than TrailTicks at tick now.
func (t *Trail) age(now uint32) {
	keep := t.segs[:0]
	for _, s := range t.segs {
		if now-s.Born < TrailTicks {
			keep = append(keep, s)
		}
	}
	t.segs = keep
}

// Segments returns the trail, oldest first; the slice is the trail's own.
func (t *Trail) Segments() []Segment { return t.segs }

// Clear forgets the trail.
func (t *Trail) Clear() { t.segs = t.segs[:0] }

// Fade returns how bright something born at tick born is at tick now when it fades out over
// ticks: 1 when new, falling to 0.
func Fade(born, now uint32, ticks int) float64 {
	age := float64(now - born)
	return max(0, 1-age/float64(ticks))
}

// TapeLen is how many lookups the tape remembers: more than a lane of pips can show.
const TapeLen = 512

// Lookup is one lookup on the tape: whether it missed, the role (as Watch.RelOf gave it) of
// the buffer it found, and the tick it was made at.
type Lookup struct {
	Miss bool
	Rel  int
	Born uint32
}

// Tape is the outcomes of the most recent lookups, in the order they were made.
type Tape struct {
	ring   [TapeLen]Lookup
	next   int    // where the next lookup goes
	Total  uint64 // lookups ever pushed
	Misses uint64 // of which missed
}

func (t *Tape) push(l Lookup) {
	t.ring[t.next] = l
	t.next = (t.next + 1) % TapeLen
	t.Total++
	if l.Miss {
		t.Misses++
	}
}

// Recent appends the last k lookups (fewer if fewer were made) to dst, oldest first.
func (t *Tape) Recent(dst []Lookup, k int) []Lookup {
	k = int(min(uint64(max(k, 0)), t.Total, TapeLen))
	for i := k; i > 0; i-- {
		dst = append(dst, t.ring[(t.next-i+TapeLen)%TapeLen])
	}
	return dst
}

// FoundLen is how many of the buffers recent lookups found are remembered, and FoundTicks
// how long each is marked.
const (
	FoundLen   = 24
	FoundTicks = 20
)

// Found is the buffers the most recent lookups found.
type Found struct {
	ring [FoundLen]struct {
		buffer int32
		born   uint32
	}
	next, n int
}

func (f *Found) push(buffer int32, now uint32) {
	f.ring[f.next].buffer, f.ring[f.next].born = buffer, now
	f.next = (f.next + 1) % FoundLen
	f.n = min(f.n+1, FoundLen)
}

// Each calls fn for each remembered buffer younger than FoundTicks at tick now, oldest first,
// with how bright its mark is (Fade).
func (f *Found) Each(now uint32, fn func(buffer int, fade float64)) {
	for i := f.n; i > 0; i-- {
		e := f.ring[(f.next-i+FoundLen)%FoundLen]
		if now-e.born < FoundTicks {
			fn(int(e.buffer), Fade(e.born, now, FoundTicks))
		}
	}
}

// ScaleMeter measures how fast modelled time passes against wall time, over windows of
// about a second.
type ScaleMeter struct {
	wall, modelled float64 // start of the window
	started        bool
	scale          float64
}

// Observe takes the wall time and the modelled time, both in seconds, and closes the window
// once a second has passed.
func (m *ScaleMeter) Observe(wall, modelled float64) {
	if !m.started || wall < m.wall || modelled < m.modelled {
		m.wall, m.modelled, m.started = wall, modelled, true
		return
	}
	if dt := wall - m.wall; dt >= 1 {
		m.scale = (modelled - m.modelled) / dt
		m.wall, m.modelled = wall, modelled
	}
}

// Restart begins a new window at the next Observe, keeping the last scale: modelled time
// that jumped (steps run by hand, not by playback) is left out.
func (m *ScaleMeter) Restart() { m.started = false }

// Scale returns modelled seconds per wall second over the last full window; 0 before one.
func (m *ScaleMeter) Scale() float64 { return m.scale }
