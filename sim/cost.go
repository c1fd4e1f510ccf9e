package sim

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/bufferscope/bufferscope/sim/param"
)

// CostModel holds the virtual time charged for each primitive the simulation performs. The
// zero value of a field means its default (DefaultCostModel); every constant is visible and
// adjustable so a reader can ask "what if a WAL flush took 8 ms?".
//
// The drop paths are priced from parts (CostParts lists each with its unit, default and
// source): a mapping-table lookup is BufTableLookup's work — TagHash + LWLockPair + a probe
// that is CacheProbe while the mapping table fits in CacheSize and MemoryLatency once it
// does not (BufTableLookupCost) — and a full scan's descriptor check is DescriptorCompare
// while the descriptor array fits in CacheSize and MemoryLine (streaming) beyond it
// (DescriptorScanCost). Nothing in them is set from the NBuffers/32 threshold: the crossover
// is what these parts make of it.
//
// Every lab prices a mapping-table lookup from the same parts (ForPool, which NewPool
// applies): BufferAlloc's lookup is BufTableLookupCost, as a drop's lookup is.
// DescriptorCheck remains the flat price of one clock sweep step (and of a ring's or the
// background writer's check): from its parts (ClockSweepTick's and LockBufHdr's atomics,
// the descriptor's line) it would cost about 42 ns, and the drop experiment's first victim
// search in its full 100GB pool would then take a 0.59 s pass, which its assumption of a
// full pool at usage count 1 does not yet justify. Page reads and writes are assumptions of
// this model and say so.
type CostModel struct {
	// DescriptorCheck is one buffer descriptor visited by the clock sweep (5 ns).
	DescriptorCheck Duration
	// Lookup is BufferAlloc's BufTableHashCode + partition LWLock + BufTableLookup. Zero:
	// BufTableLookupCost for the pool's size (ForPool).
	Lookup Duration
	// ReadOSCache is reading one 8 kB page that the kernel's page cache holds (assumed 5 µs).
	ReadOSCache Duration
	// ReadDisk is reading one 8 kB page from storage (assumed 100 µs, an SSD random read).
	ReadDisk Duration
	// Write is handing one dirty page to the kernel with smgrwrite, no fsync (assumed 10 µs).
	Write Duration
	// WALFlush is one XLogFlush that writes and fdatasyncs WAL (1 ms).
	WALFlush Duration
	// WALInsert is inserting one WAL record (assumed 1 µs).
	WALInsert Duration
	// PageWork is what a client backend does with a page besides getting it: executor,
	// tuple visibility, locks (assumed 5 µs, a pgbench-like statement's share per page).
	PageWork Duration
	// LocatorCompare is one more RelFileLocator comparison when a full scan checks a buffer
	// against several relations (assumed 1 ns).
	LocatorCompare Duration
	// ReplayRecord is decoding and redoing one WAL record in the startup process, beyond the
	// buffer accesses the redo makes (assumed 2 µs).
	ReplayRecord Duration

	// TagHash is BufTableHashCode: hash_bytes over the 20-byte BufferTag.
	TagHash Duration
	// LWLockPair is LWLockAcquire and LWLockRelease of a buffer mapping partition lock,
	// uncontended: two atomic read-modify-writes.
	LWLockPair Duration
	// CacheProbe is hash_search's probe of the mapping table (bucket, then entry) while the
	// table fits in the CPU cache.
	CacheProbe Duration
	// MemoryLatency is one dependent load from main memory: the probe once the mapping
	// table is larger than CacheSize.
	MemoryLatency Duration
	// CacheSize is the last-level CPU cache in bytes; the zero value means its default.
	CacheSize int64
	// MappingEntryBytes is one mapping-table entry (BufferLookupEnt and its HASHELEMENT) with
	// its bucket pointer; the table holds NBuffers + NUM_BUFFER_PARTITIONS entries.
	MappingEntryBytes int64
	// DescriptorCompare is a full scan's unlocked precheck of one descriptor's relfilelocator
	// when the descriptor array is in the CPU cache.
	DescriptorCompare Duration
	// MemoryLine is streaming one 64-byte cache line from main memory with the hardware
	// prefetcher running ahead: 64 B ÷ bandwidth.
	MemoryLine Duration

	// Device is the storage preset that gives ControlFileSync and FileOp their defaults.
	Device Device
	// ControlFileSync is UpdateControlFile: writing pg_control (8 kB) and fsyncing it, which
	// replay does each time it advances minRecoveryPoint. Its default is Device's.
	ControlFileSync Duration
	// FileOp is one file-system call on a relation's file that does not sync: open with
	// O_CREAT, ftruncate or unlink. Its default is Device's.
	FileOp Duration
}

// Device is a storage preset: how long a small synchronous write and a metadata call take.
// The zero value is DeviceServer.
type Device uint8

// The device presets.
const (
	// DeviceServer is a server's storage with a power-loss-protected write cache (a RAID
	// controller's or an enterprise SSD's), where an fsync returns once the cache holds the
	// data. The published drop tests ran on such a machine: the whole replay of a dropping
	// commit took under 0.2 ms, pg_control's fsync included (seed-results B, patched).
	DeviceServer Device = iota
	// DeviceNVMe is an NVMe drive with power-loss protection.
	DeviceNVMe
	// DeviceSSD is a SATA SSD without power-loss protection: fsync waits for its flash.
	DeviceSSD
	// DeviceHDD is a 7200 rpm disk: an fsync waits about one rotation.
	DeviceHDD
)

// devicePresets are each Device's ControlFileSync and FileOp, with where they come from.
var devicePresets = [...]struct {
	name         string
	sync, fileOp Duration
	source       string
}{
	{"server", 100 * Microsecond, 15 * Microsecond,
		"assumption: a write cache with power-loss protection; postgres-internals §5 puts such fsyncs at ~20–100 µs, and seed-results B's patched replay leaves under 0.2 ms per dropping commit for all of it"},
	{"nvme", 50 * Microsecond, 10 * Microsecond,
		"postgres-internals §5: NVMe with power-loss protection ~20–100 µs per write+flush (unverified, hardware-dependent)"},
	{"ssd", 1 * Millisecond, 20 * Microsecond,
		"postgres-internals §5: SSD ~0.5–3 ms per write+fdatasync (unverified, hardware-dependent)"},
	{"hdd", 8300 * Microsecond, 50 * Microsecond,
		"postgres-internals §5: a 7200 rpm disk waits at least one rotation, ~8.3 ms"},
}

// String returns "server", "nvme", "ssd" or "hdd".
func (d Device) String() string {
	if int(d) < len(devicePresets) {
		return devicePresets[d].name
	}
	return fmt.Sprintf("device%d", uint8(d))
}

// ParseDevice parses "server", "nvme", "ssd" or "hdd".
func ParseDevice(s string) (Device, error) {
	for i, p := range devicePresets {
		if s == p.name {
			return Device(i), nil
		}
	}
	return 0, fmt.Errorf("device %q is not server, nvme, ssd or hdd", s)
}

// Devices returns the device presets in order.
func Devices() []Device {
	out := make([]Device, len(devicePresets))
	for i := range out {
		out[i] = Device(i)
	}
	return out
}

// DeviceSource says where a device preset's figures come from.
func (d Device) Source() string {
	if int(d) < len(devicePresets) {
		return devicePresets[d].source
	}
	return ""
}

// DescriptorBytes is the size of one padded buffer descriptor (BUFFERDESC_PAD_TO_SIZE).
const DescriptorBytes = 64

// DefaultCostModel returns the default constants described on CostModel, with the server
// device's ControlFileSync and FileOp.
func DefaultCostModel() CostModel {
	return CostModel{
		DescriptorCheck:   5 * Nanosecond,
		ReadOSCache:       5 * Microsecond,
		ReadDisk:          100 * Microsecond,
		Write:             10 * Microsecond,
		WALFlush:          1 * Millisecond,
		WALInsert:         1 * Microsecond,
		PageWork:          5 * Microsecond,
		LocatorCompare:    1 * Nanosecond,
		ReplayRecord:      2 * Microsecond,
		TagHash:           15 * Nanosecond,
		LWLockPair:        40 * Nanosecond,
		CacheProbe:        10 * Nanosecond,
		MemoryLatency:     90 * Nanosecond,
		CacheSize:         15 << 20,
		MappingEntryBytes: 48,
		DescriptorCompare: 1500 * Picosecond,
		MemoryLine:        5 * Nanosecond,
		ControlFileSync:   devicePresets[DeviceServer].sync,
		FileOp:            devicePresets[DeviceServer].fileOp,
	}
}

// WithDefaults returns c with every zero field replaced by its default; ControlFileSync and
// FileOp take c.Device's.
func (c CostModel) WithDefaults() CostModel {
	d := DefaultCostModel()
	if int(c.Device) < len(devicePresets) {
		d.ControlFileSync, d.FileOp = devicePresets[c.Device].sync, devicePresets[c.Device].fileOp
	}
	fill := func(v *Duration, def Duration) {
		if *v == 0 {
			*v = def
		}
	}
	fill(&c.DescriptorCheck, d.DescriptorCheck)
	fill(&c.ReadOSCache, d.ReadOSCache)
	fill(&c.ReadDisk, d.ReadDisk)
	fill(&c.Write, d.Write)
	fill(&c.WALFlush, d.WALFlush)
	fill(&c.WALInsert, d.WALInsert)
	fill(&c.PageWork, d.PageWork)
	fill(&c.LocatorCompare, d.LocatorCompare)
	fill(&c.ReplayRecord, d.ReplayRecord)
	fill(&c.TagHash, d.TagHash)
	fill(&c.LWLockPair, d.LWLockPair)
	fill(&c.CacheProbe, d.CacheProbe)
	fill(&c.MemoryLatency, d.MemoryLatency)
	fill(&c.DescriptorCompare, d.DescriptorCompare)
	fill(&c.MemoryLine, d.MemoryLine)
	fill(&c.ControlFileSync, d.ControlFileSync)
	fill(&c.FileOp, d.FileOp)
	if c.CacheSize == 0 {
		c.CacheSize = d.CacheSize
	}
	if c.MappingEntryBytes == 0 {
		c.MappingEntryBytes = d.MappingEntryBytes
	}
	return c
}

// ForPool returns c, with its defaults, priced for a pool of nbuffers buffers: Lookup, where
// c leaves it zero, is BufTableLookupCost, the parts that price a drop's lookups, so that
// every lab pays the same for BufferAlloc's lookup as a drop pays for its own.
//
// Reference: src/backend/storage/buffer/bufmgr.c, BufferAlloc; buf_table.c, BufTableLookup.
func (c CostModel) ForPool(nbuffers int) CostModel {
	c = c.WithDefaults()
	if c.Lookup == 0 {
		c.Lookup = c.BufTableLookupCost(nbuffers)
	}
	return c
}

// MappingTableBytes is the size of the buffer mapping table of a pool of nbuffers buffers:
// NBuffers + NUM_BUFFER_PARTITIONS entries (InitBufTable) of MappingEntryBytes.
func (c CostModel) MappingTableBytes(nbuffers int) int64 {
	return int64(nbuffers+NumBufferPartitions) * c.MappingEntryBytes
}

// BufTableLookupCost is one lookup of FindAndDropRelationBuffers, or the BufTableDelete of
// InvalidateBuffer, in a pool of nbuffers buffers: TagHash + LWLockPair + the probe, which
// is CacheProbe while the mapping table fits in CacheSize and MemoryLatency once it does not.
// c must have its defaults (WithDefaults).
func (c CostModel) BufTableLookupCost(nbuffers int) Duration {
	probe := c.CacheProbe
	if c.MappingTableBytes(nbuffers) > c.CacheSize {
		probe = c.MemoryLatency
	}
	return c.TagHash + c.LWLockPair + probe
}

// DescriptorScanCost is a full scan's check of one 64-byte descriptor in a pool of nbuffers
// buffers: DescriptorCompare while the descriptor array (NBuffers × 64 B) fits in CacheSize;
// beyond it the array streams from memory, and the check costs the larger of
// DescriptorCompare and MemoryLine (the prefetched load and the compare overlap). c must
// have its defaults.
func (c CostModel) DescriptorScanCost(nbuffers int) Duration {
	if int64(nbuffers)*DescriptorBytes <= c.CacheSize {
		return c.DescriptorCompare
	}
	return max(c.DescriptorCompare, c.MemoryLine)
}

// CostPart is one named part of the cost model, as bufferscope's --costs lists it and
// --cost key=value sets it.
type CostPart struct {
	Key    string // "memory_latency"
	Unit   string // what a value is written in: "duration" (200ns, 1.5µs) or "bytes" (15MB, 48B)
	Doc    string
	Source string // a reference, or "assumption: …"
	get    func(c *CostModel) string
	set    func(c *CostModel, s string) error
}

// Value returns the part's value in c, as Set reads it.
func (p CostPart) Value(c CostModel) string { return p.get(&c) }

// Set parses s into the part's field of c.
func (p CostPart) Set(c *CostModel, s string) error { return p.set(c, s) }

func durationPart(key, doc, source string, f func(c *CostModel) *Duration) CostPart {
	return CostPart{Key: key, Unit: "duration", Doc: doc, Source: source,
		get: func(c *CostModel) string { return f(c).String() },
		set: func(c *CostModel, s string) error {
			d, err := ParseDuration(strings.TrimSpace(s))
			if err != nil || d <= 0 {
				return fmt.Errorf("%s %s is not a positive duration like 90ns or 1.5µs", key, param.Quote(s))
			}
			*f(c) = d
			return nil
		}}
}

func bytesPart(key, doc, source string, f func(c *CostModel) *int64) CostPart {
	return CostPart{Key: key, Unit: "bytes", Doc: doc, Source: source,
		get: func(c *CostModel) string { return FormatSize(*f(c)) },
		set: func(c *CostModel, s string) error {
			n, err := parseBytes(s)
			if err != nil || n <= 0 {
				return fmt.Errorf("%s %s is not a positive size like 48B or 15MB", key, param.Quote(s))
			}
			*f(c) = n
			return nil
		}}
}

// parseBytes reads a byte count: a whole number of bytes, or a size with B, kB, MB or GB.
func parseBytes(s string) (int64, error) {
	t := strings.TrimSpace(s)
	if n, err := strconv.ParseInt(t, 10, 64); err == nil {
		return n, nil
	}
	return ParseSize(t)
}

// CostParts returns the parts of the cost model that price dropping buffers and replaying a
// drop, in the order --costs lists them.
func CostParts() []CostPart {
	return []CostPart{
		durationPart("tag_hash", "BufTableHashCode: hash_bytes over the 20-byte BufferTag",
			"assumption: Jenkins lookup3 over 20 bytes, ~50 instructions at ~3 GHz (src/common/hashfn.c, hash_bytes)",
			func(c *CostModel) *Duration { return &c.TagHash }),
		durationPart("lwlock_pair", "LWLockAcquire + LWLockRelease of the mapping partition lock, uncontended",
			"assumption: two atomic read-modify-writes of ~20 ns each on a 2016 Xeon (lwlock.c, LWLockAttemptLock and LWLockRelease)",
			func(c *CostModel) *Duration { return &c.LWLockPair }),
		durationPart("cache_probe", "hash_search's probe of the mapping table while it fits in cache",
			"assumption: a bucket and an entry found in L2/L3, ~10 ns",
			func(c *CostModel) *Duration { return &c.CacheProbe }),
		durationPart("memory_latency", "one dependent load from main memory: the probe once the mapping table outgrows cache",
			"assumption: ~90 ns, a local DRAM access on a 2-socket Xeon E5 v4 (the published tests' machine); the entry's load dominates, the bucket's overlaps it",
			func(c *CostModel) *Duration { return &c.MemoryLatency }),
		bytesPart("cache_size", "last-level CPU cache: the mapping table and the descriptor array are in cache while smaller",
			"Xeon E5-2637 v4, the published tests' CPU: 15 MB L3 (Intel's product sheet)",
			func(c *CostModel) *int64 { return &c.CacheSize }),
		bytesPart("mapping_entry", "one mapping-table entry with its share of the buckets; the table has NBuffers+128 entries",
			"postgres-internals §5: ~40 B + 8 B (van de Meent 2025)",
			func(c *CostModel) *int64 { return &c.MappingEntryBytes }),
		durationPart("descriptor_compare", "a full scan's unlocked relfilelocator precheck of one descriptor in cache",
			"assumption: one 64-byte line from L2/L3 and a 12-byte compare, ~1.5 ns (bufmgr.c, DropRelationBuffers' BufTagMatchesRelFileLocator precheck)",
			func(c *CostModel) *Duration { return &c.DescriptorCompare }),
		durationPart("memory_line", "streaming one 64-byte descriptor from main memory, prefetched",
			"assumption: ~13 GB/s one-core streaming read on a Xeon E5 v4: 64 B ÷ 12.8 GB/s = 5 ns; postgres-internals §5 derives ~5 ns per descriptor at 100 GB",
			func(c *CostModel) *Duration { return &c.MemoryLine }),
		durationPart("locator_compare", "one more RelFileLocator compare per descriptor when a scan drops several relations",
			"assumption: 1 ns",
			func(c *CostModel) *Duration { return &c.LocatorCompare }),
		durationPart("replay_record", "decoding and redoing one WAL record, beyond its buffer accesses",
			"assumption: 2 µs",
			func(c *CostModel) *Duration { return &c.ReplayRecord }),
		durationPart("control_file_sync", "UpdateControlFile: write pg_control and fsync it, once per replayed record that drops or truncates relations",
			"the device preset's small synchronous write (see --device)",
			func(c *CostModel) *Duration { return &c.ControlFileSync }),
		durationPart("file_op", "one file-system call without sync: create, ftruncate or unlink of a fork's file",
			"the device preset's metadata call (see --device)",
			func(c *CostModel) *Duration { return &c.FileOp }),
	}
}

// ParseCostOverrides reads comma-separated key=value overrides of CostParts into c, which
// starts from its defaults, and returns it; "" changes nothing.
func ParseCostOverrides(s string, c CostModel) (CostModel, error) {
	parts := CostParts()
	for _, item := range strings.Split(s, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		k, v, ok := strings.Cut(item, "=")
		if !ok {
			return c, fmt.Errorf("%s is not part=value, like memory_latency=200ns", param.Quote(item))
		}
		found := false
		for _, p := range parts {
			if p.Key == strings.TrimSpace(k) {
				if err := p.Set(&c, v); err != nil {
					return c, err
				}
				found = true
			}
		}
		if !found {
			keys := make([]string, len(parts))
			for i, p := range parts {
				keys[i] = p.Key
			}
			return c, fmt.Errorf("%s is no cost part; the parts are %s", param.Quote(k), strings.Join(keys, ", "))
		}
	}
	return c, nil
}
