package grid

// FlashKind is what a flash shows happened to a buffer.
type FlashKind uint8

// The flashes the grid draws. A read glows over the whole cell; a write lights a ring, so the
// two differ in shape as well as colour; a drop burns the emptied cell in Theme.Burn.
const (
	FlashRead  FlashKind = iota // a page was read into the buffer (after an eviction, once the pool is full)
	FlashWrite                  // a dirty page was written out
	FlashDrop                   // InvalidateBuffer dropped the page without writing it
	numFlashKinds
)

var flashNames = [...]string{"read", "write", "burn"}

// String returns "read", "write" or "burn": a legend mark with this key colours the flash
// (ThemeFor).
func (k FlashKind) String() string {
	if int(k) < len(flashNames) {
		return flashNames[k]
	}
	return "flash"
}

// Each buffer's countdowns share one uint16, flashBits bits per kind.
const (
	flashBits = 5
	flashMask = 1<<flashBits - 1
)

// FlashTicks is how many ticks a flash lasts: 0.4 s at Ebiten's 60 ticks per second.
const FlashTicks = 24

// FlashTicks must fit in a countdown's flashBits bits: this constant does not compile if not.
const _ = uint(flashMask - FlashTicks)

// MaxFlashBuffers is the largest pool whose buffers flash. Larger pools are drawn many
// buffers to a pixel, where flashes would only be noise.
const MaxFlashBuffers = 131072

// Flashes holds the fading flashes of recent events, one countdown per buffer and kind.
// Only buffers with a flash in progress are visited by Tick. The zero value holds none;
// Reset sizes it for a pool.
type Flashes struct {
	left   []uint16 // per buffer: the ticks left of each kind, flashBits bits per kind
	active []int32  // buffers whose left is not zero, each once
}

// Reset clears every flash and sizes the table for n buffers, or turns flashes off when n is
// above MaxFlashBuffers.
func (f *Flashes) Reset(n int) {
	f.active = f.active[:0]
	if n > MaxFlashBuffers || n <= 0 {
		f.left = nil
		return
	}
	if cap(f.left) >= n {
		f.left = f.left[:n]
		clear(f.left)
		return
	}
	f.left = make([]uint16, n)
}

// Enabled reports whether the pool is small enough to flash.
func (f *Flashes) Enabled() bool { return f.left != nil }

// Note starts (or restarts) a flash of kind on buffer id.
func (f *Flashes) Note(kind FlashKind, id int) {
	if id < 0 || id >= len(f.left) {
		return
	}
	if kind >= numFlashKinds {
		return
	}
	old := f.left[id]
	shift := flashBits * uint(kind)
	f.left[id] = old&^(flashMask<<shift) | FlashTicks<<shift
	if old == 0 {
		f.active = append(f.active, int32(id))
	}
}

// Tick ages every flash by one tick and forgets those that are over.
func (f *Flashes) Tick() { f.Age(1) }

// Age ages every flash by ticks ticks, for frames that come slower than 60 a second, and
// forgets those that are over.
func (f *Flashes) Age(ticks int) {
	if ticks <= 0 {
		return
	}
	t := uint16(min(ticks, FlashTicks))
	keep := f.active[:0]
	for _, id := range f.active {
		v := f.left[id]
		var next uint16
		for k := range uint(numFlashKinds) {
			left := v >> (flashBits * k) & flashMask
			next |= (left - min(left, t)) << (flashBits * k)
		}
		if f.left[id] = next; next != 0 {
			keep = append(keep, id)
		}
	}
	f.active = keep
}

// Active returns the number of buffers with a flash in progress.
func (f *Flashes) Active() int { return len(f.active) }

// FlashSteps is how many levels a flash fades through. A flashing cell is repainted only
// when its level changes, not on every tick.
const FlashSteps = 4

// flashStep returns the level, 0 to FlashSteps, of a flash with ticks left.
func flashStep(ticks uint16) uint16 { return (ticks*FlashSteps + FlashTicks - 1) / FlashTicks }

// flashTicks returns the ticks left of kind in a countdown word.
func flashTicks(v uint16, kind FlashKind) uint16 { return v >> (flashBits * uint(kind)) & flashMask }

// flashKey packs the levels of every kind of flash of a countdown word, three bits each;
// two words with the same key look the same.
func flashKey(v uint16) uint16 {
	var key uint16
	for k := range numFlashKinds {
		key |= flashStep(flashTicks(v, k)) << (3 * uint(k))
	}
	return key
}

// flashLevel returns the level of kind in a countdown word, 0 to 1 in FlashSteps steps.
func flashLevel(v uint16, kind FlashKind) float64 {
	return float64(flashStep(flashTicks(v, kind))) / FlashSteps
}

// Level returns how far into its fade the read and write flashes on buffer id are: 1 when
// it just started, 0 when there is none, in FlashSteps steps.
func (f *Flashes) Level(id int) (read, write float64) {
	if id < 0 || id >= len(f.left) {
		return 0, 0
	}
	v := f.left[id]
	return flashLevel(v, FlashRead), flashLevel(v, FlashWrite)
}

// LevelOf returns how far into its fade the flash of kind on buffer id is, as Level does.
func (f *Flashes) LevelOf(kind FlashKind, id int) float64 {
	if id < 0 || id >= len(f.left) || kind >= numFlashKinds {
		return 0
	}
	return flashLevel(f.left[id], kind)
}

// Clear ends every flash at once.
func (f *Flashes) Clear() {
	for _, id := range f.active {
		f.left[id] = 0
	}
	f.active = f.active[:0]
}

// flashStrength is how far towards Theme.Flash a cell glows when a read flash starts, and
// dropStrength how far towards Theme.Burn an emptied cell burns when a drop flash starts.
const (
	flashStrength = 0.6
	dropStrength  = 0.9
)
