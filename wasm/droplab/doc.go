// Package droplab follows a drop lab (drop.NewReplay) while the page plays it. It steps the
// replay in chunks planned so that nothing the picture or the counters need is lost (Chunk,
// Watch.Step), counts the lookups that found no buffer (Watch.Misses), measures how much
// modelled time passes per second of the reader's time (ScaleMeter), and remembers what the
// picture animates: the descriptors the scan checked frame by frame (Trail), the outcome of
// each recent lookup (Tape) and the buffers recent lookups found (Found).
//
// The package knows nothing of Ebiten or the browser, so it runs and is tested natively. The
// app in package main drives it once per frame:
//
//	s, _ := drop.NewReplay(p.Experiment(), p.Policy)
//	w := droplab.NewWatch(s)
//	for each frame {
//		w.Step(s, due, deadlinePassed, noteEventsForTheGrid)
//		w.Age(ticks)
//		w.Clock(wallSeconds)
//		draw w.Trail, w.Tape, w.Found, drop.ProgressOf(s).Cursor
//	}
//
// Same parameters and the same number of units give the same state as stepping the
// simulation natively: Watch.Step only decides where one sim.Step call ends and the next
// begins, and a drop lab's replay is a state machine whose result does not depend on that.
package droplab
