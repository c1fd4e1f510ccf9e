//go:build !js

package e2e

import (
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/chromedp"
)

// downloads lets the tab save files into a fresh folder and returns a function that clicks
// a button, as a reader would, and returns the file it saved under name.
func downloads(t *testing.T, p *page) func(button, name string) []byte {
	t.Helper()
	dir := t.TempDir()
	p.do(waitTimeout, "allowing downloads", chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, browser.SetDownloadBehavior, browser.SetDownloadBehaviorParams{Behavior: browser.SetDownloadBehaviorBehaviorAllow, DownloadPath: dir})
		return err
	}))
	return func(button, name string) []byte {
		t.Helper()
		p.click(button)
		path := filepath.Join(dir, name)
		deadline := time.Now().Add(waitTimeout)
		for {
			if b, err := os.ReadFile(path); err == nil && len(b) > 0 {
				return b
			}
			if time.Now().After(deadline) {
				entries, _ := os.ReadDir(dir)
				t.Fatalf("%s saved no %s within %v (the folder holds %v)", button, name, waitTimeout, entries)
			}
			time.Sleep(pollInterval)
		}
	}
}

// readCSV parses a saved CSV file.
func readCSV(t *testing.T, what string, b []byte) [][]string {
	t.Helper()
	rows, err := csv.NewReader(bytes.NewReader(b)).ReadAll()
	if err != nil || len(rows) < 2 {
		t.Fatalf("%s is not CSV with rows (%v):\n%.500s", what, err, b)
	}
	return rows
}

// exportStats is what the test reads of stats().
type exportStats struct {
	Lab           string         `json:"lab"`
	Step          uint64         `json:"step"`
	NBuffers      int            `json:"nbuffers"`
	SharedBuffers string         `json:"sharedBuffers"`
	Counters      map[string]any `json:"counters"`
}

// TestExportsInEveryLab saves, in every lab, the grid as a PNG, the pool as pg_buffercache
// rows, its I/O as pg_stat_io rows (CSV and PNG) and the counters as a PNG with the page's
// buttons, and checks each file: the PNGs decode (the grid's at the canvas's size), the
// pg_buffercache rows are the buffers the bridge inspects, and the pg_stat_io rows add up to
// the lab's counters. The lab's "Try it on a real server" panel shows SQL.
func TestExportsInEveryLab(t *testing.T) {
	for _, lab := range []string{"free", "drop", "ring", "pins"} {
		t.Run(lab, func(t *testing.T) {
			p := openPage(t, "/?lab="+lab+"&play=0")
			save := downloads(t, p)
			eval[any](p, `bufferscope.step(20000)`)
			st := eval[exportStats](p, `bufferscope.stats()`)
			if st.Lab != lab || st.Step == 0 {
				t.Fatalf("stats after stepping: %+v", st)
			}
			base := fmt.Sprintf("bufferscope-%s-%%s-%s-step%d", lab, st.SharedBuffers, st.Step)

			// The grid, at the canvas's size in CSS pixels (the viewport's scale is 1).
			img, err := decodePNG(save("#grid-png", fmt.Sprintf(base, "grid")+".png"))
			if err != nil {
				t.Fatalf("the grid's PNG: %v", err)
			}
			canvas := p.elementRect("#grid canvas")
			if b := img.Bounds(); b.Dx() != int(canvas.W+0.5) || b.Dy() != int(canvas.H+0.5) {
				t.Errorf("the grid's PNG is %v, the canvas %.0f×%.0f", b, canvas.W, canvas.H)
			}
			if colours(img, img.Bounds(), 3) < 2 {
				t.Error("the grid's PNG is blank")
			}

			checkBuffercache(t, p, readCSV(t, "pg_buffercache", save("#buffercache-csv", fmt.Sprintf(base, "pg_buffercache")+".csv")), st)

			eval[any](p, `document.querySelector("#statio-details").open = true`)
			waitJS[bool](p, waitTimeout, "the pg_stat_io table", `document.querySelectorAll("#statio-table tbody tr").length > 0`)
			checkStatIO(t, p, save("#statio-csv", fmt.Sprintf(base, "pg_stat_io")+".csv"), st)
			if _, err := decodePNG(save("#statio-png", fmt.Sprintf(base, "pg_stat_io")+".png")); err != nil {
				t.Errorf("pg_stat_io's PNG: %v", err)
			}
			if _, err := decodePNG(save("#counters-png", fmt.Sprintf("bufferscope-%s-%s-step%d.png", lab, st.SharedBuffers, st.Step))); err != nil {
				t.Errorf("the counters' PNG: %v", err)
			}

			// Beside the lab, SQL to run on a real server, each block with a copy button.
			sql := eval[[]string](p, `[...document.querySelectorAll("#sql-card:not([hidden]) .sql-block code")].map(c => c.textContent)`)
			if len(sql) == 0 || !strings.Contains(strings.Join(sql, "\n"), "SELECT") {
				t.Errorf("no SQL beside the %s lab: %q", lab, sql)
			}
			if n := eval[int](p, `document.querySelectorAll("#sql-card .sql-block button:not(.run-real)").length`); n != len(sql) {
				t.Errorf("%d copy buttons for %d blocks of SQL", n, len(sql))
			}
			if lab == "free" {
				checkExportBadInput(t, p)
			}
		})
	}
}

// checkBuffercache checks the pg_buffercache rows against what bufferscope.buffer(id) says
// of every buffer.
func checkBuffercache(t *testing.T, p *page, rows [][]string, st exportStats) {
	t.Helper()
	want := "bufferid,relfilenode,reltablespace,reldatabase,relforknumber,relblocknumber,isdirty,usagecount,pinning_backends"
	if got := strings.Join(rows[0], ","); got != want {
		t.Fatalf("pg_buffercache's header %q, want %q", got, want)
	}
	rows = rows[1:]
	if len(rows) != st.NBuffers {
		t.Fatalf("pg_buffercache has %d rows for %d buffers", len(rows), st.NBuffers)
	}
	type buf struct {
		Valid    bool    `json:"valid"`
		Dirty    bool    `json:"dirty"`
		Usage    int     `json:"usage"`
		Pins     int     `json:"pins"`
		Block    *uint32 `json:"block"`
		Fork     *string `json:"fork"`
		Relation *string `json:"relation"`
	}
	// Every every-th buffer: a bridge call each, and the page has only so much time.
	every := (st.NBuffers + 1499) / 1500
	sample := eval[[]buf](p, fmt.Sprintf(`Array.from({length: Math.ceil(%d / %d)}, (_, i) => bufferscope.buffer(i * %[2]d))`, st.NBuffers, every))
	forks := map[string]string{"main": "0", "fsm": "1", "vm": "2", "init": "3"}
	relOf := map[string]string{} // relfilenode → relation name: one relation each
	valid, dirty := 0, 0
	for i, r := range rows {
		if r[0] != strconv.Itoa(i+1) {
			t.Fatalf("row %d has bufferid %s", i, r[0])
		}
		if i%every != 0 {
			continue
		}
		b := sample[i/every]
		if !b.Valid {
			if strings.Join(r[1:], "") != "" {
				t.Fatalf("buffer %d holds no page (%+v) but its row is %v", i, b, r)
			}
			continue
		}
		valid++
		if b.Dirty {
			dirty++
		}
		if b.Block == nil || b.Fork == nil || b.Relation == nil {
			t.Fatalf("buffer %d is valid but the bridge names no page: %+v", i, b)
		}
		wantRow := []string{strconv.Itoa(i + 1), r[1], r[2], r[3], forks[*b.Fork], strconv.FormatUint(uint64(*b.Block), 10),
			map[bool]string{true: "t", false: "f"}[b.Dirty], strconv.Itoa(b.Usage), strconv.Itoa(b.Pins)}
		if strings.Join(r, ",") != strings.Join(wantRow, ",") || r[1] == "" || r[2] == "" || r[3] == "" {
			t.Fatalf("buffer %d: row %v, the bridge says %v (%s %s block %d)", i, r, wantRow, *b.Relation, *b.Fork, *b.Block)
		}
		if name, ok := relOf[r[1]]; ok && name != *b.Relation {
			t.Fatalf("relfilenode %s is both %s and %s", r[1], name, *b.Relation)
		}
		relOf[r[1]] = *b.Relation
	}
	if valid == 0 {
		t.Fatal("no buffer holds a page: nothing was compared")
	}
	t.Logf("pg_buffercache: %d rows; of every %d-th, %d valid and %d dirty, as the bridge inspects them", len(rows), every, valid, dirty)
}

// checkStatIO checks that the pg_stat_io rows add up to the lab's counters of the pool, for
// those of its counters the lab shows.
func checkStatIO(t *testing.T, p *page, saved []byte, st exportStats) {
	t.Helper()
	rows := readCSV(t, "pg_stat_io", saved)
	col := map[string]int{}
	for i, c := range rows[0] {
		col[c] = i
	}
	for _, c := range []string{"backend_type", "object", "context", "reads", "writes", "extends", "hits", "evictions", "reuses", "fsyncs"} {
		if _, ok := col[c]; !ok {
			t.Fatalf("pg_stat_io has no column %s: %v", c, rows[0])
		}
	}
	sum := map[string]uint64{}
	for _, r := range rows[1:] {
		who := "backends"
		if bt := r[col["backend_type"]]; bt == "background writer" || bt == "checkpointer" || bt == "walwriter" {
			who = bt
		}
		for _, op := range []string{"reads", "writes", "hits", "evictions", "reuses", "fsyncs"} {
			if v := r[col[op]]; v != "" {
				n, err := strconv.ParseUint(v, 10, 64)
				if err != nil {
					t.Fatalf("pg_stat_io %v: %s is %q", r, op, v)
				}
				sum[who+"/"+r[col["object"]]+"/"+op] += n
			}
		}
	}
	checks := map[string]string{
		"hits": "backends/relation/hits", "misses": "backends/relation/reads", "evictions": "backends/relation/evictions",
		"dirtyWrites": "backends/relation/writes", "bgwriterWrites": "background writer/relation/writes",
		"checkpointWrites": "checkpointer/relation/writes",
	}
	compared := 0
	for counter, key := range checks {
		v, ok := st.Counters[counter].(float64)
		if !ok {
			continue
		}
		compared++
		if uint64(v) != sum[key] {
			t.Errorf("pg_stat_io's %s add up to %d, the counter %s is %v", key, sum[key], counter, v)
		}
	}
	if v, ok := st.Counters["walFlushes"].(float64); ok {
		compared++
		if got := sum["backends/wal/fsyncs"] + sum["walwriter/wal/fsyncs"]; got != uint64(v) {
			t.Errorf("pg_stat_io's WAL fsyncs add up to %d, the counter walFlushes is %v", got, v)
		}
	}
	t.Logf("pg_stat_io agrees with %d of the lab's counters: %v", compared, sum)
	if compared == 0 {
		// The lab shows none of the pool's counters: the rows are at least the bridge's.
		if got := readCSV(t, "bufferscope.pgStatIO()", []byte(eval[string](p, `bufferscope.pgStatIO().csv`))); fmt.Sprint(got) != fmt.Sprint(rows) {
			t.Errorf("the saved pg_stat_io differs from bufferscope.pgStatIO():\n%v\n%v", rows, got)
		}
	}
}

// TestLabChartExports saves the lab's own charts and tables with the same export buttons:
// the pins lab's chart of TPS per slice, the drop lab's experiment table and the ring
// lab's chart against ring size. (TestPinsLeavesAndComparisons saves the pins lab's two
// policies side by side, once it has run them.)
func TestLabChartExports(t *testing.T) {
	t.Run("pins", func(t *testing.T) {
		p := openPage(t, "/?lab=pins")
		save := downloads(t, p)
		waitJS[bool](p, waitTimeout, "the chart of TPS per slice", `document.querySelector("#pins-slices canvas") !== null && !document.querySelector("#pins-slices-csv").disabled`)
		eval[any](p, `bufferscope.pause()`)
		sliceMS := 1000 * eval[float64](p, `bufferscope.stats().counters.sliceSeconds`)
		rows := readCSV(t, "the slices' CSV", save("#pins-slices-csv", "bufferscope-pins-slices.csv"))
		if strings.Join(rows[0], ",") != "slice,server_time_ms,tps" {
			t.Errorf("the slices' CSV header %v", rows[0])
		}
		for i, r := range rows[1:] {
			ms, err1 := strconv.ParseFloat(r[1], 64)
			tps, err2 := strconv.ParseFloat(r[2], 64)
			if r[0] != strconv.Itoa(i+1) || err1 != nil || math.Abs(ms-float64(i+1)*sliceMS) > 1e-6 || err2 != nil || tps < 0 {
				t.Errorf("slice row %v; slices are %v ms of simulated server time", r, sliceMS)
			}
		}
		img, err := decodePNG(save("#pins-slices-png", "bufferscope-pins-slices.png"))
		if err != nil {
			t.Fatalf("the slices' PNG: %v", err)
		}
		chart := p.elementRect("#pins-slices canvas")
		if b := img.Bounds(); float64(b.Dx()) < chart.W || float64(b.Dy()) < chart.H || colours(img, b, 3) < 2 {
			t.Errorf("the slices' PNG is %v with %d colours, the chart %.0f×%.0f", b, colours(img, b, 3), chart.W, chart.H)
		}
	})
	t.Run("drop", func(t *testing.T) {
		p := openPage(t, "/?lab=drop&shared_buffers=128MB&tables=10x3&op=truncate&play=0")
		save := downloads(t, p)
		waitJS[bool](p, 30*time.Second, "the chart's experiments", `document.querySelector("#curve-card").dataset.state === "done"`)
		eval[any](p, `document.querySelector("#curve-card details").open = true`)
		const base = "bufferscope-drop-chart-128MB-truncate-recovery-table"
		rows := readCSV(t, "the experiment's table", save("#curve-table-csv", base+".csv"))
		shown := eval[[][]string](p, `[...document.querySelectorAll("#curve-table tr")].map(tr => [...tr.cells].map(c => c.textContent))`)
		if fmt.Sprint(rows) != fmt.Sprint(shown) || len(rows) != 9 {
			t.Errorf("the table's CSV %v, the page shows %v", rows, shown)
		}
		if _, err := decodePNG(save("#curve-table-png", base+".png")); err != nil {
			t.Errorf("the table's PNG: %v", err)
		}
	})
	t.Run("ring", func(t *testing.T) {
		p := openPage(t, "/?lab=ring&play=0")
		save := downloads(t, p)
		// The chart is computed as the lab opens.
		waitJS[bool](p, 90*time.Second, "the chart against ring size", `!document.querySelector("#ring-csv").disabled`)
		rows := readCSV(t, "the ring chart's CSV", save("#ring-csv", "bufferscope-ring-chart.csv"))
		if len(rows) != 11 || rows[0][0] != "ring_kb" {
			t.Errorf("the ring chart's CSV: %v", rows)
		}
		if _, err := decodePNG(save("#ring-png", "bufferscope-ring-chart.png")); err != nil {
			t.Errorf("the ring chart's PNG: %v", err)
		}
	})
}

// checkExportBadInput: the export calls answer bad arguments with a reason, never a throw.
func checkExportBadInput(t *testing.T, p *page) {
	t.Helper()
	for _, call := range []string{`bufferscope.pgBuffercache(-1)`, `bufferscope.pgBuffercache("x")`, `bufferscope.pgBuffercache(0, 1e9)`,
		`bufferscope.pgBuffercache(0, 0)`, `bufferscope.pgBuffercache(1e12)`, `bufferscope.pgBuffercache(0.5)`} {
		res := eval[map[string]any](p, call)
		if res["ok"] != false || res["error"] == nil || res["error"] == "" {
			t.Errorf("%s = %v, want {ok: false, error}", call, res)
		}
	}
	last := eval[map[string]any](p, `(n => bufferscope.pgBuffercache(n - 3))(bufferscope.stats().nbuffers)`)
	if last["ok"] != true || strings.Count(last["csv"].(string), "\n") != 3 || last["next"] != last["total"] {
		t.Errorf("the last three rows: %v", last)
	}
}
