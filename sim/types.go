package sim

import (
	"fmt"
	"strconv"
	"strings"
)

// Oid is a PostgreSQL object identifier (tablespace, database or relfilenumber).
type Oid uint32

// BlockNumber is the number of a page within one fork of a relation.
type BlockNumber uint32

// InvalidBlockNumber mirrors InvalidBlockNumber in block.h: no block, or an unknown size.
const InvalidBlockNumber BlockNumber = 0xFFFFFFFF

// ForkNumber mirrors ForkNumber in relpath.h. The zero value is the main fork.
type ForkNumber uint8

// The forks of a relation, as in relpath.h.
const (
	MainForkNum ForkNumber = iota
	FSMForkNum
	VisibilityMapForkNum
	InitForkNum
)

// MaxForkNum mirrors MAX_FORKNUM.
const MaxForkNum = InitForkNum

var forkNames = [...]string{"main", "fsm", "vm", "init"}

// String returns PostgreSQL's name for the fork ("main", "fsm", "vm", "init").
func (f ForkNumber) String() string {
	if int(f) < len(forkNames) {
		return forkNames[f]
	}
	return fmt.Sprintf("fork%d", uint8(f))
}

// RelFileLocator mirrors RelFileLocator (RelFileNode before PostgreSQL 16): the physical
// identity of a relation's files.
type RelFileLocator struct {
	SpcOid    Oid // tablespace
	DbOid     Oid // database
	RelNumber Oid // relfilenumber
}

// BufferTag mirrors BufferTag in buf_internals.h: which page a buffer holds, and the key of
// the buffer mapping table.
type BufferTag struct {
	Locator RelFileLocator
	Fork    ForkNumber
	Block   BlockNumber
}

// String formats the tag as spc/db/rel/fork/block.
func (t BufferTag) String() string {
	return fmt.Sprintf("%d/%d/%d/%s/%d", t.Locator.SpcOid, t.Locator.DbOid, t.Locator.RelNumber, t.Fork, t.Block)
}

// LSN is a WAL position in bytes (XLogRecPtr).
type LSN uint64

// InvalidLSN mirrors InvalidXLogRecPtr.
const InvalidLSN LSN = 0

// String formats the LSN as PostgreSQL does: the high and low 32 bits in hex, "16/B374D848".
func (l LSN) String() string {
	return fmt.Sprintf("%X/%X", uint32(l>>32), uint32(l))
}

// Duration is a span of virtual time in picoseconds. Integer picoseconds keep the clock exact
// and identical natively and in WebAssembly while still resolving a 5 ns descriptor check.
type Duration int64

// Units of Duration.
const (
	Picosecond  Duration = 1
	Nanosecond           = 1000 * Picosecond
	Microsecond          = 1000 * Nanosecond
	Millisecond          = 1000 * Microsecond
	Second               = 1000 * Millisecond
)

// Seconds returns d in seconds.
func (d Duration) Seconds() float64 { return float64(d) / float64(Second) }

// String formats d with a unit that suits its size ("5ns", "1.5ms", "66.6s"), to three
// decimals. A value that rounds to 1000 of its unit is written in the next: 999.9996ms is
// "1s", not "1000ms", so that ParseDuration reads back a duration String writes the same.
func (d Duration) String() string {
	units := []struct {
		d    Duration
		name string
	}{{Second, "s"}, {Millisecond, "ms"}, {Microsecond, "µs"}, {Nanosecond, "ns"}}
	a := max(d, -d)
	for i, u := range units {
		if a < u.d {
			continue
		}
		s := trimFloat(float64(d) / float64(u.d))
		if i > 0 && (s == "1000" || s == "-1000") {
			return s[:len(s)-3] + units[i-1].name
		}
		return s + u.name
	}
	return fmt.Sprintf("%dps", int64(d))
}

// ExactString writes d exactly, in the unit String would choose and with the decimals it
// needs, at most twelve ("2.5ms", "98.80071241s"), for text that must read back as d: a
// command's. ParseDuration reads it back as d when d is not negative.
func (d Duration) ExactString() string {
	a, sign := uint64(d), ""
	if d < 0 {
		a, sign = uint64(-(d+1))+1, "-"
	}
	units := []struct {
		d    uint64
		name string
	}{{uint64(Second), "s"}, {uint64(Millisecond), "ms"}, {uint64(Microsecond), "µs"}, {uint64(Nanosecond), "ns"}}
	for _, u := range units {
		if a < u.d {
			continue
		}
		s := sign + strconv.FormatUint(a/u.d, 10)
		if frac := a % u.d; frac != 0 {
			digits := len(strconv.FormatUint(u.d, 10)) - 1
			s += "." + strings.TrimRight(fmt.Sprintf("%0*d", digits, frac), "0")
		}
		return s + u.name
	}
	return sign + strconv.FormatUint(a, 10) + "ps"
}

// ParseDuration reads a duration as String writes it: a decimal number and one of the units
// ps, ns, µs (or us), ms, s.
func ParseDuration(s string) (Duration, error) {
	units := []struct {
		name string
		d    Duration
	}{{"ps", Picosecond}, {"ns", Nanosecond}, {"µs", Microsecond}, {"us", Microsecond}, {"ms", Millisecond}, {"s", Second}}
	for _, u := range units {
		num, ok := strings.CutSuffix(s, u.name)
		if !ok {
			continue
		}
		// Whole and fractional parts separately, so "66.6s" is exact.
		whole, frac, _ := strings.Cut(num, ".")
		w, err := strconv.ParseInt(whole, 10, 64)
		if err != nil || w < 0 || len(frac) > 12 || w > int64(maxDuration/u.d) {
			break
		}
		d := Duration(w) * u.d
		scale := u.d
		for _, c := range frac {
			if c < '0' || c > '9' {
				return 0, fmt.Errorf("%q is not a duration like 1.5s or 200ms", s)
			}
			scale /= 10
			if d > maxDuration-Duration(c-'0')*scale {
				return 0, fmt.Errorf("%q is longer than %s", s, maxDurationText)
			}
			d += Duration(c-'0') * scale
		}
		return d, nil
	}
	return 0, fmt.Errorf("%q is not a duration like 1.5s or 200ms", s)
}

const maxDuration = Duration(1<<63 - 1)

// maxDurationText is maxDuration in seconds, exactly.
const maxDurationText = "9223372.036854775807s"

func trimFloat(f float64) string {
	s := fmt.Sprintf("%.3f", f)
	for s[len(s)-1] == '0' {
		s = s[:len(s)-1]
	}
	if s[len(s)-1] == '.' {
		s = s[:len(s)-1]
	}
	return s
}

// BLCKSZ is PostgreSQL's default page size in bytes.
const BLCKSZ = 8192

// BMMaxUsageCount mirrors BM_MAX_USAGE_COUNT.
const BMMaxUsageCount = 5

// NumBufferPartitions mirrors NUM_BUFFER_PARTITIONS: the mapping table's lock partitions.
const NumBufferPartitions = 128

// MinNBuffers is the smallest pool PostgreSQL accepts (shared_buffers = 128kB).
const MinNBuffers = 16

// Version is a PostgreSQL major version. The zero value means DefaultVersion.
type Version int

// DefaultVersion is the release the models follow unless told otherwise.
const DefaultVersion Version = 17

// The releases the models know: PostgreSQL 14 to 19.
const (
	MinVersion Version = 14
	MaxVersion Version = 19
)

// Validate reports a version outside MinVersion to MaxVersion; zero is the default and valid.
func (v Version) Validate() error {
	if v != 0 && (v < MinVersion || v > MaxVersion) {
		return fmt.Errorf("version %d is not between %d and %d", int(v), int(MinVersion), int(MaxVersion))
	}
	return nil
}

// Resolve returns v, or DefaultVersion for the zero value.
func (v Version) Resolve() Version {
	if v == 0 {
		return DefaultVersion
	}
	return v
}

// HasFreelist reports whether StrategyGetBuffer consults the freelist before the clock sweep:
// true up to PostgreSQL 18; commit 2c78940527 removed the freelist in 19.
func (v Version) HasFreelist() bool { return v.Resolve() <= 18 }

// SeqScanReadStream reports whether a sequential scan reads the heap through a read stream
// (ReadStream), as heapam does from PostgreSQL 17 (b7b0f3f272, heap_scan_stream_read_next).
func (v Version) SeqScanReadStream() bool { return v.Resolve() >= 17 }

// VacuumReadStream reports whether VACUUM reads the heap through a read stream (ReadStream),
// as PostgreSQL 18 does in its first and third phases (9256822608, c3e775e608).
func (v Version) VacuumReadStream() bool { return v.Resolve() >= 18 }

// String formats the version as "PG17".
func (v Version) String() string { return fmt.Sprintf("PG%d", int(v.Resolve())) }
