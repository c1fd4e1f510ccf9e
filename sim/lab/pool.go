package lab

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/bufferscope/bufferscope/sim"
)

// Pool is the counters every pool keeps (sim.Stats), as a lab embeds them in its own
// counters when the reader should see them: hits and misses, evictions, writes and WAL.
type Pool struct {
	HitRatio           float64 `counter:"hitRatio" label:"Hit ratio" format:"ratio" of:"accesses" doc:"Share of ReadBuffer calls that found the page in shared buffers."`
	Hits               uint64  `counter:"hits" label:"Hits" unit:"pages" format:"count" doc:"ReadBuffer found the page in shared buffers."`
	Misses             uint64  `counter:"misses" label:"Misses" unit:"pages" format:"count" doc:"ReadBuffer had to read the page, from the OS cache or storage."`
	Evictions          uint64  `counter:"evictions" label:"Evictions" unit:"pages" format:"count" doc:"Valid pages the clock sweep evicted to make room."`
	DirtyWrites        uint64  `counter:"dirtyWrites" label:"Dirty victims written" unit:"pages" format:"count" doc:"Dirty victims a backend had to write before reusing the buffer."`
	BgWriterWrites     uint64  `counter:"bgwriterWrites" label:"Written by the bgwriter" unit:"pages" format:"count" doc:"Pages the background writer cleaned ahead of the clock hand."`
	WALFlushes         uint64  `counter:"walFlushes" label:"WAL flushes" format:"count" doc:"XLogFlush calls that wrote and synced WAL."`
	WALFlushesBackend  uint64  `counter:"walFlushesBackend" sub:"true" label:"forced by a dirty victim" format:"count" doc:"WAL flushes a backend had to make before writing a dirty victim (FlushBuffer)."`
	WALFlushesWriter   uint64  `counter:"walFlushesWriter" sub:"true" label:"by the WAL writer" format:"count" doc:"WAL flushes the WAL writer made on its rounds."`
	Now                float64 `counter:"now" label:"Modelled time" unit:"s" format:"seconds" doc:"The simulation's virtual clock."`
	Step               uint64  `counter:"step" label:"Steps" format:"count" doc:"Simulation steps taken."`
	Accesses           uint64  `counter:"accesses" label:"Accesses" format:"count" hidden:"true" doc:"ReadBuffer calls."`
	ReadsOSCache       uint64  `counter:"readsOSCache" label:"Read from the OS cache" unit:"pages" format:"count" hidden:"true"`
	ReadsDisk          uint64  `counter:"readsDisk" label:"Read from storage" unit:"pages" format:"count" hidden:"true"`
	CheckpointWrites   uint64  `counter:"checkpointWrites" label:"Written by checkpoints" unit:"pages" format:"count" hidden:"true"`
	Updates            uint64  `counter:"updates" label:"Page changes" unit:"pages" format:"count" hidden:"true" doc:"Pages changed under a WAL record."`
	WALInsert          string  `counter:"walInsert" label:"WAL inserted to" format:"lsn" hidden:"true"`
	WALFlushed         string  `counter:"walFlushed" label:"WAL flushed to" format:"lsn" hidden:"true"`
	ClockHand          int     `counter:"clockHand" label:"Clock hand" format:"count" hidden:"true"`
	SweepPasses        uint64  `counter:"sweepPasses" label:"Sweep passes" format:"count" hidden:"true"`
	DescriptorsChecked uint64  `counter:"descriptorsChecked" label:"Descriptors checked" format:"count" hidden:"true"`
}

// PoolOf returns the pool counters of s now.
func PoolOf(s *sim.Sim) Pool {
	st := s.Stats()
	return Pool{
		Step: st.Steps, Now: s.Now().Seconds(), Accesses: st.Accesses, HitRatio: st.HitRatio(),
		Hits: st.Hits, Misses: st.Misses, ReadsOSCache: st.ReadsOSCache, ReadsDisk: st.ReadsDisk,
		Evictions: st.Evictions, DirtyWrites: st.DirtyWrites, BgWriterWrites: st.BgWriterWrites,
		CheckpointWrites: st.CheckpointWrites, Updates: st.Updates, WALFlushes: st.WALFlushes,
		WALFlushesBackend: st.WALFlushesBackend, WALFlushesWriter: st.WALFlushesWriter,
		WALInsert: s.Pool.WAL.Insert.String(), WALFlushed: s.Pool.WAL.Flushed.String(),
		ClockHand: s.Pool.ClockHand(), SweepPasses: st.SweepPasses, DescriptorsChecked: st.DescriptorsChecked,
	}
}

// SharedBuffers is the shared_buffers parameter every lab declares: the pool's size as
// PostgreSQL writes it, normalised to what was written without surrounding spaces (so the
// headless command repeats it exactly), between 128kB and 100GB.
func SharedBuffers(doc string) Param {
	return Param{
		Key: "shared_buffers", Label: "shared_buffers", Kind: Text, Unit: "size",
		Default: sim.DefaultSharedBuffers, Doc: doc, Sweep: true, Presets: sizePresets,
		Parse: func(s string, _ Values) (string, error) {
			if _, err := sim.SharedBuffersToNBuffers(s); err != nil {
				return "", problemOf(err)
			}
			return s, nil
		},
	}
}

// SharedBuffersDefault is SharedBuffers with def for its default, for a lab whose pool is
// best shown at another size. When def is not one of the offered sizes it joins them in
// order of size, so the page's list stays sorted instead of showing it after the largest.
func SharedBuffersDefault(doc, def string) Param {
	p := SharedBuffers(doc)
	p.Default = def
	n, err := sim.SharedBuffersToNBuffers(def)
	if err != nil {
		panic("lab: default shared_buffers " + def + ": " + err.Error())
	}
	at := len(p.Presets)
	for i, o := range p.Presets {
		m, _ := sim.SharedBuffersToNBuffers(o.Value)
		if m == n {
			return p
		}
		if m > n {
			at = i
			break
		}
	}
	p.Presets = slices.Insert(slices.Clone(p.Presets), at, Option{Value: def, Label: def + " · " + buffersLabel(n)})
	return p
}

// buffersLabel writes a number of buffers as the offered sizes' labels do: "32,768 buffers",
// "2.6M buffers".
func buffersLabel(n int) string {
	if n >= 1_000_000 {
		return fmt.Sprintf("%.1fM buffers", float64(n)/1e6)
	}
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s + " buffers"
}

// sizePresets are the shared_buffers the page offers, from the smallest pool PostgreSQL
// accepts to the largest this simulator builds.
var sizePresets = []Option{
	{Value: "128kB", Label: "128kB · 16 buffers"},
	{Value: "1MB", Label: "1MB · 128 buffers"},
	{Value: "8MB", Label: "8MB · 1,024 buffers"},
	{Value: "128MB", Label: "128MB · 16,384 buffers"},
	{Value: "512MB", Label: "512MB · 65,536 buffers"},
	{Value: "1GB", Label: "1GB · 131,072 buffers"},
	{Value: "4GB", Label: "4GB · 524,288 buffers"},
	{Value: "20GB", Label: "20GB · 2.6M buffers"},
	{Value: "100GB", Label: "100GB · 13.1M buffers"},
}

// NBuffers returns the pool size shared_buffers in v asks for; v must have been read by a
// table with SharedBuffers.
func NBuffers(v Values) int {
	n, err := sim.SharedBuffersToNBuffers(v.Text("shared_buffers"))
	if err != nil {
		panic("lab: shared_buffers " + v.Text("shared_buffers") + " was not checked")
	}
	return n
}

// problemOf returns what sim found wrong with a value, without the value, as the table
// quotes the value itself.
func problemOf(err error) error {
	if ve, ok := err.(*sim.ValueError); ok {
		return problem(ve.Problem)
	}
	return err
}

type problem string

func (p problem) Error() string { return string(p) }
