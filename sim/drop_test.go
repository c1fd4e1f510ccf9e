package sim

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// dropFixture builds a pool in recovery holding pages of several relations with all forks,
// some dirty, from a seed, so two calls with the same seed give the same pool.
func dropFixture(t *testing.T, seed uint64, policy DropPolicy) (*Sim, *rand.Rand) {
	t.Helper()
	s, err := New(Config{NBuffers: 256, Seed: seed, Workload: &Workload{WALWriterDelay: Second, BgWriterDelay: Second}})
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(seed, 99))
	for i := range 6 {
		c := RelationCmd{Name: fmt.Sprintf("r%d", i), Blocks: 1 + r.IntN(60), FSM: r.IntN(4), VM: r.IntN(2), Cached: []ForkNumber{MainForkNum, FSMForkNum, VisibilityMapForkNum}}
		if err := s.Apply(c); err != nil {
			t.Fatal(err)
		}
	}
	for range 400 {
		rel := s.Relations()[r.IntN(6)]
		f := ForkNumber(r.IntN(3))
		if rel.NBlocks[f] == 0 {
			continue
		}
		page := PageCmd{Rel: rel.Name, Fork: f, Block: BlockNumber(r.IntN(int(rel.NBlocks[f])))}
		var c Command = ReadCmd{page}
		if r.IntN(3) == 0 {
			c = UpdateCmd{page}
		}
		if err := s.Apply(c); err != nil {
			t.Fatal(err)
		}
	}
	s.Pool.InRecovery = true
	s.Pool.Drop = DropSettings{Policy: policy}
	return s, r
}

// TestLookupMatchesScan drops random fork ranges of random relations through the lookup path
// and through the full scan, on identical pools, and checks that both leave the same pool,
// write nothing, and leave no page of the dropped ranges behind while touching no other.
// Reference: src/backend/storage/buffer/bufmgr.c, DropRelationBuffers and FindAndDropRelationBuffers
func TestLookupMatchesScan(t *testing.T) {
	for seed := range uint64(200) {
		lookup, r := dropFixture(t, seed, DropLookup)
		scan, _ := dropFixture(t, seed, DropPG13)
		rel := r.IntN(6)
		var forks []ForkNumber
		var first []BlockNumber
		for f := MainForkNum; f <= VisibilityMapForkNum; f++ {
			if r.IntN(2) == 0 || f == MainForkNum {
				forks = append(forks, f)
				first = append(first, BlockNumber(r.IntN(8)))
			}
		}
		before := make([]BufferView, 256)
		lookup.Snapshot(before, 0)
		writesBefore := lookup.Stats().DirtyWrites + lookup.Stats().CheckpointWrites

		lr, err := lookup.Pool.DropRelationBuffers(lookup.Relations()[rel], forks, first)
		if err != nil {
			t.Fatal(err)
		}
		sr, err := scan.Pool.DropRelationBuffers(scan.Relations()[rel], forks, first)
		if err != nil {
			t.Fatal(err)
		}
		if lr.Path != PathLookup || sr.Path != PathScan {
			t.Fatalf("seed %d: paths %v and %v, want lookup and scan", seed, lr.Path, sr.Path)
		}
		// The same buffers are freed, though pushed on the freelist in another order.
		la, sa := make([]BufferView, 256), make([]BufferView, 256)
		lookup.Snapshot(la, 0)
		scan.Snapshot(sa, 0)
		if fmt.Sprint(la) != fmt.Sprint(sa) || lr.Invalidated != sr.Invalidated || len(lookup.Pool.Freelist()) != len(scan.Pool.Freelist()) {
			t.Fatalf("seed %d: the lookup path left a different pool than the scan (%v vs %v)", seed, lr, sr)
		}
		if sr.DescriptorsChecked != 256 || sr.Lookups != 0 {
			t.Fatalf("seed %d: scan checked %d descriptors with %d lookups; want all 256 and none", seed, sr.DescriptorsChecked, sr.Lookups)
		}
		if lr.Lookups != lr.Blocks || lr.DescriptorsChecked != 0 {
			t.Fatalf("seed %d: lookup made %d lookups for %d blocks", seed, lr.Lookups, lr.Blocks)
		}
		if err := lookup.CheckInvariants(); err != nil {
			t.Fatal(err)
		}
		if w := lookup.Stats().DirtyWrites + lookup.Stats().CheckpointWrites; w != writesBefore {
			t.Fatalf("seed %d: the drop wrote %d pages", seed, w-writesBefore)
		}
		checkDropped(t, lookup, before, lookup.Relations()[rel].Locator, forks, first)
	}
}

// checkDropped checks that no buffer holds a dropped page and that every other buffer is
// as it was.
func checkDropped(t *testing.T, s *Sim, before []BufferView, loc RelFileLocator, forks []ForkNumber, first []BlockNumber) {
	t.Helper()
	after := make([]BufferView, len(before))
	s.Snapshot(after, 0)
	dropped := func(tag BufferTag) bool {
		for i, f := range forks {
			if tag.Locator == loc && tag.Fork == f && tag.Block >= first[i] {
				return true
			}
		}
		return false
	}
	for id := range before {
		b, a := before[id], after[id]
		switch {
		case a.State.Has(BM_TAG_VALID) && dropped(a.Tag):
			t.Fatalf("buffer %d still holds dropped page %v", id, a.Tag)
		case b.State.Has(BM_TAG_VALID) && dropped(b.Tag):
			if a.State != 0 {
				t.Fatalf("buffer %d held dropped page %v but is now %v", id, b.Tag, a.State.FlagString())
			}
		case a != b:
			t.Fatalf("buffer %d changed from %v to %v though it held no dropped page", id, b, a)
		}
	}
}

// TestDropPathChoice checks the path choice against its definition on random inputs: the
// lookup path exactly when in recovery, every size cached and the total below the threshold.
// Reference: src/backend/storage/buffer/bufmgr.c, DropRelationsAllBuffers
func TestDropPathChoice(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for trial := range 500 {
		p, err := NewPool(MinNBuffers*(1+r.IntN(64)), 17, CostModel{})
		if err != nil {
			t.Fatal(err)
		}
		p.InRecovery = r.IntN(4) > 0
		var rels []*Relation
		cached, total := true, uint64(0)
		for i := range 1 + r.IntN(30) {
			rel := &Relation{Name: fmt.Sprint(i), Locator: RelFileLocator{1663, 1, Oid(20000 + i)}}
			for f := MainForkNum; f <= MaxForkNum; f++ {
				rel.NBlocks[f] = BlockNumber(r.IntN(3))
				rel.SizeCached[f] = r.IntN(20) > 0
				if !rel.SizeCached[f] && rel.Exists(f) {
					cached = false
				}
				total += uint64(rel.NBlocks[f])
			}
			rels = append(rels, rel)
		}
		res, err := p.DropRelationsAllBuffers(rels)
		if err != nil {
			t.Fatal(err)
		}
		wantLookup := p.InRecovery && cached && total < uint64(p.NBuffers/32)
		if (res.Path == PathLookup) != wantLookup {
			t.Fatalf("trial %d: path %v; recovery %v, cached %v, %d blocks, threshold %d", trial, res.Path, p.InRecovery, cached, total, p.NBuffers/32)
		}
		if res.Path == PathScan && res.Bsearch != (len(rels) > RelsBsearchThreshold) {
			t.Fatalf("trial %d: bsearch %v with %d relations", trial, res.Bsearch, len(rels))
		}
	}
}

// TestAdvanceDropUntilMatchesOneUnitAtATime holds AdvanceDropUntil against the obvious way
// to stop a drop at a time: one unit at a time, beginning each only while the time charged is
// before the limit (or at it, when inclusive). On identical pools, for both paths, one
// relation or several, and limits and budgets of units drawn at random, both stop after the
// same units at the same time with the same pool, and a unit begun before the limit is
// finished.
func TestAdvanceDropUntilMatchesOneUnitAtATime(t *testing.T) {
	for seed := range uint64(120) {
		for _, policy := range []DropPolicy{DropPG13, DropLookup} {
			fast, r := dropFixture(t, seed, policy)
			slow, _ := dropFixture(t, seed, policy)
			first, end := r.IntN(6), 0
			end = first + 1
			if seed%3 == 0 {
				first, end = 0, 6 // several relations: the scan compares each descriptor with all
			}
			fo := fast.Pool.StartDropRelationsAllBuffers(fast.Relations()[first:end])
			so := slow.Pool.StartDropRelationsAllBuffers(slow.Relations()[first:end])
			fast.Pool.TakeElapsed()
			slow.Pool.TakeElapsed()
			for round := 0; !fo.Done(fast.Pool); round++ {
				limit := fast.Pool.Elapsed() + Duration(r.IntN(4000))
				inclusive := r.IntN(2) == 0
				units := 1 + r.IntN(300)
				units0 := fo.Result().DescriptorsChecked + fo.Result().Lookups
				if !fast.Pool.AdvanceDropUntil(fo, units, limit, inclusive) {
					t.Fatal("a pinned buffer in the fixture")
				}
				done := 0
				for done < units && !so.Done(slow.Pool) && (slow.Pool.Elapsed() < limit || inclusive && slow.Pool.Elapsed() == limit) {
					slow.Pool.AdvanceDrop(so, 1)
					done++
				}
				got := fo.Result().DescriptorsChecked + fo.Result().Lookups - units0
				if int(got) != done || fast.Pool.Elapsed() != slow.Pool.Elapsed() || fo.Result() != so.Result() {
					t.Fatalf("seed %d %v round %d (limit %v, inclusive %v, %d units): %d units to %v, one at a time %d to %v",
						seed, policy, round, limit, inclusive, units, got, fast.Pool.Elapsed(), done, slow.Pool.Elapsed())
				}
				if fast.Hash() != slow.Hash() {
					t.Fatalf("seed %d %v round %d: the pools differ", seed, policy, round)
				}
				if round > 100000 {
					t.Fatal("the drop never ends")
				}
			}
			if !so.Done(slow.Pool) {
				t.Fatalf("seed %d %v: the one-at-a-time drop is not done", seed, policy)
			}
		}
	}
}
