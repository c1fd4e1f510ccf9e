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
//	drop   replay dropping relations' buffers under each drop policy
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
//
// Drop runs the drop lab's experiment (drop.RunExperiment): a pool filled with the
// relations' pages, then the WAL of DROP TABLE, TRUNCATE or VACUUM replayed, with one row per
// size and drop policy saying which path the drops took (scan, lookup or mixed), what they
// counted and the modelled seconds. Replay TRUNCATE of 1000 one-block tables under PostgreSQL
// 13's and 14's rules at four sizes of shared_buffers, as CSV:
//
//	go run ./cmd/bufferscope drop --shared-buffers 128MB,1GB,20GB,100GB --tables 1000x1 \
//		--op truncate --transactions per-relation --mode recovery --policy pg13,pg14 --format csv
//
// Vacuum one relation of NBuffers/32 blocks, the size where PostgreSQL 14 stops looking
// blocks up, and force the lookup path for comparison:
//
//	go run ./cmd/bufferscope drop --shared-buffers 1GB --tables 1xNB/32 --op vacuum --policy pg14,lookup
//
// Print the published drop measurements (pgsql-hackers, January 2021) beside the simulated
// ones as Markdown, exiting 1 if a target of reference/seed-results.md is missed; it builds
// 100GB pools:
//
//	go run ./cmd/bufferscope drop --reproduce
//
// The drop experiment is deterministic and draws no random numbers; drop accepts --seed
// only for symmetry with run.
package main
