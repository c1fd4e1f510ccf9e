//go:build !js

package main

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/bufferscope/bufferscope/sim/labs"
	"github.com/bufferscope/bufferscope/wasm/app"
	wlabs "github.com/bufferscope/bufferscope/wasm/labs"
)

// The size in CSS pixels of a still: about the grid of a 700 × 450 frame, the Embed dialog's
// first size. The frame shows it scaled to its grid, keeping its proportions.
const (
	stillW = 520
	stillH = 340
)

// stillThemes are the grid's themes a still is drawn in, one file each, so that a reader
// in the dark theme does not see a light picture turn dark when the simulator starts.
var stillThemes = []string{"light", "dark"}

// still is what embed.html shows of a lab before its reader plays it (js/embed-cover.js):
// the lab's title and its grid as it opens, drawn by the app's own code at build time.
type still struct {
	Name   string            `json:"name"`
	Title  string            `json:"title"`
	Src    map[string]string `json:"src"` // theme → the PNG's path, relative to the page
	Width  int               `json:"width"`
	Height int               `json:"height"`
}

// buildStills draws every lab as the embed opens it (its defaults, step 0) in each theme, as
// the app draws it in the browser (app.App.GridPNG), and returns the PNGs as hashed assets
// and the define __EMBED_STILLS__: a JSON list of the stills, in the labs' order (the first
// is the lab the page opens when the address names none, or a lab it does not have).
func buildStills() ([]*asset, map[string]string, error) {
	var out []*asset
	var stills []still
	for _, l := range labs.All {
		info := l.Info()
		s := still{Name: info.Name, Title: info.Title, Src: map[string]string{}, Width: stillW, Height: stillH}
		for _, theme := range stillThemes {
			png, err := drawStill(info.Name, theme)
			if err != nil {
				return nil, nil, fmt.Errorf("drawing the still of the %s lab (%s): %w", info.Name, theme, err)
			}
			a := hashedAsset(assetDir+"/stills", info.Name+"-"+theme+".png", png)
			s.Src[theme] = a.path
			out = append(out, a)
		}
		stills = append(stills, s)
	}
	js, err := json.Marshal(stills)
	if err != nil {
		return nil, nil, err
	}
	return out, map[string]string{"__EMBED_STILLS__": string(js)}, nil
}

// drawStill draws the lab named name at its defaults and step 0, in theme, as a PNG.
func drawStill(name, theme string) ([]byte, error) {
	a := app.New(wlabs.Views)
	a.Resize(stillW, stillH)
	if _, err := a.SetTheme(theme); err != nil {
		return nil, err
	}
	a.SetReducedMotion(true) // no flash caught half way
	if _, err := a.Load(name, nil); err != nil {
		return nil, err
	}
	// The clock is fixed, so that the same tree draws the same bytes and the hashed name
	// changes only when the picture does.
	a.Tick(time.Unix(0, 0))
	a.Paint()
	a.BuildOverlay()
	return a.GridPNG()
}
