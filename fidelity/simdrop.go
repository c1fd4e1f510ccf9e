package fidelity

import (
	"fmt"
	"regexp"
	"strconv"
	"sync"
	"time"

	"github.com/bufferscope/bufferscope/sim"
	"github.com/bufferscope/bufferscope/sim/labs/drop"
)

// DropHooks are the drop lab's simulated side of experiments 4 (DROP TABLE on a primary) and
// 5 (crash recovery of TRUNCATE commits): the same DropRelations one-block tables, one
// transaction each, at each of DropPools, under the drop policy of the row's major (pg13 for
// 13, pg14 for 14 and later), with the default cost parts. Timings are compared by shape
// only: a per-size row agrees when the simulation takes the path that the real shape shows
// (a scan of every descriptor on a primary and on 13; lookups in 14+'s replay), and the shape
// row when the simulated growth from the smallest to the largest pool has the same name
// (Shape: "grows" at ×1.5 or more, else "flat").
//
// Experiment 5 ran with fsync off, so its simulated side prices pg_control's update as a
// write without its fsync (control_file_sync = file_op).
func DropHooks() Hooks {
	s := &dropSim{cache: map[dropKey]drop.Result{}}
	return Hooks{
		ExpDrop:   func(r Row) (string, bool, bool) { return s.hook(r, false) },
		ExpReplay: func(r Row) (string, bool, bool) { return s.hook(r, true) },
	}
}

type dropKey struct {
	replay bool
	policy sim.DropPolicy
	pool   string
}

type dropSim struct {
	mu    sync.Mutex
	cache map[dropKey]drop.Result
}

// policyOf is the drop policy of a PostgreSQL major.
func policyOf(major int) sim.DropPolicy {
	if major <= 13 {
		return sim.DropPG13
	}
	return sim.DropPG14
}

// run simulates one pool size, once per key.
func (s *dropSim) run(k dropKey) (drop.Result, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if r, ok := s.cache[k]; ok {
		return r, nil
	}
	nb, err := sim.SharedBuffersToNBuffers(k.pool)
	if err != nil {
		return drop.Result{}, err
	}
	e := drop.Experiment{NBuffers: nb, Tables: []drop.TableGroup{{Count: DropRelations, Blocks: 1}}, Op: drop.OpDrop}
	if k.replay {
		e.Op, e.InRecovery = drop.OpTruncate, true
		d := sim.CostModel{}.WithDefaults()
		e.Cost = sim.CostModel{ControlFileSync: d.FileOp} // fsync off: the write alone
	}
	res, err := drop.RunExperiment(e, k.policy)
	if err != nil {
		return drop.Result{}, err
	}
	s.cache[k] = res[0]
	return res[0], nil
}

var poolCase = regexp.MustCompile(`^shared_buffers (\S+) \(NBuffers (\d+)\)$`)

func (s *dropSim) hook(r Row, replay bool) (string, bool, bool) {
	pol := policyOf(r.Major)
	wantPath := "scan"
	if replay && pol == sim.DropPG14 {
		wantPath = "lookup"
	}
	if m := poolCase.FindStringSubmatch(r.Case); m != nil {
		res, err := s.run(dropKey{replay, pol, m[1]})
		if err != nil {
			return "error: " + err.Error(), false, true
		}
		per := res.Time / DropRelations
		fig := fmt.Sprintf("%.3f ms per %s (%s, policy %s)", per.Seconds()*1000, unitOf(replay), res.Path, pol)
		if !replay {
			// A primary's figure is the drop's buffer work alone, never the statement's time:
			// written so that nobody reads it beside the real milliseconds.
			fig = fmt.Sprintf("%s of %s descriptors (policy %s): %.3f ms of buffer work alone, not the statement", res.Path, count(int64(res.DescriptorsChecked/DropRelations)), pol, per.Seconds()*1000)
		}
		return fig, res.Path == wantPath, true
	}
	if r.Case != "shape" {
		return "", false, false
	}
	var x ScaleResult
	for _, pool := range DropPools {
		res, err := s.run(dropKey{replay, pol, pool})
		if err != nil {
			return "error: " + err.Error(), false, true
		}
		nb, _ := sim.SharedBuffersToNBuffers(pool)
		x.Pools = append(x.Pools, PoolTiming{SharedBuffers: pool, NBuffers: int64(nb),
			PerOp: time.Duration((res.Time / DropRelations) / sim.Nanosecond)})
	}
	fig := fmt.Sprintf("%s: ×%.2f from smallest to largest pool, slope %s ns per descriptor",
		x.Shape(), x.Growth(), strconv.FormatFloat(x.NsPerDescriptor(), 'f', 2, 64))
	return fig, x.Shape() == r.Shape, true
}

func unitOf(replay bool) string {
	if replay {
		return "TRUNCATE replayed"
	}
	return "drop"
}
