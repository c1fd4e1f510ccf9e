//go:build !js

package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bufferscope/bufferscope/sim/lab"
	"github.com/bufferscope/bufferscope/sim/labs"
)

// TestTypingsCurrent checks that the committed typings are what the labs' tables give, so
// that they cannot drift from the parameters the bridge reads.
func TestTypingsCurrent(t *testing.T) {
	root, err := moduleRoot()
	if err != nil {
		t.Fatal(err)
	}
	want, err := typings(labs.All)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(root, typingsPath))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s is out of date with the labs' tables: run go run ./build typings", typingsPath)
	}
}

// TestTypingsName checks that every parameter and counter of every lab is typed.
func TestTypingsName(t *testing.T) {
	src, err := typings(labs.All)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range labs.All {
		for _, p := range l.Params().Fields() {
			if !strings.Contains(string(src), "  "+p.Key+"?: string;") {
				t.Errorf("%s: parameter %s is not typed", l.Info().Name, p.Key)
			}
		}
		for _, c := range lab.Describe(l.Counters()) {
			if !strings.Contains(string(src), "  "+c.Key+": "+c.Type+";") {
				t.Errorf("%s: counter %s is not typed", l.Info().Name, c.Key)
			}
		}
	}
}
