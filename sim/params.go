package sim

import (
	"fmt"
	"strconv"
	"strings"
)

// sizeUnits are PostgreSQL's memory units (guc.c memory_unit_conversion_table).
var sizeUnits = []struct {
	name  string
	bytes int64
}{{"TB", 1 << 40}, {"GB", 1 << 30}, {"MB", 1 << 20}, {"kB", 1 << 10}, {"B", 1}}

// ValueError says why a value was refused. Its message reads `"12XB" is not a size …`.
type ValueError struct {
	Value   string
	Problem string // "not a size like 128MB, 1GB or 256kB"
}

func (e *ValueError) Error() string { return fmt.Sprintf("%q is %s", e.Value, e.Problem) }

// ParseSize parses a memory size as PostgreSQL writes one ("128MB", "1GB", "256kB"). A bare
// number counts 8 kB buffers, as shared_buffers without a unit does. Units are matched
// without regard to case.
func ParseSize(s string) (int64, error) {
	t := strings.TrimSpace(s)
	num, mult := t, int64(BLCKSZ)
	for _, u := range sizeUnits {
		if len(t) > len(u.name) && strings.EqualFold(t[len(t)-len(u.name):], u.name) {
			num, mult = strings.TrimSpace(t[:len(t)-len(u.name)]), u.bytes
			break
		}
	}
	n, err := strconv.ParseInt(num, 10, 64)
	if err != nil || n < 0 || n > (1<<50)/mult {
		return 0, &ValueError{Value: s, Problem: "not a size like 128MB, 1GB or 256kB"}
	}
	return n * mult, nil
}

// FormatSize writes bytes in the largest PostgreSQL unit that divides it ("128MB").
func FormatSize(bytes int64) string {
	for _, u := range sizeUnits {
		if bytes >= u.bytes && bytes%u.bytes == 0 {
			return fmt.Sprintf("%d%s", bytes/u.bytes, u.name)
		}
	}
	return fmt.Sprintf("%dB", bytes)
}

// SharedBuffersToNBuffers converts a shared_buffers setting to NBuffers, checking that it is
// a whole number of pages between 128kB and 100GB.
func SharedBuffersToNBuffers(s string) (int, error) {
	b, err := ParseSize(s)
	if err != nil {
		return 0, &ValueError{Value: s, Problem: fmt.Sprintf("not a size from %s to %s, like 128MB or 1GB",
			FormatSize(MinNBuffers*BLCKSZ), FormatSize(MaxNBuffers*BLCKSZ))}
	}
	if b%BLCKSZ != 0 {
		return 0, &ValueError{Value: s, Problem: "not a whole number of 8kB pages"}
	}
	n := b / BLCKSZ
	if n < MinNBuffers || n > MaxNBuffers {
		return 0, &ValueError{Value: s, Problem: fmt.Sprintf("not between %s and %s", FormatSize(MinNBuffers*BLCKSZ), FormatSize(MaxNBuffers*BLCKSZ))}
	}
	return int(n), nil
}

// DefaultSharedBuffers is the pool free play starts with: PostgreSQL's default 128MB.
const DefaultSharedBuffers = "128MB"
