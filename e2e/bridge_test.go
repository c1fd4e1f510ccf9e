//go:build !js

package e2e

import (
	"fmt"
	"net/url"
	"testing"

	"github.com/bufferscope/bufferscope/sim"
	"github.com/bufferscope/bufferscope/sim/lab"
	"github.com/bufferscope/bufferscope/sim/labs/free"
	"github.com/bufferscope/bufferscope/wasm/grid"
)

// The page's JS bridge (bufferscope.* in the page; wasm/bridge_js.go, site/js/bufferscope.d.ts) as
// the tests use it, and the simulation the tests hold the page against.

// stats is what bufferscope.stats() returns, as far as the tests read it.
type stats struct {
	Step     uint64 `json:"step"`
	NBuffers int    `json:"nbuffers"`
	Hash     string `json:"hash"` // Sim.Hash as 16 hex digits
	Playing  bool   `json:"playing"`
	Frames   int    `json:"frames"` // frames drawn with new pixels
	Lab      string `json:"lab"`
	Done     bool   `json:"done"`
	Counters struct {
		ClockHand int `json:"clockHand"`
	} `json:"counters"`
}

// relation is one entry of bufferscope.relations().
type relation struct {
	Name  string `json:"name"`
	Color string `json:"color"` // "#rrggbb"
}

// bufferInfo is what bufferscope.buffer(id) returns about one buffer.
type bufferInfo struct {
	Buffer   int     `json:"buffer"`
	Empty    bool    `json:"empty"`
	Tag      *string `json:"tag"` // "pgbench_accounts/main/12", null when empty
	Relation *string `json:"relation"`
	Usage    int     `json:"usage"`
	Dirty    bool    `json:"dirty"`
	Pins     int     `json:"pins"`
}

// String writes the info as the bridge gave it, for failure messages.
func (b bufferInfo) String() string {
	str := func(p *string) string {
		if p == nil {
			return "null"
		}
		return fmt.Sprintf("%q", *p)
	}
	return fmt.Sprintf("{buffer %d, empty %v, tag %s, relation %s, usage %d, pins %d, dirty %v}", b.Buffer, b.Empty, str(b.Tag), str(b.Relation), b.Usage, b.Pins, b.Dirty)
}

// viewInfo is what bufferscope.view() returns: the canvas size in CSS pixels and the zoom.
type viewInfo struct {
	Width  int  `json:"width"`
	Height int  `json:"height"`
	Cols   int  `json:"cols"`
	Rows   int  `json:"rows"`
	Cell   int  `json:"cell"`
	Block  int  `json:"block"`
	Zoomed bool `json:"zoomed"`
}

// gridCanvas selects Ebiten's canvas, which the page's loader puts in #grid.
const gridCanvas = "#grid canvas"

func (p *page) stats() stats {
	p.t.Helper()
	return eval[stats](p, `bufferscope.stats({hash: true})`)
}

// step runs n steps through the bridge, checks that it ran exactly n, and returns the
// stats after them.
func (p *page) step(n int) stats {
	p.t.Helper()
	before := p.stats()
	res := eval[struct {
		OK   bool   `json:"ok"`
		Step uint64 `json:"step"`
	}](p, fmt.Sprintf(`bufferscope.step(%d)`, n))
	if !res.OK || res.Step != before.Step+uint64(n) {
		p.fatalf("bufferscope.step(%d) at step %d returned ok=%v step=%d, want step %d", n, before.Step, res.OK, res.Step, before.Step+uint64(n))
	}
	return p.stats()
}

// settle waits until the grid has stopped repainting (no new frame for 10 animation
// frames): the flashes of the last steps have faded and the picture is the state's.
func (p *page) settle() {
	p.t.Helper()
	eval[int](p, fmt.Sprintf(`new Promise((resolve, reject) => {
		const t0 = performance.now();
		let last = bufferscope.stats().frames, same = 0;
		const tick = () => {
			const f = bufferscope.stats().frames;
			if (f === last) same++; else { last = f; same = 0; }
			if (same >= 10) return resolve(f);
			if (performance.now() - t0 > %d) return reject(new Error("the grid was still repainting after %v"));
			requestAnimationFrame(tick);
		};
		requestAnimationFrame(tick);
	})`, (waitTimeout/2).Milliseconds(), waitTimeout/2))
}

// cells maps buffers to where the page draws them.
type cells struct {
	layout grid.Layout
	canvas rect    // the canvas in CSS pixels of the viewport
	sx, sy float64 // CSS pixels per canvas pixel
}

// cellMap works out where each buffer is drawn: the grid's own layout (grid.Fit) for the
// canvas size the bridge reports, placed where the canvas is. It checks the layout against
// bufferscope.view(), and that bufferscope.cellAt finds each of a few buffers at the middle
// of its cell, so the tests and the page agree on the geometry.
func (p *page) cellMap(nbuffers int) cells {
	p.t.Helper()
	v := eval[viewInfo](p, `bufferscope.view()`)
	if v.Zoomed {
		p.fatalf("the grid is zoomed in (%+v); the tests expect the whole pool", v)
	}
	c := cells{layout: grid.Fit(nbuffers, v.Width, v.Height), canvas: p.elementRect(gridCanvas)}
	if c.layout.Cols != v.Cols || c.layout.Rows != v.Rows || c.layout.Zoom().Cell != v.Cell || c.layout.Zoom().Block != v.Block {
		p.fatalf("grid.Fit(%d, %d, %d) gives %d×%d cells of %d px, the page shows %d×%d of %d px",
			nbuffers, v.Width, v.Height, c.layout.Cols, c.layout.Rows, c.layout.Zoom().Cell, v.Cols, v.Rows, v.Cell)
	}
	c.sx, c.sy = c.canvas.W/float64(v.Width), c.canvas.H/float64(v.Height)
	for _, id := range []int{0, nbuffers / 2, nbuffers - 1} {
		x, y, side := c.layout.CellRect(id)
		got := eval[*bufferInfo](p, fmt.Sprintf(`bufferscope.cellAt(%d, %d)`, x+side/2, y+side/2))
		if got == nil || got.Buffer != id {
			p.fatalf("bufferscope.cellAt at the middle of buffer %d's cell (%d, %d) gives %+v", id, x+side/2, y+side/2, got)
		}
	}
	return c
}

// rect returns where buffer id's cell is, in CSS pixels of the viewport.
func (c cells) rect(id int) rect {
	x, y, side := c.layout.CellRect(id)
	return rect{
		X: c.canvas.X + float64(x)*c.sx, Y: c.canvas.Y + float64(y)*c.sy,
		W: float64(side) * c.sx, H: float64(side) * c.sy,
	}
}

// nativeSim runs, in the test process, the simulation the page runs for query, for steps
// steps.
func nativeSim(t *testing.T, query string, steps uint64) *sim.Sim {
	t.Helper()
	values, err := url.ParseQuery(query)
	if err != nil {
		t.Fatal(err)
	}
	table := free.Lab{}.Params()
	m := map[string]string{}
	for _, k := range table.Keys() {
		if v, ok := values[k]; ok {
			m[k] = v[0]
		}
	}
	params, errs := table.Parse(m)
	if len(errs) > 0 {
		t.Fatalf("nativeSim(%q): %v", query, errs)
	}
	s, err := sim.New(free.Config(params))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Step(int(steps)); err != nil {
		t.Fatal(err)
	}
	return s
}

// freeLegend returns free play's legend for the simulation's relations, as the page's lab
// builds it.
func freeLegend(s *sim.Sim) lab.Legend {
	names := make([]string, len(s.Relations()))
	for i, r := range s.Relations() {
		names[i] = r.Name
	}
	return lab.PerRelation(names)
}

// hashString formats a state hash as the bridge does.
func hashString(h uint64) string { return fmt.Sprintf("%016x", h) }
