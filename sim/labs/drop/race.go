package drop

import (
	"github.com/bufferscope/bufferscope/sim"
)

// The race: the page replays the lab's experiment twice, on two copies of the same filled
// pool, under the policy chosen and under a rival one, and advances both on one modelled
// clock, so that the reader watches the full scan sweep every descriptor while the lookups
// go straight to the relation's buffers, and sees which replay ends first. Each replay is
// exactly the one bufferscope drop runs for its policy: the two pools never meet, so how
// their units interleave changes neither's result.

// RaceMaxNBuffers is the largest pool the lab races: 20GB. Two pools need twice the memory
// of one, and two 100GB pools (about 1.2 GiB of WebAssembly memory each, filled) would not
// fit beside the page's other needs in WebAssembly's 4 GiB; above this size the policy
// chosen replays alone.
const RaceMaxNBuffers = 2_621_440

// Racing reports whether the lab races a rival policy beside the one chosen for a pool of
// nbuffers.
func Racing(nbuffers int) bool { return nbuffers <= RaceMaxNBuffers }

// RivalPolicy returns the policy raced beside policy: PostgreSQL 13's full scan, or, when
// PostgreSQL 13 is the one chosen, PostgreSQL 14's choice.
func RivalPolicy(policy sim.DropPolicy) sim.DropPolicy {
	if policy == sim.DropPG13 {
		return sim.DropPG14
	}
	return sim.DropPG13
}

// race is the drop lab's scenario when it races: its own replay, on the pool of the
// simulation it is the scenario of, and the rival, a simulation of its own that replays the
// same experiment under the rival policy. A unit of the race is a unit of whichever replay
// is behind in modelled time: the own replay runs while its time is at or before the
// rival's, the rival while its time is before the own's, and once one is done the other
// runs alone. So after every step the two modelled times are at most one unit apart, the
// order of the units depends on the replays alone, never on how the steps were grouped into
// calls, and the race ends when both replays have.
type race struct {
	own   *replay
	rival *sim.Sim
	rr    *replay // the rival's scenario
	// events are the rival's events during the last Step, in order: the rival's own Events
	// hold only those of its last call, and a Step may call it several times.
	events []sim.Event
}

// Step performs up to n units of the race and returns how many it performed on both sides.
func (r *race) Step(s *sim.Sim, n int) (int, error) {
	r.events = r.events[:0]
	done := 0
	for done < n {
		ownDone, rivalDone := r.own.Done(), r.rr.Done()
		if ownDone && rivalDone {
			break
		}
		left := n - done
		if !ownDone && (rivalDone || r.own.res.Time <= r.rr.res.Time) {
			limit := r.rr.res.Time
			if rivalDone {
				limit = sim.Forever
			}
			before := r.own.units
			_, err := r.own.stepUntil(s.Pool, left, limit, true)
			done += int(r.own.units - before)
			if err != nil {
				return done, err
			}
			continue
		}
		limit := r.own.res.Time
		if ownDone {
			limit = sim.Forever
		}
		before := r.rr.units
		r.rr.bounded, r.rr.until, r.rr.inclusive = true, limit, false
		err := r.rival.Step(left)
		r.rr.bounded = false
		r.events = append(r.events, r.rival.Events()...)
		done += int(r.rr.units - before)
		if err != nil {
			return done, err
		}
	}
	return done, nil
}

// Done reports whether both replays are done.
func (r *race) Done() bool { return r.own.Done() && r.rr.Done() }

// RivalEvents returns the events of the rival replay during the last step of the race s
// runs, and nil when s does not race. The slice is reused by the next step.
func RivalEvents(s *sim.Sim) []sim.Event {
	if r, ok := s.Scenario().(*race); ok {
		return r.events
	}
	return nil
}
