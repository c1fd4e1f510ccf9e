//go:build !js

package main

import (
	"bytes"
	"compress/gzip"
	"io"
	"path"
	"runtime"
	"slices"
	"sync"

	"github.com/andybalholm/brotli"
)

// compressible are the extensions of the files that get .gz and .br
// variants: text, the wasm modules and the real PostgreSQL's file system image (.data).
var compressible = map[string]bool{
	".html": true, ".css": true, ".js": true, ".mjs": true, ".json": true, ".svg": true,
	".txt": true, ".xml": true, ".csv": true, ".wasm": true, ".data": true,
}

// compressAll sets the gzip (level 9) and brotli (quality q) variants of the
// compressible assets, keeping a variant only when it is smaller. The work runs
// on every CPU, largest first, so the wasm does not finish last.
func compressAll(assets []*asset, q int) {
	type job struct {
		a  *asset
		br bool
	}
	var jobs []job
	for _, a := range assets {
		if compressible[path.Ext(a.path)] {
			jobs = append(jobs, job{a, true}, job{a, false})
		}
	}
	slices.SortStableFunc(jobs, func(x, y job) int { return len(y.a.data) - len(x.a.data) })
	next := make(chan job)
	var wg sync.WaitGroup
	for range runtime.NumCPU() {
		wg.Go(func() {
			for j := range next {
				if j.br {
					j.a.br = smaller(j.a.data, func(w io.Writer) io.WriteCloser { return brotli.NewWriterLevel(w, q) })
				} else {
					j.a.gz = smaller(j.a.data, func(w io.Writer) io.WriteCloser {
						zw, _ := gzip.NewWriterLevel(w, gzip.BestCompression) // the level is valid
						return zw
					})
				}
			}
		})
	}
	for _, j := range jobs {
		next <- j
	}
	close(next)
	wg.Wait()
}

// smaller compresses data with the writer newWriter makes and returns the
// result, or nil when it is not smaller than data.
func smaller(data []byte, newWriter func(io.Writer) io.WriteCloser) []byte {
	var b bytes.Buffer
	w := newWriter(&b)
	w.Write(data) // writes to a bytes.Buffer do not fail
	w.Close()
	if b.Len() >= len(data) {
		return nil
	}
	return b.Bytes()
}
