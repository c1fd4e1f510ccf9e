package app

import (
	"encoding/csv"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/bufferscope/bufferscope/sim"
	"github.com/bufferscope/bufferscope/sim/lab"
	"github.com/bufferscope/bufferscope/wasm/grid"
	"github.com/bufferscope/bufferscope/wasm/labview"
)

// The real pool: what a real server's pg_buffercache shows (the page's PostgreSQL 18, PGlite),
// drawn on the grid in place of the simulated pool with the same painter, marks and
// inspection, so that the two can be compared buffer by buffer. The simulated run stays as it
// was, paused; anything that steps or changes it (play, step, a command, a seek) brings it
// back on the grid first, and a new run replaces both.

// RealPool is a real server's shared buffers as the page read them after a statement.
type RealPool struct {
	// Server names the server, for the grid's pane: "PostgreSQL 18.6".
	Server string
	// NBuffers is the server's shared_buffers in buffers.
	NBuffers int
	// Relations names the relations whose pages the rows show, one CSV line each:
	// reltablespace, reldatabase, relfilenode, relname, and t for a system catalog (its own
	// schema pg_catalog, pg_toast or information_schema) or f for the reader's relations.
	Relations string
	// Rows are pg_buffercache's rows as COPY writes them in CSV (sim.ParseBufferCacheCSV);
	// buffers without a row are empty.
	Rows string
}

// MaxRealBuffers is the largest real pool the grid draws: 8GB of shared buffers, far above
// PGlite's 128MB, and a bound on what a message from the page can make the app allocate.
const MaxRealBuffers = 1 << 20

// MaxRealText is the most text RealPool's Rows and Relations may hold together: a full pool
// of MaxRealBuffers rows is about 40 MB.
const MaxRealText = 64 << 20

// RealShown is what ShowReal drew.
type RealShown struct {
	Buffers   int `json:"buffers"`   // the pool's size
	Full      int `json:"full"`      // buffers holding a page
	Dirty     int `json:"dirty"`     // of them, dirty
	Pinned    int `json:"pinned"`    // pinned by a backend
	Relations int `json:"relations"` // relations with a page in the pool
}

// realShown is the real pool on the grid, and what the simulated run's grid goes back to.
type realShown struct {
	run   *realRun
	saved labview.View // the simulated run's view, while the real pool is shown
	// beside: the real pool is a pane beside the run's, which goes on playing; otherwise
	// it is drawn in their place.
	beside bool
}

// ErrNotBeside is ShowReal's error for a real pool that cannot be drawn beside the run's:
// the panes of one canvas share one layout, so their pools must be the same size.
type ErrNotBeside struct{ Real, Run int }

func (e ErrNotBeside) Error() string {
	return fmt.Sprintf("the real pool has %d buffers and the simulated one %d: panes side by side must be pools of one size; set shared_buffers to %s to see them side by side",
		e.Real, e.Run, sim.FormatSize(int64(e.Real)*sim.BLCKSZ))
}

// ShowReal draws p on the grid in place of the simulated pool, and pauses playback; with
// beside, as a pane of its own beside the run's panes, playback going on, when the two
// pools are the same size (ErrNotBeside otherwise). A pool that cannot be read (rows no
// pool could show, a size out of range) is refused with what is wrong, and the grid stays
// as it was.
func (a *App) ShowReal(p RealPool, beside bool) (RealShown, error) {
	if p.NBuffers < sim.MinNBuffers || p.NBuffers > MaxRealBuffers {
		return RealShown{}, fmt.Errorf("a real pool has %d to %d buffers, not %d", sim.MinNBuffers, MaxRealBuffers, p.NBuffers)
	}
	if len(p.Rows)+len(p.Relations) > MaxRealText {
		return RealShown{}, fmt.Errorf("a real pool's rows and relations are at most %s of text, not %s", megabytes(MaxRealText), megabytes(int64(len(p.Rows)+len(p.Relations))))
	}
	names, system, err := parseRealRelations(p.Relations)
	if err != nil {
		return RealShown{}, err
	}
	rows, err := sim.ParseBufferCacheCSV(p.Rows)
	if err != nil {
		return RealShown{}, err
	}
	s, err := sim.RestoreBufferCache(p.NBuffers, 18, names, rows)
	if err != nil {
		return RealShown{}, err
	}
	server := strings.TrimSpace(p.Server)
	if server == "" {
		server = "a real server"
	}
	server = truncate(server, 80)
	run := &realRun{sim: s, server: server, legend: realLegend(s.Relations(), system)}
	shown := RealShown{Buffers: p.NBuffers}
	rels := map[sim.RelFileLocator]bool{}
	for _, r := range rows {
		if r.Valid {
			shown.Full++
			rels[sim.RelFileLocator{SpcOid: r.RelTablespace, DbOid: r.RelDatabase, RelNumber: r.RelFileNode}] = true
			if r.IsDirty {
				shown.Dirty++
			}
			if r.PinningBackends > 0 {
				shown.Pinned++
			}
		}
	}
	shown.Relations = len(rels)

	saved := a.runView()
	var target lab.Run = run
	k := len(lab.PanesOf(a.run)) // the real pane's index beside the run's
	if beside {
		if n := a.run.Sim().Pool.NBuffers; n != p.NBuffers {
			return RealShown{}, ErrNotBeside{Real: p.NBuffers, Run: n}
		}
		target = &besideRun{Run: a.run, real: run}
		a.lv = &besideView{View: saved, real: &realView{run: run, speeds: saved.Options()}, k: k}
	} else {
		a.Pause()
		a.lv = &realView{run: run, speeds: saved.Options()}
	}
	a.CancelJob()
	a.real = &realShown{run: run, saved: saved, beside: beside}
	a.changes++
	legend := run.legend
	var roles []int32
	if beside {
		legend, roles = a.besideLegend()
	}
	a.view.attach(target, legend, a.lv.Options())
	if beside {
		a.view.setPaneRoles(k, roles, true)
	}
	return shown, nil
}

// besideLegend is the legend of the run's panes and the real one's side by side: the run's
// roles, then the real pool's, with the run's marks; and the map from the real pool's
// relations to those roles.
func (a *App) besideLegend() (lab.Legend, []int32) {
	own, real := a.run.Legend(), a.real.run.legend
	l := own
	l.Roles = append(slices.Clone(own.Roles), real.Roles...)
	l.Role = own.RoleOf // never nil, so that the run's relations are mapped and the real ones offset
	rels := a.real.run.sim.Relations()
	m := make([]int32, len(rels))
	for i := range m {
		m[i] = int32(len(own.Roles) + real.RoleOf(i))
	}
	return l, m
}

// besideRun is the run with the real pool as a pane of its own after the run's panes. The
// run's steps advance its own panes; the real one never changes.
type besideRun struct {
	lab.Run
	real *realRun
}

// Panes are the run's panes, then the real pool's; a run's pane without a label of its own
// is named the simulation, beside the real server.
func (r *besideRun) Panes() []lab.Pane {
	panes := slices.Clone(lab.PanesOf(r.Run))
	for i := range panes {
		if panes[i].Label == "" {
			panes[i].Key, panes[i].Label, panes[i].Doc = "sim", "Simulation", "The simulated pool, which plays on beside the real one."
		}
	}
	return append(panes, r.real.Panes()[0])
}

// besideView is the run's lab view with the real pool's pane, index k, after the run's:
// everything about the run's panes is the lab view's, the real pane's is realView's.
type besideView struct {
	labview.View
	real *realView
	k    int
}

func (v *besideView) Overlay(pane int, o *grid.Overlay, l *grid.Layout, t *grid.Theme, reduced bool) bool {
	if pane == v.k {
		return v.real.Overlay(pane, o, l, t, reduced)
	}
	return v.View.Overlay(pane, o, l, t, reduced)
}

func (v *besideView) Inspect(pane, id int) []labview.Detail {
	if pane == v.k {
		return v.real.Inspect(pane, id)
	}
	return v.View.Inspect(pane, id)
}

// runView is the run's lab view, also while the grid shows a real pool.
func (a *App) runView() labview.View {
	if a.real != nil {
		return a.real.saved
	}
	return a.lv
}

// ShowingReal reports whether the grid shows a real pool.
func (a *App) ShowingReal() bool { return a.real != nil }

// ShowSimulated brings the simulated run back on the grid alone, if a real pool is shown,
// and reports whether it was.
func (a *App) ShowSimulated() bool {
	if a.real == nil {
		return false
	}
	a.lv = a.real.saved
	a.real = nil
	a.changes++
	a.view.attach(a.run, a.run.Legend(), a.lv.Options())
	return true
}

// stepping is ShowSimulated before the run steps: a real pool in its place goes, one beside
// it stays.
func (a *App) stepping() {
	if a.real != nil && !a.real.beside {
		a.ShowSimulated()
	}
}

// parseRealRelations reads RealPool.Relations: the relations to name, and which are system
// catalogs.
func parseRealRelations(text string) ([]sim.RestoredRelation, map[sim.RelFileLocator]bool, error) {
	r := csv.NewReader(strings.NewReader(text))
	r.FieldsPerRecord = 5
	var rels []sim.RestoredRelation
	system := map[sim.RelFileLocator]bool{}
	for {
		rec, err := r.Read()
		if err != nil {
			if err == io.EOF {
				return rels, system, nil
			}
			return nil, nil, fmt.Errorf("the real pool's relations: %w", err)
		}
		var oids [3]sim.Oid
		for i := range oids {
			v, err := strconv.ParseUint(rec[i], 10, 32)
			if err != nil {
				return nil, nil, fmt.Errorf("the real pool's relations: %q is not an OID", rec[i])
			}
			oids[i] = sim.Oid(v)
		}
		loc := sim.RelFileLocator{SpcOid: oids[0], DbOid: oids[1], RelNumber: oids[2]}
		name := truncate(rec[3], nameDataLen-1)
		if name == "" {
			name = fmt.Sprintf("relfilenode %d", loc.RelNumber)
		}
		rels = append(rels, sim.RestoredRelation{Locator: loc, Name: name})
		if rec[4] == "t" {
			system[loc] = true
		}
	}
}

// nameDataLen mirrors NAMEDATALEN: a relation's name has at most 63 bytes.
const nameDataLen = 64

// truncate cuts s to at most n bytes, at a rune boundary.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// realUserColours is how many of the reader's relations get a colour of their own; the
// others share the last, and the system catalogs take grey.
const realUserColours = 6

// realLegend colours a real pool's relations: each of the reader's first realUserColours
// relations its own colour in catalog order (the order of the rows' first pages), any others
// one shared colour, and the system catalogs, with relations the rows name no relation for
// (pages of another database), grey; with the pool's own marks but the clock hand and the
// flashes, which pg_buffercache cannot show.
func realLegend(rels []*sim.Relation, system map[sim.RelFileLocator]bool) lab.Legend {
	var users []int
	for i, r := range rels {
		if !system[r.Locator] && !strings.HasPrefix(r.Name, "relfilenode ") {
			users = append(users, i)
		}
	}
	// One more relation than there are colours takes the last colour itself; more share it.
	own := len(users)
	if own > realUserColours+1 {
		own = realUserColours
	}
	var roles []lab.Swatch
	for k, i := range users[:own] {
		c := lab.RelationPalette[k]
		roles = append(roles, lab.Swatch{Key: "real-" + strconv.Itoa(k), Label: rels[i].Name, Light: c.Light, Dark: c.Dark})
	}
	if own < len(users) {
		c := lab.RelationPalette[own]
		roles = append(roles, lab.Swatch{Key: "real-others", Label: fmt.Sprintf("%d more relations", len(users)-own), Light: c.Light, Dark: c.Dark})
	}
	sys := len(roles) // the system catalogs' role, last
	grey := lab.RelationPalette[len(lab.RelationPalette)-1]
	roles = append(roles, lab.Swatch{Key: "real-system", Label: "System catalogs and other databases",
		Doc: "Pages of PostgreSQL's own catalogs (pg_catalog, pg_toast), read by every statement's planning, and of databases other than this one.", Light: grey.Light, Dark: grey.Dark})
	role := make([]int, len(rels))
	for i := range role {
		role[i] = sys
	}
	for k, i := range users {
		role[i] = min(k, own) // the shared role is own's index
	}
	return lab.Legend{
		Roles: roles,
		Role: func(rel int) int {
			if rel >= 0 && rel < len(role) {
				return role[rel]
			}
			return sys
		},
		Marks: []lab.Swatch{lab.MarkEmpty, lab.MarkUsage, lab.MarkDirty, lab.MarkPinned},
	}
}

// realRun is the real pool as a run the grid can show: it never steps.
type realRun struct {
	sim    *sim.Sim
	server string
	legend lab.Legend
}

func (r *realRun) Sim() *sim.Sim          { return r.sim }
func (r *realRun) Done() bool             { return true }
func (r *realRun) Counters() any          { return nil }
func (r *realRun) Legend() lab.Legend     { return r.legend }
func (r *realRun) CheckInvariants() error { return nil }
func (r *realRun) Seeded() bool           { return false }

// Panes names the real pool's one pane, for the bridge's view and the inspection.
func (r *realRun) Panes() []lab.Pane {
	return []lab.Pane{{Run: r, Key: "real", Label: r.server + ", real", Doc: "The real server's shared buffers, as its pg_buffercache showed them after the last statement."}}
}

// realView is the lab view of the real pool: no clock hand (pg_buffercache does not show
// it), no steps, and each buffer's pg_buffercache row in its details. It keeps the
// simulated lab's speeds, so that the speed control means the same while the real pool is
// shown.
type realView struct {
	labview.Default // no overlay, flashes or stats of its own
	run             *realRun
	speeds          labview.Options
}

func (v *realView) Options() labview.Options {
	return labview.Options{HideHand: true, Speeds: v.speeds.Speeds}
}

// Step steps nothing: the real pool changes only when the page reads it again.
func (v *realView) Step(lab.Run, int, func() bool, func(int, []sim.Event, bool)) (int, error) {
	return 0, nil
}

// Inspect gives buffer id's row of pg_buffercache as the server showed it, its bufferid
// numbered from 1 as PostgreSQL numbers buffers.
func (v *realView) Inspect(_, id int) []labview.Detail {
	r := v.run.sim.Pool.BufferCacheRow(id)
	row := strings.Split(strings.TrimSuffix(string(r.AppendCSV(nil)), "\n"), ",")
	return []labview.Detail{
		{Label: "Server", Value: v.run.server},
		{Label: "bufferid", Value: fmt.Sprintf("%d (PostgreSQL numbers buffers from 1)", r.BufferID)},
		{Label: "pg_buffercache row", Value: "as the server showed it after the last statement",
			Table: [][]string{sim.BufferCacheColumns, row}},
	}
}
