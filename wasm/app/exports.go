package app

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"strings"

	"github.com/bufferscope/bufferscope/sim"
	"github.com/bufferscope/bufferscope/sim/lab"
	"github.com/bufferscope/bufferscope/wasm/grid"
)

// Exports: the pool as pg_buffercache rows, its I/O as pg_stat_io rows and the grid as a
// PNG, for every lab alike.

// BufferCacheRows is how many rows of pg_buffercache PgBuffercache returns when the caller
// names no count, and MaxBufferCacheRows the most it returns at once: about 2.5 MB and 10 MB
// of CSV, so a 100GB pool (13.1M buffers) is read in a few hundred calls, each short enough
// for the page to show its progress between them.
const (
	BufferCacheRows    = 1 << 16
	MaxBufferCacheRows = 1 << 18
)

// BufferCachePage is one stretch of the pg_buffercache view as CSV.
type BufferCachePage struct {
	// CSV holds rows From+1 … Next (bufferid From+1 to Next), with the header line first
	// when From is 0.
	CSV   string `json:"csv"`
	From  int    `json:"from"`
	Next  int    `json:"next"`  // the From of the next stretch; Total when this was the last
	Total int    `json:"total"` // rows in the view: NBuffers
	Dirty int    `json:"dirty"` // rows of this stretch with isdirty true
	Valid int    `json:"valid"` // rows of this stretch that hold a page
}

// PgBuffercache returns count rows of the pg_buffercache view of the pool from buffer from
// (0-based, bufferid from+1), fewer at the end of the pool: count 0 means BufferCacheRows, and
// more than MaxBufferCacheRows is refused, as is a start outside the pool.
func (a *App) PgBuffercache(from, count int) (BufferCachePage, error) {
	p := a.run.Sim().Pool
	if count == 0 {
		count = BufferCacheRows
	}
	if count < 0 || count > MaxBufferCacheRows {
		return BufferCachePage{}, fmt.Errorf("pgBuffercache returns 1 to %d rows at a time, not %d", MaxBufferCacheRows, count)
	}
	if from < 0 || from > p.NBuffers {
		return BufferCachePage{}, fmt.Errorf("pgBuffercache starts at a buffer from 0 to %d, not %d", p.NBuffers, from)
	}
	end := min(from+count, p.NBuffers)
	out := BufferCachePage{From: from, Next: end, Total: p.NBuffers}
	buf := make([]byte, 0, (end-from)*36+96)
	if from == 0 {
		buf = append(buf, strings.Join(sim.BufferCacheColumns, ",")...)
		buf = append(buf, '\n')
	}
	for id := from; id < end; id++ {
		r := p.BufferCacheRow(id)
		if r.Valid {
			out.Valid++
		}
		if r.IsDirty {
			out.Dirty++
		}
		buf = r.AppendCSV(buf)
	}
	out.CSV = string(buf)
	return out, nil
}

// StatIO is the pool's I/O as pg_stat_io rows.
type StatIO struct {
	Columns     []string   `json:"columns"`
	Rows        [][]string `json:"rows"` // values in Columns' order, "" for NULL
	CSV         string     `json:"csv"`  // Columns and Rows as CSV
	NotModelled string     `json:"notModelled"`
}

// PgStatIO returns the pool's I/O so far as pg_stat_io rows (lab.StatIO).
func (a *App) PgStatIO() StatIO {
	rows := lab.StatIO(a.run.Sim())
	out := StatIO{Columns: lab.StatIOColumns, NotModelled: lab.StatIONotModelled}
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	w.Write(lab.StatIOColumns)
	for _, r := range rows {
		rec := r.Record()
		out.Rows = append(out.Rows, rec)
		w.Write(rec)
	}
	w.Flush()
	out.CSV = b.String()
	return out
}

// GridPNG returns the grid as the canvas shows it, encoded as a PNG of the canvas's size in
// CSS pixels: each pane's painter's pixels in its place, with the lab view's overlay (fills,
// then labels) drawn over them. Gaps between cells and panes stay transparent.
func (a *App) GridPNG() ([]byte, error) {
	w, h := a.view.w, a.view.h
	if len(a.view.panes) == 0 || w <= 0 || h <= 0 {
		return nil, fmt.Errorf("the grid has not been drawn yet")
	}
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for i := range a.view.panes {
		p := &a.view.panes[i].painter
		pw, ph := p.Size()
		if pw == 0 || ph == 0 {
			return nil, fmt.Errorf("the grid has not been drawn yet")
		}
		r := a.view.rects[i]
		src := &image.RGBA{Pix: p.Bytes(), Stride: 4 * pw, Rect: image.Rect(0, 0, pw, ph)}
		draw.Draw(img, image.Rect(r.X0, r.Y0, r.X0+pw, r.Y0+ph), src, image.Point{}, draw.Src)
	}
	for _, f := range a.Overlay().Fills {
		c := image.NewUniform(color.NRGBA{f.Color.R, f.Color.G, f.Color.B, f.Color.A})
		draw.Draw(img, image.Rect(f.X0, f.Y0, f.X1, f.Y1), c, image.Point{}, draw.Over)
	}
	for _, l := range a.Overlay().Labels {
		tw, th, mask := grid.TextMask(l.Text)
		c := image.NewUniform(color.NRGBA{l.Color.R, l.Color.G, l.Color.B, l.Color.A})
		m := &image.Alpha{Pix: mask, Stride: tw, Rect: image.Rect(0, 0, tw, th)}
		draw.DrawMask(img, image.Rect(l.X, l.Y, l.X+tw, l.Y+th), c, image.Point{}, m, image.Point{}, draw.Over)
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
