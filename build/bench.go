//go:build !js

package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/bufferscope/bufferscope/internal/benchdata"
)

func runBenchReport(args []string) error {
	flags := newFlagSet("bench-report")
	nativeFile := flags.String("native", "", "output of go test -bench run natively (required)")
	wasmFile := flags.String("wasm", "", "output of the same run as GOOS=js GOARCH=wasm under Node (required)")
	out := flags.String("out", "docs/benchmarks.md", "Markdown file to write")
	browserFile := flags.String("browser", "", "output of the browser benchmark (e2e TestBrowserBench), optional")
	reproduceFile := flags.String("reproduce", "", "output of build bench-reproduce, optional")
	if err := parseFlags(flags, args); err != nil {
		return err
	}
	if *nativeFile == "" || *wasmFile == "" || *out == "" {
		return usageErrorf(flags, "-native, -wasm and -out are required")
	}
	var runs [2]*benchRun
	for i, name := range []string{*nativeFile, *wasmFile} {
		f, err := os.Open(name)
		if err != nil {
			return err
		}
		runs[i], err = parseBench(f)
		f.Close()
		if err != nil {
			return err
		}
		if len(runs[i].results) == 0 {
			return fmt.Errorf("%s has no benchmark results; did go test -bench fail?", name)
		}
	}
	var br *benchdata.Browser
	if *browserFile != "" {
		var err error
		if br, err = benchdata.Read(*browserFile); err != nil {
			return err
		}
	}
	var rep *reproduceReport
	if *reproduceFile != "" {
		var err error
		if rep, err = readReproduce(*reproduceFile); err != nil {
			return err
		}
	}
	var b bytes.Buffer
	writeBenchReport(&b, runs[0], runs[1], time.Now().UTC().Format(time.DateOnly), runtime.Version(), func(w io.Writer) {
		writeTargets(w, runs[0], runs[1], br, rep)
	})
	if err := os.MkdirAll(filepath.Dir(*out), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(*out, b.Bytes(), 0o644); err != nil {
		return err
	}
	fmt.Println("wrote", *out)
	return nil
}

// benchRun is the parsed output of one go test -bench run.
type benchRun struct {
	goos, goarch, cpu string
	results           []*benchResult // in the order they first appear
}

// benchResult is one benchmark of one package, with each metric averaged over
// the runs of the benchmark (go test -count).
type benchResult struct {
	pkg, name string
	units     []string // in the order they first appear
	sum       map[string]float64
	runs      map[string]int
}

func (r *benchResult) value(unit string) (float64, bool) {
	n := r.runs[unit]
	return r.sum[unit] / float64(n), n > 0
}

var procsSuffix = regexp.MustCompile(`-(\d+)$`)

// parseBench parses the output of go test -bench: the goos, goarch, cpu and
// pkg lines, and result lines such as
//
//	BenchmarkAccess/nbuffers=16384-2  1000000  61.2 ns/op  16340000 accesses/s  0 B/op
//
// Other lines are ignored. The -GOMAXPROCS suffix is removed from the names
// when every result has the same one, so native results (-2) line up with
// wasm results, which have none.
func parseBench(r io.Reader) (*benchRun, error) {
	type line struct {
		pkg, name string
		metrics   [][2]string
	}
	run := &benchRun{}
	var lines []line
	pkg := ""
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		text := sc.Text()
		if k, v, ok := strings.Cut(text, ": "); ok {
			v = strings.TrimSpace(v)
			switch k {
			case "goos":
				run.goos = v
			case "goarch":
				run.goarch = v
			case "cpu":
				run.cpu = v
			case "pkg":
				pkg = v
			}
		}
		f := strings.Fields(text)
		if len(f) < 4 || len(f)%2 != 0 || !strings.HasPrefix(f[0], "Benchmark") {
			continue
		}
		if _, err := strconv.ParseInt(f[1], 10, 64); err != nil {
			continue
		}
		l := line{pkg: pkg, name: f[0]}
		for i := 2; i < len(f); i += 2 {
			l.metrics = append(l.metrics, [2]string{f[i], f[i+1]})
		}
		lines = append(lines, l)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	suffix := ""
	if len(lines) > 0 {
		if m := procsSuffix.FindString(lines[0].name); m != "" {
			suffix = m
		}
		for _, l := range lines {
			if !strings.HasSuffix(l.name, suffix) {
				suffix = ""
			}
		}
	}
	byKey := map[[2]string]*benchResult{}
	for _, l := range lines {
		key := [2]string{l.pkg, strings.TrimSuffix(l.name, suffix)}
		res := byKey[key]
		if res == nil {
			res = &benchResult{pkg: key[0], name: key[1], sum: map[string]float64{}, runs: map[string]int{}}
			byKey[key] = res
			run.results = append(run.results, res)
		}
		for _, m := range l.metrics {
			v, err := strconv.ParseFloat(m[0], 64)
			if err != nil {
				return nil, fmt.Errorf("%s: bad value %q for %s", l.name, m[0], m[1])
			}
			if res.runs[m[1]] == 0 {
				res.units = append(res.units, m[1])
			}
			res.sum[m[1]] += v
			res.runs[m[1]]++
		}
	}
	return run, nil
}

// writeBenchReport writes the Markdown report: for every benchmark, ns/op and
// its custom metrics (B/op and allocs/op are left out) natively and in wasm,
// side by side.
//
// targets, when not nil, writes the targets section after the machine table.
func writeBenchReport(w io.Writer, native, wasm *benchRun, date, goVersion string, targets func(io.Writer)) {
	fmt.Fprintf(w, "# Benchmarks\n\n")
	fmt.Fprintf(w, "Written by `make bench` on %s with %s: the same `go test -bench` run natively and as\n", date, goVersion)
	fmt.Fprintf(w, "WebAssembly under Node, on one machine. Lower is better for ns/op, higher for rates such as\n")
	fmt.Fprintf(w, "accesses/s. Figures from a shared machine are noisy; compare runs, not single numbers.\n\n")
	fmt.Fprintf(w, "| run | GOOS/GOARCH | CPU |\n|---|---|---|\n")
	for _, r := range []struct {
		name string
		run  *benchRun
	}{{"native", native}, {"wasm", wasm}} {
		cpu := r.run.cpu
		if cpu == "" {
			cpu = "(not reported)"
		}
		fmt.Fprintf(w, "| %s | %s/%s | %s |\n", r.name, r.run.goos, r.run.goarch, cell(cpu))
	}
	if targets != nil {
		targets(w)
	}
	type key struct{ pkg, name string }
	var pkgs []string
	var keys []key
	found := map[key][2]*benchResult{}
	for i, run := range []*benchRun{native, wasm} {
		for _, res := range run.results {
			k := key{res.pkg, res.name}
			pair, seen := found[k]
			if !seen {
				keys = append(keys, k)
				if !slices.Contains(pkgs, res.pkg) {
					pkgs = append(pkgs, res.pkg)
				}
			}
			pair[i] = res
			found[k] = pair
		}
	}
	for _, pkg := range pkgs {
		title := pkg
		if title == "" {
			title = "(no package line)"
		}
		fmt.Fprintf(w, "\n## %s\n\n", title)
		fmt.Fprintf(w, "| benchmark | unit | native | wasm | wasm ÷ native |\n|---|---|--:|--:|--:|\n")
		for _, k := range keys {
			if k.pkg != pkg {
				continue
			}
			pair := found[k]
			var units []string
			for _, res := range pair {
				if res == nil {
					continue
				}
				for _, u := range res.units {
					if u != "B/op" && u != "allocs/op" && !slices.Contains(units, u) {
						units = append(units, u)
					}
				}
			}
			for _, u := range units {
				var cells [2]string
				var vals [2]float64
				var ok [2]bool
				for i, res := range pair {
					cells[i] = "—"
					if res != nil {
						if vals[i], ok[i] = res.value(u); ok[i] {
							cells[i] = formatValue(vals[i])
						}
					}
				}
				ratio := "—"
				if ok[0] && ok[1] && vals[0] != 0 {
					ratio = fmt.Sprintf("%.2f", vals[1]/vals[0])
				}
				fmt.Fprintf(w, "| %s | %s | %s | %s | %s |\n", cell(k.name), cell(u), cells[0], cells[1], ratio)
			}
		}
	}
}

// cell escapes s for a Markdown table cell.
func cell(s string) string {
	return strings.ReplaceAll(s, "|", `\|`)
}

// formatValue formats a metric: three significant digits below 100, whole
// numbers with thousands separators from 100 up.
func formatValue(v float64) string {
	if math.Abs(v) < 100 {
		return strconv.FormatFloat(v, 'g', 3, 64)
	}
	digits := strconv.FormatFloat(math.Abs(math.Round(v)), 'f', 0, 64)
	var b strings.Builder
	if v < 0 {
		b.WriteByte('-')
	}
	for i, c := range digits {
		if i > 0 && (len(digits)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}
