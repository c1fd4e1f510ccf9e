//go:build !js

package main

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/andybalholm/brotli"
)

func TestWriteOutputReplacesEarlierOutput(t *testing.T) {
	out := filepath.Join(t.TempDir(), "dist")
	first := []*asset{{path: "old.html", data: []byte("old")}}
	if err := writeOutput(out, first); err != nil {
		t.Fatal(err)
	}
	second := []*asset{{path: "assets/a.js", data: []byte("raw"), gz: []byte("gz"), br: []byte("br")}, {path: "empty.txt", data: nil}}
	if err := writeOutput(out, second); err != nil {
		t.Fatal(err)
	}
	var files []string
	filepath.WalkDir(filepath.Dir(out), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			data, _ := os.ReadFile(p)
			rel, _ := filepath.Rel(filepath.Dir(out), p)
			files = append(files, filepath.ToSlash(rel)+"="+string(data))
		}
		return err
	})
	// Neither the old file nor a staging directory is left.
	if got, want := strings.Join(files, " "), "dist/assets/a.js=raw dist/assets/a.js.br=br dist/assets/a.js.gz=gz dist/empty.txt="; got != want {
		t.Errorf("files = %s, want %s", got, want)
	}
}

func TestCompressAll(t *testing.T) {
	text := []byte(strings.Repeat("bufferscope ", 100))
	assets := []*asset{
		{path: "a.js", data: text},
		{path: "tiny.css", data: []byte("a{}")},
		{path: "logo.png", data: text},
	}
	compressAll(assets, 5)
	gz, err := gzip.NewReader(bytes.NewReader(assets[0].gz))
	if err != nil {
		t.Fatal(err)
	}
	for name, r := range map[string]io.Reader{"gzip": gz, "brotli": brotli.NewReader(bytes.NewReader(assets[0].br))} {
		if got, err := io.ReadAll(r); err != nil || !bytes.Equal(got, text) {
			t.Errorf("a.js: %s variant decodes to %d bytes, %v", name, len(got), err)
		}
	}
	if a := assets[1]; a.gz != nil || a.br != nil {
		t.Errorf("tiny.css: variants written that are not smaller")
	}
	if a := assets[2]; a.gz != nil || a.br != nil {
		t.Errorf("logo.png: variants written for a file type that is not compressible")
	}
}
