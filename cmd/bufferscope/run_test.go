package main

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/bufferscope/bufferscope/sim"
	"github.com/bufferscope/bufferscope/sim/labs/free"
)

// runColumns are the columns of bufferscope run: free play's Row.
var runColumns = mustColumns(free.Row{})

// runRows invokes bufferscope run with args and --format csv, and returns its rows as maps
// from column name to text.
func runRows(t *testing.T, args ...string) []map[string]string {
	t.Helper()
	r := invoke(append(append([]string{"run"}, args...), "--format", "csv")...)
	if r.code != 0 || r.stderr != "" {
		t.Fatalf("run %q: status %d, stderr %q", args, r.code, r.stderr)
	}
	recs, err := csv.NewReader(strings.NewReader(r.stdout)).ReadAll()
	if err != nil || len(recs) < 1 {
		t.Fatalf("run %q: output is not CSV (%v):\n%s", args, err, r.stdout)
	}
	var rows []map[string]string
	for _, rec := range recs[1:] {
		m := map[string]string{}
		for i, c := range recs[0] {
			m[c] = rec[i]
		}
		rows = append(rows, m)
	}
	return rows
}

// number parses a numeric cell.
func number(t *testing.T, row map[string]string, col string) float64 {
	t.Helper()
	x, err := strconv.ParseFloat(row[col], 64)
	if err != nil {
		t.Fatalf("column %s = %q is not a number", col, row[col])
	}
	return x
}

func TestRunRejectsBadInput(t *testing.T) {
	n, err := sim.SharedBuffersToNBuffers("1MB")
	if err != nil {
		t.Fatal(err)
	}
	tooMany := strconv.Itoa(n/2 + 1) // every client holds a pin, so at most half the pool
	tests := []struct {
		args []string
		want string // part of the message line
	}{
		{[]string{"--shared-buffers", "12XB"}, `--shared-buffers "12XB": not a size from 128kB to 100GB, like 128MB or 1GB`},
		{[]string{"--shared-buffers", "1MB,12XB"}, `--shared-buffers "12XB": `},
		{[]string{"--shared-buffers", "1MB,,2MB"}, `--shared-buffers "1MB,,2MB": `},
		{[]string{"--shared-buffers", ""}, `--shared-buffers "": `},
		{[]string{"--shared-buffers", "64kB"}, `--shared-buffers "64kB": `},
		{[]string{"--shared-buffers", "12345B"}, `--shared-buffers "12345B": `},
		{[]string{"--seed", "-1"}, `--seed "-1": `},
		{[]string{"--version", "13"}, `--version "13": `},
		{[]string{"--version", "x"}, `--version "x": `},
		// The table's words, as the page shows them for the same value.
		{[]string{"--shared-buffers", "1MB", "--clients", tooMany},
			`--clients "` + tooMany + `": not between 0 and 64 (at most half of the 128 buffers: every client holds a pin)`},
		{[]string{"--shared-buffers", "1MB,256kB", "--clients", "20"}, `--clients "20": not between 0 and 16 (at most half of the 32 buffers`},
		{[]string{"--clients", "1.5"}, `--clients "1.5": `},
		{[]string{"--updates", "101"}, "101"},
		{[]string{"--os-cache", "-1"}, "-1"},
		{[]string{"--bgwriter-lru-maxpages", "-1"}, `--bgwriter-lru-maxpages "-1": not between 0 and 1073741823`},
		{[]string{"--bgwriter-lru-maxpages", "1073741824"}, `--bgwriter-lru-maxpages "1073741824": not between 0 and 1073741823`},
		{[]string{"--distribution", "pareto"}, `--distribution "pareto": `},
		{[]string{"--zipf-s", "1"}, "zipf"},
		{[]string{"--zipf-s", "NaN"}, `--zipf-s "NaN": `},
		{[]string{"--steps", "-1"}, `--steps "-1": `},
		{[]string{"--seconds", "-0.5"}, `--seconds "-0.5": `},
		{[]string{"--seconds", "Inf"}, `--seconds "Inf": `},
		{[]string{"--seconds", "1000001"}, `--seconds "1000001": not between 0 and 1000000`},
		{[]string{"--seed", "1", "--seed", "2"}, `--seed "2": --seed is already "1": it takes one value`},
		{[]string{"--format", "xml"}, `--format "xml": `},
		{[]string{"--nope"}, "unknown flag --nope"},
		{[]string{"--steps"}, "--steps needs a value"},
		{[]string{"--steps", "10", "extra"}, `"extra"`},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			checkUsageError(t, invoke(append([]string{"run"}, tt.args...)...), "bufferscope run: ", tt.want,
				"Run 'bufferscope run --help' for usage.")
		})
	}
}

func TestRunCSVHeader(t *testing.T) {
	r := invoke("run", "--shared-buffers", "1MB", "--steps", "100", "--format", "csv")
	header, _, _ := strings.Cut(r.stdout, "\n")
	const want = "shared_buffers,nbuffers,seed,steps,modelled_seconds,accesses,hits,misses,hit_ratio," +
		"evictions,dirty_writes,bgwriter_writes,wal_flushes,wal_flushes_backend,wal_flushes_walwriter," +
		"descriptors_checked,hash"
	if r.code != 0 || header != want {
		t.Errorf("status %d, header\n%s\nwant\n%s", r.code, header, want)
	}
}

func TestRunOneRowPerSizeAsWritten(t *testing.T) {
	sizes := []string{"1MB", "256kB", "1024kB"}
	rows := runRows(t, "--shared-buffers", sizes[0], "--shared-buffers", " "+sizes[1]+","+sizes[2], "--steps", "500")
	if len(rows) != len(sizes) {
		t.Fatalf("%d rows, want %d", len(rows), len(sizes))
	}
	for i, size := range sizes {
		n, _ := sim.SharedBuffersToNBuffers(size)
		if rows[i]["shared_buffers"] != size || rows[i]["nbuffers"] != strconv.Itoa(n) {
			t.Errorf("row %d: shared_buffers %q nbuffers %q, want %q and %d", i, rows[i]["shared_buffers"], rows[i]["nbuffers"], size, n)
		}
		if rows[i]["steps"] != "500" {
			t.Errorf("row %d ran %s steps, want 500", i, rows[i]["steps"])
		}
	}
	// 1MB and 1024kB are the same pool, so the same run.
	if rows[0]["hash"] != rows[2]["hash"] || rows[0]["hash"] == rows[1]["hash"] {
		t.Errorf("hashes %s %s %s: want equal pools to agree and a different pool to differ",
			rows[0]["hash"], rows[1]["hash"], rows[2]["hash"])
	}
}

func TestRunJSONHasNumbers(t *testing.T) {
	args := []string{"run", "--shared-buffers", "1MB,2MB", "--steps", "2000"}
	r := invoke(append(args, "--format", "json")...)
	var rows []map[string]any
	dec := json.NewDecoder(strings.NewReader(r.stdout))
	dec.UseNumber()
	if err := dec.Decode(&rows); err != nil || r.code != 0 {
		t.Fatalf("status %d, %v:\n%s", r.code, err, r.stdout)
	}
	csvRows := runRows(t, args[1:]...)
	if len(rows) != 2 || len(csvRows) != 2 {
		t.Fatalf("%d JSON rows and %d CSV rows, want 2", len(rows), len(csvRows))
	}
	for i, row := range rows {
		if len(row) != len(runColumns) {
			t.Errorf("row %d has %d keys, want %d", i, len(row), len(runColumns))
		}
		for _, c := range runColumns {
			v, ok := row[c.name]
			if !ok {
				t.Errorf("row %d lacks %s", i, c.name)
				continue
			}
			textual := c.name == "shared_buffers" || c.name == "hash"
			switch v := v.(type) {
			case json.Number:
				if textual {
					t.Errorf("row %d %s = %v is a number, want a string", i, c.name, v)
				}
			case string:
				if !textual {
					t.Errorf("row %d %s = %q is a string, want a number", i, c.name, v)
				}
			default:
				t.Errorf("row %d %s = %v (%T), want a number or a string", i, c.name, v, v)
			}
			if got := fmt.Sprint(v); got != csvRows[i][c.name] {
				t.Errorf("row %d %s: JSON %s, CSV %s", i, c.name, got, csvRows[i][c.name])
			}
		}
	}
}

func TestRunMarkdown(t *testing.T) {
	r := invoke("run", "--shared-buffers", "1MB,2MB", "--steps", "100")
	lines := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
	if r.code != 0 || len(lines) != 4 {
		t.Fatalf("status %d, %d lines, want a header, a rule and 2 rows:\n%s", r.code, len(lines), r.stdout)
	}
	for _, c := range runColumns {
		if !strings.Contains(lines[0], " "+c.name+" ") {
			t.Errorf("header %q lacks %s", lines[0], c.name)
		}
	}
	if r2 := invoke("run", "--shared-buffers", "1MB,2MB", "--steps", "100", "--format", "markdown"); r2.stdout != r.stdout {
		t.Error("--format markdown differs from the default format")
	}
}

func TestRunIsDeterministic(t *testing.T) {
	args := []string{"run", "--shared-buffers", "1MB", "--steps", "3000", "--format", "csv"}
	a, b := invoke(args...), invoke(args...)
	if a.code != 0 || a.stdout != b.stdout {
		t.Fatalf("two runs with the same flags differ:\n%s\n%s", a.stdout, b.stdout)
	}
	single := invoke("run", "-shared-buffers", "1MB", "-steps", "3000", "-format=csv", "-seed", "1")
	if single.stdout != a.stdout {
		t.Errorf("-flag spelling and the default seed gave\n%s\nwant\n%s", single.stdout, a.stdout)
	}
	s1 := runRows(t, "--shared-buffers", "1MB", "--steps", "3000", "--seed", "1")
	s2 := runRows(t, "--shared-buffers", "1MB", "--steps", "3000", "--seed", "2")
	if s1[0]["hash"] == s2[0]["hash"] {
		t.Errorf("seeds 1 and 2 both hash to %s", s1[0]["hash"])
	}
	if s1[0]["seed"] != "1" || s2[0]["seed"] != "2" {
		t.Errorf("seed columns %s and %s, want 1 and 2", s1[0]["seed"], s2[0]["seed"])
	}
}

// TestRunFlagsReachTheSimulation checks that each workload flag changes the run, and that
// giving a flag its default changes nothing.
func TestRunFlagsReachTheSimulation(t *testing.T) {
	base := []string{"--shared-buffers", "1MB", "--steps", "3000"}
	baseHash := runRows(t, base...)[0]["hash"]
	def := sim.DefaultWorkload(sim.MinNBuffers)
	tests := []struct{ flag, other, dflt string }{
		{"version", "19", strconv.Itoa(int(sim.DefaultVersion))},
		{"clients", "3", strconv.Itoa(def.Clients)},
		{"updates", "0", strconv.Itoa(def.UpdatePercent)},
		{"distribution", "uniform", def.Distribution.String()},
		{"zipf-s", "3", strconv.FormatFloat(def.ZipfS, 'g', -1, 64)},
		{"os-cache", "0", strconv.Itoa(def.OSCachePercent)},
	}
	for _, tt := range tests {
		if h := runRows(t, append(base, "--"+tt.flag, tt.other)...)[0]["hash"]; h == baseHash {
			t.Errorf("--%s %s did not change the run", tt.flag, tt.other)
		}
		if h := runRows(t, append(base, "--"+tt.flag, tt.dflt)...)[0]["hash"]; h != baseHash {
			t.Errorf("--%s %s, the default, changed the run", tt.flag, tt.dflt)
		}
	}
	// The background writer first wakes after bgwriter_delay, so run past it.
	long := []string{"--shared-buffers", "256kB", "--clients", "1", "--seconds", fmt.Sprint((def.BgWriterDelay + sim.Millisecond).Seconds())}
	on := runRows(t, long...)[0]
	off := runRows(t, append(long, "--bgwriter-lru-maxpages", "0")...)[0]
	if on["hash"] == off["hash"] || off["bgwriter_writes"] != "0" {
		t.Errorf("--bgwriter-lru-maxpages 0: hash %s (on: %s), %s background writes; want a different run and none",
			off["hash"], on["hash"], off["bgwriter_writes"])
	}
	if got := runRows(t, "--shared-buffers", "1MB", "--steps", "3000", "--updates", "0")[0]; got["dirty_writes"] != "0" || got["wal_flushes"] != "0" {
		t.Errorf("--updates 0 wrote %s dirty pages and flushed WAL %s times, want none", got["dirty_writes"], got["wal_flushes"])
	}
}

// TestRunStepsAsTheTableReadsThem checks that --steps takes what the table takes: a whole
// number written in any form the page's address accepts.
func TestRunStepsAsTheTableReadsThem(t *testing.T) {
	if row := runRows(t, "--shared-buffers", "1MB", "--steps", "1e3")[0]; row["steps"] != "1000" {
		t.Errorf("--steps 1e3 ran %s steps, want 1000", row["steps"])
	}
}

func TestRunClientsUpToHalfThePool(t *testing.T) {
	n, _ := sim.SharedBuffersToNBuffers("256kB")
	row := runRows(t, "--shared-buffers", "256kB", "--clients", strconv.Itoa(n/2), "--steps", "200")[0]
	if row["steps"] != "200" {
		t.Errorf("ran %s steps, want 200", row["steps"])
	}
}

func TestRunSeconds(t *testing.T) {
	for _, secs := range []string{"0.004", "0.0125"} {
		target, _ := strconv.ParseFloat(secs, 64)
		row := runRows(t, "--shared-buffers", "1MB", "--seconds", secs)[0]
		if got := number(t, row, "modelled_seconds"); got < target {
			t.Errorf("--seconds %s stopped at %v seconds", secs, got)
		}
		// The steps it took reproduce the run.
		again := runRows(t, "--shared-buffers", "1MB", "--steps", row["steps"])[0]
		if again["hash"] != row["hash"] || again["modelled_seconds"] != row["modelled_seconds"] {
			t.Errorf("--steps %s gave hash %s at %s s; --seconds %s gave %s at %s s",
				row["steps"], again["hash"], again["modelled_seconds"], secs, row["hash"], row["modelled_seconds"])
		}
	}
	// --seconds above 0 replaces --steps; 0, its default, leaves --steps in force.
	if row := runRows(t, "--shared-buffers", "1MB", "--seconds", "0", "--steps", "7")[0]; row["steps"] != "7" {
		t.Errorf("--seconds 0 --steps 7 ran %s steps, want 7", row["steps"])
	}
	both := runRows(t, "--shared-buffers", "1MB", "--steps", "10", "--seconds", "0.004")[0]
	if alone := runRows(t, "--shared-buffers", "1MB", "--seconds", "0.004")[0]; both["hash"] != alone["hash"] || both["steps"] != alone["steps"] {
		t.Errorf("--steps 10 --seconds 0.004 ran %s steps to %s; --seconds 0.004 alone %s to %s",
			both["steps"], both["hash"], alone["steps"], alone["hash"])
	}
	short := number(t, runRows(t, "--shared-buffers", "1MB", "--seconds", "0.002")[0], "steps")
	long := number(t, runRows(t, "--shared-buffers", "1MB", "--seconds", "0.004")[0], "steps")
	if !(short < long) {
		t.Errorf("0.002 s took %v steps and 0.004 s %v; want fewer for less time", short, long)
	}
}
