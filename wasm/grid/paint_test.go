package grid

import (
	"strings"
	"testing"
)

// frameOf returns a frame of n buffers on a w×h canvas with every buffer empty.
func frameOf(n, w, h int, theme *Theme) *Frame {
	return &Frame{Layout: Fit(n, w, h), Codes: make([]Code, n), NumRel: 4, Theme: theme, Hand: -1, Highlight: -1}
}

func TestPaintCellsAndMarks(t *testing.T) {
	for _, theme := range []*Theme{testLight, testDark} {
		f := frameOf(64, 400, 400, theme) // big cells
		f.Codes[1] = MakeCode(0, 5, false, false)
		f.Codes[2] = MakeCode(1, 0, false, false)
		f.Codes[3] = MakeCode(2, 3, true, false)
		f.Codes[4] = MakeCode(3, 2, false, true)
		var p Painter
		p.Paint(f)
		l := f.Layout
		if side := l.Zoom().Cell - l.Gap(); side < 20 {
			t.Fatalf("cells of %d px; the test needs big ones", side)
		}
		centre := func(id int) RGBA {
			x, y, s := l.CellRect(id)
			return p.At(x+s/2, y+s/2)
		}
		if got := centre(0); got != theme.Empty {
			t.Errorf("%s: empty buffer centre %v, want Empty %v", theme.Name, got, theme.Empty)
		}
		if x, y, _ := l.CellRect(0); p.At(x, y) != theme.EmptyEdge {
			t.Errorf("%s: empty buffer has no outline", theme.Name)
		}
		if got, want := centre(1), theme.Fill(0, 5); got != want {
			t.Errorf("%s: usage 5 centre %v, want %v", theme.Name, got, want)
		}
		if got, want := centre(2), theme.Fill(1, 0); got != want {
			t.Errorf("%s: usage 0 centre %v, want %v", theme.Name, got, want)
		}
		// Dirty: the top-right corner is ink, the top-left is fill.
		x, y, s := l.CellRect(3)
		fill := theme.Fill(2, 3)
		if got := p.At(x+s-1, y); got != theme.InkOn(fill) {
			t.Errorf("%s: dirty corner %v, want ink %v", theme.Name, got, theme.InkOn(fill))
		}
		if got := p.At(x+s/2, y); got != fill {
			t.Errorf("%s: top edge of a dirty cell %v, want fill %v", theme.Name, got, fill)
		}
		// Pinned: the left edge is ink; a clean unpinned cell's is not.
		x, y, s = l.CellRect(4)
		if got, want := p.At(x, y+s/2), theme.InkOn(theme.Fill(3, 2)); got != want {
			t.Errorf("%s: pinned bar %v, want %v", theme.Name, got, want)
		}
		if x, y, s := l.CellRect(1); p.At(x, y+s/2) != theme.Fill(0, 5) {
			t.Errorf("%s: unpinned cell has a bar", theme.Name)
		}
		// Gaps stay transparent.
		x, y, s = l.CellRect(1)
		if got := p.At(x+s, y+s/2); got.A != 0 {
			t.Errorf("%s: gap is %v, want transparent", theme.Name, got)
		}
	}
}

func TestPaintUsageTicks(t *testing.T) {
	f := frameOf(16, 500, 500, testLight)
	for u := range 6 {
		f.Codes[u] = MakeCode(0, u, false, false)
	}
	var p Painter
	p.Paint(f)
	l := f.Layout
	for u := range 6 {
		x, y, s := l.CellRect(u)
		ink := testLight.InkOn(testLight.Fill(0, u))
		th := max(1, s/10)
		n := 0
		for xx := x; xx < x+s; xx++ {
			if p.At(xx, y+s-1-th) == ink && p.At(xx-1, y+s-1-th) != ink {
				n++ // the start of a tick
			}
		}
		if n != u {
			t.Errorf("usage %d: %d ticks", u, n)
		}
	}
}

func TestPaintHandAndHighlight(t *testing.T) {
	f := frameOf(1024, 600, 500, testDark)
	f.Hand, f.Highlight = 100, 700
	var p Painter
	p.Paint(f)
	l := f.Layout
	x, y, s := l.CellRect(100)
	if got := p.At(x-1, y+s/2); got != testDark.Hand {
		t.Errorf("no ring left of the hand's cell: %v", got)
	}
	if got := p.At(Ruler-2, y+s/2); got != testDark.Hand {
		t.Errorf("no marker in the left ruler at the hand's row: %v", got)
	}
	if got := p.At(x+s/2, Ruler-2); got != testDark.Hand {
		t.Errorf("no marker in the top ruler at the hand's column: %v", got)
	}
	x, y, s = l.CellRect(700)
	if got := p.At(x+s/2, y-2); got != testDark.Highlight {
		t.Errorf("no highlight ring above the inspected cell: %v", got)
	}
}

func TestPaintFlashes(t *testing.T) {
	f := frameOf(256, 400, 400, testLight)
	for i := range f.Codes {
		f.Codes[i] = MakeCode(0, 2, false, false)
	}
	var fl Flashes
	fl.Reset(256)
	fl.Note(FlashRead, 10)
	fl.Note(FlashWrite, 20)
	f.Flashes = &fl
	var p Painter
	p.Paint(f)
	l := f.Layout
	fill := testLight.Fill(0, 2)
	x, y, s := l.CellRect(10)
	if got := p.At(x+s/2, y+s/2); got == fill {
		t.Errorf("a read flash left the fill unchanged")
	}
	x, y, s = l.CellRect(20)
	if got := p.At(x+s/2, y+s/2); got != fill {
		t.Errorf("a write flash changed the inside of the cell: %v", got)
	}
	if got := p.At(x, y+s/2); got == fill {
		t.Errorf("a write flash drew no ring")
	}
	for range FlashTicks {
		fl.Tick()
	}
	p.Paint(f)
	x, y, s = l.CellRect(10)
	if got := p.At(x+s/2, y+s/2); got != fill {
		t.Errorf("a read flash is still there after FlashTicks: %v", got)
	}
	f.Flashes = nil
	fl.Note(FlashRead, 10)
	p.Paint(f)
	if got := p.At(x+s/2, y+s/2); got != fill {
		t.Errorf("flashes are drawn with Frame.Flashes nil (reduced motion)")
	}
}

func TestPaintBlocksShowsTheDominantRelation(t *testing.T) {
	n := 2621440 // 20 GB
	f := frameOf(n, 600, 400, testLight)
	l := f.Layout
	b := l.Zoom().Block
	if b < 2 {
		t.Fatalf("20 GB on 600×400 is not aggregated: %v", l.Zoom())
	}
	// First block: mostly relation 1, one buffer of relation 0, all usage 5, one dirty.
	for r := range b {
		for c := range b {
			f.Codes[r*l.Cols+c] = MakeCode(1, 5, false, false)
		}
	}
	f.Codes[0] = MakeCode(0, 5, false, false)
	var p Painter
	p.Paint(f)
	if got, want := p.At(l.OX, l.OY), testLight.Fill(1, 5); got != want {
		t.Errorf("mostly relation 1: pixel %v, want %v", got, want)
	}
	if got := p.At(l.OX+1, l.OY); got != testLight.Empty {
		t.Errorf("an empty block is %v, want Empty", got)
	}
	// Make the whole first block dirty: it darkens towards the ink.
	for r := range b {
		for c := range b {
			f.Codes[r*l.Cols+c] |= codeDirty
		}
	}
	p.Paint(f)
	if got := p.At(l.OX, l.OY); got == testLight.Fill(1, 5) {
		t.Errorf("an all-dirty block looks clean")
	}
	// One pinned buffer turns the pixel to ink.
	f.Codes[l.Cols+1] |= codePinned
	p.Paint(f)
	if got := p.At(l.OX, l.OY); got != testLight.InkDark && got != testLight.InkLight {
		t.Errorf("a block with a pinned buffer is %v, want ink", got)
	}
}

func TestPaintRowsOnlyTouchesItsBand(t *testing.T) {
	f := frameOf(16384, 600, 400, testLight)
	var p Painter
	p.Paint(f)
	before := append([]byte(nil), p.Bytes()...)
	for i := range f.Codes {
		f.Codes[i] = MakeCode(0, 5, false, false)
	}
	p.PaintRows(f, 100, 200)
	after := p.Bytes()
	for y := range 400 {
		changed := string(before[y*600*4:(y+1)*600*4]) != string(after[y*600*4:(y+1)*600*4])
		if (y < 100 || y >= 200) && changed {
			t.Fatalf("row %d outside the band changed", y)
		}
	}
}

// TestBeginThenBandsMatchAFullPaint: a large view started with Begin and painted band by
// band, top to bottom, ends as the same picture as one full paint; before the bands reach
// them the pixels keep what they showed, and a resize clears them.
func TestBeginThenBandsMatchAFullPaint(t *testing.T) {
	const w, h = 600, 400
	f := frameOf(2621440, w, h, testLight)
	for i := range f.Codes {
		f.Codes[i] = MakeCode(i%4, i%6, i%7 == 0, false)
	}
	f.Hand, f.Highlight = 1000, 2000
	var want Painter
	want.Paint(f)

	var p Painter
	p.Paint(frameOf(2621440, w, h, testDark))
	old := append([]byte(nil), p.Bytes()...)
	p.Begin(f)
	if string(p.Bytes()) != string(old) {
		t.Fatal("Begin at the same size repainted pixels")
	}
	if !p.Fresh(f) {
		t.Fatal("after Begin the painter is not fresh for the frame, so its bands would not be kept")
	}
	for y := 0; y < h; y += 37 {
		p.PaintRows(f, y, y+37)
	}
	if string(p.Bytes()) != string(want.Bytes()) {
		t.Error("Begin and bands over every row differ from a full paint")
	}

	var q Painter
	q.Paint(frameOf(2621440, w+10, h, testDark))
	q.Begin(f)
	for i, b := range q.Bytes() {
		if b != 0 {
			t.Fatalf("after Begin at a new size byte %d is %d, want cleared", i, b)
		}
	}
}

func TestPaintDoesNotAllocate(t *testing.T) {
	for _, n := range []int{16384, 2621440} {
		f := frameOf(n, 800, 600, testDark)
		var fl Flashes
		fl.Reset(n)
		f.Flashes, f.Hand, f.Highlight = &fl, 5, 6
		var p Painter
		p.Paint(f)
		if a := testing.AllocsPerRun(3, func() { p.Paint(f) }); a != 0 {
			t.Errorf("n=%d: Paint allocates %v times", n, a)
		}
	}
}

func TestPaintSwatch(t *testing.T) {
	px := PaintSwatch(testDark, 4, Swatch{Code: MakeCode(1, 5, true, false), Hand: true}, 24)
	if len(px) != 24*24*4 {
		t.Fatalf("swatch has %d bytes", len(px))
	}
	at := func(x, y int) RGBA { i := (y*24 + x) * 4; return RGBA{px[i], px[i+1], px[i+2], px[i+3]} }
	if got := at(12, 12); got != testDark.Fill(1, 5) {
		t.Errorf("swatch centre %v, want %v", got, testDark.Fill(1, 5))
	}
	if got := at(1, 12); got != testDark.Hand {
		t.Errorf("swatch hand ring %v", got)
	}
	if got := at(0, 0); got.A != 0 {
		t.Errorf("swatch corner %v, want transparent", got)
	}
}

func TestPaintSurvivesOddInput(t *testing.T) {
	var p Painter
	for _, f := range []*Frame{
		{Layout: Fit(16, 1, 1), Codes: make([]Code, 16), Hand: 3, Highlight: 99},
		{Layout: Fit(100, 50, 30), Codes: make([]Code, 10), Hand: -1, Highlight: -1}, // short codes
		{Layout: Fit(13107200, 40, 40), Codes: make([]Code, 13107200), Hand: 13107199, Highlight: 0},
	} {
		p.Paint(f)
		p.PaintRows(f, -10, 1<<20)
		p.PaintRows(f, 50, 10)
	}
}

// TestUpdateMatchesAFullPaint changes codes, flashes, the hand and the zoom at random and
// checks after every Update that the pixels equal a fresh full paint, and that only the
// damaged rectangles changed.
func TestUpdateMatchesAFullPaint(t *testing.T) {
	rng := uint64(7)
	next := func(n int) int {
		rng ^= rng << 13
		rng ^= rng >> 7
		rng ^= rng << 17
		return int(rng % uint64(n))
	}
	for _, tc := range []struct {
		n, w, h int
		zoom    int
	}{{300, 300, 200, 0}, {16384, 700, 500, 0}, {16384, 700, 500, 3}, {131072, 330, 260, 0}, {1024, 120, 90, 0}} {
		f := frameOf(tc.n, tc.w, tc.h, testDark)
		f.Layout = f.Layout.ZoomCentre(tc.zoom)
		var fl Flashes
		fl.Reset(tc.n)
		f.Flashes = &fl
		f.Hand = 0
		var p, fresh Painter
		p.Paint(f)
		p.TakeDamage()
		partial := 0
		for round := range 40 {
			before := append([]byte(nil), p.Bytes()...)
			for range next(30) {
				id := next(tc.n)
				f.Codes[id] = MakeCode(next(5)-1, next(6), next(3) == 0, next(5) == 0)
			}
			for range next(4) {
				fl.Note(FlashKind(next(2)), next(tc.n))
			}
			fl.Tick()
			if next(3) == 0 {
				f.Hand = (f.Hand + next(50)) % tc.n
			}
			if round == 20 {
				f.Highlight = next(tc.n)
			}
			p.Update(f)
			fresh.Paint(f)
			got, want := p.Bytes(), fresh.Bytes()
			if string(got) != string(want) {
				for i := 0; i < len(got); i += 4 {
					if string(got[i:i+4]) != string(want[i:i+4]) {
						t.Fatalf("n=%d zoom %d round %d: pixel (%d,%d) is %v after Update, %v after Paint", tc.n, tc.zoom, round, i/4%tc.w, i/4/tc.w, got[i:i+4], want[i:i+4])
					}
				}
			}
			full, rects := p.TakeDamage()
			if full {
				continue
			}
			partial++
			inDamage := func(x, y int) bool {
				for _, r := range rects {
					if x >= r.X0 && x < r.X1 && y >= r.Y0 && y < r.Y1 {
						return true
					}
				}
				return false
			}
			for i := 0; i < len(got); i += 4 {
				if string(got[i:i+4]) != string(before[i:i+4]) && !inDamage(i/4%tc.w, i/4/tc.w) {
					t.Fatalf("n=%d round %d: pixel (%d,%d) changed outside the damage", tc.n, round, i/4%tc.w, i/4/tc.w)
				}
			}
		}
		if partial < 30 {
			t.Errorf("n=%d zoom %d: only %d of 40 Updates repainted part of the canvas", tc.n, tc.zoom, partial)
		}
	}
}

func TestUpdateRepaintsLittle(t *testing.T) {
	f := frameOf(16384, 700, 500, testLight)
	f.Hand = 10
	var p Painter
	p.Paint(f)
	p.TakeDamage()
	if p.Update(f) {
		t.Error("Update repainted with nothing changed")
	}
	f.Codes[100] = MakeCode(1, 1, false, false)
	if !p.Update(f) {
		t.Fatal("Update did not repaint a changed cell")
	}
	full, rects := p.TakeDamage()
	if full || len(rects) != 1 {
		t.Errorf("one changed cell: full %v, %d rectangles", full, len(rects))
	}
	f.Layout = f.Layout.ZoomCentre(1)
	p.Update(f)
	if full, _ := p.TakeDamage(); !full {
		t.Error("a zoom did not repaint everything")
	}
	buf := p.RectBytes(Rect{10, 10, 13, 12}, nil)
	if len(buf) != 3*2*4 || string(buf[:4]) != string(p.Bytes()[(10*700+10)*4:][:4]) {
		t.Errorf("RectBytes gave %d bytes", len(buf))
	}
}

// TestPaintDropFlash: an emptied buffer burns in Theme.Drop, then fades to Empty; in a view
// of blocks the pixel burns too.
func TestPaintDropFlash(t *testing.T) {
	for _, theme := range []*Theme{dropLight, dropDark} {
		f := frameOf(64, 400, 400, theme)
		var fl Flashes
		fl.Reset(64)
		fl.Note(FlashDrop, 5)
		f.Flashes = &fl
		var p Painter
		p.Paint(f)
		x, y, s := f.Layout.CellRect(5)
		if got, want := p.At(x+s/2, y+s/2), Mix(theme.Empty, theme.Burn, dropStrength); got != want {
			t.Errorf("%s: burning cell %v, want %v", theme.Name, got, want)
		}
		fl.Age(FlashTicks)
		p.Update(f)
		if got := p.At(x+s/2, y+s/2); got != theme.Empty {
			t.Errorf("%s: after the flash the cell is %v, want Empty %v", theme.Name, got, theme.Empty)
		}
		b := frameOf(5000, 60, 60, theme)
		var bf Flashes
		bf.Reset(5000)
		bf.Note(FlashDrop, 0)
		b.Flashes = &bf
		p.Paint(b)
		if got, want := p.At(b.Layout.OX, b.Layout.OY), Mix(theme.Empty, theme.Burn, dropStrength); got != want {
			t.Errorf("%s: burning block %v, want %v", theme.Name, got, want)
		}
	}
}

// TestPatternsTellRolesApart paints one clean cell of each of the first len(Patterns)
// roles and compares their shapes alone (which pixels differ from the cell's fill): every
// role's shape differs from every other's, so roles differ by more than their colour. Small
// cells show no pattern.
func TestPatternsTellRolesApart(t *testing.T) {
	n := len(Patterns)
	f := frameOf(64, 400, 400, testLight)
	for r := range n {
		f.Codes[r] = MakeCode(r, 5, false, false)
	}
	f.NumRel = n
	var p Painter
	p.Paint(f)
	l := f.Layout
	shape := func(id int) string {
		x, y, s := l.CellRect(id)
		fill := p.At(x+s/2, y+s/2)
		var b strings.Builder
		for yy := y; yy < y+s; yy++ {
			for xx := x; xx < x+s; xx++ {
				if p.At(xx, yy) != fill {
					b.WriteByte('#')
				} else {
					b.WriteByte('.')
				}
			}
			b.WriteByte('\n')
		}
		return b.String()
	}
	seen := map[string]int{}
	for r := range n {
		s := shape(r)
		if o, ok := seen[s]; ok {
			t.Errorf("roles %d (%s) and %d (%s) have the same shape:\n%s", o, Pattern(o), r, Pattern(r), s)
		}
		seen[s] = r
	}
	if Pattern(n) != Pattern(0) || Pattern(-1) != "plain" {
		t.Errorf("Pattern(%d) = %q, Pattern(-1) = %q; the patterns repeat after the last, and an empty buffer has none", n, Pattern(n), Pattern(-1))
	}

	small := frameOf(16384, 400, 400, testLight)
	small.Codes[0] = MakeCode(1, 5, false, false)
	small.NumRel = 2
	var q Painter
	q.Paint(small)
	x, y, s := small.Layout.CellRect(0)
	if s >= patternMin {
		t.Fatalf("cells of %d px; this part needs small ones", s)
	}
	for yy := y; yy < y+s; yy++ {
		for xx := x; xx < x+s; xx++ {
			if q.At(xx, yy) != q.At(x, y) {
				t.Errorf("a %d px cell has a pattern at (%d, %d)", s, xx-x, yy-y)
			}
		}
	}
}
