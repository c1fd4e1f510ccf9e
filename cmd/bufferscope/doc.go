// Bufferscope runs bufferscope's simulation of PostgreSQL's shared buffer manager from a
// terminal and prints what it counted as a Markdown table, CSV or JSON, so that the numbers
// behind the browser playground can be reproduced, scripted and compared.
//
// Usage:
//
//	bufferscope <command> [flags]
//
// The commands are:
//
//	run    run the free-play workload and print its counters
//
// Each command has its own flags, written --name or -name; 'bufferscope <command> --help'
// lists them with their defaults. Bad input prints one line on standard error and exits
// with status 2.
//
// Run the pgbench-like free-play workload with shared_buffers of 128MB and 1GB, a million
// steps each, and print one Markdown row per size:
//
//	go run ./cmd/bufferscope run --shared-buffers 128MB,1GB --steps 1000000
//
// Run half a second of virtual time of a uniform, read-only load on PostgreSQL 19 and print
// CSV:
//
//	go run ./cmd/bufferscope run --version 19 --distribution uniform --updates 0 \
//		--seconds 0.5 --format csv
//
// Print JSON, with counters as JSON numbers, for a script to read:
//
//	go run ./cmd/bufferscope run --shared-buffers 8MB --seed 7 --format json
//
// The same flags and seed print the same table on every machine, natively and in
// WebAssembly. The hash column is the simulation's state hash (sim.Sim.Hash), so a run made
// elsewhere with the same settings, in the browser or in a test, can be checked against it;
// with --seconds, the steps column gives the step count that reproduces the run.
package main
