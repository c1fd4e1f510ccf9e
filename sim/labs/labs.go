// Package labs lists bufferscope's labs: the one registration line each lab adds in the
// simulation layer. Everything that shows or runs labs — the page's bridge, the headless
// command, the typings — goes through this list and never asks which lab it holds.
package labs

import (
	"github.com/bufferscope/bufferscope/sim/lab"
	"github.com/bufferscope/bufferscope/sim/labs/drop"
	"github.com/bufferscope/bufferscope/sim/labs/free"
	"github.com/bufferscope/bufferscope/sim/labs/pins"
	"github.com/bufferscope/bufferscope/sim/labs/ring"
)

// All are the labs, in the order the page's tabs and the command list show them. The first
// is the one a page opens without lab= in its address.
var All = []lab.Lab{
	free.Lab{},
	drop.Lab{},
	ring.Lab{},
	pins.Lab{},
}

// ByName returns the lab named name, and whether there is one.
func ByName(name string) (lab.Lab, bool) {
	for _, l := range All {
		if l.Info().Name == name {
			return l, true
		}
	}
	return nil, false
}

// Names returns the labs' names in order.
func Names() []string {
	out := make([]string, len(All))
	for i, l := range All {
		out[i] = l.Info().Name
	}
	return out
}
