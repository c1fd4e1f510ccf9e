package sim

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

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

// ParseBufferCacheCSV reads rows of pg_buffercache as COPY … TO STDOUT (FORMAT csv) writes
// them and AppendCSV appends them, one per line in the view's column order
// (BufferCacheColumns), with an optional header line of the column names: a row whose
// columns after bufferid are all empty is an invalid buffer's. It refuses a line that is
// not such a row, naming the line.
func ParseBufferCacheCSV(text string) ([]BufferCacheRow, error) {
	var rows []BufferCacheRow
	for n, line := range strings.Split(text, "\n") {
		line = strings.TrimSuffix(line, "\r")
		if line == "" || n == 0 && line == strings.Join(BufferCacheColumns, ",") {
			continue
		}
		r, err := parseBufferCacheLine(line)
		if err != nil {
			return nil, fmt.Errorf("pg_buffercache line %d (%s): %w", n+1, quoteLine(line), err)
		}
		rows = append(rows, r)
	}
	return rows, nil
}

// parseBufferCacheLine reads one line of ParseBufferCacheCSV.
func parseBufferCacheLine(line string) (BufferCacheRow, error) {
	f := strings.Split(line, ",")
	if len(f) != len(BufferCacheColumns) {
		return BufferCacheRow{}, fmt.Errorf("%d columns, want the view's %d", len(f), len(BufferCacheColumns))
	}
	var r BufferCacheRow
	num := func(i int, max uint64) (uint64, error) {
		v, err := strconv.ParseUint(f[i], 10, 64)
		if err != nil || v > max {
			return 0, fmt.Errorf("%s is %q, not a whole number from 0 to %d", BufferCacheColumns[i], f[i], max)
		}
		return v, nil
	}
	id, err := num(0, math.MaxInt32)
	if err != nil {
		return r, err
	}
	r.BufferID = int(id)
	if strings.Join(f[1:], "") == "" {
		return r, nil
	}
	var v [9]uint64
	for i, max := range []uint64{1: math.MaxUint32, 2: math.MaxUint32, 3: math.MaxUint32, 4: uint64(MaxForkNum), 5: math.MaxUint32 - 1, 7: BMMaxUsageCount, 8: uint64(BufRefcountMask)} {
		if i == 0 || i == 6 {
			continue
		}
		if v[i], err = num(i, max); err != nil {
			return r, err
		}
	}
	switch f[6] {
	case "t", "true":
		r.IsDirty = true
	case "f", "false":
	default:
		return r, fmt.Errorf("isdirty is %q, not t or f", f[6])
	}
	r.Valid = true
	r.RelFileNode, r.RelTablespace, r.RelDatabase = Oid(v[1]), Oid(v[2]), Oid(v[3])
	r.RelForkNumber, r.RelBlockNumber = ForkNumber(v[4]), BlockNumber(v[5])
	r.UsageCount, r.PinningBackends = int(v[7]), int(v[8])
	return r, nil
}

// quoteLine quotes a line for an error, cut to a readable length.
func quoteLine(line string) string {
	if len(line) > 80 {
		line = line[:80] + "…"
	}
	return strconv.Quote(line)
}
