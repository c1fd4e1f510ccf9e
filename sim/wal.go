package sim

// WAL models the write-ahead log as two positions: how far records have been inserted and
// how far the log is durably flushed. Flushed never passes Insert.
type WAL struct {
	Insert  LSN // end of the last inserted record (XLogCtl->Insert's CurrBytePos, as an LSN)
	Flushed LSN // LogwrtResult.Flush: everything before it is on disk
}

// walStart is where the simulated WAL begins: a fresh cluster's first record lies near here.
const walStart LSN = 0x01000000

// walRecordHeader is the size of a WAL record header (SizeOfXLogRecord).
const walRecordHeader = 24

// xlogInsert inserts a record with n bytes of payload and returns its end position, the LSN a
// page it changes is stamped with (PageSetLSN(page, XLogInsert(...))).
func (w *WAL) xlogInsert(n int) LSN {
	w.Insert += LSN(walRecordHeader + n)
	return w.Insert
}

// XLogNeedsFlush mirrors XLogNeedsFlush: whether lsn is past the flushed position.
func (w *WAL) XLogNeedsFlush(lsn LSN) bool { return lsn > w.Flushed }

// xlogFlush mirrors XLogFlush: it returns false when WAL is already flushed past lsn;
// otherwise it flushes up to the furthest write request — here everything inserted so far, so
// one flush serves every page dirtied before it — and returns true.
func (w *WAL) xlogFlush(lsn LSN) bool {
	if !w.XLogNeedsFlush(lsn) {
		return false
	}
	w.Flushed = max(lsn, w.Insert)
	return true
}
