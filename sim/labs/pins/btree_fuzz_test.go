package pins

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/bufferscope/bufferscope/sim"
)

// FuzzBTree decodes bytes into an index and operations on it — inserts (with simple
// deletion and splits), commits, row deletions, scans that kill items (keeping or dropping
// the pin, with or without a change of the page in between), unique checks, simple deletion,
// splits and VACUUM of a leaf, and a moving horizon — and after each checks the tree's
// invariants (checkTree) and its items against a deliberately naive model: a map of heap
// TIDs to keys, LP_DEAD bits and tuple states, which each operation changes the obvious way.
// Reference: src/backend/access/nbtree/nbtutils.c, _bt_killitems; nbtinsert.c,
// _bt_check_unique, _bt_delete_or_dedup_one_page, _bt_split; nbtsplitloc.c,
// _bt_findsplitloc; nbtree.c, btvacuumpage.
func FuzzBTree(f *testing.F) {
	f.Add([]byte{0x10, 0x00, 0x03, 0, 5, 0, 1, 0, 0, 2, 5, 0, 3, 5, 0, 4, 5, 0})
	f.Add([]byte{0x40, 0x01, 0x0b, 8, 7, 200, 1, 0, 0, 2, 7, 0, 9, 0, 0, 3, 7, 0, 5, 0, 0, 6, 1, 0, 7, 0, 0})
	f.Add([]byte{0x00, 0x00, 0x07, 8, 0, 255, 8, 1, 255, 2, 0, 0, 2, 1, 0, 3, 0, 1, 4, 1, 0, 8, 2, 100, 6, 0, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 3 {
			return
		}
		rows := 1 + (int(data[0])|int(data[1])<<8)%1200
		h := &btreeHarness{t: t, ix: NewIndex(rows, data[2]&1 != 0, data[2]&2 != 0, data[2]&4 != 0), rows: rows}
		if data[2]&8 != 0 {
			h.ix.Horizon = func() uint64 { return h.horizon }
		}
		h.model, h.byKey = modelOf(h.ix), map[int32][]uint32{}
		for _, l := range h.ix.Leaves {
			for _, it := range l.Items {
				h.byKey[it.Key] = append(h.byKey[it.Key], it.TID)
			}
		}
		h.check()
		for ops := data[3:]; len(ops) >= 3; ops = ops[3:] {
			h.apply(ops[0], ops[1], ops[2])
		}
	})
}

// modelItem is what the naive model knows of one index item.
type modelItem struct {
	key    int32
	lpdead bool
}

// btreeHarness holds an index under test and its naive model.
type btreeHarness struct {
	t       *testing.T
	ix      *Index
	model   map[uint32]modelItem // the items, by heap TID
	byKey   map[int32][]uint32   // the items' heap TIDs, by key
	states  map[uint32]version   // what each TID's heap tuple is, as the model sees it
	commits uint64
	horizon uint64
	rows    int
	pending []uint32           // inserted versions not yet committed, oldest first
	pages   map[*Leaf]pageShot // each leaf as the last check saw it
	log     []string
}

func modelOf(ix *Index) map[uint32]modelItem {
	m := map[uint32]modelItem{}
	for _, l := range ix.Leaves {
		for _, it := range l.Items {
			m[it.TID] = modelItem{it.Key, it.LPDead}
		}
	}
	return m
}

// pageShot is a leaf as a check saw it: its LSN, its items without their LP_DEAD bits, and
// its right sibling (the right link and high key a split rewrites).
type pageShot struct {
	lsn   sim.LSN
	items []Item
	right *Leaf
}

func shotsOf(ix *Index) map[*Leaf]pageShot {
	m := map[*Leaf]pageShot{}
	for i, l := range ix.Leaves {
		items := slices.Clone(l.Items)
		for i := range items {
			items[i].LPDead = false
		}
		m[l] = pageShot{l.LSN, items, rightOf(ix, i)}
	}
	return m
}

func rightOf(ix *Index, i int) *Leaf {
	if i+1 < len(ix.Leaves) {
		return ix.Leaves[i+1]
	}
	return nil
}

// deadToAll is the naive model's test: dead, and below the horizon when there is one.
func (h *btreeHarness) deadToAll(tid uint32) bool {
	v := h.states[tid]
	return v.st == Dead && (h.ix.Horizon == nil || v.died <= h.horizon)
}

// key decodes a key from a byte, spread over the rows' keys and a few below and above.
func (h *btreeHarness) key(a byte) int32 {
	return int32(int(a)*(h.rows+32)/256) - 16
}

func (h *btreeHarness) leaf(a byte) *Leaf { return h.ix.Leaves[int(a)%len(h.ix.Leaves)] }

func (h *btreeHarness) apply(op, a, b byte) {
	ix := h.ix
	before := *ix // the counters before
	switch op % 10 {
	case 0: // new index entries of key, 1 + 8×(b&63) of them, committed at once when b's top bit is set
		key := h.key(a)
		anyDeleted, splits := false, 0
		for range 1 + 8*int(b&0x3f) {
			deleted, split := h.insert(key, fmt.Sprintf("insert %d", key))
			anyDeleted = anyDeleted || deleted
			if split {
				splits++
			}
			if b&0x80 != 0 {
				h.commit(len(h.pending) - 1)
			}
		}
		h.reconcile(&before, anyDeleted, splits)
	case 1: // the oldest uncommitted version commits, replacing its key's live one
		if len(h.pending) > 0 {
			h.commit(0)
		}
	case 2:
		key := h.key(a)
		h.step(fmt.Sprintf("delete row %d", key))
		ix.DeleteRow(key)
		for _, tid := range h.byKey[key] {
			if h.states[tid].st == Live {
				h.commits++
				h.states[tid] = version{st: Dead, died: h.commits}
			}
		}
	case 3, 4: // a scan of key to its end: read the page, visit the heap, kill items
		key := h.key(a)
		keep, change := b&0x40 != 0, b&0x80 != 0
		h.step(fmt.Sprintf("scan %d keep=%v change=%v", key, keep, change))
		sc := ix.ReadPage(key, true)
		sc.Pinned = keep
		ix.FetchHeap(sc)
		var want []uint32 // what a scan of key with nothing in between marks
		for _, tid := range h.byKey[key] {
			if !h.model[tid].lpdead && h.deadToAll(tid) {
				want = append(want, tid)
			}
		}
		if change {
			deleted, split := h.insert(key+1, fmt.Sprintf("insert %d between", key+1))
			h.reconcile(&before, deleted, map[bool]int{true: 1}[split])
			before = *ix
		}
		lsnMoved := sc.LSN != sc.Leaf.LSN
		set, lost := ix.KillItems(sc)
		if set+lost != len(sc.Killed) || len(sc.Killed) != len(want) {
			h.fail("KillItems set %d and lost %d of %d killed items; the model finds %d", set, lost, len(sc.Killed), len(want))
		}
		if !keep && lsnMoved && set != 0 {
			h.fail("a dropped-pin scan set %d hints after the page LSN moved", set)
		}
		marked := 0
		for _, tid := range want {
			if l := h.leafOf(tid); l == sc.Leaf && (keep || !lsnMoved) {
				it := h.model[tid]
				it.lpdead = true
				h.model[tid] = it
				marked++
			}
		}
		if marked != set {
			h.fail("KillItems set %d hints; the model marks %d", set, marked)
		}
		h.expect(ix.HintsSet-before.HintsSet == uint64(set), "HintsSet moved by %d, not %d", ix.HintsSet-before.HintsSet, set)
	case 5:
		key := h.key(a)
		h.step(fmt.Sprintf("check unique %d", key))
		fetches, _ := ix.CheckUnique(key)
		want, marked := 0, 0
		for _, tid := range h.byKey[key] {
			if it := h.model[tid]; !it.lpdead {
				want++
				if h.deadToAll(tid) {
					it.lpdead = true
					h.model[tid] = it
					marked++
				}
			}
		}
		h.expect(fetches == want, "CheckUnique fetched %d items; the model has %d", fetches, want)
		h.expect(ix.HintsSet-before.HintsSet == uint64(marked), "CheckUnique set %d hints; the model marks %d", ix.HintsSet-before.HintsSet, marked)
	case 6:
		l := h.leaf(a)
		h.step(fmt.Sprintf("simple delete leaf %d", l.Block))
		n := ix.SimpleDelete(l)
		removed := 0
		for tid, it := range h.model {
			if it.lpdead && h.inLeaf(l, it.key) {
				h.remove(tid)
				removed++
			}
		}
		h.expect(n == removed && ix.SimpleDeleted-before.SimpleDeleted == uint64(n), "SimpleDelete removed %d (counted %d); the model removes %d", n, ix.SimpleDeleted-before.SimpleDeleted, removed)
	case 7:
		l := h.leaf(a)
		h.step(fmt.Sprintf("split leaf %d", l.Block))
		oneKey := !slices.ContainsFunc(l.Items, func(it Item) bool { return it.Key != l.Items[0].Key })
		r := ix.Split(l)
		h.expect((r == nil) == (len(l.Items) == 0 || oneKey), "Split of a leaf of %d items (one key: %v) gave %v", len(l.Items), oneKey, r)
		if r != nil {
			cleared := 0
			for tid, it := range h.model {
				if it.lpdead && (h.inLeaf(l, it.key) || h.inLeaf(r, it.key)) {
					it.lpdead = false
					h.model[tid] = it
					cleared++
				}
			}
			h.expect(ix.HintsLostSplit-before.HintsLostSplit == uint64(cleared), "the split cleared %d LP_DEAD bits, counted %d", cleared, ix.HintsLostSplit-before.HintsLostSplit)
		}
	case 8:
		l := h.leaf(a)
		h.step(fmt.Sprintf("vacuum leaf %d", l.Block))
		n := ix.VacuumPage(l)
		removed := 0
		for tid, it := range h.model {
			if h.inLeaf(l, it.key) && h.deadToAll(tid) {
				h.remove(tid)
				delete(h.states, tid)
				removed++
			}
		}
		h.expect(n == removed && ix.VacuumRemoved-before.VacuumRemoved == uint64(n), "VacuumPage removed %d (counted %d); the model removes %d", n, ix.VacuumRemoved-before.VacuumRemoved, removed)
	case 9: // the horizon moves on, never back
		h.horizon = max(h.horizon, h.commits-min(h.commits, uint64(a%8)))
		h.step(fmt.Sprintf("horizon %d", h.horizon))
	}
	h.check()
}

// insert inserts key into the index and the model; reconcile then checks what the inserts
// did to the rest of the index.
func (h *btreeHarness) insert(key int32, what string) (deleted, split bool) {
	h.step(what)
	tid, deleted, split := h.ix.Insert(key)
	if _, taken := h.model[tid]; taken || tid == 0 {
		h.fail("Insert gave TID %d, which is taken", tid)
	}
	h.model[tid] = modelItem{key: key}
	h.byKey[key] = append(h.byKey[key], tid)
	h.states[tid] = version{st: Pending}
	h.pending = append(h.pending, tid)
	return deleted, split
}

// reconcile checks, after inserts that reported deleted and split as given (any of them,
// and how many), what else they may change: a full leaf's simple deletion removes LP_DEAD
// items only, a split clears the LP_DEAD bits of the halves, and nothing else changes; the
// counters agree. The model takes the index's items.
func (h *btreeHarness) reconcile(before *Index, deleted bool, splits int) {
	ix := h.ix
	now := modelOf(ix)
	removed, cleared := 0, 0
	for t, it := range h.model {
		got, ok := now[t]
		switch {
		case !ok && !it.lpdead:
			h.fail("item (%d, TID %d) vanished, but it was not LP_DEAD", it.key, t)
		case !ok:
			removed++
			h.remove(t)
		case got.lpdead && !it.lpdead:
			h.fail("item (%d, TID %d) became LP_DEAD", it.key, t)
		case it.lpdead && !got.lpdead:
			cleared++
			h.model[t] = got
		}
	}
	for t := range now {
		if _, ok := h.model[t]; !ok {
			h.fail("item TID %d appeared from nowhere", t)
		}
	}
	h.expect(deleted == (removed > 0) && ix.SimpleDeleted-before.SimpleDeleted == uint64(removed),
		"the inserts reported deleted=%v, removed %d items, counted %d", deleted, removed, ix.SimpleDeleted-before.SimpleDeleted)
	h.expect(splits > 0 || cleared == 0, "LP_DEAD bits cleared without a split")
	h.expect(ix.HintsLostSplit-before.HintsLostSplit == uint64(cleared), "%d LP_DEAD bits cleared, %d counted", cleared, ix.HintsLostSplit-before.HintsLostSplit)
	h.expect(ix.Splits-before.Splits == uint64(splits), "the inserts reported %d splits, Splits moved by %d", splits, ix.Splits-before.Splits)
}

// remove forgets the item with heap TID tid.
func (h *btreeHarness) remove(tid uint32) {
	key := h.model[tid].key
	delete(h.model, tid)
	h.byKey[key] = slices.DeleteFunc(h.byKey[key], func(t uint32) bool { return t == tid })
}

// commit commits the uncommitted version pending[i] as an UPDATE of its key's live version
// (the oldest, if several), or as an INSERT when there is none.
func (h *btreeHarness) commit(i int) {
	newTID := h.pending[i]
	h.pending = slices.Delete(h.pending, i, i+1)
	key := h.model[newTID].key
	var old uint32
	for _, tid := range h.byKey[key] {
		if h.states[tid].st == Live && (old == 0 || tid < old) {
			old = tid
		}
	}
	h.step(fmt.Sprintf("commit %d replacing %d", newTID, old))
	h.ix.Commit(newTID, old)
	h.commits++
	h.states[newTID] = version{st: Live}
	if old != 0 {
		h.states[old] = version{st: Dead, died: h.commits}
	}
}

func (h *btreeHarness) leafOf(tid uint32) *Leaf {
	for _, l := range h.ix.Leaves {
		for _, it := range l.Items {
			if it.TID == tid {
				return l
			}
		}
	}
	return nil
}

// inLeaf reports whether key belongs to leaf l: from its Low to the next leaf's.
func (h *btreeHarness) inLeaf(l *Leaf, key int32) bool {
	return h.ix.LeafOf(key) == l
}

// step notes an operation for the failure message, a repeated one once with its count.
func (h *btreeHarness) step(what string) {
	if n := len(h.log); n > 0 {
		last, times, _ := strings.Cut(h.log[n-1], " ×")
		if last == what {
			k, _ := strconv.Atoi(times)
			h.log[n-1] = fmt.Sprintf("%s ×%d", what, max(k, 1)+1)
			return
		}
	}
	h.log = append(h.log, what)
}

func (h *btreeHarness) fail(format string, args ...any) {
	h.t.Helper()
	h.t.Fatalf("after %v: %s", h.log, fmt.Sprintf(format, args...))
}

func (h *btreeHarness) expect(ok bool, format string, args ...any) {
	h.t.Helper()
	if !ok {
		h.fail(format, args...)
	}
}

// check checks the tree's invariants and compares its items with the model.
func (h *btreeHarness) check() {
	h.t.Helper()
	if h.states == nil {
		h.states = map[uint32]version{}
		for tid := range h.model {
			h.states[tid] = h.ix.versions[tid]
		}
	}
	if err := checkTree(h.ix, h.pages); err != nil {
		h.fail("%v", err)
	}
	now := modelOf(h.ix)
	if len(now) != len(h.model) {
		h.fail("the index holds %d items, the model %d", len(now), len(h.model))
	}
	for tid, it := range h.model {
		if now[tid] != it {
			h.fail("TID %d is %+v in the index, %+v in the model", tid, now[tid], it)
		}
		if h.ix.versions[tid] != h.states[tid] {
			h.fail("TID %d's tuple is %+v, the model says %+v", tid, h.ix.versions[tid], h.states[tid])
		}
	}
	// The counts the index keeps as it changes, against the model's items.
	dead, lpdead := 0, 0
	for tid, it := range h.model {
		if h.states[tid].st == Dead {
			dead++
			if it.lpdead {
				lpdead++
			}
		}
	}
	if d, lp := h.ix.DeadItems(); d != dead || lp != lpdead {
		h.fail("DeadItems says %d dead items, %d LP_DEAD; the model has %d and %d", d, lp, dead, lpdead)
	}
	h.pages = shotsOf(h.ix)
}

// checkTree checks the rules of the index's shape: the leaves cover every key in order
// (the first from the lowest key, each Low above the one before, each item between its
// leaf's Low and the next's), items in key order and, within a key, in heap TID order, no
// TID twice, every TID a known tuple, LP_DEAD only on dead tuples, distinct blocks, no leaf
// over LeafCapacity unless it holds one key's items only (the documented deviation), and
// page LSNs (against the leaves as they were before) that never go back, move with every
// change of a page's items or right sibling when the index has LSNs (logged, or PostgreSQL 19's fake ones),
// never otherwise, and never with a hint alone.
func checkTree(ix *Index, before map[*Leaf]pageShot) error {
	if len(ix.Leaves) == 0 || ix.Leaves[0].Low != math.MinInt32 {
		return fmt.Errorf("the first leaf does not start at the lowest key")
	}
	seen := map[uint32]bool{}
	blocks := map[sim.BlockNumber]bool{}
	for i, l := range ix.Leaves {
		if i > 0 && l.Low <= ix.Leaves[i-1].Low {
			return fmt.Errorf("leaf %d starts at %d, not above the leaf before (%d)", l.Block, l.Low, ix.Leaves[i-1].Low)
		}
		if l.Block < 1 || l.Block >= sim.BlockNumber(ix.Blocks()) || blocks[l.Block] || ix.LeafByBlock(l.Block) != l {
			return fmt.Errorf("leaf block %d is outside 1..%d or taken twice", l.Block, ix.Blocks()-1)
		}
		blocks[l.Block] = true
		for j, it := range l.Items {
			if it.Key < l.Low || i+1 < len(ix.Leaves) && it.Key >= ix.Leaves[i+1].Low {
				return fmt.Errorf("leaf %d holds key %d outside its range from %d", l.Block, it.Key, l.Low)
			}
			if j > 0 && (it.Key < l.Items[j-1].Key || it.Key == l.Items[j-1].Key && it.TID < l.Items[j-1].TID) {
				return fmt.Errorf("leaf %d: item %d (%d, TID %d) before item %d (%d, TID %d)", l.Block, j, it.Key, it.TID, j-1, l.Items[j-1].Key, l.Items[j-1].TID)
			}
			if seen[it.TID] {
				return fmt.Errorf("TID %d is indexed twice", it.TID)
			}
			seen[it.TID] = true
			v, ok := ix.versions[it.TID]
			if !ok {
				return fmt.Errorf("leaf %d indexes TID %d, which is no tuple", l.Block, it.TID)
			}
			if it.LPDead && v.st != Dead {
				return fmt.Errorf("leaf %d: TID %d is LP_DEAD but its tuple is %d", l.Block, it.TID, v.st)
			}
		}
		if len(l.Items) > LeafCapacity && l.Items[0].Key != l.Items[len(l.Items)-1].Key {
			return fmt.Errorf("leaf %d holds %d items of keys %d to %d, over its capacity of %d", l.Block, len(l.Items), l.Items[0].Key, l.Items[len(l.Items)-1].Key, LeafCapacity)
		}
		if old, ok := before[l]; ok {
			changed := old.right != rightOf(ix, i) ||
				!slices.EqualFunc(old.items, l.Items, func(a, b Item) bool { return a.Key == b.Key && a.TID == b.TID })
			switch moves := ix.Logged || ix.FakeLSN; {
			case l.LSN < old.lsn:
				return fmt.Errorf("leaf %d's LSN went back from %v to %v", l.Block, old.lsn, l.LSN)
			case !moves && l.LSN != old.lsn:
				return fmt.Errorf("leaf %d of an index without LSNs moved its LSN to %v", l.Block, l.LSN)
			case moves && changed && l.LSN == old.lsn:
				return fmt.Errorf("leaf %d's items or right sibling changed, but its LSN stayed at %v", l.Block, l.LSN)
			case !changed && l.LSN != old.lsn:
				return fmt.Errorf("leaf %d's LSN moved to %v, but only hints changed", l.Block, l.LSN)
			}
		}
	}
	return nil
}

// countDeadItems counts what DeadItems keeps, item by item, for the tests.
func (ix *Index) countDeadItems() (dead, lpdead int) {
	for _, l := range ix.Leaves {
		for _, it := range l.Items {
			if ix.versions[it.TID].st == Dead {
				dead++
				if it.LPDead {
					lpdead++
				}
			}
		}
	}
	return dead, lpdead
}
