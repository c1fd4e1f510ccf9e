package sim

import "strconv"

// BufferCacheColumns are the columns of the pg_buffercache view, in its order.
var BufferCacheColumns = []string{
	"bufferid", "relfilenode", "reltablespace", "reldatabase", "relforknumber",
	"relblocknumber", "isdirty", "usagecount", "pinning_backends",
}

// BufferCacheRow is one row of the pg_buffercache view: buffer BufferID (numbered from 1, as
// PostgreSQL's Buffer is) and, when Valid, the page it holds and its state. An invalid
// buffer's other columns are NULL.
type BufferCacheRow struct {
	BufferID        int
	Valid           bool
	RelFileNode     Oid
	RelTablespace   Oid
	RelDatabase     Oid
	RelForkNumber   ForkNumber
	RelBlockNumber  BlockNumber
	IsDirty         bool
	UsageCount      int
	PinningBackends int
}

// BufferCacheRow returns buffer id's row of pg_buffercache. Mirrors pg_buffercache_pages in
// contrib/pg_buffercache/pg_buffercache_pages.c: every column but bufferid is NULL unless
// the buffer is BM_VALID and has a block; pinning_backends is the shared refcount.
func (p *Pool) BufferCacheRow(id int) BufferCacheRow {
	d := &p.desc[id]
	r := BufferCacheRow{BufferID: id + 1}
	if !d.State.Has(BM_VALID) || d.Tag.Block == InvalidBlockNumber {
		return r
	}
	r.Valid = true
	r.RelFileNode = d.Tag.Locator.RelNumber
	r.RelTablespace = d.Tag.Locator.SpcOid
	r.RelDatabase = d.Tag.Locator.DbOid
	r.RelForkNumber = d.Tag.Fork
	r.RelBlockNumber = d.Tag.Block
	r.IsDirty = d.State.Has(BM_DIRTY)
	r.UsageCount = d.State.UsageCount()
	r.PinningBackends = d.State.RefCount()
	return r
}

// AppendCSV appends the row as one CSV line as COPY … TO STDOUT (FORMAT csv) writes it: NULL
// as nothing, booleans as t and f, ending in a newline.
func (r BufferCacheRow) AppendCSV(dst []byte) []byte {
	dst = strconv.AppendInt(dst, int64(r.BufferID), 10)
	if !r.Valid {
		return append(dst, ",,,,,,,,\n"...)
	}
	dst = append(dst, ',')
	dst = strconv.AppendUint(dst, uint64(r.RelFileNode), 10)
	dst = append(dst, ',')
	dst = strconv.AppendUint(dst, uint64(r.RelTablespace), 10)
	dst = append(dst, ',')
	dst = strconv.AppendUint(dst, uint64(r.RelDatabase), 10)
	dst = append(dst, ',')
	dst = strconv.AppendUint(dst, uint64(r.RelForkNumber), 10)
	dst = append(dst, ',')
	dst = strconv.AppendUint(dst, uint64(r.RelBlockNumber), 10)
	if r.IsDirty {
		dst = append(dst, ",t,"...)
	} else {
		dst = append(dst, ",f,"...)
	}
	dst = strconv.AppendInt(dst, int64(r.UsageCount), 10)
	dst = append(dst, ',')
	dst = strconv.AppendInt(dst, int64(r.PinningBackends), 10)
	return append(dst, '\n')
}
