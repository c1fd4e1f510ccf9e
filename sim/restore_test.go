package sim

import (
	"strings"
	"testing"
)

// TestRestoreBufferCacheGivesBackTheRows restores a pool from the pg_buffercache rows of a
// simulated one that has run for a while (some buffers empty, some dirty, some pinned) and
// checks that every row reads back the same, that the mapping table finds every page, and
// that the empty buffers are the freelist.
//
// Reference: contrib/pg_buffercache/pg_buffercache_pages.c (pg_buffercache_pages reads the tag,
// BM_DIRTY, the usage count and the refcount of each descriptor).
func TestRestoreBufferCacheGivesBackTheRows(t *testing.T) {
	s, err := New(Config{NBuffers: 2048, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Step(1500); err != nil {
		t.Fatal(err)
	}
	p := s.Pool
	rows := make([]BufferCacheRow, p.NBuffers)
	valid, dirty, pinned := 0, 0, 0
	for id := range rows {
		rows[id] = p.BufferCacheRow(id)
		if rows[id].Valid {
			valid++
		}
		if rows[id].IsDirty {
			dirty++
		}
		if rows[id].PinningBackends > 0 {
			pinned++
		}
	}
	if valid == 0 || valid == len(rows) || dirty == 0 || pinned == 0 {
		t.Fatalf("the simulated pool should have empty, full, dirty and pinned buffers: %d valid, %d dirty, %d pinned of %d", valid, dirty, pinned, len(rows))
	}
	var rels []RestoredRelation
	for _, r := range s.Relations() {
		rels = append(rels, RestoredRelation{Locator: r.Locator, Name: r.Name})
	}
	got, err := RestoreBufferCache(p.NBuffers, s.Config().Version, rels, rows)
	if err != nil {
		t.Fatal(err)
	}
	q := got.Pool
	empty := 0
	for id, want := range rows {
		if have := q.BufferCacheRow(id); have != want {
			t.Fatalf("buffer %d restored as %+v, want %+v", id+1, have, want)
		}
		if !want.Valid {
			empty++
			continue
		}
		d := q.Desc(id)
		if q.Lookup(d.Tag) != id {
			t.Fatalf("the mapping table does not find %s in buffer %d", d.Tag, id+1)
		}
		if name := got.Relations()[d.rel].Name; name != s.Relations()[p.Desc(id).rel].Name {
			t.Fatalf("buffer %d's page is of %q, want %q", id+1, name, s.Relations()[p.Desc(id).rel].Name)
		}
	}
	if free := q.Freelist(); len(free) != empty {
		t.Fatalf("%d buffers on the freelist, want the %d empty ones", len(free), empty)
	}
	if err := got.checkFreelist(); err != nil {
		t.Fatal(err)
	}
}

// TestRestoreBufferCacheRefusesRowsNoPoolHas checks that rows no real pool could show (a
// buffer out of range, one page in two buffers, a buffer twice, a usage count above
// BM_MAX_USAGE_COUNT) are refused with the buffer named, and that a page of a relation the
// caller did not name gets a name of its own.
func TestRestoreBufferCacheRefusesRowsNoPoolHas(t *testing.T) {
	loc := RelFileLocator{SpcOid: DefaultTablespaceOid, DbOid: DefaultDatabaseOid, RelNumber: 16400}
	row := func(id int, blk BlockNumber, usage int) BufferCacheRow {
		return BufferCacheRow{BufferID: id, Valid: true, RelFileNode: loc.RelNumber, RelTablespace: loc.SpcOid, RelDatabase: loc.DbOid, RelBlockNumber: blk, UsageCount: usage}
	}
	for _, c := range []struct {
		name string
		rows []BufferCacheRow
		want string
	}{
		{"out of range", []BufferCacheRow{row(17, 0, 1)}, "buffer 17: the pool has buffers 1 to 16"},
		{"buffer zero", []BufferCacheRow{{BufferID: 0}}, "buffer 0"},
		{"same page twice", []BufferCacheRow{row(1, 3, 1), row(2, 3, 1)}, "buffers 1 and 2 hold the same page"},
		{"buffer twice", []BufferCacheRow{row(4, 3, 1), row(4, 5, 1)}, "two rows for buffer 4"},
		{"usage", []BufferCacheRow{row(5, 0, BMMaxUsageCount+1)}, "buffer 5: usage count 6"},
	} {
		if _, err := RestoreBufferCache(16, 18, nil, c.rows); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one saying %q", c.name, err, c.want)
		}
	}
	s, err := RestoreBufferCache(16, 18, nil, []BufferCacheRow{row(3, 9, 2)})
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Relations()) != 1 || s.Relations()[0].Name != "relfilenode 16400" || s.Relations()[0].NBlocks[MainForkNum] != 10 {
		t.Fatalf("relations %+v, want one named relfilenode 16400 of 10 blocks", s.Relations())
	}
}

// TestBufferCacheCSVReadsWhatItWrites reads back the CSV that AppendCSV writes for a pool
// with empty, dirty and pinned buffers, with and without the header line, and refuses lines
// that are not rows of the view, naming the line and the column.
func TestBufferCacheCSVReadsWhatItWrites(t *testing.T) {
	s, err := New(Config{NBuffers: 256, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Step(150); err != nil {
		t.Fatal(err)
	}
	var text []byte
	want := make([]BufferCacheRow, s.Pool.NBuffers)
	for id := range want {
		want[id] = s.Pool.BufferCacheRow(id)
		text = want[id].AppendCSV(text)
	}
	for _, head := range []string{"", strings.Join(BufferCacheColumns, ",") + "\n"} {
		got, err := ParseBufferCacheCSV(head + string(text))
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(want) {
			t.Fatalf("read %d rows, want %d", len(got), len(want))
		}
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("row %d read as %+v, want %+v", i+1, got[i], want[i])
			}
		}
	}
	for _, c := range []struct{ text, want string }{
		{"1,2,3", "line 1 (\"1,2,3\"): 3 columns, want the view's 9"},
		{"1,,,,,,,,\nx,,,,,,,,", "line 2 (\"x,,,,,,,,\"): bufferid is \"x\""},
		{"3,16384,1663,5,9,0,f,1,0", "relforknumber is \"9\""},
		{"3,16384,1663,5,0,0,maybe,1,0", "isdirty is \"maybe\""},
		{"3,16384,1663,5,0,0,t,6,0", "usagecount is \"6\""},
		{"3,16384,1663,5,0,4294967295,t,1,0", "relblocknumber is \"4294967295\""},
	} {
		if _, err := ParseBufferCacheCSV(c.text); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want one saying %q", c.text, err, c.want)
		}
	}
}
