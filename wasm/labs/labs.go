// Package labs lists the labs' views in the browser app: the one registration line a lab
// with a view of its own adds. A lab not listed gets labview.Default, free play's view.
// Nothing else in the app asks which lab is running.
package labs

import (
	"github.com/bufferscope/bufferscope/wasm/labs/drop"
	"github.com/bufferscope/bufferscope/wasm/labs/pins"
	"github.com/bufferscope/bufferscope/wasm/labs/ring"
	"github.com/bufferscope/bufferscope/wasm/labview"
)

// Views builds a fresh view for one run of the lab named by the key (sim/labs).
var Views = map[string]func() labview.View{
	"drop": drop.NewView,
	"ring": ring.NewView,
	"pins": pins.NewView,
}
