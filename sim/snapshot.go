package sim

import (
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"strings"
)

// BufferView is what a renderer may know about one buffer.
type BufferView struct {
	Tag   BufferTag
	State BufferState
	LSN   LSN
	// Rel is the index of the tag's relation in Relations(), or -1 for an empty buffer.
	Rel int32
}

// Snapshot fills dst with the views of buffers first, first+1, … and returns how many it
// filled. It never allocates and never changes the simulation.
func (s *Sim) Snapshot(dst []BufferView, first int) int {
	p := s.Pool
	if first < 0 || first >= p.NBuffers {
		return 0
	}
	n := min(len(dst), p.NBuffers-first)
	for i := range n {
		d := &p.desc[first+i]
		dst[i] = BufferView{Tag: d.Tag, State: d.State, LSN: d.LSN, Rel: d.rel}
	}
	return n
}

// Relations returns the relations of the simulation in catalog order; BufferView.Rel
// indexes it.
func (s *Sim) Relations() []*Relation { return s.Pool.cat.rels }

// PinnedBy returns the backends that pin buffer id, as "c3" for workload client 3 and "b1"
// for command-driven backend 1, with their private pin counts.
func (s *Sim) PinnedBy(id int) []string {
	var out []string
	for i := range s.clients {
		if n := s.clients[i].backend.PinCount(id); n > 0 {
			out = append(out, fmt.Sprintf("c%d×%d", i, n))
		}
	}
	for i, b := range s.manual {
		if n := b.PinCount(id); n > 0 {
			out = append(out, fmt.Sprintf("b%d×%d", i, n))
		}
	}
	return out
}

// CommandPins returns how many buffers the command-driven backends pin (each buffer once per
// backend): what the page's, the bridge's and the transcripts' pin commands add to the
// shared refcounts, beside a scenario's own backends.
func (s *Sim) CommandPins() int {
	n := 0
	for _, b := range s.manual {
		n += b.Buffers()
	}
	return n
}

// TagName formats a tag with its relation's name when known: "pgbench_accounts/main/12".
func (s *Sim) TagName(t BufferTag) string {
	if i := s.Pool.cat.lookup(t.Locator); i >= 0 {
		return fmt.Sprintf("%s/%s/%d", s.Pool.cat.rels[i].Name, t.Fork, t.Block)
	}
	return t.String()
}

// Hash returns a 64-bit FNV-1a hash of the whole simulated state: descriptors, WAL, clock,
// clock hand, random source, clients and counters. Equal hashes mean equal runs.
func (s *Sim) Hash() uint64 {
	h := fnv.New64a()
	var buf [8]byte
	put := func(v uint64) {
		binary.LittleEndian.PutUint64(buf[:], v)
		h.Write(buf[:])
	}
	p := s.Pool
	for i := range p.desc {
		d := &p.desc[i]
		k := packTag(d.Tag)
		put(k.a)
		put(k.b)
		put(uint64(d.Tag.Fork)<<32 | uint64(d.State))
		put(uint64(d.LSN))
		put(uint64(uint32(d.freeNext)))
	}
	put(uint64(p.WAL.Insert))
	put(uint64(p.WAL.Flushed))
	put(uint64(s.now))
	put(p.nextVictim)
	rs, _ := s.pcg.MarshalBinary()
	h.Write(rs)
	for i := range s.clients {
		put(uint64(s.clients[i].next))
		put(uint64(int64(s.clients[i].held)))
	}
	st := p.Stats
	for _, v := range []uint64{st.Steps, st.Accesses, st.Hits, st.Misses, st.Evictions, st.DirtyWrites, st.WALFlushes, st.DescriptorsChecked} {
		put(v)
	}
	return h.Sum64()
}

// Describe draws the pool as text: a header line, then one line per buffer (tag, usage
// count, pins, flags, LSN), then the freelist and who pins what. Transcript tests compare it.
func (s *Sim) Describe() string {
	p := s.Pool
	var b strings.Builder
	fmt.Fprintf(&b, "NBuffers=%d hand=%d insert=%s flushed=%s now=%s\n", p.NBuffers, p.ClockHand(), p.WAL.Insert, p.WAL.Flushed, s.now)
	for id := 0; id < len(p.desc); id++ {
		d := &p.desc[id]
		if d.State == 0 {
			last := id
			for last+1 < len(p.desc) && p.desc[last+1].State == 0 {
				last++
			}
			if last > id {
				fmt.Fprintf(&b, "%3d-%d empty\n", id, last)
			} else {
				fmt.Fprintf(&b, "%3d empty\n", id)
			}
			id = last
			continue
		}
		fmt.Fprintf(&b, "%3d %s usage=%d pins=%d %s lsn=%s\n", id, s.TagName(d.Tag), d.State.UsageCount(), d.State.RefCount(), d.State.FlagString(), d.LSN)
	}
	if p.Version.HasFreelist() {
		fmt.Fprintf(&b, "freelist [%s]\n", formatRuns(p.Freelist()))
	}
	for id := range p.desc {
		if who := s.PinnedBy(id); len(who) > 0 {
			fmt.Fprintf(&b, "pins %d: %s\n", id, strings.Join(who, " "))
		}
	}
	return b.String()
}

// DescribeEvents lists the events of the last command, one per line.
func (s *Sim) DescribeEvents() string {
	var b strings.Builder
	for _, e := range s.Pool.events {
		switch e.Kind {
		case EvWALFlush:
			fmt.Fprintf(&b, "%s by %s to %s\n", e.Kind, e.Cause, e.Flushed)
		case EvLookup:
			if e.Buffer < 0 {
				fmt.Fprintf(&b, "%s miss\n", e.Kind)
			} else {
				fmt.Fprintf(&b, "%s %d\n", e.Kind, e.Buffer)
			}
		case EvWrite:
			fmt.Fprintf(&b, "%s %d by %s lsn=%s flushed=%s\n", e.Kind, e.Buffer, e.Cause, e.LSN, e.Flushed)
		default:
			fmt.Fprintf(&b, "%s %d\n", e.Kind, e.Buffer)
		}
	}
	return b.String()
}

// formatRuns writes ids with runs of consecutive ascending ids as ranges: "4 0-3 9".
func formatRuns(ids []int) string {
	var parts []string
	for i := 0; i < len(ids); {
		j := i
		for j+1 < len(ids) && ids[j+1] == ids[j]+1 {
			j++
		}
		if j > i {
			parts = append(parts, fmt.Sprintf("%d-%d", ids[i], ids[j]))
		} else {
			parts = append(parts, fmt.Sprint(ids[i]))
		}
		i = j + 1
	}
	return strings.Join(parts, " ")
}
