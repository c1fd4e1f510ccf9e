package fidelity

import (
	"context"
	"fmt"
	"time"
)

// Results holds everything one run measured, per major in the order run.
type Results struct {
	Majors      []int
	VacuumRing  []RingResult
	SeqScanRing []RingResult
	VacuumWAL   []WALResult
	Drop        []ScaleResult
	Replay      []ScaleResult
	LPDead      []LPDeadResult
	RingCost    []RingCostResult
	// Errors lists the experiments that failed ("pg13 VacuumWAL: ..."); the others still ran.
	Errors []string
	// Started and Elapsed time the whole run.
	Started time.Time
	Elapsed time.Duration
}

// RunAll runs every experiment on every major and collects the results. A failed experiment
// is recorded in Errors and the run goes on; only a cancelled context stops it early.
func RunAll(ctx context.Context, env *Env, majors []int) *Results {
	res := &Results{Majors: majors, Started: time.Now()}
	fail := func(major int, name string, err error) bool {
		if err == nil {
			return false
		}
		res.Errors = append(res.Errors, fmt.Sprintf("pg%d %s: %v", major, name, err))
		env.logf("pg%d %s failed: %v", major, name, err)
		return true
	}
	for _, m := range majors {
		if ctx.Err() != nil {
			break
		}
		if r, err := VacuumRing(ctx, env, m); !fail(m, "VacuumRing", err) {
			res.VacuumRing = append(res.VacuumRing, r)
		}
		if r, err := SeqScanRing(ctx, env, m); !fail(m, "SeqScanRing", err) {
			res.SeqScanRing = append(res.SeqScanRing, r)
		}
		if r, err := VacuumWAL(ctx, env, m); !fail(m, "VacuumWAL", err) {
			res.VacuumWAL = append(res.VacuumWAL, r)
		}
		if r, err := DropOnPrimary(ctx, env, m); !fail(m, "DropOnPrimary", err) {
			res.Drop = append(res.Drop, r)
		}
		if r, err := ReplayTruncates(ctx, env, m); !fail(m, "ReplayTruncates", err) {
			res.Replay = append(res.Replay, r)
		}
		if r, err := LPDead(ctx, env, m); !fail(m, "LPDead", err) {
			res.LPDead = append(res.LPDead, r)
		}
		if r, err := RingCost(ctx, env, m); !fail(m, "RingCost", err) {
			res.RingCost = append(res.RingCost, r)
		}
	}
	if ctx.Err() != nil {
		res.Errors = append(res.Errors, "run interrupted: "+ctx.Err().Error())
	}
	res.Elapsed = time.Since(res.Started)
	return res
}
