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
