package pins

import (
	"fmt"
	"sort"

	"github.com/bufferscope/bufferscope/sim"
)

// LeafCapacity is how many index tuples of one int4 key fit on an 8 kB leaf page:
// (BLCKSZ − 24 bytes of page header − 16 bytes of BTPageOpaqueData) / (16-byte IndexTuple
// (8-byte header and 4-byte key, MAXALIGNed) + 4-byte line pointer) = 407.
const LeafCapacity = (sim.BLCKSZ - 24 - 16) / (16 + 4)

// LeafFillfactor mirrors BTREE_DEFAULT_FILLFACTOR: CREATE INDEX fills leaves to 90%.
const LeafFillfactor = 90

// TupleState is the heap tuple an index item points to, as a scan finds it.
type TupleState uint8

// The states of a heap tuple version.
const (
	Live    TupleState = iota // the newest committed version of its row
	Pending                   // written by a transaction that has not committed
	Dead                      // superseded by a committed version: dead to every snapshot
)

// Item is one index tuple on a leaf: its key, the heap TID it points to (a version number
// standing for block and offset), and the LP_DEAD bit of its line pointer.
type Item struct {
	Key    int32
	TID    uint32
	LPDead bool // ItemIdMarkDead: scans skip it and simple deletion may remove it
}

// Leaf is one B-tree leaf page: its block, the buffer holding it, its items in key order
// and its page LSN. Keys from Low (inclusive) belong to it, up to the next leaf's Low.
type Leaf struct {
	Block  sim.BlockNumber
	Low    int32
	Items  []Item
	LSN    sim.LSN
	Splits int
	// HintLost marks that a scan's hints for this leaf were dropped (LSN changed, or the
	// items moved away) since the mark was last cleared; HintSet that some were set. The
	// view draws them; they are not PostgreSQL state.
	HintLost, HintSet int
}

// Index is a B-tree index on the table's key, its leaves in key order.
type Index struct {
	Unique bool
	Logged bool
	// FakeLSN stamps a fake LSN on changes to an unlogged index, as PostgreSQL 19 does
	// (XLogGetFakeLSN, 8a879119a1); before 19 an unlogged index's LSN never moves.
	FakeLSN bool
	Leaves  []*Leaf
	// lsn is the last LSN given out: the WAL insert position for a logged index.
	lsn      sim.LSN
	nextTID  uint32
	versions map[uint32]version // heap tuple version → its state
	// deadItems and lpDeadItems are DeadItems' answer, kept as items and versions change:
	// counting them walked every item of every leaf, a map lookup each, which the page paid
	// on every stats call (1.6 ms natively at the lab's defaults).
	deadItems, lpDeadItems int
	// commits counts committed UPDATEs and DELETEs. Commit stamps the old version with the
	// commit's number; the server's CommitAs stamps it with the updater's xid.
	commits uint64
	// Horizon, when set, returns the newest stamp whose old versions are dead to everyone
	// (one below RecentGlobalXmin, as GetSnapshotData computes it from every backend's
	// xmin). A version with a later stamp is dead but not yet dead to everyone: scans
	// visit it, and neither they nor VACUUM may remove or mark it. Nil means every dead
	// version is dead to everyone.
	Horizon func() uint64
	blocks  sim.BlockNumber
	// stamp, when set, performs a WAL-logged change of a leaf on the server (the pool's
	// WAL, the page's buffer) and sets its LSN; without it the index counts LSNs itself.
	stamp func(l *Leaf)
	// walk, when set, returns the heap tuples a visit of item tid costs (its HOT chain);
	// without it every visit is one tuple.
	walk func(tid uint32, live bool) int
	// Stats
	HintsSet, HintsLost, HintsLostSplit, Splits, SimpleDeleted, VacuumRemoved uint64
	// DeadFetches counts heap fetches by scans through items whose tuple is dead: the work
	// an LP_DEAD hint would have saved, or could not yet (recently dead).
	DeadFetches uint64
	// HintableFetches counts the DeadFetches whose tuple was dead to everyone when fetched:
	// the only ones a scan may mark LP_DEAD, under either pin policy.
	HintableFetches uint64
}

// NewIndex builds the index of rows keys 1..rows as CREATE INDEX leaves it: leaves filled
// to LeafFillfactor, one live item per key, LSN 1 on every page.
func NewIndex(rows int, unique, logged, fake bool) *Index {
	ix := &Index{Unique: unique, Logged: logged, FakeLSN: fake, versions: make(map[uint32]version, rows), lsn: 1}
	per := LeafCapacity * LeafFillfactor / 100
	for k := 1; k <= rows; k++ {
		if (k-1)%per == 0 {
			ix.Leaves = append(ix.Leaves, &Leaf{Block: ix.blocks + 1, Low: int32(k), LSN: 1})
			ix.blocks++
		}
		l := ix.Leaves[len(ix.Leaves)-1]
		l.Items = append(l.Items, Item{Key: int32(k), TID: ix.newTID(Live)})
	}
	ix.Leaves[0].Low = -1 << 31
	return ix
}

// Blocks returns the index's size in blocks, the metapage (block 0) included.
func (ix *Index) Blocks() int { return int(ix.blocks) + 1 }

func (ix *Index) newTID(st TupleState) uint32 {
	ix.nextTID++
	ix.setVersion(ix.nextTID, version{st: st})
	return ix.nextTID
}

// State returns the heap tuple state of version tid.
func (ix *Index) State(tid uint32) TupleState { return ix.versions[tid].st }

// version is one heap tuple version: its state and, once dead, the commit that superseded it.
type version struct {
	st   TupleState
	died uint64
}

// deadToAll reports whether version tid is dead to every snapshot (HEAPTUPLE_DEAD, not
// RECENTLY_DEAD): only then may a scan mark it LP_DEAD or VACUUM remove it.
func (ix *Index) deadToAll(tid uint32) bool {
	v := ix.versions[tid]
	if v.st != Dead {
		return false
	}
	return ix.Horizon == nil || v.died <= ix.Horizon()
}

// Commits returns how many UPDATEs and DELETEs have committed.
func (ix *Index) Commits() uint64 { return ix.commits }

// LeafOf returns the leaf that holds (or would hold) key, by _bt_search's descent.
func (ix *Index) LeafOf(key int32) *Leaf {
	i := sort.Search(len(ix.Leaves), func(i int) bool { return ix.Leaves[i].Low > key }) - 1
	return ix.Leaves[i]
}

// Levels returns the height of the tree above the leaves for _bt_search's cost: one root
// holds about 286 downlinks (8 kB / ~28 bytes each, an assumption for int4 pivots).
func (ix *Index) Levels() int {
	n, lv := len(ix.Leaves), 1
	for n > 286 {
		n, lv = (n+285)/286, lv+1
	}
	return lv
}

// logChange stamps the page with a new LSN, as every WAL-logged change of an nbtree page
// does (PageSetLSN after XLogInsert). An unlogged index's LSN moves only with fake LSNs.
func (ix *Index) logChange(l *Leaf) {
	if ix.stamp != nil {
		ix.stamp(l)
		return
	}
	if ix.Logged || ix.FakeLSN {
		ix.lsn++
		l.LSN = ix.lsn
	}
}

// Scan is a position of an index scan on one leaf, as _bt_readpage leaves so->currPos:
// the leaf, the items that matched (their heap TIDs), the page LSN saved with them, whether
// the pin is still held, and the killed items found since.
type Scan struct {
	Leaf    *Leaf
	TIDs    []uint32
	LSN     sim.LSN
	Pinned  bool
	Killed  []uint32
	visible uint32 // the live version found, 0 for none
}

// ReadPage mirrors _bt_readpage for an equality search on key: it copies the heap TIDs of
// the matching items that are not LP_DEAD (a scan skips those; 242dfcbafa) and saves the
// page LSN in currPos.lsn. The caller holds the pin and a share lock.
func (ix *Index) ReadPage(key int32, keepPin bool) *Scan {
	return ix.ReadPageInto(new(Scan), key, keepPin)
}

// ReadPageInto is ReadPage into sc, whose slices it reuses, as a backend reuses its scan's
// currPos from one search to the next.
func (ix *Index) ReadPageInto(sc *Scan, key int32, keepPin bool) *Scan {
	l := ix.LeafOf(key)
	*sc = Scan{Leaf: l, LSN: l.LSN, Pinned: true, TIDs: sc.TIDs[:0], Killed: sc.Killed[:0]}
	for _, it := range l.Items {
		if it.Key == key && !it.LPDead {
			sc.TIDs = append(sc.TIDs, it.TID)
		}
	}
	return sc
}

// FetchHeap visits each copied TID's heap tuple as index_fetch_heap does, returning how
// many heap tuples were visited (each TID's HOT chain, walked whole); a TID dead to everyone
// is remembered in so->killedItems (kill_prior_tuple), the live one is the row.
func (ix *Index) FetchHeap(sc *Scan) int {
	for _, tid := range sc.TIDs {
		if ix.versions[tid].st == Dead {
			ix.DeadFetches++
		}
		if ix.deadToAll(tid) {
			ix.HintableFetches++
			sc.Killed = append(sc.Killed, tid)
		} else if ix.versions[tid].st == Live {
			sc.visible = tid
		}
	}
	n := 0
	for _, tid := range sc.TIDs {
		n += ix.walkCost(tid)
	}
	return n
}

// KillItems mirrors _bt_killitems (nbtutils.c): with the pin kept it marks the killed items
// that are still on the page; with the pin dropped it first compares the page LSN with the
// one _bt_readpage saved and, if it moved, drops every hint. Items are matched by heap TID,
// so items a split moved to another page are not found. An item already LP_DEAD is left
// alone. Setting LP_DEAD is a hint (MarkBufferDirtyHint): it never moves the LSN. It
// returns how many hints it set and how many it lost.
func (ix *Index) KillItems(sc *Scan) (set, lost int) {
	if len(sc.Killed) == 0 {
		return 0, 0
	}
	l := sc.Leaf
	if !sc.Pinned && l.LSN != sc.LSN {
		ix.HintsLost += uint64(len(sc.Killed))
		l.HintLost++
		return 0, len(sc.Killed)
	}
	before := l.LSN
	for _, tid := range sc.Killed {
		found := false
		for i := range l.Items {
			if l.Items[i].TID == tid {
				found = true
				if !l.Items[i].LPDead {
					ix.setLPDead(&l.Items[i], true)
					set++
				}
				break
			}
		}
		if !found {
			lost++
		}
	}
	if l.LSN != before {
		panic("pins: setting a hint moved the page LSN")
	}
	ix.HintsSet += uint64(set)
	ix.HintsLost += uint64(lost)
	if set > 0 {
		l.HintSet++
	}
	if lost > 0 {
		l.HintLost++
	}
	return set, lost
}

// CheckUnique mirrors the heap visits of _bt_check_unique for an insert of key into a unique
// index: each item of the key not already LP_DEAD is looked up in the heap, and one dead to
// everyone is marked LP_DEAD at once, as the inserter holds the leaf's exclusive lock and
// pin. It returns the items whose heap tuples it fetched and the heap tuples visited
// (each fetch walks its HOT chain).
func (ix *Index) CheckUnique(key int32) (fetches, visits int) {
	l := ix.LeafOf(key)
	for i := range l.Items {
		it := &l.Items[i]
		if it.Key != key || it.LPDead {
			continue
		}
		fetches++
		visits += ix.walkCost(it.TID)
		if ix.deadToAll(it.TID) {
			ix.setLPDead(it, true)
			ix.HintsSet++
			l.HintSet++
		}
	}
	return fetches, visits
}

// Insert mirrors _bt_doinsert → _bt_findinsertloc → _bt_insertonpg for a new version of
// key: on a full leaf it first runs simple deletion of the LP_DEAD items
// (_bt_delete_or_dedup_one_page → _bt_delitems_delete), and splits (_bt_split) if there is
// still no room. A full leaf of another key's versions only (see splitPoint) splits between
// that key and the new one, the new item alone on its side, as _bt_findsplitloc's many
// duplicates strategy keeps the duplicates together. The new item goes after the key's
// other items (heap TID order). It returns the new TID, and whether a simple deletion and a
// split happened.
func (ix *Index) Insert(key int32) (tid uint32, deleted, split bool) {
	l := ix.LeafOf(key)
	if len(l.Items) >= LeafCapacity {
		if ix.SimpleDelete(l) > 0 {
			deleted = true
		}
		if len(l.Items) >= LeafCapacity {
			r := ix.Split(l)
			if one := l.Items[0].Key; r == nil && one != key {
				if key > one {
					r = ix.splitAt(l, len(l.Items), key) // a new right page from key
				} else {
					r = ix.splitAt(l, 0, one) // the versions move right; key stays
				}
			}
			if r != nil {
				split = true
				l = ix.LeafOf(key)
			}
		}
	}
	tid = ix.newTID(Pending)
	pos := sort.Search(len(l.Items), func(i int) bool { return l.Items[i].Key > key })
	l.Items = append(l.Items, Item{})
	copy(l.Items[pos+1:], l.Items[pos:])
	l.Items[pos] = Item{Key: key, TID: tid}
	ix.logChange(l)
	return tid, deleted, split
}

// SimpleDelete mirrors _bt_delitems_delete as _bt_simpledel_pass calls it on a full leaf
// (PostgreSQL 13's rule: the LP_DEAD items only; 14's extra heap-block-guided and bottom-up
// deletion are not modelled). WAL-logged: the LSN moves. It returns the items removed.
func (ix *Index) SimpleDelete(l *Leaf) int {
	kept := l.Items[:0]
	n := 0
	for _, it := range l.Items {
		if it.LPDead {
			ix.itemGone(it)
			n++
			continue
		}
		kept = append(kept, it)
	}
	l.Items = kept
	if n > 0 {
		ix.SimpleDeleted += uint64(n)
		ix.logChange(l)
	}
	return n
}

// Split mirrors _bt_split of a full leaf at its middle item: the upper half moves to a new
// right sibling. Both halves are rebuilt item by item (_bt_pgaddtup), so every LP_DEAD bit on
// them is lost; both get the split record's LSN. It returns the new right page, or nil
// when the page holds one key only (see splitPoint).
func (ix *Index) Split(l *Leaf) *Leaf {
	mid := splitPoint(l.Items)
	if mid <= 0 {
		return nil
	}
	return ix.splitAt(l, mid, l.Items[mid].Key)
}

// splitAt splits leaf l before its item mid: the new right sibling starts at key low (above
// l's Low, and at or below the moved items' keys) and takes items mid on.
func (ix *Index) splitAt(l *Leaf, mid int, low int32) *Leaf {
	ix.blocks++
	r := &Leaf{Block: ix.blocks, Low: low}
	r.Items = append([]Item(nil), l.Items[mid:]...)
	l.Items = l.Items[:mid:mid]
	for _, p := range []*Leaf{l, r} {
		for i := range p.Items {
			if p.Items[i].LPDead {
				ix.setLPDead(&p.Items[i], false)
				ix.HintsLostSplit++
			}
		}
	}
	at := sort.Search(len(ix.Leaves), func(i int) bool { return ix.Leaves[i] == l || ix.Leaves[i].Low > l.Low })
	ix.Leaves = append(ix.Leaves, nil)
	copy(ix.Leaves[at+2:], ix.Leaves[at+1:])
	ix.Leaves[at+1] = r
	ix.Splits++
	l.Splits++
	ix.logChange(l)
	r.LSN = l.LSN
	return r
}

// walkCost returns the heap tuples a visit of item tid costs.
func (ix *Index) walkCost(tid uint32) int {
	if ix.walk == nil {
		return 1
	}
	return ix.walk(tid, ix.versions[tid].st == Live)
}

// CommitHOT counts a committed HOT update: the row's index item stays live, its chain grows.
// It returns the commit's number, which supersedes the chain's previous newest version.
func (ix *Index) CommitHOT() uint64 {
	ix.commits++
	return ix.commits
}

// Commit makes a transaction's new version live and the version it replaced dead.
func (ix *Index) Commit(newTID, oldTID uint32) {
	ix.CommitAs(newTID, oldTID, ix.commits+1)
}

// CommitAs is Commit by a transaction whose version stamp (the xmax the old version gets)
// is died: a version is dead to everyone once died is at or below Horizon.
func (ix *Index) CommitAs(newTID, oldTID uint32, died uint64) {
	ix.commits++
	ix.setVersion(newTID, version{st: Live})
	if oldTID != 0 {
		ix.setVersion(oldTID, version{st: Dead, died: died})
	}
}

// VacuumPage mirrors btvacuumpage on a leaf whose cleanup lock VACUUM holds: every item
// whose heap tuple is dead to everyone is removed (the TIDs the heap pass collected), WAL-logged when
// anything was removed. Their heap tuples are then reclaimed. It returns the items removed.
func (ix *Index) VacuumPage(l *Leaf) int {
	kept := l.Items[:0]
	n := 0
	for _, it := range l.Items {
		if ix.deadToAll(it.TID) {
			ix.itemGone(it)
			delete(ix.versions, it.TID)
			n++
			continue
		}
		kept = append(kept, it)
	}
	l.Items = kept
	if n > 0 {
		ix.VacuumRemoved += uint64(n)
		ix.logChange(l)
	}
	return n
}

// DeadItems returns the items whose heap tuples are dead, and how many of them are LP_DEAD.
func (ix *Index) DeadItems() (dead, lpdead int) { return ix.deadItems, ix.lpDeadItems }

// setVersion sets version tid's state, keeping the dead items' count. Every version has its
// item until the item is removed (itemGone), and only items of dead versions are removed,
// so a version that dies has its item.
func (ix *Index) setVersion(tid uint32, v version) {
	was := ix.versions[tid].st
	switch {
	case was != Dead && v.st == Dead:
		ix.deadItems++
	case was == Dead && v.st != Dead:
		panic("pins: a dead version came back to life")
	}
	ix.versions[tid] = v
}

// setLPDead sets item it's LP_DEAD bit, keeping the count of LP_DEAD dead items.
func (ix *Index) setLPDead(it *Item, on bool) {
	if it.LPDead == on {
		return
	}
	it.LPDead = on
	if ix.versions[it.TID].st == Dead {
		if on {
			ix.lpDeadItems++
		} else {
			ix.lpDeadItems--
		}
	}
}

// itemGone takes item it, which is leaving its leaf, out of the counts.
func (ix *Index) itemGone(it Item) {
	if ix.versions[it.TID].st == Dead {
		ix.deadItems--
		if it.LPDead {
			ix.lpDeadItems--
		}
	}
}

// PageItems lists a leaf's items as pageinspect's bt_page_items shows them: itemoffset,
// ctid, dead, and the key in data.
func (l *Leaf) PageItems() string {
	s := "itemoffset | ctid | dead | data\n"
	for i, it := range l.Items {
		s += fmt.Sprintf("%d | (%d,%d) | %t | %d\n", i+1, it.TID/64, it.TID%64+1, it.LPDead, it.Key)
	}
	return s
}

// splitPoint returns where a full leaf splits: the boundary between two keys nearest the
// middle, so that one key's items stay on one page; 0 when the page holds one key only.
// A deviation: PostgreSQL lets duplicates span leaves (a scan then steps right), and
// chooses the point by free space (_bt_findsplitloc); this model keeps a key on one leaf,
// and a leaf full of one key's versions grows past LeafCapacity instead of splitting.
func splitPoint(items []Item) int {
	n := len(items)
	for d := 0; d < n/2+1; d++ {
		for _, m := range []int{n/2 + d, n/2 - d} {
			if m > 0 && m < n && items[m].Key != items[m-1].Key {
				return m
			}
		}
	}
	return 0
}

// ReadRange mirrors _bt_readpage for a range scan from key lo to hi on lo's leaf, as a
// cursor's first fetch reads the page: every matching item that is not LP_DEAD is copied,
// and the page LSN saved.
func (ix *Index) ReadRange(lo, hi int32) *Scan {
	l := ix.LeafOf(lo)
	sc := &Scan{Leaf: l, LSN: l.LSN, Pinned: true}
	for _, it := range l.Items {
		if it.Key >= lo && it.Key <= hi && !it.LPDead {
			sc.TIDs = append(sc.TIDs, it.TID)
		}
	}
	return sc
}

// DeleteRow deletes key's row in a committed transaction: its live version becomes dead to
// everyone (no older snapshot is left in this model).
func (ix *Index) DeleteRow(key int32) {
	for _, it := range ix.LeafOf(key).Items {
		if it.Key == key && ix.versions[it.TID].st == Live {
			ix.commits++
			ix.setVersion(it.TID, version{st: Dead, died: ix.commits})
		}
	}
}

// LPDeadCount returns how many items of leaf l are LP_DEAD: pageinspect's count of
// bt_page_items rows with dead = true.
func (l *Leaf) LPDeadCount() int {
	n := 0
	for _, it := range l.Items {
		if it.LPDead {
			n++
		}
	}
	return n
}

// LeafByBlock returns the leaf stored in block b, or nil (the metapage, or no such block).
func (ix *Index) LeafByBlock(b sim.BlockNumber) *Leaf {
	for _, l := range ix.Leaves {
		if l.Block == b {
			return l
		}
	}
	return nil
}
