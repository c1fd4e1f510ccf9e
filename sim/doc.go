// Package sim simulates PostgreSQL's shared buffer manager: NBuffers buffer descriptors with
// their state words, the partitioned buffer mapping table, the freelist and the clock sweep
// of StrategyGetBuffer, pins counted per backend, the WAL-before-data rule of FlushBuffer,
// and background processes (the WAL writer, the background writer), all on a virtual clock
// charged by an adjustable cost model.
//
// The package is pure Go: no screens, no browser, no wall clock and no global random source.
// A simulation is its Config plus the commands applied to it, so the same seed and commands
// give the same run natively and in WebAssembly.
//
//	s, err := sim.New(sim.Config{NBuffers: 16384, Seed: 1})
//	if err != nil { ... }
//	s.Step(100_000)                      // run the free-play workload
//	fmt.Println(s.Stats().HitRatio())
//	views := make([]sim.BufferView, s.Pool.NBuffers)
//	s.Snapshot(views, 0)                 // what a renderer draws
//
// Functions that mirror PostgreSQL functions keep their names and say which they mirror.
// The facts they follow are collected in reference/postgres-internals.md.
package sim
