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
		return 0, err
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

// Params are the free-play settings a page URL, the JS bridge or the headless command gives.
type Params struct {
	SharedBuffers string // as written, e.g. "128MB"
	NBuffers      int
	Seed          uint64
	Version       Version
	Workload      Workload
}

// ParamError says that one parameter was wrong and which safe value was used instead.
type ParamError struct {
	Key     string // the parameter's name
	Value   string // what was given
	Problem string // why it was refused
	Used    string // the value used instead
}

// Error reads like `shared_buffers "12XB": not a size like 128MB; using 128MB`.
func (e *ParamError) Error() string {
	return fmt.Sprintf("%s %q: %s; using %s", e.Key, e.Value, e.Problem, e.Used)
}

// ParamKeys lists the keys ParseParams reads, in the order a URL writes them.
var ParamKeys = []string{"shared_buffers", "seed", "version", "clients", "updates", "distribution", "zipf_s", "os_cache", "bgwriter_lru_maxpages"}

// DefaultSharedBuffers is the pool free play starts with: PostgreSQL's default 128MB.
const DefaultSharedBuffers = "128MB"

// ParseParams reads free-play settings from key/value pairs. A missing key takes its default;
// a malformed or out-of-range value takes its default too and yields a ParamError, so a bad
// URL still opens a working page. Keys it does not know are left to the caller.
func ParseParams(values map[string]string) (Params, []*ParamError) {
	var errs []*ParamError
	bad := func(key, problem, used string) {
		errs = append(errs, &ParamError{Key: key, Value: values[key], Problem: problem, Used: used})
	}
	p := Params{SharedBuffers: DefaultSharedBuffers, NBuffers: 16384, Seed: 1, Version: DefaultVersion}
	if v, ok := values["shared_buffers"]; ok {
		if n, err := SharedBuffersToNBuffers(v); err != nil {
			bad("shared_buffers", err.(*ValueError).Problem, DefaultSharedBuffers)
		} else {
			p.SharedBuffers, p.NBuffers = v, n
		}
	}
	p.Workload = DefaultWorkload(p.NBuffers)
	w := &p.Workload
	intParam := func(key string, lo, hi int, dst *int) {
		v, ok := values[key]
		if !ok {
			return
		}
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || n < lo || n > hi {
			bad(key, fmt.Sprintf("not a whole number from %d to %d", lo, hi), strconv.Itoa(*dst))
			return
		}
		*dst = n
	}
	if v, ok := values["seed"]; ok {
		n, err := strconv.ParseUint(strings.TrimSpace(v), 10, 64)
		if err != nil {
			bad("seed", "not a whole number from 0 to 18446744073709551615", "1")
		} else {
			p.Seed = n
		}
	}
	ver := int(p.Version)
	intParam("version", int(MinVersion), int(MaxVersion), &ver)
	p.Version = Version(ver)
	intParam("clients", 0, min(MaxClients, p.NBuffers/2), &w.Clients)
	intParam("updates", 0, 100, &w.UpdatePercent)
	intParam("os_cache", 0, 100, &w.OSCachePercent)
	intParam("bgwriter_lru_maxpages", 0, 1000, &w.BgWriterPages)
	if v, ok := values["distribution"]; ok {
		if d, err := ParseDistribution(v); err != nil {
			bad("distribution", "not uniform or zipfian", w.Distribution.String())
		} else {
			w.Distribution = d
		}
	}
	if v, ok := values["zipf_s"]; ok {
		x, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if err != nil || !(x >= MinZipfianParam && x <= MaxZipfianParam) {
			bad("zipf_s", fmt.Sprintf("not a number from %g to %g", MinZipfianParam, MaxZipfianParam), strconv.FormatFloat(w.ZipfS, 'g', -1, 64))
		} else {
			w.ZipfS = x
		}
	}
	return p, errs
}

// Config returns the simulation configuration for these settings.
func (p Params) Config() Config {
	w := p.Workload
	return Config{NBuffers: p.NBuffers, Version: p.Version, Seed: p.Seed, Workload: &w}
}
