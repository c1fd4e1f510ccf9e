package lab

// Legend says what the grid's colours and marks mean in one run of a lab. The grid paints
// every cell from it (a buffer's relation maps to a role, the role to a colour) and the page
// lists the same entries, so the two cannot disagree.
type Legend struct {
	// Roles are the colours of full buffers. Role(rel) maps a relation (an index in
	// Sim.Relations) to a role.
	Roles []Swatch
	// Role returns the role of relation rel. Nil means the relation's own index, which
	// then needs as many roles as relations (free play).
	Role func(rel int) int
	// Marks are everything else a cell can show, in the order the page's legend lists them:
	// the grid's own marks (PoolMarks: usage shading, dirty, pinned, the clock hand, the
	// flashes of reads and writes) that the lab uses, and the marks its view draws over the
	// grid (a scan's cursor, a lookup that missed). A key is what the page asks the painter
	// to paint as the swatch; colours for the grid's own marks come from the theme.
	Marks []Swatch
	// Empty, when set, replaces the theme's colours of an empty buffer: a lab where pages
	// are seen to leave may want them close to the background.
	Empty *Swatch
	// FadeFrom, when not zero, is the share of its role's colour a buffer at usage count 0
	// shows, rising evenly to all of it at the maximum; zero keeps the grid's usual fade.
	FadeFrom float64
}

// Swatch is one entry of a legend: a colour for each theme and what it means.
type Swatch struct {
	Key   string `json:"key"`
	Label string `json:"label"`
	Doc   string `json:"doc,omitempty"`
	Light string `json:"light"` // "#rrggbb" on the light theme
	Dark  string `json:"dark"`  // and on the dark theme
	// Edge is the outline colour pair of an Empty swatch.
	EdgeLight string `json:"edgeLight,omitempty"`
	EdgeDark  string `json:"edgeDark,omitempty"`
	// Motion marks an entry that only moves (a flash, a fading trail): the page leaves it
	// out when the reader asks for reduced motion, as the grid then does not draw it.
	Motion bool `json:"motion,omitempty"`
	// Wide asks the page for a wide legend entry (a row of swatches, a long explanation).
	Wide bool `json:"wide,omitempty"`
	// Shape is how the page's swatch of a mark is painted: one of the grid's own marks
	// (empty, usage, dirty, pinned, hand, read, write) or of the overlays' shapes (checked,
	// trail, cursor, found, burn, bar, hollow) and glyphs (hourglass, pointer). Empty means the key
	// names it.
	Shape string `json:"shape,omitempty"`
}

// The grid's own marks, painted from the theme; a legend lists those its lab shows.
var (
	MarkEmpty  = Swatch{Key: "empty", Label: "Empty buffer", Doc: "Holds no page yet; new pages go here first."}
	MarkUsage  = Swatch{Key: "usage", Label: "Usage count 0 to 5", Doc: "Fuller colour and more ticks along the bottom the more the page was used. Each time the clock hand passes an unpinned buffer it lowers the count; at 0 the buffer is the next victim.", Wide: true}
	MarkDirty  = Swatch{Key: "dirty", Label: "Dirty (corner triangle)", Doc: "Changed in memory. Before the buffer can be reused the page must be written, and the WAL up to its LSN flushed first."}
	MarkPinned = Swatch{Key: "pinned", Label: "Pinned (bar on the left)", Doc: "A backend is using the page right now; the clock sweep must skip it."}
	MarkHand   = Swatch{Key: "hand", Label: "Clock hand (ring)", Doc: "The buffer the clock sweep looks at next. Markers in the rulers along the top and left edges point at it."}
	MarkRead   = Swatch{Key: "read", Label: "Flash", Doc: "A page was just read into the buffer: a miss, after an eviction once the pool is full.", Motion: true}
	MarkWrite  = Swatch{Key: "write", Label: "Ring flash", Doc: "A dirty page was just written out.", Motion: true}
)

// PoolMarks are the grid's own marks, for a lab that shows all of them.
var PoolMarks = []Swatch{MarkEmpty, MarkUsage, MarkDirty, MarkPinned, MarkHand, MarkRead, MarkWrite}

// RoleOf returns relation rel's role, -1 for none.
func (l *Legend) RoleOf(rel int) int {
	if rel < 0 {
		return -1
	}
	if l.Role == nil {
		return rel
	}
	return l.Role(rel)
}

// Mark returns the mark with key, and whether the legend has it.
func (l *Legend) Mark(key string) (Swatch, bool) {
	for _, m := range l.Marks {
		if m.Key == key {
			return m, true
		}
	}
	return Swatch{}, false
}

// RelationPalette is the colours relations take in turn when each has its own: the
// Okabe–Ito palette, chosen to stay distinct for the common forms of colour blindness, with
// the light theme's sky blue a shade deeper to read on white and the dark theme's green,
// purple, blue and vermillion lifted to read on the dark surface. Every state that matters
// also has a mark that does not depend on colour.
var RelationPalette = []Swatch{
	{Key: "sky", Label: "sky blue", Light: "#3a9ad9", Dark: "#56b4e9"},
	{Key: "orange", Label: "orange", Light: "#e69f00", Dark: "#e69f00"},
	{Key: "green", Label: "bluish green", Light: "#009e73", Dark: "#1fb88a"},
	{Key: "purple", Label: "reddish purple", Light: "#cc79a7", Dark: "#d98cb6"},
	{Key: "blue", Label: "blue", Light: "#0072b2", Dark: "#2a6fc9"},
	{Key: "vermillion", Label: "vermillion", Light: "#d55e00", Dark: "#e8743b"},
	{Key: "yellow", Label: "yellow", Light: "#f0e442", Dark: "#f0e442"},
	{Key: "grey", Label: "grey", Light: "#8a8a8a", Dark: "#a0a0a0"},
}

// PerRelation returns a legend that gives each relation of names its own colour from
// RelationPalette, in turn.
func PerRelation(names []string) Legend {
	roles := make([]Swatch, len(names))
	for i, n := range names {
		c := RelationPalette[i%len(RelationPalette)]
		roles[i] = Swatch{Key: n, Label: n, Light: c.Light, Dark: c.Dark}
	}
	return Legend{Roles: roles, Marks: PoolMarks}
}
