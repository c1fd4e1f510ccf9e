//go:build js

package main

import (
	"image"
	"time"

	"github.com/bufferscope/bufferscope/wasm/app"
	"github.com/bufferscope/bufferscope/wasm/grid"
	"github.com/hajimehoshi/ebiten/v2"
)

// game adapts the App to Ebiten's loop, as in Ebiten's examples/life: Update advances
// playback and repaints the one reused pixel buffer, uploading it with WritePixels only when
// it changed; Draw copies that image to the screen, then the lab view's overlay of
// translucent fills (none for most labs), and holds no logic; Layout makes the screen the canvas's size in CSS
// pixels, and Ebiten scales it to device pixels.
type game struct {
	app     *app.App
	bridge  *bridge
	imgs    []*ebiten.Image // one per pane, as large as the pane
	places  []grid.Rect     // where each image was last drawn on the screen
	fresh   bool            // the images hold pixels the screen has not shown yet
	marks   bool            // the overlay changed since the screen showed it
	overlay overlayDrawer
	frames  int // frames drawn with new pixels; the page waits for the first
	w, h    int // canvas size Layout last reported
	opts    ebiten.DrawImageOptions
	rect    []byte // reused buffer for uploading one damaged rectangle
	clear   bool   // the panes moved: clear the screen before drawing them
	timing  timing
}

// timing measures the Go time Update spends, in total and painting, and the Go time of a
// Draw, averaged over about a second, for the stats (and for the reader curious why a 100 GB
// pool plays slowly).
type timing struct {
	update, paint, draw time.Duration // sums over the current window
	n, draws            int
	start               time.Time
	updateMs            float64 // averages over the last full window: per Update
	paintMs             float64
	drawMs              float64 // per Draw that drew
}

func (t *timing) add(update, paint time.Duration) {
	now := time.Now()
	if t.start.IsZero() {
		t.start = now
	}
	t.update += update
	t.paint += paint
	t.n++
	if now.Sub(t.start) >= time.Second {
		t.updateMs = float64(t.update) / float64(t.n) / 1e6
		t.paintMs = float64(t.paint) / float64(t.n) / 1e6
		if t.draws > 0 {
			t.drawMs = float64(t.draw) / float64(t.draws) / 1e6
		}
		*t = timing{start: now, updateMs: t.updateMs, paintMs: t.paintMs, drawMs: t.drawMs}
	}
}

func (t *timing) addDraw(d time.Duration) {
	t.draw += d
	t.draws++
}

// theGame is the one game, for the bridge's frame count.
var theGame *game

func newGame(a *app.App) *game {
	g := &game{app: a}
	// Copy, not blend: transparent gaps must replace what the screen held, since the
	// screen is not cleared between frames.
	g.opts.Blend = ebiten.BlendCopy
	return g
}

// Update runs once per frame the browser draws (SyncWithFPS, main.go). A panic in the simulation or the painter is
// recovered and reported as a crash (crash_js.go), and Update then returns errCrashed, which
// ends Ebiten's game loop instead of the Go program: the bridge goes on answering.
func (g *game) Update() (err error) {
	if crashed != nil {
		return errCrashed
	}
	defer func() {
		if r := recover(); r != nil {
			recovered("update", r)
			err = errCrashed
		}
	}()
	testHook("update")
	a := g.app
	t0 := time.Now()
	a.Resize(g.w, g.h)
	a.Tick(t0)
	t1 := time.Now()
	// Paint only once the last paint has been drawn: should Ebiten run an Update without a
	// Draw after it, the pixels of the first paint would never be seen. The tracker keeps
	// what changed.
	if !g.fresh && a.Paint() {
		g.upload()
		g.fresh = true
	}
	if a.BuildOverlay() {
		g.marks = true
	}
	g.timing.add(time.Since(t0), time.Since(t1))
	g.bridge.tick()
	return nil
}

// maxUploadRects is how many damaged rectangles are uploaded one by one; past it the whole
// image is.
const maxUploadRects = 256

// upload sends each pane's repainted pixels to its image: the damaged rectangles, or all
// of them.
func (g *game) upload() {
	n := g.app.Panes()
	for i := n; i < len(g.imgs); i++ {
		if g.imgs[i] != nil {
			g.imgs[i].Deallocate()
		}
	}
	if len(g.imgs) != n {
		g.imgs = append(g.imgs[:min(len(g.imgs), n)], make([]*ebiten.Image, max(n-len(g.imgs), 0))...)
		g.clear = true
	}
	for i := range n {
		g.uploadPane(i)
	}
}

// uploadPane sends pane i's repainted pixels to its image.
func (g *game) uploadPane(i int) {
	p := g.app.PanePainter(i)
	w, h := p.Size()
	if w == 0 || h == 0 {
		return
	}
	img := g.imgs[i]
	if img == nil || img.Bounds().Dx() != w || img.Bounds().Dy() != h {
		if img != nil {
			img.Deallocate()
		}
		img = ebiten.NewImage(w, h)
		g.imgs[i] = img
		g.clear = true
		p.TakeDamage()
		img.WritePixels(p.Bytes())
		return
	}
	full, rects := p.TakeDamage()
	if full || len(rects) > maxUploadRects {
		img.WritePixels(p.Bytes())
		return
	}
	for _, r := range rects {
		g.rect = p.RectBytes(r, g.rect)
		if len(g.rect) > 0 {
			img.SubImage(image.Rect(r.X0, r.Y0, r.X1, r.Y1)).(*ebiten.Image).WritePixels(g.rect)
		}
	}
}

// Draw shows the latest pixels of each pane in its place and the overlay over them; when
// neither changed it leaves the screen as it was. When the panes moved, the screen is
// cleared first, so no old pixels stay in the bands and gaps between them. A panic is
// recovered and reported as a crash; the next Update ends the game loop, and the screen
// keeps the last frame drawn.
func (g *game) Draw(screen *ebiten.Image) {
	if crashed != nil {
		return
	}
	defer func() {
		if r := recover(); r != nil {
			recovered("draw", r)
		}
	}()
	testHook("draw")
	if !g.fresh && !g.marks || len(g.imgs) == 0 {
		return
	}
	t0 := time.Now()
	defer func() { g.timing.addDraw(time.Since(t0)) }()
	n := min(len(g.imgs), g.app.Panes())
	if len(g.places) != n {
		g.places = make([]grid.Rect, n)
		g.clear = true
	}
	for i := range n {
		if r := g.app.PaneRect(i); r != g.places[i] {
			g.places[i] = r
			g.clear = true
		}
	}
	if g.clear && n > 1 {
		screen.Clear()
	}
	g.clear = false
	for i := range n {
		if g.imgs[i] == nil {
			continue
		}
		g.opts.GeoM.Reset()
		g.opts.GeoM.Translate(float64(g.places[i].X0), float64(g.places[i].Y0))
		screen.DrawImage(g.imgs[i], &g.opts)
	}
	g.overlay.draw(screen, g.app.Overlay())
	g.fresh, g.marks = false, false
	g.frames++
}

// Layout makes the screen as large as the canvas's container in CSS pixels.
func (g *game) Layout(outsideWidth, outsideHeight int) (int, int) {
	g.w, g.h = max(outsideWidth, 1), max(outsideHeight, 1)
	return g.w, g.h
}
