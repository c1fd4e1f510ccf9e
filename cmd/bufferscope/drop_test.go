package main

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"testing"

	"github.com/bufferscope/bufferscope/sim"
	"github.com/bufferscope/bufferscope/sim/lab"
	"github.com/bufferscope/bufferscope/sim/labs/drop"
)

// dropColumns are the columns of bufferscope drop: the drop lab's Row.
var dropColumns = mustColumns(drop.Row{})

// dropRows invokes bufferscope drop with args and --format csv, and returns its rows as maps
// from column name to text.
func dropRows(t *testing.T, args ...string) []map[string]string {
	t.Helper()
	r := invoke(append(append([]string{"drop"}, args...), "--format", "csv")...)
	if r.code != 0 || r.stderr != "" {
		t.Fatalf("drop %q: status %d, stderr %q", args, r.code, r.stderr)
	}
	recs, err := csv.NewReader(strings.NewReader(r.stdout)).ReadAll()
	if err != nil || len(recs) < 1 {
		t.Fatalf("drop %q: output is not CSV (%v):\n%s", args, err, r.stdout)
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

func TestDropCSVHeader(t *testing.T) {
	r := invoke("drop", "--shared-buffers", "1MB", "--tables", "1x1", "--format", "csv")
	header, _, _ := strings.Cut(r.stdout, "\n")
	const want = "shared_buffers,nbuffers,policy,path,descriptors_checked,lookups,buffers_invalidated,modelled_seconds"
	if r.code != 0 || header != want {
		t.Errorf("status %d, header\n%s\nwant\n%s", r.code, header, want)
	}
}

func TestDropOneRowPerSizeAndPolicy(t *testing.T) {
	sizes := []string{"1MB", "256kB", "1024kB"}
	policies := []string{"lookup", "pg13", "pg14"}
	rows := dropRows(t, "--shared-buffers", sizes[0], "--shared-buffers", " "+sizes[1]+","+sizes[2],
		"--tables", "10x2", "--policy", strings.Join(policies, ","))
	if len(rows) != len(sizes)*len(policies) {
		t.Fatalf("%d rows, want %d", len(rows), len(sizes)*len(policies))
	}
	for i, size := range sizes {
		n, _ := sim.SharedBuffersToNBuffers(size)
		for j, pol := range policies {
			row := rows[i*len(policies)+j]
			if row["shared_buffers"] != size || row["nbuffers"] != strconv.Itoa(n) || row["policy"] != pol {
				t.Errorf("row %d: %s %s %s, want %s %d %s", i*len(policies)+j,
					row["shared_buffers"], row["nbuffers"], row["policy"], size, n, pol)
			}
			if row["buffers_invalidated"] != "20" {
				t.Errorf("%s %s: %s buffers invalidated, want the 20 of 10 relations of 2 blocks",
					size, pol, row["buffers_invalidated"])
			}
		}
	}
	// 1MB and 1024kB are the same pool, so the same experiment.
	for j := range policies {
		a, b := rows[j], rows[2*len(policies)+j]
		a["shared_buffers"], b["shared_buffers"] = "", ""
		if fmt.Sprint(a) != fmt.Sprint(b) {
			t.Errorf("1MB and 1024kB differ under %s: %v and %v", policies[j], a, b)
		}
	}
}

// TestDropFollowsPostgreSQL checks the path and the counters against PostgreSQL's rules at
// the edges, at 128MB where NBuffers is 16384 and BUF_DROP_FULL_SCAN_THRESHOLD 512: the
// lookup path needs recovery (where fork sizes are cached), the pg14 policy and fewer than
// 512 blocks in one drop; it makes one lookup per block, and a scan checks every descriptor.
// Reference: src/backend/storage/buffer/bufmgr.c, DropRelationBuffers and DropRelationsAllBuffers
func TestDropFollowsPostgreSQL(t *testing.T) {
	const nbuffers = "16384"
	tests := []struct {
		name    string
		args    []string
		path    string
		checked string // descriptors_checked
		lookups string
		invalid string // buffers_invalidated
	}{
		// DROP and TRUNCATE drop every fork; these relations have only a main fork.
		{"drop below the threshold", []string{"--tables", "1x511"}, "lookup", "0", "511", "511"},
		{"drop at the threshold", []string{"--tables", "1x512"}, "scan", nbuffers, "0", "512"},
		{"truncate below the threshold", []string{"--tables", "1x511", "--op", "truncate"}, "lookup", "0", "511", "511"},
		{"truncate at the threshold", []string{"--tables", "1x512", "--op", "truncate"}, "scan", nbuffers, "0", "512"},
		{"on a primary sizes are not cached", []string{"--tables", "1x511", "--mode", "primary"}, "scan", nbuffers, "0", "511"},
		{"pg13 always scans", []string{"--tables", "1x1", "--policy", "pg13"}, "scan", nbuffers, "0", "1"},
		{"lookup above the threshold", []string{"--tables", "1x5000", "--policy", "lookup"}, "lookup", "0", "5000", "5000"},
		{"lookup on a primary", []string{"--tables", "1x1", "--policy", "lookup", "--mode", "primary"}, "scan", nbuffers, "0", "1"},
		// A lookup per block, whether cached or not: the pool holds only its 16384 pages.
		{"lookups of uncached blocks", []string{"--tables", "1x20000", "--policy", "lookup"}, "lookup", "0", "20000", "16384"},
		// VACUUM's truncation to zero drops the main fork from 0, the free space map from
		// block 2 (it keeps the root and the first internal page; a heap below 4069 blocks
		// has a map of 3) and the visibility map (1 block) from 0: heap + 2 blocks.
		// Reference: src/backend/storage/freespace/freespace.c, FreeSpaceMapPrepareTruncateRel
		{"vacuum below the threshold", []string{"--tables", "1x509", "--op", "vacuum"}, "lookup", "0", "511", "511"},
		{"vacuum at the threshold", []string{"--tables", "1x510", "--op", "vacuum"}, "scan", nbuffers, "0", "512"},
		// Each transaction's commit drops all its relations at once, so their blocks add up.
		{"single below the threshold", []string{"--tables", "100x5", "--transactions", "single"}, "lookup", "0", "500", "500"},
		{"single at the threshold", []string{"--tables", "128x4", "--transactions", "single"}, "scan", nbuffers, "0", "512"},
		{"per-relation below the threshold", []string{"--tables", "128x4"}, "lookup", "0", "512", "512"},
		{"single, many relations", []string{"--tables", "1000x1", "--transactions", "single", "--op", "truncate"}, "scan", nbuffers, "0", "1000"},
		{"per-relation, many relations", []string{"--tables", "1000x1", "--policy", "pg13"}, "scan", "16384000", "0", "1000"},
		{"mixed", []string{"--tables", "1x600,2x5"}, "mixed", nbuffers, "10", "610"},
		// The threshold as blocks or as a share of the pool.
		{"threshold in blocks", []string{"--tables", "1x600", "--threshold", "601"}, "lookup", "0", "600", "600"},
		{"threshold NB/64", []string{"--tables", "1x256", "--threshold", "NB/64"}, "scan", nbuffers, "0", "256"},
		{"below threshold NB/64", []string{"--tables", "1x255", "--threshold", "NB/64"}, "lookup", "0", "255", "255"},
		{"relation of NB/32", []string{"--tables", "1xNB/32"}, "scan", nbuffers, "0", "512"},
		{"relation of NB/64", []string{"--tables", "2xNB/64"}, "lookup", "0", "512", "512"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rows := dropRows(t, append([]string{"--shared-buffers", "128MB"}, tt.args...)...)
			if len(rows) != 1 {
				t.Fatalf("%d rows, want 1", len(rows))
			}
			r := rows[0]
			if r["nbuffers"] != nbuffers {
				t.Fatalf("nbuffers %s, want %s", r["nbuffers"], nbuffers)
			}
			got := []string{r["path"], r["descriptors_checked"], r["lookups"], r["buffers_invalidated"]}
			want := []string{tt.path, tt.checked, tt.lookups, tt.invalid}
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("path, descriptors_checked, lookups, buffers_invalidated = %q, want %q", got, want)
			}
		})
	}
}

// TestDropThresholdPerSize checks that NB/k sizes and thresholds are resolved for each pool.
func TestDropThresholdPerSize(t *testing.T) {
	rows := dropRows(t, "--shared-buffers", "128MB,1GB", "--tables", "1xNB/64", "--threshold", "NB/16")
	for i, want := range []string{"256", "2048"} {
		if rows[i]["path"] != "lookup" || rows[i]["lookups"] != want {
			t.Errorf("%s: path %s with %s lookups, want lookup with %s", rows[i]["shared_buffers"],
				rows[i]["path"], rows[i]["lookups"], want)
		}
	}
	// At 1MB (128 buffers) NB/256 is no block at all, so every drop scans, although the
	// default NBuffers/32 of 4 blocks would let one of 1 block be looked up.
	small := dropRows(t, "--shared-buffers", "1MB", "--tables", "1x1", "--threshold", "NB/256")[0]
	if small["path"] != "scan" {
		t.Errorf("threshold NB/256 of 128 buffers: path %s, want scan", small["path"])
	}
	if def := dropRows(t, "--shared-buffers", "1MB", "--tables", "1x1")[0]; def["path"] != "lookup" {
		t.Errorf("default threshold of 128 buffers: path %s, want lookup", def["path"])
	}
}

func TestDropModelledSeconds(t *testing.T) {
	rows := dropRows(t, "--shared-buffers", "128MB,1GB", "--tables", "100x1", "--policy", "pg13,pg14")
	secs := make([]float64, len(rows))
	for i, r := range rows {
		secs[i] = number(t, r, "modelled_seconds")
		if _, frac, _ := strings.Cut(r["modelled_seconds"], "."); len(frac) != 9 {
			t.Errorf("modelled_seconds %s: want nine digits after the point", r["modelled_seconds"])
		}
	}
	// pg13 scans the pool once per relation, so it takes longer in the larger pool; pg14's
	// lookups do not depend on the pool.
	if !(secs[2] > secs[0]) || secs[1] != secs[3] || !(secs[1] < secs[0]) {
		t.Errorf("seconds 128MB pg13 %v pg14 %v, 1GB pg13 %v pg14 %v", secs[0], secs[1], secs[2], secs[3])
	}
}

func TestDropJSONHasNumbers(t *testing.T) {
	args := []string{"drop", "--shared-buffers", "1MB,2MB", "--tables", "3x2,1xNB/4", "--policy", "pg13,lookup"}
	r := invoke(append(args, "--format", "json")...)
	var rows []map[string]any
	dec := json.NewDecoder(strings.NewReader(r.stdout))
	dec.UseNumber()
	if err := dec.Decode(&rows); err != nil || r.code != 0 {
		t.Fatalf("status %d, %v:\n%s", r.code, err, r.stdout)
	}
	csvRows := dropRows(t, args[1:]...)
	if len(rows) != 4 || len(csvRows) != 4 {
		t.Fatalf("%d JSON rows and %d CSV rows, want 4", len(rows), len(csvRows))
	}
	textual := map[string]bool{"shared_buffers": true, "policy": true, "path": true}
	for i, row := range rows {
		if len(row) != len(dropColumns) {
			t.Errorf("row %d has %d keys, want %d", i, len(row), len(dropColumns))
		}
		for _, c := range dropColumns {
			v, ok := row[c.name]
			if !ok {
				t.Errorf("row %d lacks %s", i, c.name)
				continue
			}
			switch v := v.(type) {
			case json.Number:
				if textual[c.name] {
					t.Errorf("row %d %s = %v is a number, want a string", i, c.name, v)
				}
			case string:
				if !textual[c.name] {
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

func TestDropMarkdownAndDefaults(t *testing.T) {
	r := invoke("drop")
	lines := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
	if r.code != 0 || len(lines) != 3 {
		t.Fatalf("status %d, %d lines, want a header, a rule and 1 row:\n%s", r.code, len(lines), r.stdout)
	}
	for _, c := range dropColumns {
		if !strings.Contains(lines[0], " "+c.name+" ") {
			t.Errorf("header %q lacks %s", lines[0], c.name)
		}
	}
	explicit := invoke("drop", "--shared-buffers", sim.DefaultSharedBuffers, "--tables", drop.DefaultTables,
		"--op", "drop", "--transactions", "per-relation", "--mode", "recovery", "--policy", "pg14",
		"--threshold", "NB/32", "--seed", "1", "--format", "markdown")
	if explicit.stdout != r.stdout {
		t.Errorf("the defaults given explicitly print\n%s\nwant\n%s", explicit.stdout, r.stdout)
	}
	// 100 relations of one block, each dropped on its own by a lookup.
	if !strings.Contains(lines[2], "| 128MB ") || !strings.Contains(lines[2], " lookup ") {
		t.Errorf("default row %q, want 128MB and the lookup path", lines[2])
	}
}

func TestDropIgnoresSeed(t *testing.T) {
	args := []string{"drop", "--shared-buffers", "1MB", "--tables", "5x3,1xNB/8", "--op", "vacuum", "--policy", "pg13,pg14"}
	a, b := invoke(args...), invoke(append(args, "--seed", "99")...)
	if a.code != 0 || a.stdout != b.stdout {
		t.Errorf("--seed 99 changed the table:\n%s\nwant\n%s", b.stdout, a.stdout)
	}
}

func TestDropRejectsBadInput(t *testing.T) {
	tests := []struct {
		args []string
		want string // part of the message line
	}{
		{[]string{"--shared-buffers", "12XB"}, `--shared-buffers "12XB": not a size from 128kB to 100GB, like 128MB or 1GB`},
		{[]string{"--shared-buffers", "1MB,,2MB"}, `--shared-buffers "1MB,,2MB": `},
		{[]string{"--shared-buffers", "200GB"}, `--shared-buffers "200GB": not between 128kB and 100GB`},
		{[]string{"--tables", "1y4"}, `--tables "1y4": not COUNTxBLOCKS, like 1000x1 or 1xNB/32`},
		{[]string{"--tables", "0x5"}, `--tables "0x5": not COUNTxBLOCKS`},
		{[]string{"--tables", "1x0"}, `--tables "1x0": not COUNTxBLOCKS with BLOCKS from 1 to 2^30`},
		{[]string{"--tables", "1xNB/0"}, `--tables "1xNB/0": not COUNTxNB/k with a whole k`},
		{[]string{"--tables", "1x1,"}, `--tables "1x1,": `},
		{[]string{"--tables", "100001x1"}, `--tables "100001x1": more than 100000 relations in all`},
		{[]string{"--tables", "60000x1,40001x1"}, `--tables "60000x1,40001x1": more than 100000 relations in all`},
		// --tables takes one value, its groups separated by commas: giving it twice is a
		// mistake, not a longer list.
		{[]string{"--tables", "60000x1", "--tables", "40001x1"}, `--tables "40001x1": --tables is already "60000x1": it takes one value`},
		{[]string{"--tables", "100000x2000"}, `--tables "100000x2000": 200000000 blocks in all at shared_buffers 128MB; at most 134217728`},
		{[]string{"--op", "delete"}, `--op "delete": not drop, truncate or vacuum`},
		{[]string{"--transactions", "some"}, `--transactions "some": not per-relation or single`},
		{[]string{"--op", "vacuum", "--transactions", "single"}, `--transactions "single": VACUUM cannot run inside a transaction block`},
		{[]string{"--mode", "standby"}, `--mode "standby": not recovery or primary`},
		{[]string{"--policy", "pg12"}, `--policy "pg12": not pg14, pg13 or lookup`},
		{[]string{"--policy", "pg13,pg12"}, `--policy "pg12": `},
		{[]string{"--policy", ""}, `--policy "": `},
		{[]string{"--threshold", "NB/0"}, `--threshold "NB/0": not NB/k`},
		{[]string{"--threshold", "0"}, `--threshold "0": not a block count`},
		{[]string{"--threshold", "half"}, `--threshold "half": `},
		{[]string{"--seed", "-1"}, `--seed "-1": `},
		{[]string{"--format", "xml"}, `--format "xml": not markdown, csv or json`},
		{[]string{"--reproduce=yes"}, `--reproduce "yes": not true or false`},
		{[]string{"--nope"}, "unknown flag --nope"},
		{[]string{"--steps", "10"}, "unknown flag --steps"},
		{[]string{"--tables"}, "--tables needs a value"},
		{[]string{"--tables", "1x1", "extra"}, `unexpected argument "extra": values follow their flag, as in --shared-buffers 128MB`},
		{[]string{"1x1"}, `unexpected argument "1x1"`},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			checkUsageError(t, invoke(append([]string{"drop"}, tt.args...)...), "bufferscope drop: ", tt.want,
				"Run 'bufferscope drop --help' for usage.")
		})
	}
}

// fakeReproduction returns a reproduction with every table filled and the given checks.
func fakeReproduction(checks ...lab.Target) *drop.Reproduction {
	four := func() []sim.Duration { return []sim.Duration{sim.Second, sim.Second, sim.Second, sim.Second} }
	r := &drop.Reproduction{BVacM: four(), BVacP: four(), BTruncM: four(), BTruncP: four(), Checks: checks}
	for range 7 {
		r.AMaster, r.APatched = append(r.AMaster, four()), append(r.APatched, four())
	}
	return r
}

// fakeReproducer is the drop lab's experiment with a reproduction that reports progress
// twice and returns r, instead of the real one, which takes over a minute and 3.5GB.
type fakeReproducer struct {
	lab.Experiment
	r     *drop.Reproduction
	calls *int
}

func (f fakeReproducer) Reproduce(w, progress io.Writer) (bool, error) {
	*f.calls++
	fmt.Fprint(progress, "reproducing: table A: first\nreproducing: table B: last\n")
	_, err := io.WriteString(w, f.r.Markdown())
	return f.r.Passed(), err
}

// fakeReproduce replaces the drop lab's reproduction with a fakeReproducer returning r, for
// the rest of the test, and returns the count of its calls.
func fakeReproduce(t *testing.T, r *drop.Reproduction) *int {
	calls := new(int)
	saved := experimentOf
	experimentOf = func(l lab.Lab) lab.Experiment {
		if l.Info().Command == "drop" {
			return fakeReproducer{Experiment: l.Experiment(), r: r, calls: calls}
		}
		return l.Experiment()
	}
	t.Cleanup(func() { experimentOf = saved })
	return calls
}

func TestDropReproduce(t *testing.T) {
	pass := lab.Target{Name: "target one", Pass: true, Detail: "fine"}
	fail := lab.Target{Name: "target two", Pass: false, Detail: "missed"}
	wantErr := "reproducing: table A: first\nreproducing: table B: last\n"
	for _, tt := range []struct {
		name   string
		checks []lab.Target
		code   int
		stderr string
	}{
		{"all pass", []lab.Target{pass, pass}, 0, wantErr},
		{"one fails", []lab.Target{pass, fail}, 1,
			wantErr + "bufferscope drop: targets of the published measurements missed; the table above marks them\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			rep := fakeReproduction(tt.checks...)
			calls := fakeReproduce(t, rep)
			for _, args := range [][]string{{"drop", "--reproduce"}, {"drop", "-reproduce=true"}} {
				r := invoke(args...)
				if r.code != tt.code || r.stderr != tt.stderr {
					t.Errorf("%q: status %d, stderr %q; want %d and %q", args, r.code, r.stderr, tt.code, tt.stderr)
				}
				if r.stdout != rep.Markdown() {
					t.Errorf("%q: stdout\n%s\nwant the reproduction's Markdown\n%s", args, r.stdout, rep.Markdown())
				}
			}
			if *calls != 2 {
				t.Errorf("reproduced %d times, want 2", *calls)
			}
		})
	}
}

func TestDropReproduceMistakes(t *testing.T) {
	calls := fakeReproduce(t, fakeReproduction())
	hint := "Run 'bufferscope drop --help' for usage."
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--reproduce", "--format", "csv"}, "--reproduce cannot be combined with --format: it runs the published experiments"},
		{[]string{"--tables", "1x1", "--reproduce", "--shared-buffers", "1GB"}, "--reproduce cannot be combined with --shared-buffers or --tables"},
		{[]string{"--reproduce", "--seed", "1"}, "--reproduce cannot be combined with --seed"},
		{[]string{"--reproduce", "--policy", "pg14", "--op", "vacuum"}, "with --op or --policy"},
		{[]string{"--reproduce", "true"}, `unexpected argument "true": --reproduce takes no value; write --reproduce, or --reproduce=true`},
		{[]string{"reproduce"}, `unexpected argument "reproduce": flags start with a dash, as in --reproduce`},
	} {
		checkUsageError(t, invoke(append([]string{"drop"}, tt.args...)...), "bufferscope drop: ", tt.want, hint)
	}
	top := "Run 'bufferscope --help' for usage."
	checkUsageError(t, invoke("--reproduce"), "bufferscope: ",
		"unknown flag --reproduce: flags follow a command, and --reproduce is a flag of 'bufferscope drop'", top)
	checkUsageError(t, invoke("reproduce"), "bufferscope: ",
		`unknown command "reproduce"; --reproduce is a flag of 'bufferscope drop'`, top)
	checkUsageError(t, invoke("--format=csv", "drop"), "bufferscope: ",
		"--format is a flag of 'bufferscope run', 'bufferscope drop'", top) // and every later lab's
	// Help wins over everything else; --reproduce=false leaves an ordinary experiment.
	for _, args := range [][]string{{"drop", "--reproduce", "--help"}, {"drop", "--reproduce", "--format", "csv", "-h"}} {
		if r := invoke(args...); r.code != 0 || r.stderr != "" || !strings.HasPrefix(r.stdout, "Usage: bufferscope drop ") {
			t.Errorf("%q: status %d, stderr %q; want 0 and the usage", args, r.code, r.stderr)
		}
	}
	if rows := dropRows(t, "--reproduce=false", "--shared-buffers", "1MB", "--tables", "1x1"); len(rows) != 1 {
		t.Errorf("--reproduce=false printed %d rows, want 1", len(rows))
	}
	if *calls != 0 {
		t.Errorf("reproduced %d times, want none", *calls)
	}
}

func TestDropUsageDocumentsEveryFlag(t *testing.T) {
	usage := invoke("drop", "--help").stdout
	_, examples, _ := strings.Cut(usage, "\nExamples:\n")
	examples, flags, _ := strings.Cut(examples, "\nFlags:\n")
	for _, name := range newLabFlags(commandNamed(t, "drop")).order {
		if !strings.Contains(flags, "  --"+name+" ") {
			t.Errorf("usage lacks --%s", name)
		}
		// --seed changes nothing, so an example with it would mislead.
		if name != "seed" && !strings.Contains(examples, " --"+name+" ") && !strings.Contains(examples, " --"+name+"\n") {
			t.Errorf("usage has no example with --%s", name)
		}
	}
	for _, want := range []string{"exits 0 when every target passes and 1 when any fails", "draws no random numbers"} {
		if !strings.Contains(usage, want) {
			t.Errorf("usage lacks %q", want)
		}
	}
}
