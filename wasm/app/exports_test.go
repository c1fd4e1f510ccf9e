package app

import (
	"bytes"
	"encoding/csv"
	"image/png"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bufferscope/bufferscope/sim"
	"github.com/bufferscope/bufferscope/sim/lab"
	"github.com/bufferscope/bufferscope/sim/labs"
)

// stepped loads every lab at its defaults and runs it far enough to read, dirty and evict;
// a replay that ends sooner stops there.
func stepped(t *testing.T, a *App, name string, values map[string]string) {
	t.Helper()
	load(t, a, name, values)
	for range 5 {
		if _, err := a.Step(50_000); err != nil {
			t.Fatalf("step: %v", err)
		}
		if a.Done() {
			break
		}
	}
}

// readBufferCache reads the whole view in stretches of n rows and parses it as CSV.
func readBufferCache(t *testing.T, a *App, n int) (rows [][]string, dirty, valid int) {
	t.Helper()
	var all strings.Builder
	for from := 0; ; {
		pg, err := a.PgBuffercache(from, n)
		if err != nil {
			t.Fatalf("PgBuffercache(%d, %d): %v", from, n, err)
		}
		if pg.Next <= from && pg.Next != pg.Total {
			t.Fatalf("PgBuffercache(%d, %d) does not move on: next %d", from, n, pg.Next)
		}
		all.WriteString(pg.CSV)
		dirty += pg.Dirty
		valid += pg.Valid
		if pg.Next == pg.Total {
			break
		}
		from = pg.Next
	}
	rows, err := csv.NewReader(strings.NewReader(all.String())).ReadAll()
	if err != nil {
		t.Fatalf("the view is not CSV: %v", err)
	}
	return rows, dirty, valid
}

// TestPgBuffercacheIsThePool: in every lab, the pg_buffercache rows, read in stretches, are
// one per buffer in order and say what each descriptor holds; the dirty and valid counts
// are the pool's.
//
// Reference: contrib/pg_buffercache/pg_buffercache_pages.c, pg_buffercache_pages.
func TestPgBuffercacheIsThePool(t *testing.T) {
	a := newApp(t)
	for _, l := range labs.All {
		name := l.Info().Name
		t.Run(name, func(t *testing.T) {
			stepped(t, a, name, nil)
			p := a.run.Sim().Pool
			rows, dirty, valid := readBufferCache(t, a, 5000)
			if strings.Join(rows[0], ",") != strings.Join(sim.BufferCacheColumns, ",") {
				t.Fatalf("header %v", rows[0])
			}
			rows = rows[1:]
			if len(rows) != p.NBuffers {
				t.Fatalf("%d rows for %d buffers", len(rows), p.NBuffers)
			}
			wantDirty, wantValid, gotDirty := 0, 0, 0
			for id, r := range rows {
				d := p.Desc(id)
				if r[0] != strconv.Itoa(id+1) {
					t.Fatalf("row %d has bufferid %s", id, r[0])
				}
				if !d.State.Has(sim.BM_VALID) {
					if strings.Join(r[1:], "") != "" {
						t.Fatalf("buffer %d holds nothing but its row is %v", id, r)
					}
					continue
				}
				wantValid++
				if d.State.Has(sim.BM_DIRTY) {
					wantDirty++
				}
				if r[6] == "t" {
					gotDirty++
				}
				want := []string{strconv.Itoa(id + 1), u(d.Tag.Locator.RelNumber), u(d.Tag.Locator.SpcOid), u(d.Tag.Locator.DbOid),
					u(d.Tag.Fork), u(d.Tag.Block), map[bool]string{true: "t", false: "f"}[d.State.Has(sim.BM_DIRTY)],
					strconv.Itoa(d.State.UsageCount()), strconv.Itoa(d.State.RefCount())}
				if strings.Join(r, ",") != strings.Join(want, ",") {
					t.Fatalf("buffer %d: row %v, descriptor says %v", id, r, want)
				}
			}
			if wantValid == 0 {
				t.Fatal("the run left no page in the pool: nothing was checked")
			}
			if dirty != wantDirty || gotDirty != wantDirty || valid != wantValid {
				t.Errorf("dirty %d (counted %d, rows %d), valid %d: the pool has %d dirty, %d valid", dirty, gotDirty, gotDirty, valid, wantDirty, wantValid)
			}
			one, _, _ := readBufferCache(t, a, MaxBufferCacheRows)
			if len(one) != len(rows)+1 {
				t.Errorf("read at once: %d rows, in stretches %d", len(one), len(rows)+1)
			}
		})
	}
}

func u[T ~uint8 | ~uint32](v T) string { return strconv.FormatUint(uint64(v), 10) }

func TestPgBuffercacheRefusesBadStretches(t *testing.T) {
	a := newApp(t)
	nb := a.run.Sim().Pool.NBuffers
	for _, c := range [][2]int{{-1, 10}, {nb + 1, 10}, {0, -5}, {0, MaxBufferCacheRows + 1}} {
		if _, err := a.PgBuffercache(c[0], c[1]); err == nil {
			t.Errorf("PgBuffercache(%d, %d) gave no error", c[0], c[1])
		}
	}
	pg, err := a.PgBuffercache(nb, 10)
	if err != nil || pg.CSV != "" || pg.Next != nb {
		t.Errorf("at the end: %+v, %v", pg, err)
	}
}

// TestPgStatIOAgreesWithTheCounters: in every lab, the pg_stat_io rows add up to the pool's
// own counters, and a VACUUM's ring shows in the vacuum context.
func TestPgStatIOAgreesWithTheCounters(t *testing.T) {
	a := newApp(t)
	for _, l := range labs.All {
		name := l.Info().Name
		t.Run(name, func(t *testing.T) {
			stepped(t, a, name, nil)
			st := a.run.Sim().Stats()
			io := a.PgStatIO()
			rows, err := csv.NewReader(strings.NewReader(io.CSV)).ReadAll()
			if err != nil || len(rows) != len(io.Rows)+1 {
				t.Fatalf("CSV: %d rows, %v", len(rows), err)
			}
			col := map[string]int{}
			for i, c := range rows[0] {
				col[c] = i
			}
			sum := map[string]uint64{}
			bt := lab.BackendType(a.run.Sim())
			for _, r := range rows[1:] {
				if len(r) != len(lab.StatIOColumns) {
					t.Fatalf("row %v", r)
				}
				key := r[col["backend_type"]] + "/" + r[col["object"]]
				for _, op := range []string{"reads", "writes", "hits", "evictions", "reuses", "fsyncs"} {
					if v := r[col[op]]; v != "" {
						n, err := strconv.ParseUint(v, 10, 64)
						if err != nil {
							t.Fatalf("%s %s = %q", key, op, v)
						}
						sum[key+"/"+op] += n
						sum[r[col["context"]]+"/"+op] += n
					}
				}
				if r[col["context"]] == "normal" && r[col["reuses"]] != "" {
					t.Errorf("%s: reuses in the normal context, which PostgreSQL does not track", key)
				}
			}
			rel := bt + "/relation/"
			for op, want := range map[string]uint64{
				rel + "hits": st.Hits, rel + "reads": st.Misses, rel + "evictions": st.Evictions, rel + "writes": st.DirtyWrites,
				"background writer/relation/writes": st.BgWriterWrites, "checkpointer/relation/writes": st.CheckpointWrites,
				bt + "/wal/fsyncs":             st.WALFlushes - st.WALFlushesWriter - st.WALFlushesBgWriter - st.WALFlushesCheckpointer,
				"walwriter/wal/fsyncs":         st.WALFlushesWriter,
				"background writer/wal/fsyncs": st.WALFlushesBgWriter,
				"checkpointer/wal/fsyncs":      st.WALFlushesCheckpointer,
				"normal/fsyncs":                st.WALFlushes,
			} {
				if sum[op] != want {
					t.Errorf("%s = %d, the pool counted %d", op, sum[op], want)
				}
			}
			// The drop lab's pool is filled before the replay, which reads no page.
			if name != "drop" && st.Accesses == 0 {
				t.Error("the run read nothing: nothing was checked")
			}
			if name == "drop" && bt != "startup" {
				t.Errorf("the drop lab's standby replay is done by %q, not the startup process", bt)
			}
			if name == "ring" && sum["vacuum/reads"]+sum["vacuum/hits"] == 0 {
				t.Errorf("the ring lab's VACUUM left no vacuum rows: %v", sum)
			}
		})
	}
}

// TestGridPNGIsTheCanvas: the grid's PNG decodes to the canvas's size and holds the
// painter's pixels.
func TestGridPNGIsTheCanvas(t *testing.T) {
	a := newApp(t)
	stepped(t, a, "", nil)
	a.Tick(time.Now())
	a.Paint()
	a.BuildOverlay()
	b, err := a.GridPNG()
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("not a PNG: %v", err)
	}
	w, h := a.CanvasSize()
	if img.Bounds().Dx() != w || img.Bounds().Dy() != h {
		t.Fatalf("PNG %v, canvas %d×%d", img.Bounds(), w, h)
	}
	px := a.Painter().Bytes()
	opaque := 0
	for y := range h {
		for x := range w {
			r, g, bl, al := img.At(x, y).RGBA()
			i := 4 * (y*w + x)
			if px[i+3] == 255 && len(a.Overlay().Fills) == 0 &&
				(uint8(r>>8) != px[i] || uint8(g>>8) != px[i+1] || uint8(bl>>8) != px[i+2] || al>>8 != 255) {
				t.Fatalf("pixel %d,%d differs from the painter's", x, y)
			}
			if al > 0 {
				opaque++
			}
		}
	}
	if opaque == 0 {
		t.Error("the PNG is blank")
	}
}
