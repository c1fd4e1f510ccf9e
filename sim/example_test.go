package sim_test

import (
	"fmt"
	"math"

	"github.com/bufferscope/bufferscope/sim"
)

func ExampleNew() {
	s, err := sim.New(sim.Config{NBuffers: 16384, Seed: 1})
	if err != nil {
		panic(err)
	}
	if err := s.Step(100_000); err != nil {
		panic(err)
	}
	st := s.Stats()
	// Zipfian keys keep the hot pages in the pool even though the data is twice its size.
	fmt.Printf("%d buffers, %d accesses, hit ratio above 80%%: %v\n", s.Pool.NBuffers, st.Accesses, st.HitRatio() > 0.8)
	// Output: 16384 buffers, 100000 accesses, hit ratio above 80%: true
}

func ExampleParseCommand() {
	s, _ := sim.New(sim.Config{NBuffers: 16, Workload: &sim.Workload{WALWriterDelay: 200 * sim.Millisecond, BgWriterDelay: 200 * sim.Millisecond}})
	for _, line := range []string{"relation t blocks=8", "update b=0 rel=t blk=3", "pin b=1 rel=t blk=3"} {
		c, err := sim.ParseCommand(line)
		if err != nil {
			panic(err)
		}
		if err := s.Apply(c); err != nil {
			panic(err)
		}
	}
	d := s.Pool.Desc(0)
	fmt.Println(s.TagName(d.Tag), d.State.UsageCount(), d.State.RefCount(), d.State.FlagString(), d.LSN)
	// Output: t/main/3 2 1 DIRTY|VALID|TAG_VALID|JUST_DIRTIED|PERMANENT 0/1000090
}

func ExampleSharedBuffersToNBuffers() {
	for _, s := range []string{"128MB", "1GB", "100GB", "12XB"} {
		n, err := sim.SharedBuffersToNBuffers(s)
		fmt.Println(n, err)
	}
	// Output:
	// 16384 <nil>
	// 131072 <nil>
	// 13107200 <nil>
	// 0 "12XB" is not a size from 128kB to 100GB, like 128MB or 1GB
}

func ExampleDuration() {
	fmt.Println(5*sim.Nanosecond, 160*sim.Nanosecond, 1500*sim.Microsecond, 66600*sim.Millisecond, math.Round((2*sim.Millisecond).Seconds()*1e3))
	// Output: 5ns 160ns 1.5ms 66.6s 2
}
