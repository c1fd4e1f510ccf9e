//go:build !js

package e2e

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"strconv"
	"strings"
)

// rgb is an opaque colour; screenshots of the page have no transparency.
type rgb struct{ R, G, B uint8 }

// String writes the colour as CSS does, "#rrggbb".
func (c rgb) String() string { return fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B) }

// parseHex reads "#rrggbb".
func parseHex(s string) (rgb, error) {
	h := strings.TrimPrefix(strings.TrimSpace(s), "#")
	if len(h) != 6 {
		return rgb{}, fmt.Errorf("colour %q is not #rrggbb", s)
	}
	n, err := strconv.ParseUint(h, 16, 32)
	if err != nil {
		return rgb{}, fmt.Errorf("colour %q is not #rrggbb", s)
	}
	return rgb{uint8(n >> 16), uint8(n >> 8), uint8(n)}, nil
}

// dist is the Euclidean distance between two colours in RGB, 0 to ~441.
func (c rgb) dist(d rgb) float64 {
	dr, dg, db := float64(c.R)-float64(d.R), float64(c.G)-float64(d.G), float64(c.B)-float64(d.B)
	return math.Sqrt(dr*dr + dg*dg + db*db)
}

// nearest returns the index of the palette colour closest to c, and its distance.
func nearest(c rgb, palette []rgb) (int, float64) {
	best, bestDist := -1, math.Inf(1)
	for i, p := range palette {
		if d := c.dist(p); d < bestDist {
			best, bestDist = i, d
		}
	}
	return best, bestDist
}

// decodePNG decodes a screenshot.
func decodePNG(b []byte) (image.Image, error) {
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("decoding a screenshot: %v", err)
	}
	return img, nil
}

// at returns the colour of the pixel at (x, y).
func at(img image.Image, x, y int) rgb {
	r, g, b, _ := img.At(x, y).RGBA()
	return rgb{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8)}
}

// dominant returns the most frequent colour in r, and the share of r's pixels it covers.
// Marks drawn over a cell (a pin, a dirty flag, the clock hand) cover less of it than its
// fill does, so the dominant colour is the fill.
func dominant(img image.Image, r image.Rectangle) (rgb, float64) {
	r = r.Intersect(img.Bounds())
	counts := map[rgb]int{}
	var best rgb
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			c := at(img, x, y)
			counts[c]++
			if counts[c] > counts[best] {
				best = c
			}
		}
	}
	if n := r.Dx() * r.Dy(); n > 0 {
		return best, float64(counts[best]) / float64(n)
	}
	return best, 0
}

// colours counts the distinct colours in r, stopping at limit.
func colours(img image.Image, r image.Rectangle, limit int) int {
	r = r.Intersect(img.Bounds())
	seen := map[rgb]bool{}
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			seen[at(img, x, y)] = true
			if len(seen) >= limit {
				return len(seen)
			}
		}
	}
	return len(seen)
}

// differing counts the pixels of r whose colours differ between a and b.
func differing(a, b image.Image, r image.Rectangle) int {
	r = r.Intersect(a.Bounds()).Intersect(b.Bounds())
	n := 0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if at(a, x, y) != at(b, x, y) {
				n++
			}
		}
	}
	return n
}

// rect is a rectangle in CSS pixels, as getBoundingClientRect gives it.
type rect struct {
	X, Y, W, H float64
}

// pixels returns the screenshot pixels r covers entirely, shrunk by inset on each side
// (a screenshot pixel is a CSS pixel: the tests emulate a device scale factor of 1).
func (r rect) pixels(inset int) image.Rectangle {
	return image.Rect(
		int(math.Ceil(r.X))+inset, int(math.Ceil(r.Y))+inset,
		int(math.Floor(r.X+r.W))-inset, int(math.Floor(r.Y+r.H))-inset)
}

// centre returns the middle of r, in CSS pixels.
func (r rect) centre() (float64, float64) { return r.X + r.W/2, r.Y + r.H/2 }

// mismatch is where a screenshot differs from the picture it should show.
type mismatch struct {
	N         int         // pixels that differ by more than the tolerance
	First     image.Point // the first of them, in picture coordinates
	Got, Want rgb
}

// compare compares the w×h picture want, placed with its top-left pixel at origin in img,
// with img, allowing tolerance in RGB distance. Pixels for which want says false are not
// compared.
func compare(img image.Image, origin image.Point, w, h int, want func(x, y int) (rgb, bool), tolerance float64) mismatch {
	var m mismatch
	for y := range h {
		for x := range w {
			wc, ok := want(x, y)
			if !ok {
				continue
			}
			got := at(img, origin.X+x, origin.Y+y)
			if got.dist(wc) > tolerance {
				if m.N == 0 {
					m.First, m.Got, m.Want = image.Pt(x, y), got, wc
				}
				m.N++
			}
		}
	}
	return m
}

// picture renders want as an image, to save next to a failed test's screenshot; pixels
// that are not compared are transparent.
func picture(w, h int, want func(x, y int) (rgb, bool)) image.Image {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			if c, ok := want(x, y); ok {
				img.Set(x, y, color.RGBA{c.R, c.G, c.B, 255})
			}
		}
	}
	return img
}
