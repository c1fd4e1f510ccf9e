package grid

import (
	"fmt"
	"math"

	"github.com/bufferscope/bufferscope/sim"
)

// RGBA is an opaque or transparent colour with 8-bit channels, not premultiplied. Every
// colour the painter writes is opaque or fully transparent, so it is also the premultiplied
// form WritePixels expects.
type RGBA struct{ R, G, B, A uint8 }

// Hex formats the colour as "#rrggbb", for CSS.
func (c RGBA) Hex() string { return fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B) }

// pixel returns the colour as one little-endian RGBA word, the layout of Painter's pixels.
func (c RGBA) pixel() uint32 {
	return uint32(c.R) | uint32(c.G)<<8 | uint32(c.B)<<16 | uint32(c.A)<<24
}

// hex parses "#rrggbb"; it is only used on the constants below.
func hex(s string) RGBA {
	var c RGBA
	if _, err := fmt.Sscanf(s, "#%02x%02x%02x", &c.R, &c.G, &c.B); err != nil {
		panic("grid: bad colour " + s)
	}
	c.A = 255
	return c
}

// Mix returns a+(b−a)·t per channel, t from 0 (a) to 1 (b), rounded.
func Mix(a, b RGBA, t float64) RGBA {
	t = min(max(t, 0), 1)
	m := func(x, y uint8) uint8 { return uint8(math.Round(float64(x) + (float64(y)-float64(x))*t)) }
	return RGBA{m(a.R, b.R), m(a.G, b.G), m(a.B, b.B), m(a.A, b.A)}
}

// Luminance returns the WCAG relative luminance of the colour, 0 (black) to 1 (white).
func (c RGBA) Luminance() float64 {
	lin := func(v uint8) float64 {
		x := float64(v) / 255
		if x <= 0.03928 {
			return x / 12.92
		}
		return math.Pow((x+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(c.R) + 0.7152*lin(c.G) + 0.0722*lin(c.B)
}

// Contrast returns the WCAG contrast ratio of two colours, 1 to 21.
func Contrast(a, b RGBA) float64 {
	la, lb := a.Luminance(), b.Luminance()
	return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
}

// Theme is the set of colours the grid is drawn with. Relation colours come from the
// Okabe–Ito palette, chosen to stay distinct for the common forms of colour blindness; every
// state that matters also has a mark that does not depend on colour.
type Theme struct {
	Name string
	// Background is the grid's surface. Gaps and margins are left transparent so the page's
	// own background shows; the site's --grid-bg must equal it, because cells with a low
	// usage count fade into it.
	Background RGBA
	Empty      RGBA // inside of an empty buffer
	EmptyEdge  RGBA // outline of an empty buffer
	InkDark    RGBA // marks on light fills
	InkLight   RGBA // marks on dark fills
	Hand       RGBA // the clock hand's ring and ruler markers
	Highlight  RGBA // the ring around the inspected buffer
	Flash      RGBA // what a freshly read page glows towards, a hue no relation uses
	Relations  []RGBA
	// The drop lab's marks: Probe for what looks for a relation's buffers (the scan's
	// cursor and trail, a lookup's ring, a missed lookup on the tape), Drop for the burst of
	// a buffer InvalidateBuffer empties.
	Probe RGBA
	Drop  RGBA
	// FadeFrom, when not zero, replaces UsageFade: a cell shows FadeFrom of its relation's
	// colour at usage count 0, rising evenly to all of it at the maximum.
	FadeFrom float64
}

// The two themes the site offers.
var (
	Light = Theme{
		Name:       "light",
		Background: hex("#fbfaf7"),
		Empty:      hex("#e7e5de"),
		EmptyEdge:  hex("#cfccc3"),
		InkDark:    hex("#1d1d22"),
		InkLight:   hex("#ffffff"),
		Hand:       hex("#1d1d22"),
		Highlight:  hex("#7a3ff2"),
		Flash:      hex("#8f5cff"),
		Relations: []RGBA{
			hex("#3a9ad9"), // sky blue, a shade deeper than Okabe–Ito's to read on white
			hex("#e69f00"), // orange
			hex("#009e73"), // bluish green
			hex("#cc79a7"), // reddish purple
			hex("#0072b2"), // blue
			hex("#d55e00"), // vermillion
			hex("#f0e442"), // yellow
			hex("#8a8a8a"), // grey
		},
		Probe: hex("#2463eb"),
		Drop:  hex("#d7263d"),
	}
	Dark = Theme{
		Name:       "dark",
		Background: hex("#16181d"),
		Empty:      hex("#23262d"),
		EmptyEdge:  hex("#3a3f49"),
		InkDark:    hex("#111216"),
		InkLight:   hex("#f4f4f6"),
		Hand:       hex("#f4f4f6"),
		Highlight:  hex("#c3a6ff"),
		Flash:      hex("#ffffff"),
		Relations: []RGBA{
			hex("#56b4e9"), // sky blue
			hex("#e69f00"), // orange
			hex("#1fb88a"), // bluish green, lifted to read on the dark surface
			hex("#d98cb6"), // reddish purple, lifted
			hex("#2a6fc9"), // blue, lifted a little
			hex("#e8743b"), // vermillion, lifted
			hex("#f0e442"), // yellow
			hex("#a0a0a0"), // grey
		},
		Probe: hex("#5e9bff"),
		Drop:  hex("#ff5468"),
	}
)

// The drop lab's themes: Light and Dark with the relations recoloured so that the ones being
// dropped stand out. Palette index 0 is the relation that fills the rest of the pool
// ("others"), in a quiet grey; the dropped relations take the next DropShades indices in
// turn, shades of one warm family, so that neighbouring relations stay apart. DropRelIndex
// maps a relation to its index.
//
// Usage counts matter little to a drop, so colours fade less with them (FadeFrom), and an
// emptied buffer is lighter than in free play (darker on the dark theme), close to the
// background, so that dropped pages are seen to be gone. Shades alternate light and dark.
var (
	LightDrop = dropTheme(Light, hex("#efede7"), hex("#d8d5cd"), hex("#b0aca3"),
		hex("#f76707"), hex("#b8420b"), hex("#fa9a1e"), hex("#d9530e"))
	DarkDrop = dropTheme(Dark, hex("#1f2228"), hex("#30343c"), hex("#555a64"),
		hex("#ffa94d"), hex("#e8590c"), hex("#ffc078"), hex("#ff7a1a"))
)

// DropShades is how many colours the dropped relations take in turn.
const DropShades = 4

// dropFadeFrom is the drop themes' FadeFrom.
const dropFadeFrom = 0.78

func dropTheme(t Theme, empty, edge, others RGBA, shades ...RGBA) Theme {
	if len(shades) != DropShades {
		panic("grid: a drop theme needs DropShades shades")
	}
	t.Empty, t.EmptyEdge, t.FadeFrom = empty, edge, dropFadeFrom
	t.Relations = append([]RGBA{others}, shades...)
	return t
}

// DropLab returns the drop lab's variant of t: LightDrop or DarkDrop.
func (t *Theme) DropLab() *Theme {
	if t.Name == Dark.Name {
		return &DarkDrop
	}
	return &LightDrop
}

// DropRelIndex returns the palette index of the drop lab's relation rel (an index in
// Sim.Relations) when the experiment drops nrel relations, which come first in the catalog,
// followed by "others": 0 for others, and 1 to DropShades in turn for the dropped ones.
func DropRelIndex(rel, nrel int) int {
	if rel < 0 {
		return -1
	}
	if rel >= nrel {
		return 0
	}
	return 1 + rel%DropShades
}

// DropRelMap returns DropRelIndex for each of the nrel+1 relations of a drop lab, for
// Tracker.SetRelMap.
func DropRelMap(nrel int) []int32 {
	m := make([]int32, nrel+1)
	for i := range m {
		m[i] = int32(DropRelIndex(i, nrel))
	}
	return m
}

// ThemeByName returns Light or Dark; any other name gives Light and false.
func ThemeByName(name string) (*Theme, bool) {
	switch name {
	case "dark":
		return &Dark, true
	case "light":
		return &Light, true
	}
	return &Light, false
}

// Rel returns the colour of relation i; the palette repeats after its last colour.
func (t *Theme) Rel(i int) RGBA {
	if i < 0 {
		return t.Empty
	}
	return t.Relations[i%len(t.Relations)]
}

// UsageFade is how much of a relation's colour a cell shows for each usage count: a buffer
// the clock sweep has worn down to zero fades towards the background; one at the maximum
// (BM_MAX_USAGE_COUNT = 5) shows the full colour.
func UsageFade(usage int) float64 {
	return 0.50 + 0.10*float64(min(max(usage, 0), maxUsage))
}

// maxUsage is BM_MAX_USAGE_COUNT, the largest usage count.
const maxUsage = sim.BMMaxUsageCount

// Fill returns the colour of a valid buffer of relation rel with the given usage count, before
// any mark is drawn on it.
func (t *Theme) Fill(rel, usage int) RGBA {
	if rel < 0 {
		return t.Empty
	}
	return Mix(t.Background, t.Rel(rel), t.fade(usage))
}

// fade is how much of a relation's colour a cell with the given usage count shows.
func (t *Theme) fade(usage int) float64 {
	if t.FadeFrom <= 0 {
		return UsageFade(usage)
	}
	return t.FadeFrom + (1-t.FadeFrom)*float64(min(max(usage, 0), maxUsage))/maxUsage
}

// InkOn returns the colour marks are drawn in on a cell of colour fill: dark ink on light
// fills, light ink on dark ones.
func (t *Theme) InkOn(fill RGBA) RGBA {
	if Contrast(fill, t.InkDark) >= Contrast(fill, t.InkLight) {
		return t.InkDark
	}
	return t.InkLight
}

// dirtyLevels is how many steps of "share of dirty buffers" an aggregated cell can show.
const dirtyLevels = 5

// palette is a theme's colours precomputed as pixels, for the relations a frame shows: fill
// by relation, usage count and dirty level, and the ink for each fill.
type palette struct {
	theme  *Theme
	nrel   int
	fill   []uint32 // [(rel+1)*6*dirtyLevels + usage*dirtyLevels + dirty]
	ink    []uint32 // same index
	small  []uint32 // by code&smallMask: the colour of a cell too small for marks
	empty  uint32
	edge   uint32
	hand   uint32
	hilite uint32
	flash  RGBA
	fg     RGBA
	drop   RGBA
}

func (p *palette) index(rel, usage, dirty int) int {
	return ((rel+1)*6+usage)*dirtyLevels + dirty
}

// build fills the tables for theme t and nrel relations (at least one).
func (p *palette) build(t *Theme, nrel int) {
	nrel = max(nrel, 1)
	p.theme, p.nrel = t, nrel
	n := (nrel + 1) * 6 * dirtyLevels
	p.fill = make([]uint32, n)
	p.ink = make([]uint32, n)
	for rel := -1; rel < nrel; rel++ {
		for u := range 6 {
			for d := range dirtyLevels {
				f := t.Fill(rel, u)
				ink := t.InkOn(f)
				if d > 0 {
					// A cell too small for the dirty mark darkens (or, on a dark
					// fill, lightens) towards the ink with the share of dirty buffers.
					f = Mix(f, ink, 0.5*float64(d)/float64(dirtyLevels-1))
				}
				i := p.index(rel, u, d)
				p.fill[i], p.ink[i] = f.pixel(), t.InkOn(f).pixel()
			}
		}
	}
	p.empty, p.edge = t.Empty.pixel(), t.EmptyEdge.pixel()
	if p.small == nil {
		p.small = make([]uint32, smallMask+1)
	}
	for i := range p.small {
		c := Code(i)
		switch {
		case c.Empty():
			p.small[i] = p.empty
		case c.Dirty():
			p.small[i] = p.fill[p.index(p.relIndex(c.Rel()), min(c.Usage(), maxUsage), dirtyLevels-1)]
		default:
			p.small[i] = p.fill[p.index(p.relIndex(c.Rel()), min(c.Usage(), maxUsage), 0)]
		}
	}
	p.hand, p.hilite = t.Hand.pixel(), t.Highlight.pixel()
	p.flash, p.fg, p.drop = t.Flash, t.Hand, t.Drop
}

// smallMask keeps the bits of a Code that decide a small cell's colour: relation, usage
// count and dirty.
const smallMask = Code(codeRelMask | codeUsageMask | codeDirty)

// relIndex clamps a relation index to the table.
func (p *palette) relIndex(rel int) int {
	if rel >= p.nrel {
		return rel % p.nrel
	}
	return rel
}
