package grid

import "testing"

func TestFlashesFade(t *testing.T) {
	var f Flashes
	f.Reset(100)
	f.Note(FlashRead, 3)
	f.Note(FlashRead, 3)
	f.Note(FlashWrite, 3)
	f.Note(FlashWrite, 7)
	f.Note(FlashRead, 1000) // out of range: ignored
	if f.Active() != 2 {
		t.Fatalf("%d active, want 2 (each buffer once)", f.Active())
	}
	if r, w := f.Level(3); r != 1 || w != 1 {
		t.Errorf("fresh flashes at %v, %v", r, w)
	}
	for range FlashTicks / FlashSteps {
		f.Tick()
	}
	if r, _ := f.Level(3); r != float64(FlashSteps-1)/FlashSteps {
		t.Errorf("a step into the fade the read flash is at %v", r)
	}
	for range FlashTicks {
		f.Tick()
	}
	if f.Active() != 0 {
		t.Errorf("%d flashes outlived FlashTicks", f.Active())
	}
	if r, w := f.Level(3); r != 0 || w != 0 {
		t.Errorf("finished flash at %v, %v", r, w)
	}
}

func TestFlashesAge(t *testing.T) {
	var f Flashes
	f.Reset(10)
	f.Note(FlashRead, 1)
	f.Age(FlashTicks - 1)
	if r, _ := f.Level(1); r == 0 {
		t.Error("a flash ended a tick early")
	}
	f.Age(1000)
	if f.Active() != 0 {
		t.Error("Age(1000) left a flash")
	}
	f.Note(FlashWrite, 2)
	f.Age(0)
	f.Age(-3)
	if _, w := f.Level(2); w != 1 {
		t.Errorf("Age of no ticks changed a flash to %v", w)
	}
}

func TestFlashesOffForLargePools(t *testing.T) {
	var f Flashes
	f.Reset(MaxFlashBuffers + 1)
	f.Note(FlashRead, 5)
	if f.Enabled() || f.Active() != 0 {
		t.Error("a pool above MaxFlashBuffers flashes")
	}
	f.Reset(16)
	f.Note(FlashRead, 5)
	f.Clear()
	if f.Active() != 0 {
		t.Error("Clear left flashes")
	}
	if r, _ := f.Level(5); r != 0 {
		t.Error("Clear left a level")
	}
}

// TestFlashKindsAreIndependent: the three kinds share one countdown word per buffer without
// disturbing each other.
func TestFlashKindsAreIndependent(t *testing.T) {
	var f Flashes
	f.Reset(10)
	f.Note(FlashDrop, 4)
	if r, w := f.Level(4); r != 0 || w != 0 || f.LevelOf(FlashDrop, 4) != 1 {
		t.Fatalf("a drop flash shows as read %v, write %v, drop %v", r, w, f.LevelOf(FlashDrop, 4))
	}
	f.Age(FlashTicks / 2)
	f.Note(FlashRead, 4)
	if f.LevelOf(FlashRead, 4) != 1 || f.LevelOf(FlashDrop, 4) != 0.5 || f.LevelOf(FlashWrite, 4) != 0 {
		t.Errorf("after a read: read %v, drop %v, write %v", f.LevelOf(FlashRead, 4), f.LevelOf(FlashDrop, 4), f.LevelOf(FlashWrite, 4))
	}
	if f.Active() != 1 {
		t.Errorf("%d active, want 1", f.Active())
	}
	f.Age(FlashTicks / 2)
	if f.LevelOf(FlashDrop, 4) != 0 || f.LevelOf(FlashRead, 4) != 0.5 {
		t.Errorf("the drop flash should be over and the read half way: drop %v, read %v", f.LevelOf(FlashDrop, 4), f.LevelOf(FlashRead, 4))
	}
	if f.LevelOf(numFlashKinds, 4) != 0 || f.LevelOf(FlashDrop, 99) != 0 {
		t.Error("out-of-range kinds or buffers have levels")
	}
}

// TestFlashKeyOfNoFlash: a word with no flash left has key 0, which Painter.Update takes for
// granted without computing it.
func TestFlashKeyOfNoFlash(t *testing.T) {
	if k := flashKey(0); k != 0 {
		t.Fatalf("flashKey(0) = %d, want 0", k)
	}
	if flashKey(1) == 0 {
		t.Fatal("a flash with a tick left has the key of none")
	}
}
