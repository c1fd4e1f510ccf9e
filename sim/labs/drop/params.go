package drop

import "github.com/bufferscope/bufferscope/sim"

// DropParams are the drop lab's settings as a page URL or the JS bridge gives them.
type DropParams struct {
	SharedBuffers string
	NBuffers      int
	Tables        []TableGroup
	Op            Operation
	SingleXact    bool
	InRecovery    bool
	Policy        sim.DropPolicy
	Threshold     sim.Threshold
}

// DropParamKeys lists the keys ParseDropParams reads.
var DropParamKeys = []string{"shared_buffers", "tables", "op", "transactions", "mode", "policy", "threshold"}

// Defaults of the drop lab: table B's setting at PostgreSQL's default pool, on a standby.
const (
	DefaultTables = "100x1"
)

// ParseDropParams reads drop-lab settings; like ParseParams, a malformed or out-of-range
// value takes its default and yields a ParamError.
func ParseDropParams(values map[string]string) (DropParams, []*sim.ParamError) {
	var errs []*sim.ParamError
	bad := func(key, problem, used string) {
		errs = append(errs, &sim.ParamError{Key: key, Value: values[key], Problem: problem, Used: used})
	}
	p := DropParams{SharedBuffers: sim.DefaultSharedBuffers, NBuffers: 16384, InRecovery: true}
	p.Tables, _ = ParseTableGroups(DefaultTables)
	if v, ok := values["shared_buffers"]; ok {
		if n, err := sim.SharedBuffersToNBuffers(v); err != nil {
			bad("shared_buffers", err.(*sim.ValueError).Problem, sim.DefaultSharedBuffers)
		} else {
			p.SharedBuffers, p.NBuffers = v, n
		}
	}
	if v, ok := values["tables"]; ok {
		if t, err := ParseTableGroups(v); err != nil {
			bad("tables", err.(*sim.ValueError).Problem, DefaultTables)
		} else {
			p.Tables = t
		}
	}
	if v, ok := values["op"]; ok {
		if o, err := ParseOperation(v); err != nil {
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
		if pol, err := sim.ParseDropPolicy(v); err != nil {
			bad("policy", "not pg13, pg14 or lookup", p.Policy.String())
		} else {
			p.Policy = pol
		}
	}
	if v, ok := values["threshold"]; ok {
		if t, err := sim.ParseThreshold(v); err != nil {
			bad("threshold", err.(*sim.ValueError).Problem, "NB/32")
		} else {
			p.Threshold = t
		}
	}
	if p.Op == OpVacuum && p.SingleXact {
		p.SingleXact = false
		errs = append(errs, &sim.ParamError{Key: "transactions", Value: values["transactions"], Problem: "VACUUM cannot run inside a transaction block", Used: "per-relation"})
	}
	return p, errs
}

// Experiment returns the drop experiment these settings describe.
func (p DropParams) Experiment() Experiment {
	return Experiment{
		NBuffers: p.NBuffers, Tables: p.Tables, Op: p.Op, SingleXact: p.SingleXact,
		InRecovery: p.InRecovery, Policy: p.Policy, Threshold: p.Threshold,
	}
}
