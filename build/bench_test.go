//go:build !js

package main

import (
	"bytes"
	"strings"
	"testing"
)

const nativeBench = `goos: linux
goarch: amd64
pkg: github.com/bufferscope/bufferscope/sim
cpu: AMD EPYC 7B13    
BenchmarkAccess/nbuffers=16384-2         	19663940	        61.20 ns/op	  16340000 accesses/s	       0 B/op	       0 allocs/op
BenchmarkAccess/nbuffers=16384-2         	19663940	        58.80 ns/op	  17000000 accesses/s	       0 B/op	       0 allocs/op
BenchmarkAccess/nbuffers=2621440-2       	 3000000	       412.0 ns/op	   2427000 accesses/s	       0 B/op	       0 allocs/op
BenchmarkDropScan-2                      	     100	  10512345 ns/op	      48 B/op	       1 allocs/op
--- BENCH: BenchmarkDropScan-2
    drop_test.go:40: some log line
PASS
ok  	github.com/bufferscope/bufferscope/sim	12.345s
`

const wasmBench = `goos: js
goarch: wasm
pkg: github.com/bufferscope/bufferscope/sim
BenchmarkAccess/nbuffers=16384         	 8000000	       125.0 ns/op	   8000000 accesses/s
BenchmarkAccess/nbuffers=2621440       	 1000000	      1000 ns/op	   1000000 accesses/s
BenchmarkOnlyWasm                      	      10	         5.000 ns/op
PASS
ok  	github.com/bufferscope/bufferscope/sim	30.1s
`

func TestParseBench(t *testing.T) {
	run, err := parseBench(strings.NewReader(nativeBench))
	if err != nil {
		t.Fatal(err)
	}
	if run.goos != "linux" || run.goarch != "amd64" || run.cpu != "AMD EPYC 7B13" {
		t.Errorf("run = %s/%s %q", run.goos, run.goarch, run.cpu)
	}
	var names []string
	for _, r := range run.results {
		names = append(names, r.name)
	}
	if got, want := strings.Join(names, " "), "BenchmarkAccess/nbuffers=16384 BenchmarkAccess/nbuffers=2621440 BenchmarkDropScan"; got != want {
		t.Errorf("names = %s, want %s", got, want)
	}
	if v, ok := run.results[0].value("ns/op"); !ok || v != 60 {
		t.Errorf("mean ns/op = %v, %v, want 60 (the mean of two runs)", v, ok)
	}
	if _, ok := run.results[2].value("accesses/s"); ok {
		t.Error("DropScan has no accesses/s metric")
	}
}

func TestParseBenchKeepsDigitSuffixWhenNotProcs(t *testing.T) {
	run, err := parseBench(strings.NewReader("BenchmarkX/size-64 10 1 ns/op\nBenchmarkY 10 1 ns/op\n"))
	if err != nil {
		t.Fatal(err)
	}
	if got := run.results[0].name; got != "BenchmarkX/size-64" {
		t.Errorf("name = %s, want the suffix kept since not every benchmark has it", got)
	}
}

func TestWriteBenchReport(t *testing.T) {
	native, err := parseBench(strings.NewReader(nativeBench))
	if err != nil {
		t.Fatal(err)
	}
	wasm, err := parseBench(strings.NewReader(wasmBench))
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	writeBenchReport(&b, native, wasm, "2026-12-02", "go1.26.8", nil)
	want := "# Benchmarks\n\n" +
		"Written by `make bench` on 2026-12-02 with go1.26.8: the same `go test -bench` run natively and as\n" +
		"WebAssembly under Node, on one machine. Lower is better for ns/op, higher for rates such as\n" +
		"accesses/s. Figures from a shared machine are noisy; compare runs, not single numbers.\n\n" +
		"| run | GOOS/GOARCH | CPU |\n|---|---|---|\n" +
		"| native | linux/amd64 | AMD EPYC 7B13 |\n" +
		"| wasm | js/wasm | (not reported) |\n\n" +
		"## github.com/bufferscope/bufferscope/sim\n\n" +
		"| benchmark | unit | native | wasm | wasm ÷ native |\n|---|---|--:|--:|--:|\n" +
		"| BenchmarkAccess/nbuffers=16384 | ns/op | 60 | 125 | 2.08 |\n" +
		"| BenchmarkAccess/nbuffers=16384 | accesses/s | 16,670,000 | 8,000,000 | 0.48 |\n" +
		"| BenchmarkAccess/nbuffers=2621440 | ns/op | 412 | 1,000 | 2.43 |\n" +
		"| BenchmarkAccess/nbuffers=2621440 | accesses/s | 2,427,000 | 1,000,000 | 0.41 |\n" +
		"| BenchmarkDropScan | ns/op | 10,512,345 | — | — |\n" +
		"| BenchmarkOnlyWasm | ns/op | — | 5 | — |\n"
	if got := b.String(); got != want {
		t.Errorf("report:\n%s\nwant:\n%s", got, want)
	}
}

func TestFormatValue(t *testing.T) {
	for v, want := range map[float64]string{0: "0", 0.01234: "0.0123", 1.5: "1.5", 61.24: "61.2", 99.96: "100", 412.4: "412", 1234567.8: "1,234,568", -2500: "-2,500"} {
		if got := formatValue(v); got != want {
			t.Errorf("formatValue(%v) = %q, want %q", v, got, want)
		}
	}
}
