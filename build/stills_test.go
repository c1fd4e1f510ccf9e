//go:build !js

package main

import (
	"bytes"
	"encoding/json"
	"image/png"
	"slices"
	"testing"

	"github.com/bufferscope/bufferscope/sim/labs"
)

// TestStillsDrawEveryLab: the build draws a still of every lab in each theme, in the labs'
// order, with its title; each decodes to its stated size, is not blank, differs between the
// themes, and is drawn the same from one build to the next (so its hashed name stays).
func TestStillsDrawEveryLab(t *testing.T) {
	assets, defines, err := buildStills()
	if err != nil {
		t.Fatal(err)
	}
	var stills []still
	if err := json.Unmarshal([]byte(defines["__EMBED_STILLS__"]), &stills); err != nil {
		t.Fatalf("__EMBED_STILLS__ is not a JSON list of stills: %v", err)
	}
	var names []string
	for _, s := range stills {
		names = append(names, s.Name)
	}
	if !slices.Equal(names, labs.Names()) {
		t.Fatalf("stills of %v, want the labs %v in order", names, labs.Names())
	}
	byPath := map[string][]byte{}
	for _, a := range assets {
		byPath[a.path] = a.data
	}
	for i, s := range stills {
		if want := labs.All[i].Info().Title; s.Title != want {
			t.Errorf("the %s still is titled %q, the lab %q", s.Name, s.Title, want)
		}
		var drawn [][]byte
		for _, theme := range stillThemes {
			data, ok := byPath[s.Src[theme]]
			if !ok {
				t.Fatalf("the %s still in %s names %q, which the build did not write", s.Name, theme, s.Src[theme])
			}
			img, err := png.Decode(bytes.NewReader(data))
			if err != nil {
				t.Fatalf("the %s still in %s: %v", s.Name, theme, err)
			}
			if img.Bounds().Dx() != s.Width || img.Bounds().Dy() != s.Height {
				t.Errorf("the %s still in %s is %v, said to be %d×%d", s.Name, theme, img.Bounds(), s.Width, s.Height)
			}
			colours := map[[4]uint32]bool{}
			for y := 0; y < s.Height; y += 7 {
				for x := 0; x < s.Width; x += 7 {
					r, g, b, a := img.At(x, y).RGBA()
					colours[[4]uint32{r, g, b, a}] = true
				}
			}
			if len(colours) < 3 {
				t.Errorf("the %s still in %s has %d colours: blank", s.Name, theme, len(colours))
			}
			again, err := drawStill(s.Name, theme)
			if err != nil || !bytes.Equal(again, data) {
				t.Errorf("the %s still in %s is not drawn the same twice (%v)", s.Name, theme, err)
			}
			drawn = append(drawn, data)
		}
		if bytes.Equal(drawn[0], drawn[1]) {
			t.Errorf("the %s still is the same in both themes", s.Name)
		}
	}
}
