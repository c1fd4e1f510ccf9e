//go:build !js

package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// distOptions are the flags of dist, shared by serve.
type distOptions struct {
	site, out     string
	docs          string
	brotliQuality int
	testHooks     bool   // build the test hooks in (serve -test-hooks only)
	pgliteCache   string // where the real PostgreSQL's package is kept; "" builds without it
}

func addDistFlags(fs *flag.FlagSet) *distOptions {
	o := &distOptions{}
	fs.StringVar(&o.site, "site", "site", "directory of the site's HTML, CSS, JS and static files")
	fs.StringVar(&o.docs, "docs", "docs", "directory of the documents the site also serves as pages (embed.md); none when it does not exist")
	fs.StringVar(&o.out, "out", "dist", "output directory, replaced as a whole")
	fs.StringVar(&o.pgliteCache, "pglite-cache", ".cache/pglite", "folder that keeps the pinned PGlite package (the real PostgreSQL 18 panel), fetched when missing; empty builds without it")
	fs.IntVar(&o.brotliQuality, "brotli-quality", 9, "brotli quality of the .br files, 0-11; 10 and 11 take ~10x longer on the wasm for ~10% less")
	return o
}

func (o *distOptions) check(fs *flag.FlagSet) error {
	if o.brotliQuality < 0 || o.brotliQuality > 11 {
		return usageErrorf(fs, "-brotli-quality %d: must be 0-11", o.brotliQuality)
	}
	if o.site == "" || o.out == "" {
		return usageErrorf(fs, "-site and -out must not be empty")
	}
	return nil
}

func runDist(args []string) error {
	fs := newFlagSet("dist")
	o := addDistFlags(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := o.check(fs); err != nil {
		return err
	}
	_, err := dist(*o, os.Stdout)
	return err
}

// asset is one file of the built site.
type asset struct {
	path   string // slash-separated, relative to the output directory
	data   []byte
	gz, br []byte // precompressed variants; nil when not smaller than data
}

// Output paths. Hashed files live under assets/ so that one Netlify rule can
// cache them forever; the wasm modules and the worker script have their own
// folders because Netlify's header paths cannot match a file extension, and
// each needs headers of its own (a type; a worker's Content-Security-Policy).
const (
	assetDir  = "assets"
	wasmDir   = "assets/wasm"
	workerDir = "assets/worker"
)

// dist builds the site from o.site and ./wasm into o.out, prints a summary to
// w and returns the header rules it checked the site against.
func dist(o distOptions, w io.Writer) (headerRules, error) {
	start := time.Now()
	rules, err := readHeaderRules(netlifyConfig)
	if err != nil {
		return nil, err
	}
	if err := checkReplaceable(o.out); err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp("", "bufferscope-build-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)

	// The two Go builds run at once, while the site is read.
	type result struct {
		data []byte
		err  error
	}
	compile := func(pkg, name string) chan result {
		c := make(chan result, 1)
		go func() {
			data, err := buildWasm(tmp, pkg, name, o.testHooks)
			c <- result{data, err}
		}()
		return c
	}
	appc, workerc := compile(appPackage, "bufferscope.wasm"), compile(workerPackage, "worker.wasm")
	pglitec := make(chan *pglitePkg, 1)
	go func() {
		if o.pgliteCache == "" {
			pglitec <- nil
			return
		}
		p, err := loadPGlite(context.Background(), o.pgliteCache)
		if err != nil {
			fmt.Fprintf(w, "real PostgreSQL: %v\nreal PostgreSQL: the site builds without it, and its panel says so\n", err)
		}
		pglitec <- p
	}()
	barec := make(chan result, 1)
	if o.testHooks {
		barec = compile(barePackage, "bare.wasm")
	} else {
		barec <- result{}
	}
	s, err := loadSite(o.site)
	if s != nil {
		s.docs = o.docs
	}
	var execJS []byte
	if err == nil {
		execJS, err = wasmExecJS()
	}
	// Wait for both builds even after an error, so that go build is done with tmp.
	app, worker, bare, pglite := <-appc, <-workerc, <-barec, <-pglitec
	for _, e := range []error{err, app.err, worker.err, bare.err} {
		if e != nil {
			return nil, e
		}
	}
	assets, err := s.build(code{app: app.data, worker: worker.data, exec: execJS, testHooks: o.testHooks, pglite: pglite})
	if err != nil {
		return nil, err
	}
	var paths []string
	for _, a := range assets {
		paths = append(paths, a.path)
	}
	if err := rules.checkSite(paths); err != nil {
		return nil, err
	}
	if bare.data != nil {
		var extra []*asset
		if extra, rules, err = bareApp(bare.data, assets, rules); err != nil {
			return nil, err
		}
		assets = append(assets, extra...)
	}
	compressAll(assets, o.brotliQuality)
	if err := writeOutput(o.out, assets); err != nil {
		return nil, err
	}
	printSummary(w, o.out, assets, time.Since(start))
	return rules, nil
}

// checkReplaceable refuses to delete a directory that is not an earlier
// output of dist, so a mistyped -out cannot remove the repository.
func checkReplaceable(out string) error {
	entries, err := os.ReadDir(out)
	if os.IsNotExist(err) || err == nil && len(entries) == 0 {
		return nil
	}
	if err != nil {
		return err
	}
	if info, err := os.Stat(filepath.Join(out, filepath.FromSlash(wasmDir))); err != nil || !info.IsDir() {
		return fmt.Errorf("-out %s: refusing to replace a directory that dist did not write (it has no %s/)", out, wasmDir)
	}
	return nil
}

// writeOutput writes assets and their compressed variants next to out and
// then swaps the result in, so out is never half written.
func writeOutput(out string, assets []*asset) error {
	abs, err := filepath.Abs(out)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
		return err
	}
	stage, err := os.MkdirTemp(filepath.Dir(abs), "."+filepath.Base(abs)+"-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(stage)
	if err := os.Chmod(stage, 0o755); err != nil {
		return err
	}
	for _, a := range assets {
		name := filepath.Join(stage, filepath.FromSlash(a.path))
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(name, a.data, 0o644); err != nil {
			return err
		}
		for suffix, data := range map[string][]byte{".gz": a.gz, ".br": a.br} {
			if data == nil {
				continue
			}
			if err := os.WriteFile(name+suffix, data, 0o644); err != nil {
				return err
			}
		}
	}
	if err := os.RemoveAll(abs); err != nil {
		return err
	}
	return os.Rename(stage, abs)
}

func printSummary(w io.Writer, out string, assets []*asset, took time.Duration) {
	sorted := slices.Clone(assets)
	slices.SortFunc(sorted, func(a, b *asset) int { return strings.Compare(a.path, b.path) })
	width := len("file")
	for _, a := range sorted {
		width = max(width, len(path.Join(filepath.ToSlash(out), a.path)))
	}
	fmt.Fprintf(w, "%-*s %10s %10s %10s\n", width, "file", "raw", "gzip", "brotli")
	for _, a := range sorted {
		fmt.Fprintf(w, "%-*s %10s %10s %10s\n", width, path.Join(filepath.ToSlash(out), a.path), size(len(a.data)), size(len(a.gz)), size(len(a.br)))
	}
	fmt.Fprintf(w, "built %s in %.1fs\n", out, took.Seconds())
}

// size formats n bytes for the summary; 0 means the file was not written.
func size(n int) string {
	switch {
	case n == 0:
		return "-"
	case n < 10_000:
		return fmt.Sprintf("%d B", n)
	case n < 10_000_000:
		return fmt.Sprintf("%.1f kB", float64(n)/1e3)
	}
	return fmt.Sprintf("%.2f MB", float64(n)/1e6)
}
