package app

import (
	"fmt"
	"math"

	"github.com/bufferscope/bufferscope/sim"
	"github.com/bufferscope/bufferscope/sim/lab"
	"github.com/bufferscope/bufferscope/sim/labs"
	"github.com/bufferscope/bufferscope/sim/param"
	"github.com/bufferscope/bufferscope/wasm/grid"
)

// Stats is where the run and playback stand, for the page's panel and the tests. Counters
// is the lab's own counters struct (a pointer to what lab.Lab.Counters returns), whose
// fields cross the bridge under their counter keys (lab.Describe).
type Stats struct {
	Lab           string         `json:"lab"`
	Step          uint64         `json:"step"`
	Now           float64        `json:"now"` // the virtual clock, in seconds
	NBuffers      int            `json:"nbuffers"`
	SharedBuffers string         `json:"sharedBuffers"`
	Seed          string         `json:"seed"` // digits: seeds go beyond 2^53; "" for a lab without one
	Seeded        bool           `json:"seeded"`
	Done          bool           `json:"done"`
	Playing       bool           `json:"playing"`
	Speed         float64        `json:"speed"`
	SpeedLabel    string         `json:"speedLabel"`
	SpeedParam    string         `json:"speedParam"`
	Rate          float64        `json:"rate"`  // steps per second of wall time, over about a second
	Error         *string        `json:"error"` // why playback stopped, or nil
	Counters      any            `json:"counters"`
	View          map[string]any `json:"view,omitempty"` // what the lab's view measures (labview.View.Stats)
	Time          TimeInfo       `json:"time"`           // the timeline: its end, the lab's events, a job under way
	// Events counts the lab's events of interest (LabInfo.Events) since the run was built,
	// by kind: the page's event log writes the difference between two stats in words.
	Events map[string]uint64 `json:"events"`
	// Panes are the pools the run shows side by side (a race), the run's own first, each
	// with its counters; absent when it shows one. Counters above are the first pane's.
	Panes []PaneStats `json:"panes,omitempty"`
	// Real names the real server whose pool the grid shows in place of the run's (ShowReal);
	// absent while it shows the run's.
	Real string `json:"real,omitempty"`
}

// PaneStats is where one pane's simulation stands.
type PaneStats struct {
	Index int     `json:"index"`
	Key   string  `json:"key"`   // "pg13"
	Label string  `json:"label"` // "PostgreSQL 13"
	Doc   string  `json:"doc"`
	Now   float64 `json:"now"` // its virtual clock, in seconds
	// Counters are the pane's own, of the same kind as the run's (the first pane's are the
	// run's).
	Counters any `json:"counters"`
}

// Stats returns the stats now.
func (a *App) Stats() Stats {
	s := a.run.Sim()
	st := Stats{
		Lab: a.lab.Info().Name, Step: s.Stats().Steps, Now: s.Now().Seconds(),
		NBuffers: s.Pool.NBuffers, SharedBuffers: sim.FormatSize(int64(s.Pool.NBuffers) * sim.BLCKSZ),
		Seed: a.values["seed"], Seeded: a.run.Seeded(), Done: a.run.Done(), Playing: a.playing,
		Speed: a.speed, SpeedLabel: speedOf(a.speed).Label, SpeedParam: speedOf(a.speed).Param,
		Rate: math.Round(a.rate.rate), Counters: a.run.Counters(), View: a.runView().Stats(),
		Time:   a.Time(),
		Events: a.tally.byKind(),
	}
	if a.failure != "" {
		f := a.failure
		st.Error = &f
	}
	if a.real != nil {
		st.Real = a.real.run.server
	}
	if panes := lab.PanesOf(a.run); len(panes) > 1 {
		for i, p := range panes {
			st.Panes = append(st.Panes, PaneStats{Index: i, Key: p.Key, Label: p.Label, Doc: p.Doc,
				Now: p.Run.Sim().Now().Seconds(), Counters: p.Run.Counters()})
		}
	}
	return st
}

// PaneHashes returns each pane's simulation's state hash (Sim.Hash) as 16 hex digits, the
// run's own first; nil when the run shows one pool. Each reads every descriptor.
func (a *App) PaneHashes() []string {
	panes := lab.PanesOf(a.run)
	if len(panes) < 2 {
		return nil
	}
	out := make([]string, len(panes))
	for i, p := range panes {
		out[i] = fmt.Sprintf("%016x", p.Run.Sim().Hash())
	}
	return out
}

// LabInfo describes one lab for the page before any run: its tab, its controls, its
// counters and its events.
type LabInfo struct {
	Name     string        `json:"name"`
	Title    string        `json:"title"`
	Summary  string        `json:"summary"`
	Command  string        `json:"command"`
	Params   []param.Field `json:"params"`
	Counters []lab.Counter `json:"counters"`
	Events   []EventInfo   `json:"events"`
}

// EventInfo is one kind of event a reader may want to find.
type EventInfo struct {
	Kind   string `json:"kind"` // sim.EventKind.String: "evict"
	Label  string `json:"label"`
	Plural string `json:"plural"` // the label for several: "evictions"; "" when it has none
	Doc    string `json:"doc"`
}

// Labs describes every lab of sim/labs, in order.
func (a *App) Labs() []LabInfo {
	out := make([]LabInfo, 0, len(labs.All))
	for _, l := range labs.All {
		info := l.Info()
		li := LabInfo{
			Name: info.Name, Title: info.Title, Summary: info.Summary, Command: info.Command,
			Params: l.Params().Fields(), Counters: lab.Describe(l.Counters()), Events: eventInfos(l.Events()),
		}
		if len(li.Events) == 0 {
			li.Events = nil // labs() leaves out a lab's events when it has none
		}
		out = append(out, li)
	}
	return out
}

// eventInfos describes a lab's events of interest, as labs() and stats().time list them.
func eventInfos(specs []lab.EventSpec) []EventInfo {
	out := []EventInfo{}
	for _, e := range specs {
		out = append(out, EventInfo{Kind: e.Kind.String(), Label: e.Label, Plural: e.Plural, Doc: e.Doc})
	}
	return out
}

// LegendInfo is the run's legend in the colours of the theme the grid is drawn in, so the
// page's legend matches the grid.
type LegendInfo struct {
	Roles []RoleInfo  `json:"roles"`
	Marks []MarkInfo  `json:"marks"`
	Empty EmptyColors `json:"empty"`
}

// RoleInfo is one colour of full buffers and the relations drawn in it.
type RoleInfo struct {
	Key       string   `json:"key"`
	Label     string   `json:"label"`
	Doc       string   `json:"doc"`
	Color     string   `json:"color"`
	Pattern   string   `json:"pattern"` // the shape its cells carry besides the colour (grid.Patterns)
	Relations []string `json:"relations"`
}

// MarkInfo is one mark a cell can show: the grid's own or the lab view's.
type MarkInfo struct {
	Key    string `json:"key"`
	Label  string `json:"label"`
	Doc    string `json:"doc"`
	Color  string `json:"color"`
	Motion bool   `json:"motion"` // only moves: the page leaves it out under reduced motion
	Wide   bool   `json:"wide"`
}

// EmptyColors are an empty buffer's colours.
type EmptyColors struct {
	Color string `json:"color"`
	Edge  string `json:"edge"`
}

// shownRelation is a relation whose pages the grid shows, with its role in the grid's legend.
type shownRelation struct {
	rel  *sim.Relation
	role int
}

// shownRelations are the relations of the pools the grid shows: the run's, the real pool's
// in their place, or both side by side, the run's first.
func (a *App) shownRelations() []shownRelation {
	var out []shownRelation
	l := a.view.legend
	if a.real == nil || a.real.beside {
		for i, r := range a.run.Sim().Relations() {
			out = append(out, shownRelation{r, l.RoleOf(i)})
		}
	}
	if a.real != nil {
		real := a.real.run.legend
		off := len(l.Roles) - len(real.Roles) // the real pool's roles come after the run's
		for i, r := range a.real.run.sim.Relations() {
			out = append(out, shownRelation{r, off + real.RoleOf(i)})
		}
	}
	return out
}

// Legend returns the legend of what the grid shows (the run's, or the real pool's) in the
// current theme's colours.
func (a *App) Legend() LegendInfo {
	t, l := a.view.theme, a.view.legend
	out := LegendInfo{Roles: []RoleInfo{}, Marks: []MarkInfo{}, Empty: EmptyColors{Color: t.Empty.Hex(), Edge: t.EmptyEdge.Hex()}}
	for i, r := range l.Roles {
		out.Roles = append(out.Roles, RoleInfo{Key: r.Key, Label: r.Label, Doc: r.Doc, Color: t.Rel(i).Hex(), Pattern: grid.Pattern(i), Relations: []string{}})
	}
	for _, r := range a.shownRelations() {
		if r.role >= 0 && r.role < len(out.Roles) {
			out.Roles[r.role].Relations = append(out.Roles[r.role].Relations, r.rel.Name)
		}
	}
	for _, m := range l.Marks {
		c, _ := t.Mark(m.Key)
		out.Marks = append(out.Marks, MarkInfo{Key: m.Key, Label: m.Label, Doc: m.Doc, Color: c.Hex(), Motion: m.Motion, Wide: m.Wide})
	}
	return out
}

// RelationInfo is one relation of the catalog, with the colour the grid draws it in.
type RelationInfo struct {
	Index     int    `json:"index"`
	Name      string `json:"name"`
	Color     string `json:"color"`
	Role      string `json:"role"` // the key of its role in the legend, "" for none
	Blocks    uint32 `json:"blocks"`
	Permanent bool   `json:"permanent"`
}

// Relations returns the catalog's relations: the run's, or the real pool's while the grid
// shows it (ShowReal).
func (a *App) Relations() []RelationInfo {
	t, l := a.view.theme, a.view.legend
	out := []RelationInfo{}
	for i, sr := range a.shownRelations() {
		r, role := sr.rel, sr.role
		key := ""
		if role >= 0 && role < len(l.Roles) {
			key = l.Roles[role].Key
		}
		out = append(out, RelationInfo{
			Index: i, Name: r.Name, Color: t.Rel(role).Hex(), Role: key,
			Blocks: uint32(r.NBlocks[sim.MainForkNum]), Permanent: r.Permanent,
		})
	}
	return out
}
