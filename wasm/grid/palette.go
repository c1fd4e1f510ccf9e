package grid

import (
	"fmt"
	"math"

	"github.com/bufferscope/bufferscope/sim"
	"github.com/bufferscope/bufferscope/sim/lab"
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
	c, ok := ParseHex(s)
	if !ok {
		panic("grid: bad colour " + s)
	}
	return c
}

// ParseHex parses an opaque colour written "#rrggbb".
func ParseHex(s string) (RGBA, bool) {
	var c RGBA
	if len(s) != 7 {
		return c, false
	}
	if _, err := fmt.Sscanf(s, "#%02x%02x%02x", &c.R, &c.G, &c.B); err != nil {
		return RGBA{}, false
	}
	c.A = 255
	return c, true
}

// parseHex parses "#rrggbb", or gives def for anything else.
func parseHex(s string, def RGBA) RGBA {
	if c, ok := ParseHex(s); ok {
		return c
	}
	return def
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

// Theme is the set of colours the grid is drawn with. The base themes (Light, Dark) hold
// only neutral colours: the surface, empty buffers, ink, the clock hand, the highlight and
// the flashes. The colours of full buffers come from the lab that runs, through its legend
// (ThemeFor), so the grid knows no lab.
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
	Burn       RGBA // what a buffer emptied unwritten burns in (FlashDrop)
	// Roles are the colours of full buffers, by role: a Code's relation field holds a role
	// (Tracker.SetRelMap maps relations to roles). Empty in the base themes.
	Roles []RGBA
	// Marks are the colours of the legend's marks by key, which a lab's view draws over
	// the grid. Empty in the base themes.
	Marks map[string]RGBA
	// FadeFrom, when not zero, replaces UsageFade: a cell shows FadeFrom of its role's
	// colour at usage count 0, rising evenly to all of it at the maximum.
	FadeFrom float64
	// base is the theme this one was built from by ThemeFor, or nil for a base theme.
	base *Theme
}

// The two base themes the site offers.
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
		Burn:       hex("#d7263d"),
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
		Burn:       hex("#ff5468"),
	}
)

// ThemeFor returns base coloured by a lab's legend: the legend's roles become Roles, its
// marks Marks, its Empty swatch (if any) the empty buffers' colours and its FadeFrom the
// fade, each in base's variant (the light colours on a light theme, the dark ones on a dark
// theme). A mark whose key names a flash (FlashKind.String: "read", "burn") also colours
// that flash, so what the legend shows and what the grid burns agree.
func ThemeFor(base *Theme, legend lab.Legend) *Theme {
	if base.base != nil {
		base = base.base
	}
	t := *base
	t.base = base
	dark := base.Name == Dark.Name
	pick := func(light, darkHex string) RGBA {
		if dark {
			return parseHex(darkHex, base.Empty)
		}
		return parseHex(light, base.Empty)
	}
	t.Roles = make([]RGBA, len(legend.Roles))
	for i, r := range legend.Roles {
		t.Roles[i] = pick(r.Light, r.Dark)
	}
	t.Marks = make(map[string]RGBA, len(legend.Marks))
	for _, m := range legend.Marks {
		if m.Light == "" || m.Dark == "" {
			continue // one of the grid's own marks, drawn in the theme's colours
		}
		c := pick(m.Light, m.Dark)
		t.Marks[m.Key] = c
		switch m.Key {
		case FlashRead.String():
			t.Flash = c
		case FlashDrop.String():
			t.Burn = c
		}
	}
	if e := legend.Empty; e != nil {
		t.Empty = pick(e.Light, e.Dark)
		if e.EdgeLight != "" && e.EdgeDark != "" {
			t.EmptyEdge = pick(e.EdgeLight, e.EdgeDark)
		}
	}
	t.FadeFrom = legend.FadeFrom
	return &t
}

// Base returns the base theme t was built from, or t itself.
func (t *Theme) Base() *Theme {
	if t.base != nil {
		return t.base
	}
	return t
}

// Mark returns the colour of the legend's mark key, and whether the theme has it; the
// clock hand's colour when it has not.
func (t *Theme) Mark(key string) (RGBA, bool) {
	c, ok := t.Marks[key]
	if !ok {
		return t.Hand, false
	}
	return c, true
}

// RelMap returns legend.RoleOf for each of nrel relations, for Tracker.SetRelMap; nil when
// the legend gives each relation its own role.
func RelMap(legend lab.Legend, nrel int) []int32 {
	if legend.Role == nil {
		return nil
	}
	m := make([]int32, nrel)
	for i := range m {
		m[i] = int32(legend.RoleOf(i))
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

// Rel returns the colour of role i; the roles repeat after the last. A theme without roles
// draws every full buffer in the empty buffers' edge colour.
func (t *Theme) Rel(i int) RGBA {
	if i < 0 {
		return t.Empty
	}
	if len(t.Roles) == 0 {
		return t.EmptyEdge
	}
	return t.Roles[i%len(t.Roles)]
}

// UsageFade is how much of a relation's colour a cell shows for each usage count: a buffer
// the clock sweep has worn down to zero fades towards the background; one at the maximum
// (BM_MAX_USAGE_COUNT = 5) shows the full colour.
func UsageFade(usage int) float64 {
	return 0.50 + 0.10*float64(min(max(usage, 0), maxUsage))
}

// maxUsage is BM_MAX_USAGE_COUNT, the largest usage count.
const maxUsage = sim.BMMaxUsageCount

// Fill returns the colour of a valid buffer of role rel with the given usage count, before
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
	p.flash, p.fg, p.drop = t.Flash, t.Hand, t.Burn
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

// role returns the legend role a relation index is drawn as: roles repeat after the
// theme's last, as Theme.Rel's colours do.
func (p *palette) role(rel int) int {
	if n := len(p.theme.Roles); n > 0 && rel >= 0 {
		return rel % n
	}
	return rel
}
