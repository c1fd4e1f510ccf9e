package ring

import (
	"fmt"
	"strings"

	"github.com/bufferscope/bufferscope/sim"
	"github.com/bufferscope/bufferscope/sim/lab"
)

// Defaults of the ring lab: the setting of the 2017 thread "Increase Vacuum ring buffer"
// (a table of a few GB that fits the OS cache but not shared buffers, an OLTP load).
const (
	DefaultSharedBuffers = "256MB"
	DefaultTable         = "4GB"
	DefaultFlushLatency  = "2ms"
)

// MaxTableBlocks bounds the vacuumed table: 16GB of 8kB pages. VACUUM reads every page, one
// simulation unit each, so a larger table would run for minutes.
const MaxTableBlocks = 16 << 30 / sim.BLCKSZ

// Ring sizes as vacuum_buffer_usage_limit takes them (PostgreSQL 16+, 1cbbee0338): 0, or
// 128kB to 16GB.
const (
	minRingKB = 128
	maxRingKB = 16 << 20
)

// ringDefault is the ring parameter's word for the version's own ring.
const ringDefault = "default"

// flushPresets are the WAL flush latencies the page offers, one per kind of device. Each is
// one 8kB WAL write plus fdatasync, which PostgreSQL's documentation says to measure with
// pg_test_fsync (doc/src/sgml/wal.sgml); the figures are assumptions, as the fact sheet
// marks them (postgres-internals.md section 5: unverified, hardware-dependent).
var flushPresets = []lab.Option{
	{Value: "50µs", Label: "50µs · NVMe with power-loss protection", Doc: "A drive whose capacitors make its write cache durable acknowledges a sync at once: ~20–100µs (assumed)."},
	{Value: "1ms", Label: "1ms · SATA SSD", Doc: "A consumer SATA SSD flushing its cache: ~0.5–3ms (assumed)."},
	{Value: "2ms", Label: "2ms · cloud block storage", Doc: "A network-attached volume, a round trip to replicated storage per sync: single-digit milliseconds, 2ms assumed."},
	{Value: "8.3ms", Label: "8.3ms · spinning disk, 7200rpm", Doc: "At least one rotation per sync: 60s/7200 = 8.3ms."},
}

// table is the ring lab's parameters.
var table = &lab.Table{
	Params: []lab.Param{
		sharedBuffers(),
		{Key: "version", Label: "PostgreSQL", Kind: lab.Int, Unit: "major version", Default: fmt.Sprint(int(sim.DefaultVersion)),
			Min: float64(sim.MinVersion), Max: float64(sim.MaxVersion),
			Presets: []lab.Option{{Value: "14"}, {Value: "15"}, {Value: "16"}, {Value: "17"}, {Value: "18"}, {Value: "19"}},
			Doc:     "The major version whose ring sizes apply: VACUUM's ring is 256kB up to 16 and 2MB (vacuum_buffer_usage_limit's default) from 17."},
		{Key: "ring", Label: "VACUUM ring", Kind: lab.Text, Unit: "size", Default: ringDefault, Sweep: true,
			Presets: []lab.Option{
				{Value: ringDefault, Label: "default of the version (256kB up to 16, 2MB from 17)"},
				{Value: "0", Label: "0 · no ring"},
				{Value: "256kB", Label: "256kB · 32 buffers"},
				{Value: "2MB", Label: "2MB · 256 buffers"},
				{Value: "16MB", Label: "16MB · 2,048 buffers"},
				{Value: "64MB", Label: "64MB · 8,192 buffers"},
			},
			Parse: parseRing,
			Doc:   "vacuum_buffer_usage_limit: the size of VACUUM's ring, 128kB to 16GB, 0 for no ring, or default for the version's; every ring is capped at NBuffers/8. Before 16 the size cannot be set: other sizes model a patched server."},
		{Key: "table", Label: "Table", Kind: lab.Text, Unit: "size", Default: DefaultTable, Sweep: true,
			Presets: []lab.Option{{Value: "80MB"}, {Value: "1GB"}, {Value: "2GB"}, {Value: "4GB"}, {Value: "6GB"}},
			Parse:   parseTable,
			Doc:     fmt.Sprintf("The size of the table VACUUM passes over, at most %s.", sim.FormatSize(MaxTableBlocks*sim.BLCKSZ))},
		{Key: "os_cache", Label: "OS cache", Kind: lab.Choice, Default: "fits", Sweep: true,
			Choices: []lab.Option{
				{Value: "fits", Label: "table fits", Doc: "The kernel's page cache holds the table: VACUUM reads each page in microseconds."},
				{Value: "none", Label: "table does not fit", Doc: "VACUUM reads every page from storage; the foreground's pages still come from the page cache."},
			},
			Doc: "Whether the table fits in the kernel's page cache."},
		{Key: "dirty_share", Label: "Pages to prune or freeze", Kind: lab.Int, Unit: "%", Default: "100", Min: 0, Max: 100,
			Doc: "Share of the table's pages VACUUM changes (prunes dead tuples, freezes) under a WAL record, spread evenly; the others it only reads."},
		{Key: "flush_latency", Label: "WAL flush latency", Kind: lab.Text, Unit: "duration", Default: DefaultFlushLatency, Presets: flushPresets,
			Parse: parseDuration(sim.Microsecond, sim.Second),
			Doc:   "How long one WAL write and fdatasync takes on the WAL device, 1µs to 1s; the presets are typical devices (assumed figures: measure yours with pg_test_fsync)."},
		{Key: "synchronous_commit", Label: "synchronous_commit", Kind: lab.Choice, Default: "on",
			Choices: []lab.Option{
				{Value: "on", Doc: "Each commit flushes WAL up to its record (XLogFlush), and with it everything inserted before."},
				{Value: "off", Doc: "Commits return at once; the WAL writer flushes their records later."},
			},
			Doc: "Whether the foreground's commits wait for their WAL to be flushed."},
		{Key: "wal_writer_delay", Label: "wal_writer_delay", Kind: lab.Text, Unit: "duration", Default: "200ms",
			Parse: parseDuration(sim.Millisecond, 10*sim.Second), Advanced: true,
			Doc: "How often the WAL writer wakes to write and flush WAL, 1ms to 10s."},
		{Key: "wal_writer_flush_after", Label: "wal_writer_flush_after", Kind: lab.Text, Unit: "size", Default: "1MB", Advanced: true,
			Parse: parseFlushAfter,
			Doc:   "The WAL writer flushes at once when this much written WAL is unflushed, 8kB to 1GB; otherwise once wal_writer_delay has passed since its last flush."},
		{Key: "clients", Label: "Clients", Kind: lab.Int, Unit: "clients", Default: "16", Min: 0, Max: MaxClients,
			Doc: "Foreground backends running OLTP transactions that update rows of a hot table (HOT and non-HOT updates) and commit, while VACUUM runs."},
		{Key: "hot_set", Label: "Hot set", Kind: lab.Int, Unit: "% of shared_buffers", Default: "100", Min: 1, Max: 400, Advanced: true,
			Doc: "The size of the hot table the clients update, as a share of shared_buffers; it starts in shared buffers as far as it fits."},
		{Key: "seed", Label: "Seed", Kind: lab.Uint, Default: "1",
			Doc: "Seeds the clients' random choices: the same seed and settings give the same run, step for step."},
	},
}

// MaxClients bounds the foreground clients.
const MaxClients = 256

func sharedBuffers() lab.Param {
	return lab.SharedBuffersDefault("The size of the pool. Every ring is capped at an eighth of it.", DefaultSharedBuffers)
}

// parseRing reads default, 0 or a size from 128kB to 16GB, keeping it as written; before
// PostgreSQL 16, which has no vacuum_buffer_usage_limit, only default.
func parseRing(s string, v lab.Values) (string, error) {
	s = strings.TrimSpace(s)
	if s == ringDefault {
		return s, nil
	}
	if _, ok := v["version"]; ok && v.Int("version") < 16 {
		// Reference: src/backend/utils/misc/guc_tables.c (vacuum_buffer_usage_limit, new in 16,
		// 1cbbee0338): 14 and 15 refuse SET vacuum_buffer_usage_limit as an unknown parameter.
		return "", fmt.Errorf("vacuum_buffer_usage_limit does not exist before PostgreSQL 16 (%d refuses it): VACUUM's ring there is always 256kB; choose default", v.Int("version"))
	}
	if s == "0" {
		return s, nil
	}
	b, err := sim.ParseSize(s)
	if err != nil {
		return "", fmt.Errorf("not default, 0 or a size from 128kB to 16GB, like 256kB or 16MB")
	}
	if kb := b / 1024; kb < minRingKB || kb > maxRingKB {
		return "", fmt.Errorf("not default, 0 or between 128kB and 16GB")
	}
	return s, nil
}

// RingKB returns the ring size of a value parseRing accepted, in kB, or -1 for default.
func RingKB(s string) int {
	if s == ringDefault {
		return -1
	}
	b, _ := sim.ParseSize(s)
	return int(b / 1024)
}

func parseTable(s string, _ lab.Values) (string, error) {
	s = strings.TrimSpace(s)
	b, err := sim.ParseSize(s)
	if err != nil {
		return "", fmt.Errorf("not a size from 8kB to %s, like 80MB or 4GB", sim.FormatSize(MaxTableBlocks*sim.BLCKSZ))
	}
	if n := b / sim.BLCKSZ; n < 1 || n > MaxTableBlocks {
		return "", fmt.Errorf("not between 8kB and %s", sim.FormatSize(MaxTableBlocks*sim.BLCKSZ))
	}
	return s, nil
}

// TableBlocks returns the pages of a table size parseTable accepted.
func TableBlocks(s string) int {
	b, _ := sim.ParseSize(s)
	return int(b / sim.BLCKSZ)
}

func parseFlushAfter(s string, _ lab.Values) (string, error) {
	s = strings.TrimSpace(s)
	b, err := sim.ParseSize(s)
	if err != nil || b < 8<<10 || b > 1<<30 {
		return "", fmt.Errorf("not a size from 8kB to 1GB")
	}
	return s, nil
}

func parseDuration(lo, hi sim.Duration) func(string, lab.Values) (string, error) {
	return func(s string, _ lab.Values) (string, error) {
		s = strings.TrimSpace(s)
		d, err := sim.ParseDuration(s)
		if err != nil {
			return "", fmt.Errorf("not a duration from %v to %v", lo, hi)
		}
		if d < lo || d > hi {
			return "", fmt.Errorf("not between %v and %v", lo, hi)
		}
		return s, nil
	}
}

// SetupOf returns the run v describes.
func SetupOf(v lab.Values) Setup {
	lat, _ := sim.ParseDuration(v.Text("flush_latency"))
	delay, _ := sim.ParseDuration(v.Text("wal_writer_delay"))
	after, _ := sim.ParseSize(v.Text("wal_writer_flush_after"))
	return Setup{
		NBuffers: lab.NBuffers(v), Version: sim.Version(v.Int("version")),
		RingKB: RingKB(v.Text("ring")), TableBlocks: TableBlocks(v.Text("table")),
		OSCacheFits: v.Text("os_cache") == "fits", DirtyPercent: v.Int("dirty_share"),
		FlushLatency: lat, SyncCommit: v.Text("synchronous_commit") == "on",
		WALWriterDelay: delay, WALWriterFlushAfter: int(after),
		Clients: v.Int("clients"), HotPercent: v.Int("hot_set"), Seed: v.Uint("seed"),
	}
}
