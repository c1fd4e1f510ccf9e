//go:build !js

package e2e

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/systeminfo"
	"github.com/chromedp/chromedp"

	"github.com/bufferscope/bufferscope/sim"
	"github.com/bufferscope/bufferscope/sim/labs/pins"
	"github.com/bufferscope/bufferscope/sim/labs/ring"
	"github.com/bufferscope/bufferscope/wasm/grid"
)

// realStart is how long the page's PostgreSQL 18 may take to download, compile and initdb on a
// loaded machine (about 6 s in node here).
const realStart = 90 * time.Second

// realRun is how long one block of a lab's SQL may take in WebAssembly (filling the ring lab's
// 80MB table is the longest).
const realRun = 3 * time.Minute

// resultsJS returns the panel's result tables: each as its rows of cell texts.
const resultsJS = `[...document.querySelectorAll('#real-results table')].map((t) =>
	[...t.tBodies[0].rows].map((r) => [...r.cells].map((c) => c.textContent)))`

// runBlock presses the "Run in PostgreSQL 18" button of the lab's SQL block titled title and
// waits for its result: the result tables, or the error PostgreSQL gave.
func runBlock(t *testing.T, p *page, title string) [][][]string {
	t.Helper()
	eval[bool](p, fmt.Sprintf(`(() => {
		const block = [...document.querySelectorAll('#sql-blocks .sql-block')].find((b) => b.querySelector('h3').textContent === %q);
		if (!block) throw new Error('no SQL block titled ' + %[1]q);
		const run = block.querySelector('.run-real');
		if (!run) throw new Error('the block ' + %[1]q + ' offers no run in PostgreSQL 18');
		document.getElementById('real-ran').textContent = '';
		run.click();
		return true;
	})()`, title))
	return waitResults(t, p, "the block "+title)
}

// runSQL runs sql from the panel's editor, as a reader who typed it would, and waits for its
// result tables.
func runSQL(t *testing.T, p *page, sql string) [][][]string {
	t.Helper()
	p.choose("#real-sql", sql)
	eval[bool](p, `(document.getElementById('real-ran').textContent = '', document.getElementById('real-run').click(), true)`)
	return waitResults(t, p, sql)
}

// waitResults waits until what has run in the panel and returns its result tables; an error
// fails the test with PostgreSQL's words.
func waitResults(t *testing.T, p *page, what string) [][][]string {
	t.Helper()
	waitJS[bool](p, realStart+realRun, what+" to run in PostgreSQL 18",
		`document.getElementById('real-ran').textContent.startsWith('Ran in') || !document.getElementById('real-error').hidden`)
	if msg := eval[string](p, `document.getElementById('real-error').hidden ? '' : document.getElementById('real-error').textContent`); msg != "" {
		p.fatalf("%s failed in PostgreSQL 18:\n%s", what, msg)
	}
	return eval[[][][]string](p, resultsJS)
}

// lastNumber is the first cell of the last row of the last result table, as a number.
func lastNumber(t *testing.T, p *page, what string, tables [][][]string) int {
	t.Helper()
	if len(tables) == 0 || len(tables[len(tables)-1]) == 0 {
		p.fatalf("%s: no result rows (%v)", what, tables)
	}
	rows := tables[len(tables)-1]
	n, err := strconv.Atoi(rows[len(rows)-1][0])
	if err != nil {
		p.fatalf("%s: %q is not a count", what, rows[len(rows)-1][0])
	}
	return n
}

// renderersMB is the resident memory of the browser's renderer processes, in MB (0 where the
// system does not show it).
func renderersMB(t *testing.T) float64 {
	t.Helper()
	info, err := chromedp.CallBrowser(suite.browser, systeminfo.GetProcessInfo, cdp.Empty{})
	if err != nil {
		t.Fatalf("listing the browser's processes: %v", err)
	}
	total := 0.0
	for _, pr := range info.ProcessInfo {
		if pr.Type == "renderer" {
			mb, _ := residentMB(pr.ID)
			total += mb
		}
	}
	return total
}

// TestRealPostgreSQLPanel opens the real PostgreSQL 18 in the pins lab and checks the LP_DEAD
// pair against the simulation's B-tree model; then bad SQL, which shows PostgreSQL's own error
// and leaves the page working; then closing the panel, which ends the worker.
func TestRealPostgreSQLPanel(t *testing.T) {
	p := openPage(t, "/?lab=pins&play=0")
	label := eval[string](p, `(() => { const c = document.getElementById('real-card'); return c.hidden ? '' : document.getElementById('real-start').textContent; })()`)
	if !strings.HasPrefix(label, "Start PostgreSQL 18 (downloads ") || !strings.HasSuffix(label, " MB)") {
		p.fatalf("the real PostgreSQL panel offers %q, want a start that says what it downloads", label)
	}
	if n := eval[int](p, `performance.getEntriesByType('resource').filter((e) => e.name.includes('/assets/pglite/')).length`); n != 0 {
		p.fatalf("the page fetched %d of the real PostgreSQL's files before the reader asked", n)
	}

	before := renderersMB(t)

	// The LP_DEAD pair, as the pins lab's fidelity experiment 6 runs it, on the real engine
	// beside the model. Reference: src/backend/access/nbtree/nbtutils.c, _bt_killitems.
	want, err := pins.FidelityExperiment6(sim.Version(18))
	if err != nil {
		t.Fatal(err)
	}
	plain := lastNumber(t, p, "dead items after a plain index scan", runBlock(t, p, "Hints set by an index scan"))
	cursor := lastNumber(t, p, "dead items after a cursor with an insert", runBlock(t, p, "A hint lost: the page changed under the scan"))
	t.Logf("dead items on the leaf: after a plain index scan %d in PostgreSQL 18, %d in the model; after a cursor with an insert %d and %d",
		plain, want["plain index scan, logged"], cursor, want["cursor + insert into the leaf, logged"])
	if plain != want["plain index scan, logged"] || cursor != want["cursor + insert into the leaf, logged"] {
		t.Errorf("PostgreSQL 18 in the page: %d dead after a plain scan, %d after a cursor with an insert; the model: %d and %d",
			plain, cursor, want["plain index scan, logged"], want["cursor + insert into the leaf, logged"])
	}
	version := eval[string](p, `document.getElementById('real-version').textContent`)
	if !strings.Contains(version, "PostgreSQL 18.") {
		t.Errorf("the panel says %q, want PostgreSQL 18's version", version)
	}

	// Bad SQL: PostgreSQL's words, and the page goes on.
	p.choose("#real-sql", "SELEC 1;")
	p.click("#real-run")
	msg := waitJS[string](p, realRun, "PostgreSQL's error", `!document.getElementById('real-error').hidden && document.getElementById('real-error').textContent`)
	if !strings.Contains(msg, `syntax error at or near "SELEC"`) || !strings.Contains(msg, "42601") {
		t.Errorf("bad SQL shows %q, want PostgreSQL's syntax error with its SQLSTATE 42601", msg)
	}
	step0 := eval[uint64](p, `bufferscope.stats().step`)
	eval[any](p, `bufferscope.step(10)`)
	if after := eval[uint64](p, `bufferscope.stats().step`); after != step0+10 {
		t.Errorf("after PostgreSQL's error the simulation stepped from %d to %d, want %d", step0, after, step0+10)
	}
	if n := lastNumber(t, p, "a query after the error", runSQL(t, p, "SELECT 40 + 2;")); n != 42 {
		t.Errorf("SELECT 40 + 2 after an error gave %d", n)
	}

	// Closing ends the worker: its wasm memory goes with it. A dedicated worker lives in its
	// page's renderer process, so the renderers' resident memory shows it come and go.
	if _, ok := residentMB(1); !ok {
		t.Log("this system does not show processes' memory: the memory check is left out")
	} else {
		open := renderersMB(t)
		p.click("#real-close")
		var closed float64
		for deadline := time.Now().Add(20 * time.Second); ; {
			closed = renderersMB(t)
			if closed <= before+(open-before)/2 || time.Now().After(deadline) {
				break
			}
			time.Sleep(500 * time.Millisecond)
		}
		t.Logf("renderers' memory: %.1f MB before PostgreSQL 18, %.1f MB while it ran, %.1f MB after Close", before, open, closed)
		if open-before < 32 {
			t.Errorf("starting PostgreSQL 18 added %.1f MB to the renderers (%.1f → %.1f MB); want its wasm memory seen", open-before, before, open)
		}
		if closed > before+(open-before)/2 {
			t.Errorf("after Close the renderers hold %.1f MB, %.1f MB before PostgreSQL 18 started and %.1f MB while it ran: its memory was not given back", closed, before, open)
		}
	}
	if !eval[bool](p, `document.getElementById('real-console').hidden && !document.getElementById('real-start').hidden`) {
		t.Error("after Close the panel does not offer to start PostgreSQL again")
	}
}

// TestRealRingMatchesTheModel runs the ring lab's experiment in PostgreSQL 18 in the page:
// VACUUM through a 256kB ring leaves the ring's pages of the table in shared buffers, as the
// ring lab's model does for the same pool. Reference: src/backend/storage/buffer/freelist.c,
// GetAccessStrategyWithSize.
func TestRealRingMatchesTheModel(t *testing.T) {
	p := openPage(t, "/?lab=ring&play=0")
	evicted := lastNumber(t, p, "the table's buffers evicted", runBlock(t, p, "A table larger than any ring"))
	if evicted == 0 {
		t.Errorf("evicting the filled table's buffers evicted none: the pool did not hold it")
	}
	runBlock(t, p, "VACUUM through a ring of your choice")
	left := lastNumber(t, p, "the table's main-fork pages left", runBlock(t, p, "What VACUUM left in shared buffers"))
	pages := lastNumber(t, p, "the table's pages", runSQL(t, p, "SELECT pg_relation_size('ring_t') / current_setting('block_size')::int;"))
	nb, err := sim.SharedBuffersToNBuffers("128MB")
	if err != nil {
		t.Fatal(err)
	}
	want, err := ring.PagesLeftAfterVacuum(sim.Version(18), 256, nb, pages)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("VACUUM of a %d-page table with vacuum_buffer_usage_limit 256kB: PostgreSQL 18 in the page left %d main-fork pages, the model %d", pages, left, want)
	if left != want {
		t.Errorf("PostgreSQL 18 in the page left %d of the %d-page table's main-fork pages after VACUUM with a 256kB limit; the model leaves %d", left, pages, want)
	}
}

// TestRealSQLRunsInEveryLab runs, in the free and drop labs, every block of "Try it on a real
// server" that offers to run in the page's PostgreSQL 18, in order, as written for it: each
// must run without an error (the ring and pins labs' blocks are run, and their counts checked,
// above). A block that cannot run there must say why.
func TestRealSQLRunsInEveryLab(t *testing.T) {
	for _, lab := range []string{"free", "drop"} {
		t.Run(lab, func(t *testing.T) {
			p := openPage(t, "/?lab="+lab+"&play=0")
			blocks := eval[[]struct {
				Title  string `json:"title"`
				Run    bool   `json:"run"`
				Reason bool   `json:"reason"`
			}](p, `[...document.querySelectorAll('#sql-blocks .sql-block')].map((b) => ({
				title: b.querySelector('h3').textContent,
				run: !!b.querySelector('.run-real'),
				reason: [...b.querySelectorAll('p')].some((q) => q.textContent.startsWith("Not runnable in the page's PostgreSQL 18: ")),
			}))`)
			ran := 0
			for _, b := range blocks {
				switch {
				case b.Run:
					tables := runBlock(t, p, b.Title)
					t.Logf("%s: %d result tables", b.Title, len(tables))
					ran++
				case !b.Reason:
					t.Errorf("the block %q neither runs in PostgreSQL 18 nor says why not", b.Title)
				}
			}
			if ran == 0 {
				t.Errorf("no block of the %s lab runs in PostgreSQL 18", lab)
			}
		})
	}
}

// TestRealPoolOnTheGrid creates and fills a table in the page's PostgreSQL 18, draws its
// shared buffers on the grid, and checks the grid against pg_buffercache: every row of the
// table's pages is the buffer the grid inspects at bufferid − 1 (relation, block, usage count,
// dirty, pins), no other buffer holds the table, and each of its cells is drawn in the
// table's colour from the legend, faded for its usage count as the simulated pool's cells
// are. Back to the simulation brings the simulated pool back.
//
// Reference: contrib/pg_buffercache/pg_buffercache_pages.c (pg_buffercache_pages).
func TestRealPoolOnTheGrid(t *testing.T) {
	p := openPage(t, "/?lab=free&play=0")
	runSQL(t, p, `CREATE EXTENSION IF NOT EXISTS pg_buffercache;
CREATE TABLE grid_t (id int, pad text);
INSERT INTO grid_t SELECT g, repeat('x', 200) FROM generate_series(1, 5000) g;
UPDATE grid_t SET pad = 'y' WHERE id % 500 = 0;`)
	eval[bool](p, `(document.getElementById('real-pool').click(), true)`)
	server := waitJS[string](p, realRun, "the real pool on the grid", `bufferscope.stats().real || ''`)
	if !strings.HasPrefix(server, "PostgreSQL 18.") {
		t.Errorf("the grid shows the pool of %q, want PostgreSQL 18's", server)
	}
	if note := eval[string](p, `document.getElementById('real-grid-note').hidden ? '' : document.getElementById('real-grid-text').textContent`); !strings.Contains(note, "own shared buffers") {
		t.Errorf("over the grid: %q, want a note that it shows the real pool", note)
	}
	// The table's rows of pg_buffercache, read after the pool was drawn: reading them touches
	// only catalog pages, and the grid is drawn again after this statement too.
	tables := runSQL(t, p, `SELECT bufferid, relforknumber, relblocknumber, isdirty, usagecount, pinning_backends FROM pg_buffercache
WHERE relfilenode = pg_relation_filenode('grid_t') AND reldatabase = (SELECT oid FROM pg_database WHERE datname = current_database())
ORDER BY bufferid;`)
	rows := tables[len(tables)-1]
	if len(rows) < 20 {
		p.fatalf("pg_buffercache shows %d buffers of the filled table, want its pages", len(rows))
	}
	nbuffers := lastNumber(t, p, "shared_buffers", runSQL(t, p, "SELECT setting::int FROM pg_settings WHERE name = 'shared_buffers';"))
	infos := eval[[]bufferInfo](p, fmt.Sprintf(`Array.from({length: %d}, (_, i) => bufferscope.buffer(i))`, nbuffers))
	if len(infos) != nbuffers || eval[bool](p, fmt.Sprintf(`bufferscope.buffer(%d) !== null`, nbuffers)) {
		p.fatalf("the grid does not hold the real pool's %d buffers", nbuffers)
	}
	held := map[int]bool{}
	dirty := 0
	for _, r := range rows {
		id, _ := strconv.Atoi(r[0])
		held[id-1] = true
		info := infos[id-1]
		isDirty := r[3] == "true" // the panel writes booleans as JavaScript does
		fork, _ := strconv.Atoi(r[1])
		want := fmt.Sprintf("grid_t/%s/%s", sim.ForkNumber(fork), r[2])
		if info.Tag == nil || *info.Tag != want || info.Relation == nil || *info.Relation != "grid_t" ||
			strconv.Itoa(info.Usage) != r[4] || strconv.Itoa(info.Pins) != r[5] || info.Dirty != isDirty {
			t.Errorf("pg_buffercache: bufferid %s holds grid_t fork %s block %s, dirty %s, usage count %s, %s pins; the grid's buffer %d is %s", r[0], r[1], r[2], r[3], r[4], r[5], id-1, info)
		}
		if isDirty {
			dirty++
		}
	}
	for id, info := range infos {
		if info.Relation != nil && *info.Relation == "grid_t" && !held[id] {
			t.Errorf("the grid's buffer %d holds %s, which pg_buffercache does not show", id, info)
		}
	}
	t.Logf("PostgreSQL 18's pool of %d buffers on the grid: %d of grid_t's pages (%d dirty)", nbuffers, len(rows), dirty)

	// Each of the table's cells in its colour, as the legend gives it.
	var colour rgb
	for _, r := range eval[[]relation](p, `bufferscope.relations()`) {
		if r.Name == "grid_t" {
			c, err := parseHex(r.Color)
			if err != nil {
				t.Fatal(err)
			}
			colour = c
		}
	}
	if colour == (rgb{}) {
		p.fatalf("relations() does not list grid_t while the grid shows the real pool")
	}
	if !eval[bool](p, `[...document.querySelectorAll('#legend li, #legend [data-role], #legend *')].some((e) => e.textContent.trim() === 'grid_t')`) {
		t.Error("the page's legend does not name grid_t")
	}
	p.settle()
	cm := p.cellMap(nbuffers)
	img := p.screenshot()
	background := toRGB(grid.Light.Background)
	wrong := 0
	for _, r := range rows {
		id, _ := strconv.Atoi(r[0])
		usage, _ := strconv.Atoi(r[4])
		want := mix(background, colour, grid.UsageFade(usage))
		if got, share := dominant(img, cm.rect(id-1).pixels(1)); got.dist(want) > colourTolerance {
			if wrong++; wrong <= 5 {
				t.Errorf("bufferid %s (grid_t fork %s block %s, usage count %d) is drawn %v (%.0f%% of the cell), want %v", r[0], r[1], r[2], usage, got, share*100, want)
			}
		}
	}
	if wrong > 0 {
		t.Errorf("%d of grid_t's %d cells have the wrong colour", wrong, len(rows))
	}

	p.click("#real-grid-back")
	if eval[bool](p, `bufferscope.relations().some((r) => r.name === 'grid_t')`) || eval[bool](p, `!!bufferscope.stats().real || !document.getElementById('real-grid-note').hidden`) {
		t.Errorf("after Back to the simulation the grid still shows the real pool (real %v), want the simulated one", eval[bool](p, `!!bufferscope.stats().real`))
	}

	// Beside the simulation (free play's 128MB is PGlite's size): a pane of its own, which
	// stays while the simulation plays on.
	eval[bool](p, `(document.getElementById('real-beside').click(), true)`)
	waitJS[bool](p, realRun, "the real pool beside the simulation", `(v => v.panes && v.panes.length === 2 && v.panes[1].key === 'real')(bufferscope.view())`)
	first, _ := strconv.Atoi(rows[0][0])
	if got := eval[*bufferInfo](p, fmt.Sprintf(`bufferscope.buffer(%d, 1)`, first-1)); got == nil || got.Relation == nil || *got.Relation != "grid_t" {
		t.Errorf("beside: the real pane's buffer %d is %v, want a page of grid_t", first-1, got)
	}
	if got := eval[*bufferInfo](p, fmt.Sprintf(`bufferscope.buffer(%d, 0)`, first-1)); got != nil && got.Relation != nil && *got.Relation == "grid_t" {
		t.Errorf("beside: the simulated pane's buffer %d holds grid_t", first-1)
	}
	step0 := p.stats().Step
	p.click("#play")
	waitJS[bool](p, waitTimeout, "the simulation to play beside the real pool", fmt.Sprintf(`bufferscope.stats().step > %d`, step0+100))
	p.click("#play")
	if !eval[bool](p, `!!bufferscope.stats().real && bufferscope.view().panes.length === 2 && !document.getElementById('real-grid-note').hidden`) {
		t.Error("playing took the real pool from beside the simulation")
	}
	p.click("#real-grid-back")
	if eval[bool](p, `!!bufferscope.stats().real || !!bufferscope.view().panes`) {
		t.Error("after Back to the simulation the real pane stays")
	}

	// Bad input through the bridge: a clear message, and the simulated pool stays.
	for _, c := range []struct{ call, want string }{
		{`bufferscope.showRealPool(42)`, "showRealPool takes {server, nbuffers, relations, rows}"},
		{`bufferscope.showRealPool({nbuffers: 'many', rows: ''})`, "its nbuffers is a whole number of buffers"},
		{`bufferscope.showRealPool({nbuffers: 16, rows: {}})`, "its rows is text"},
		{`bufferscope.showRealPool({nbuffers: 16, rows: '1,2,3'})`, "pg_buffercache line 1"},
		{`bufferscope.showRealPool({nbuffers: 1e9, rows: ''})`, "a real pool has 16 to"},
	} {
		got := eval[map[string]any](p, c.call)
		if msg, _ := got["error"].(string); got["ok"] != false || !strings.Contains(msg, c.want) {
			t.Errorf("%s = %v, want a failure saying %q", c.call, got, c.want)
		}
	}
	if eval[bool](p, `!!bufferscope.stats().real`) {
		t.Error("a refused real pool replaced the simulated one")
	}
}

// TestRealBesideTheModel runs, in every lab, the real panel's "PostgreSQL 18 beside the
// model": each case on the page's PostgreSQL 18 and in the lab's model of the same pool
// (its worker job "real"). Every row the lab marks exact must give the same count on both;
// the others (times) must say what each figure is. The rows are logged: they are the side by
// side figures of issue #19, measured in the browser.
func TestRealBesideTheModel(t *testing.T) {
	for _, lab := range []string{"free", "drop", "ring", "pins"} {
		t.Run(lab, func(t *testing.T) {
			p := openPage(t, "/?lab="+lab+"&play=0")
			eval[bool](p, `(document.getElementById('real-start').click(), true)`)
			waitJS[bool](p, realStart, "PostgreSQL 18 to start", `!document.getElementById('real-compare').hidden`)
			eval[bool](p, `(document.getElementById('real-compare-run').click(), true)`)
			waitJS[bool](p, realStart+realRun, "the comparison", `!!document.getElementById('real-compare-table') || !document.getElementById('real-error').hidden`)
			if msg := eval[string](p, `document.getElementById('real-error').hidden ? '' : document.getElementById('real-error').textContent`); msg != "" {
				p.fatalf("the comparison failed:\n%s", msg)
			}
			rows := eval[[]struct {
				Cells []string `json:"cells"`
				Exact bool     `json:"exact"`
				Real  string   `json:"real"`
				Model string   `json:"model"`
			}](p, `[...document.querySelectorAll('#real-compare-table tbody tr')].map((r) => ({
				cells: [...r.cells].map((c) => c.textContent), exact: r.dataset.exact === 'true',
				real: r.cells[1].dataset.value, model: r.cells[2].dataset.value }))`)
			notes := eval[[]string](p, `[...document.querySelectorAll('#real-compare-out p')].map((q) => q.textContent)`)
			if len(rows) == 0 {
				p.fatalf("the comparison shows no rows")
			}
			exact := 0
			for _, r := range rows {
				t.Logf("%s: PostgreSQL 18 %s, model %s — %s", r.Cells[0], r.Cells[1], r.Cells[2], r.Cells[3])
				if r.Exact {
					exact++
					if r.Real != r.Model {
						t.Errorf("%s: PostgreSQL 18 in the page gives %s, the model %s", r.Cells[0], r.Real, r.Model)
					}
				} else if !strings.Contains(strings.Join(notes, "\n"), r.Cells[0]) {
					t.Errorf("%s is not compared, and no note says what its figures are (notes: %q)", r.Cells[0], notes)
				}
			}
			if exact == 0 {
				t.Errorf("no case of the %s lab is compared exactly", lab)
			}
		})
	}
}
