// Bufferscope runs bufferscope's simulation of PostgreSQL's shared buffer manager from a
// terminal and prints what it counted as a Markdown table, CSV or JSON, so that the numbers
// behind the browser playground can be reproduced, scripted and compared.
//
// Usage:
//
//	bufferscope <command> [flags]
//
// Each lab of sim/labs (labs.All) is a command, named by its Info().Command: run for free
// play, drop for the drop lab. 'bufferscope --help' lists them; 'bufferscope <command>
// --help' prints what the command does and its flags, written --name or -name. The flags
// are the lab's parameters, as its table (package param) declares them, so they take and
// refuse the values the page's address and the bridge take and refuse, with the same words.
// A parameter the lab sweeps, such as --shared-buffers, takes a comma-separated list and the
// command prints a row for each combination; --format chooses markdown, csv or json; a lab
// that reproduces published measurements also has --reproduce. Bad input prints one line on
// standard error and exits with status 2; a failed run exits with status 1.
//
// Examples:
//
//	go run ./cmd/bufferscope run --shared-buffers 128MB,1GB --steps 1000000
//	go run ./cmd/bufferscope run --version 19 --distribution uniform --updates 0 \
//		--seconds 0.5 --format csv
//	go run ./cmd/bufferscope drop --shared-buffers 128MB,1GB,20GB,100GB --tables 1000x1 \
//		--op truncate --policy pg13,pg14 --format csv
//	go run ./cmd/bufferscope drop --reproduce
//
// The same flags print the same table on every machine, natively and in WebAssembly.
package main
