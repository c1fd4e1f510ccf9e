// Package grid turns a simulated buffer pool into pixels: where each buffer's cell lies for
// a canvas size, zoom and pan (Layout), which buffer lies under a point (Layout.BufferAt),
// what a cell looks like (Theme, Code), which buffers changed since the last frame
// (Tracker) and the painting itself (Painter), including pools too large for one pixel per
// buffer, whose pixels then stand for square blocks of buffers.
//
// The package knows nothing of Ebiten or the browser, so it runs and is tested natively and
// under Node. The Ebiten app in package main feeds it once per frame and uploads what the
// painter repainted with WritePixels:
//
//	theme := grid.ThemeFor(&grid.Light, run.Legend())  // the lab's colours on a base theme
//	var tr grid.Tracker
//	tr.SetRelMap(grid.RelMap(run.Legend(), len(s.Relations())))
//	tr.Reset(s, s.Pool.NBuffers, s.Pool.ClockHand())
//	f := grid.Frame{Layout: grid.Fit(s.Pool.NBuffers, 900, 640), NumRel: len(theme.Roles), Theme: theme}
//	var p grid.Painter
//	for each frame {
//		s.Step(n)
//		tr.Note(s.Events(), nil)                  // or a *Flashes to flash reads and writes
//		tr.Sync(s, s.Pool.ClockHand(), 1<<17)
//		f.Codes, f.Hand = tr.Codes, s.Pool.ClockHand()
//		if p.Update(&f) {                         // repaints only the cells that changed
//			full, rects := p.TakeDamage()         // upload all, or just these rectangles
//			...
//		}
//	}
//
// The grid knows no lab. Its base themes (Light, Dark) hold only neutral colours; the
// colours of full buffers come from the running lab's legend (sim/lab.Legend) through
// ThemeFor, which maps each relation to a role (RelMap, Tracker.SetRelMap) and each role to a
// colour. A lab's view (wasm/labview) may ask for a lane under the grid (Layout.Below) and an
// inset above it where buffers of its choosing are painted large (Inset, FitInset), burn the
// buffers a drop empties (FlashDrop) and draw moving marks — a scan's cursor and trail,
// lookups' rings, the lane's tape, glyphs that say a buffer's state by shape (Glyph) — as an
// Overlay of translucent Fills and text Labels that the app draws over the uploaded pixels
// each frame, so they never cost a repaint of the cells beneath.
//
// A canvas may show several pools of the same size, each in a pane (Arrange): side by side,
// or stacked on a canvas taller than it is wide, each under a band for its label. A pane is drawn as a
// canvas of its own would be, in its own pixels, so the layout, painter and overlay know
// nothing of panes; one Layout serves every pane, and zoom and pan move them together.
//
// Coordinates are canvas pixels with the origin at the top left; the app paints at CSS
// pixel resolution and lets Ebiten scale to device pixels.
package grid
