package sim

import "testing"

// TestDropCostsFromParts checks the drop paths' prices against their parts: a lookup is the
// hash, the lock pair and a probe that leaves the cache once the mapping table outgrows it,
// and a descriptor check streams from memory once the descriptor array does.
// Reference: src/backend/storage/buffer/buf_table.c, BufTableHashCode and BufTableLookup
func TestDropCostsFromParts(t *testing.T) {
	c := DefaultCostModel()
	for _, tc := range []struct {
		size          string
		lookup, check Duration
		tableInCache  bool
		descsInCache  bool
	}{
		{"128MB", c.TagHash + c.LWLockPair + c.CacheProbe, c.DescriptorCompare, true, true},
		{"1GB", c.TagHash + c.LWLockPair + c.CacheProbe, c.DescriptorCompare, true, true},
		{"20GB", c.TagHash + c.LWLockPair + c.MemoryLatency, c.MemoryLine, false, false},
		{"100GB", c.TagHash + c.LWLockPair + c.MemoryLatency, c.MemoryLine, false, false},
	} {
		nb, err := SharedBuffersToNBuffers(tc.size)
		if err != nil {
			t.Fatal(err)
		}
		if got := c.BufTableLookupCost(nb); got != tc.lookup {
			t.Errorf("%s: lookup %v, want %v", tc.size, got, tc.lookup)
		}
		if got := c.DescriptorScanCost(nb); got != tc.check {
			t.Errorf("%s: descriptor check %v, want %v", tc.size, got, tc.check)
		}
		if got := c.MappingTableBytes(nb) <= c.CacheSize; got != tc.tableInCache {
			t.Errorf("%s: mapping table of %d bytes in a %d-byte cache: %v", tc.size, c.MappingTableBytes(nb), c.CacheSize, got)
		}
	}
	// The break-even of one relation at 100GB, lookup ÷ check, must fall between 8 and 64
	// (seed-results A: the lookup path stops winning between NB/64 and NB/8) without any
	// part being set from it.
	nb, _ := SharedBuffersToNBuffers("100GB")
	k := float64(c.BufTableLookupCost(nb)) / float64(c.DescriptorScanCost(nb))
	if k <= 8 || k >= 64 {
		t.Errorf("100GB break-even at NB/%.1f, want between NB/64 and NB/8", k)
	}
	// Slower memory moves it: at 400 ns a lookup costs more than 64 descriptor checks.
	c.MemoryLatency = 400 * Nanosecond
	if k2 := float64(c.BufTableLookupCost(nb)) / float64(c.DescriptorScanCost(nb)); k2 <= 64 {
		t.Errorf("memory latency 400ns: break-even at NB/%.1f, want it past NB/64", k2)
	}
}

// TestCostOverrides reads overrides of the parts and refuses unknown parts and bad values.
func TestCostOverrides(t *testing.T) {
	c, err := ParseCostOverrides("memory_latency=200ns, cache_size=30MB,mapping_entry=56", DefaultCostModel())
	if err != nil {
		t.Fatal(err)
	}
	if c.MemoryLatency != 200*Nanosecond || c.CacheSize != 30<<20 || c.MappingEntryBytes != 56 {
		t.Errorf("overrides not applied: %+v", c)
	}
	for _, bad := range []string{"memory_latency", "no_such_part=1ns", "memory_latency=fast", "cache_size=-1", "tag_hash=0ns"} {
		if _, err := ParseCostOverrides(bad, DefaultCostModel()); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	for _, p := range CostParts() {
		if p.Source == "" || p.Doc == "" || p.Unit == "" {
			t.Errorf("part %s lacks a unit, doc or source", p.Key)
		}
		d := DefaultCostModel()
		c := d
		if err := p.Set(&c, p.Value(d)); err != nil || p.Value(c) != p.Value(d) {
			t.Errorf("part %s: %q does not read back (%v)", p.Key, p.Value(d), err)
		}
	}
}

// TestDevicePresets gives each device its figures and keeps an explicit part over it.
func TestDevicePresets(t *testing.T) {
	if got := (CostModel{Device: DeviceHDD}).WithDefaults().ControlFileSync; got != 8300*Microsecond {
		t.Errorf("hdd pg_control sync %v", got)
	}
	if got := (CostModel{Device: DeviceHDD, ControlFileSync: Microsecond}).WithDefaults().ControlFileSync; got != Microsecond {
		t.Errorf("explicit sync replaced by the preset: %v", got)
	}
	for _, d := range Devices() {
		if p, err := ParseDevice(d.String()); err != nil || p != d || d.Source() == "" {
			t.Errorf("device %v: %v %v", d, p, err)
		}
	}
}
