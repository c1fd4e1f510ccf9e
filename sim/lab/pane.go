package lab

// Pane is one pool a run draws: its own, or one it races beside it.
type Pane struct {
	// Run is the pane's run: the run itself for the first pane. The others are runs of
	// their own whose simulations only the first pane's steps advance: whoever shows them
	// reads them (snapshots, counters, inspection) and never steps them.
	Run Run
	// Key names the pane to the bridge and the page: "pg14".
	Key string
	// Label is what the page writes over the pane: "PostgreSQL 14+".
	Label string
	// Doc says in a sentence what the pane runs.
	Doc string
}

// Paned is a Run that shows several pools side by side, all built from the run's values
// and stepped together by the run's own steps: the drop lab replays the same WAL under two
// drop policies and races them on one modelled clock. The run itself is the first pane;
// its counters, events, timeline, hash and exports are the first pane's, and each other
// pane has counters of its own (its Run's).
type Paned interface {
	// Panes returns the panes, the run itself first. The list is the same for the run's
	// whole life.
	Panes() []Pane
}

// PanesOf returns run's panes: those it declares when it is Paned and declares more than
// one, otherwise the run alone.
func PanesOf(run Run) []Pane {
	if p, ok := run.(Paned); ok {
		if panes := p.Panes(); len(panes) > 1 {
			return panes
		}
	}
	return []Pane{{Run: run}}
}
