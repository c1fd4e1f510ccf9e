package sim

import (
	"fmt"
	"strconv"
	"strings"
)

// Threshold is a number of blocks given absolutely or relative to the pool (NB/k), as the
// drop lab's threshold is. The zero value means PostgreSQL's NBuffers/32; NB/k resolves to
// zero blocks when k exceeds NBuffers, and then no drop takes the lookup path.
type Threshold struct {
	Blocks  uint64
	Divisor int
}

// ParseThreshold parses a block count ("512") or a share of the pool ("NB/32").
func ParseThreshold(s string) (Threshold, error) {
	if k, ok := strings.CutPrefix(strings.TrimSpace(s), "NB/"); ok {
		d, err := strconv.Atoi(k)
		if err != nil || d < 1 || d > MaxNBuffers {
			return Threshold{}, &ValueError{Value: s, Problem: "not NB/k with a whole k ≥ 1"}
		}
		return Threshold{Divisor: d}, nil
	}
	n, err := strconv.ParseUint(strings.TrimSpace(s), 10, 64)
	if err != nil || n < 1 || n > 1<<32 {
		return Threshold{}, &ValueError{Value: s, Problem: "not a block count from 1 to 2^32 or NB/k"}
	}
	return Threshold{Blocks: n}, nil
}

// Resolve returns the threshold in blocks for a pool of nbuffers buffers; zero stands for
// NBuffers/32 (BUF_DROP_FULL_SCAN_THRESHOLD).
func (t Threshold) Resolve(nbuffers int) uint64 {
	switch {
	case t.Divisor > 0:
		return uint64(nbuffers / t.Divisor)
	case t.Blocks > 0:
		return t.Blocks
	}
	return uint64(nbuffers / 32)
}

// String writes the threshold as ParseThreshold reads it.
func (t Threshold) String() string {
	switch {
	case t.Divisor > 0:
		return fmt.Sprintf("NB/%d", t.Divisor)
	case t.Blocks > 0:
		return strconv.FormatUint(t.Blocks, 10)
	}
	return "NB/32"
}

// DropParams are the drop lab's settings as a page URL or the JS bridge gives them.
type DropParams struct {
	SharedBuffers string
	NBuffers      int
	Tables        []TableGroup
	Op            DropOperation
	SingleXact    bool
	InRecovery    bool
	Policy        DropPolicy
	Threshold     Threshold
}

// DropParamKeys lists the keys ParseDropParams reads.
var DropParamKeys = []string{"shared_buffers", "tables", "op", "transactions", "mode", "policy", "threshold"}

// Defaults of the drop lab: table B's setting at PostgreSQL's default pool, on a standby.
const (
	DefaultDropTables = "100x1"
)

// ParseDropParams reads drop-lab settings; like ParseParams, a malformed or out-of-range
// value takes its default and yields a ParamError.
func ParseDropParams(values map[string]string) (DropParams, []*ParamError) {
	var errs []*ParamError
	bad := func(key, problem, used string) {
		errs = append(errs, &ParamError{Key: key, Value: values[key], Problem: problem, Used: used})
	}
	p := DropParams{SharedBuffers: DefaultSharedBuffers, NBuffers: 16384, InRecovery: true}
	p.Tables, _ = ParseTableGroups(DefaultDropTables)
	if v, ok := values["shared_buffers"]; ok {
		if n, err := SharedBuffersToNBuffers(v); err != nil {
			bad("shared_buffers", err.(*ValueError).Problem, DefaultSharedBuffers)
		} else {
			p.SharedBuffers, p.NBuffers = v, n
		}
	}
	if v, ok := values["tables"]; ok {
		if t, err := ParseTableGroups(v); err != nil {
			bad("tables", err.(*ValueError).Problem, DefaultDropTables)
		} else {
			p.Tables = t
		}
	}
	if v, ok := values["op"]; ok {
		if o, err := ParseDropOperation(v); err != nil {
			bad("op", "not drop, truncate or vacuum", p.Op.String())
		} else {
			p.Op = o
		}
	}
	if v, ok := values["transactions"]; ok {
		switch v {
		case "per-relation", "single":
			p.SingleXact = v == "single"
		default:
			bad("transactions", "not per-relation or single", "per-relation")
		}
	}
	if v, ok := values["mode"]; ok {
		switch v {
		case "recovery", "primary":
			p.InRecovery = v == "recovery"
		default:
			bad("mode", "not recovery or primary", "recovery")
		}
	}
	if v, ok := values["policy"]; ok {
		if pol, err := ParseDropPolicy(v); err != nil {
			bad("policy", "not pg13, pg14 or lookup", p.Policy.String())
		} else {
			p.Policy = pol
		}
	}
	if v, ok := values["threshold"]; ok {
		if t, err := ParseThreshold(v); err != nil {
			bad("threshold", err.(*ValueError).Problem, "NB/32")
		} else {
			p.Threshold = t
		}
	}
	if p.Op == OpVacuum && p.SingleXact {
		p.SingleXact = false
		errs = append(errs, &ParamError{Key: "transactions", Value: values["transactions"], Problem: "VACUUM cannot run inside a transaction block", Used: "per-relation"})
	}
	return p, errs
}

// Experiment returns the drop experiment these settings describe.
func (p DropParams) Experiment() DropExperiment {
	return DropExperiment{
		NBuffers: p.NBuffers, Tables: p.Tables, Op: p.Op, SingleXact: p.SingleXact,
		InRecovery: p.InRecovery, Policy: p.Policy, Threshold: p.Threshold,
	}
}
