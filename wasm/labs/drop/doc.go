// Package drop is the drop lab's view in the browser app (labview.View): it follows the
// replay of sim/labs/drop while the page plays it and draws what it does over the grid.
//
// It steps the replay in chunks planned so that nothing the picture needs is lost (Chunk,
// Watch.Step), measures how much modelled time passes per second of the reader's time
// (ScaleMeter), and remembers what the picture animates: the descriptors the scan checked
// frame by frame (Trail), the outcome of each recent lookup (Tape) and the buffers recent
// lookups found (Found). View turns them into an overlay of translucent fills (view.go) in
// the colours of the lab's legend.
//
// When the lab races two policies (sim/labs/drop, race.go), the run has two panes: the view
// keeps a watch and an overlay for each, plans chunks that suit both sides (a chunk's units
// may fall to either), and hands each pane's events to the grid under the pane's index.
//
// The package knows nothing of Ebiten or the browser, so it runs and is tested natively.
// The app (wasm/app) drives it once per frame through labview.View:
//
//	v := drop.NewView()
//	v.Attach(run, run.Legend(), shownRole)
//	for each frame {
//		v.Tick(ticks, wallSeconds)
//		v.Step(run, due, deadlinePassed, noteEachPanesEventsForTheGrid)
//		for each pane { v.Overlay(pane, &overlay[pane], &layout, theme, reduced) }
//	}
//
// Same parameters and the same number of units give the same state as stepping the
// simulation natively: Watch.Step only decides where one sim.Step call ends and the next
// begins, and a drop lab's replay is a state machine whose result does not depend on that.
package drop
