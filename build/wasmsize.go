//go:build !js

package main

import (
	"cmp"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strings"
	"unicode"

	"github.com/andybalholm/brotli"
)

// runWasmSize builds the app's wasm twice, as dist does (stripped, the file
// readers download) and without -s (so the "name" section survives: Go's wasm
// linker drops it under -s), and prints where the bytes go: code by Go
// package, data, and the compressed sizes of the stripped file. It tells what
// to cut from the page's wasm; see issue #16.
func runWasmSize(args []string) error {
	fs := newFlagSet("wasm-size")
	pkg := fs.String("pkg", appPackage, "the Go package to build for GOOS=js GOARCH=wasm")
	jsonOut := fs.String("json", "", "also write the report as JSON to this file")
	top := fs.Int("top", 30, "how many packages to print")
	quality := fs.Int("brotli-quality", 9, "brotli quality, as dist's -brotli-quality")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "bufferscope-wasm-size-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	stripped, err := buildWasm(tmp, *pkg, "stripped.wasm", false)
	if err != nil {
		return err
	}
	named, err := buildWasmFlags(tmp, *pkg, "named.wasm", []string{"-trimpath", "-ldflags=-buildid="})
	if err != nil {
		return err
	}
	pkgs, err := linkedPackages(*pkg)
	if err != nil {
		return err
	}
	r, err := analyzeWasm(named, newPackageNamer(pkgs[1:], pkgs[0]))
	if err != nil {
		return err
	}
	r.Package = *pkg
	r.Stripped = len(stripped)
	r.Brotli = len(compressed(stripped, func(w io.Writer) io.WriteCloser { return brotli.NewWriterLevel(w, *quality) }))
	r.Gzip = len(compressed(stripped, func(w io.Writer) io.WriteCloser {
		zw, _ := gzip.NewWriterLevel(w, gzip.BestCompression) // the level is valid
		return zw
	}))
	r.print(os.Stdout, *top)
	if *jsonOut != "" {
		b, err := json.MarshalIndent(r, "", "  ")
		if err != nil {
			return err
		}
		return os.WriteFile(*jsonOut, append(b, '\n'), 0o644)
	}
	return nil
}

// compressed returns data compressed by the writer newWriter makes (even when
// it is not smaller, unlike smaller).
func compressed(data []byte, newWriter func(io.Writer) io.WriteCloser) []byte {
	if c := smaller(data, newWriter); c != nil {
		return c
	}
	return data
}

// buildWasmFlags is buildWasm with other build flags, for the analyzer's
// unstripped copy.
func buildWasmFlags(tmp, pkg, name string, flags []string) ([]byte, error) {
	saved := wasmBuildFlags
	wasmBuildFlags = flags
	defer func() { wasmBuildFlags = saved }()
	return buildWasm(tmp, pkg, name, false)
}

// linkedPackages returns the import path of pkg and then of every package it
// depends on, under GOOS=js GOARCH=wasm.
func linkedPackages(pkg string) ([]string, error) {
	cmd := exec.Command("go", "list", "-f", "{{.ImportPath}}", pkg)
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	self, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list %s: %v", pkg, err)
	}
	cmd = exec.Command("go", "list", "-deps", pkg)
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	deps, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list -deps %s: %v", pkg, err)
	}
	return append([]string{strings.TrimSpace(string(self))}, strings.Fields(string(deps))...), nil
}

// wasmReport is what wasm-size found in one module.
type wasmReport struct {
	Package  string `json:"package,omitempty"`
	Raw      int    `json:"raw"`      // bytes of the analyzed (unstripped) module
	Stripped int    `json:"stripped"` // bytes of the module as dist ships it
	Brotli   int    `json:"brotli"`   // stripped, brotli at dist's quality
	Gzip     int    `json:"gzip"`     // stripped, gzip -9
	Code     int    `json:"code"`     // function bodies, summed
	Data     int    `json:"data"`     // data segments' bytes, summed
	// Sections are the module's sections in file order.
	Sections []wasmSection `json:"sections"`
	// Packages are code bytes by Go package, largest first.
	Packages []pkgSize `json:"packages"`
}

// wasmSection is one section of a module: its name ("code", "data", or a
// custom section's own name) and size in bytes.
type wasmSection struct {
	Name string `json:"name"`
	Size int    `json:"size"`
}

// pkgSize is the code of one Go package: bytes of function bodies, and how
// many functions.
type pkgSize struct {
	Pkg   string `json:"pkg"`
	Bytes int    `json:"bytes"`
	Funcs int    `json:"funcs"`
}

// print writes the report for a reader: totals, sections, the top packages
// and a roll-up by origin (runtime and standard library, Ebiten, other
// modules, this module).
func (r *wasmReport) print(w io.Writer, top int) {
	kb := func(n int) string { return fmt.Sprintf("%9.1f kB", float64(n)/1000) }
	fmt.Fprintf(w, "%s: stripped %d B, brotli %d B, gzip %d B\n", r.Package, r.Stripped, r.Brotli, r.Gzip)
	fmt.Fprintf(w, "code %s, data %s (unstripped file %d B)\n\nsections:\n", kb(r.Code), kb(r.Data), r.Raw)
	for _, s := range r.Sections {
		fmt.Fprintf(w, "  %-20s %s\n", s.Name, kb(s.Size))
	}
	origin := map[string]int{}
	for _, p := range r.Packages {
		origin[pkgOrigin(p.Pkg)] += p.Bytes
	}
	fmt.Fprintln(w, "\ncode by origin:")
	var origins []pkgSize
	for o, n := range origin {
		origins = append(origins, pkgSize{Pkg: o, Bytes: n})
	}
	sortSizes(origins)
	for _, o := range origins {
		fmt.Fprintf(w, "  %-50s %s\n", o.Pkg, kb(o.Bytes))
	}
	fmt.Fprintf(w, "\ntop %d packages by code:\n", top)
	for i, p := range r.Packages {
		if i == top {
			break
		}
		fmt.Fprintf(w, "  %-70s %s %6d funcs\n", p.Pkg, kb(p.Bytes), p.Funcs)
	}
}

// sortSizes sorts by bytes, largest first, then by name.
func sortSizes(s []pkgSize) {
	slices.SortFunc(s, func(a, b pkgSize) int {
		if c := cmp.Compare(b.Bytes, a.Bytes); c != 0 {
			return c
		}
		return strings.Compare(a.Pkg, b.Pkg)
	})
}

// thisModule is the module path of the repository, for the roll-up.
const thisModule = "github.com/bufferscope/bufferscope"

// pkgOrigin names where a package comes from: this module (by its first
// directory, sim or wasm), Ebiten, another module (by its host and first two
// path elements), or the Go runtime and standard library.
func pkgOrigin(pkg string) string {
	switch {
	case strings.HasPrefix(pkg, thisModule+"/"):
		rest := strings.TrimPrefix(pkg, thisModule+"/")
		first, _, _ := strings.Cut(rest, "/")
		return thisModule + "/" + first
	case strings.HasPrefix(pkg, "github.com/hajimehoshi/ebiten/"):
		return "ebiten"
	case strings.HasPrefix(pkg, "runtime") || strings.HasPrefix(pkg, "internal/"):
		return "runtime and internal/"
	}
	first, _, _ := strings.Cut(pkg, "/")
	if strings.Contains(first, ".") {
		parts := strings.SplitN(pkg, "/", 4)
		return strings.Join(parts[:min(3, len(parts))], "/")
	}
	return "standard library"
}

// sanitizeName spells a symbol name as Go's wasm linker writes it into the
// "name" section: every character but letters, digits, '_' and '.' becomes
// '_' (cmd/link/internal/wasm's nameRegexp), so "math/big.(*Int).Add" is
// "math_big.__Int_.Add".
func sanitizeName(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '_' || r == '.' || unicode.IsLetter(r) || unicode.IsDigit(r) {
			return r
		}
		return '_'
	}, s)
}

// packageNamer finds the Go package of a function name from the "name"
// section. Sanitizing loses the slashes, so it matches names against the
// sanitized import paths of the packages that were linked: the longest one
// that, followed by '.', begins the name.
type packageNamer map[string]string

// newPackageNamer returns a namer for the import paths pkgs. The program's
// own package is "main" in symbol names, so mainPath (its import path) is
// reported for it.
func newPackageNamer(pkgs []string, mainPath string) packageNamer {
	n := packageNamer{"main": mainPath, "type_": "type: (linker's equality and hash functions)", "go_": "go: (linker)"}
	for _, p := range pkgs {
		if p != mainPath {
			n[sanitizeName(p)] = p
		}
	}
	return n
}

// pkg returns the import path of the package that name belongs to, or name's
// part before its first dot when no linked package matches.
func (n packageNamer) pkg(name string) string {
	best := ""
	for i := 0; i < len(name); i++ {
		if name[i] != '.' {
			continue
		}
		if p, ok := n[name[:i]]; ok {
			best = p
		}
	}
	if best == "" {
		if i := strings.IndexByte(name, '.'); i > 0 {
			return "? " + name[:i]
		}
		return "? " + name
	}
	return best
}

// analyzeWasm parses a WebAssembly binary module: its sections, the bodies of
// its functions (named by the "name" custom section, when there is one) and
// its data segments.
func analyzeWasm(b []byte, namer packageNamer) (*wasmReport, error) {
	if len(b) < 8 || string(b[:4]) != "\x00asm" {
		return nil, errors.New("not a WebAssembly module (no \\0asm magic)")
	}
	r := &wasmReport{Raw: len(b)}
	var imported int // imported functions come first in the function index space
	var bodies []int // code body sizes, by defined function
	names := map[int]string{}
	sectionNames := []string{"custom", "type", "import", "function", "table", "memory", "global", "export", "start", "element", "code", "data", "datacount", "tag"}
	rd := &wasmReader{b: b, off: 8}
	for !rd.done() {
		id := rd.byte()
		size := rd.uleb()
		if rd.err != nil {
			break
		}
		if size > uint64(len(rd.b)-rd.off) {
			return nil, fmt.Errorf("section %d at offset %d: size %d runs past the end", id, rd.off, size)
		}
		body := &wasmReader{b: rd.b[rd.off : rd.off+int(size)]}
		rd.off += int(size)
		name := fmt.Sprintf("section %d", id)
		if int(id) < len(sectionNames) {
			name = sectionNames[id]
		}
		switch id {
		case 0:
			name = body.name()
			if name == "name" {
				body.functionNames(names)
			}
		case 2:
			imported = body.importedFuncs()
		case 10:
			for n := body.uleb(); n > 0 && body.err == nil; n-- {
				sz := body.uleb()
				body.skip(sz)
				bodies = append(bodies, int(sz))
				r.Code += int(sz)
			}
		case 11:
			for n := body.uleb(); n > 0 && body.err == nil; n-- {
				switch flag := body.uleb(); flag {
				case 0:
					body.constExpr()
				case 1:
				case 2:
					body.uleb()
					body.constExpr()
				default:
					body.fail(fmt.Errorf("data segment flag %d", flag))
				}
				sz := body.uleb()
				body.skip(sz)
				r.Data += int(sz)
			}
		}
		if body.err != nil {
			return nil, fmt.Errorf("%s section: %v", name, body.err)
		}
		r.Sections = append(r.Sections, wasmSection{name, int(size)})
	}
	if rd.err != nil {
		return nil, rd.err
	}
	by := map[string]*pkgSize{}
	for i, sz := range bodies {
		name, ok := names[imported+i]
		pkg := "(unnamed)"
		if ok {
			pkg = namer.pkg(name)
		}
		p := by[pkg]
		if p == nil {
			p = &pkgSize{Pkg: pkg}
			by[pkg] = p
		}
		p.Bytes += sz
		p.Funcs++
	}
	for _, p := range by {
		r.Packages = append(r.Packages, *p)
	}
	sortSizes(r.Packages)
	return r, nil
}

// wasmReader reads the primitive encodings of the wasm binary format. The
// first error sticks: later reads return zero values.
type wasmReader struct {
	b   []byte
	off int
	err error
}

func (r *wasmReader) done() bool { return r.err != nil || r.off >= len(r.b) }

func (r *wasmReader) fail(err error) {
	if r.err == nil {
		r.err = err
	}
}

func (r *wasmReader) byte() byte {
	if r.err != nil {
		return 0
	}
	if r.off >= len(r.b) {
		r.fail(io.ErrUnexpectedEOF)
		return 0
	}
	c := r.b[r.off]
	r.off++
	return c
}

// uleb reads an unsigned LEB128 number.
func (r *wasmReader) uleb() uint64 {
	var v uint64
	for shift := 0; r.err == nil; shift += 7 {
		if shift > 63 {
			r.fail(errors.New("LEB128 number too long"))
			return 0
		}
		c := r.byte()
		v |= uint64(c&0x7f) << shift
		if c&0x80 == 0 {
			return v
		}
	}
	return 0
}

func (r *wasmReader) skip(n uint64) {
	if r.err != nil {
		return
	}
	if n > uint64(len(r.b)-r.off) {
		r.fail(io.ErrUnexpectedEOF)
		return
	}
	r.off += int(n)
}

// name reads a length-prefixed UTF-8 name.
func (r *wasmReader) name() string {
	n := r.uleb()
	start := r.off
	r.skip(n)
	if r.err != nil {
		return ""
	}
	return string(r.b[start:r.off])
}

// limits skips a table's or memory's limits.
func (r *wasmReader) limits() {
	flag := r.byte()
	r.uleb()
	if flag&1 != 0 {
		r.uleb()
	}
}

// importedFuncs reads an import section and counts its function imports.
func (r *wasmReader) importedFuncs() int {
	funcs := 0
	for n := r.uleb(); n > 0 && r.err == nil; n-- {
		r.name()
		r.name()
		switch kind := r.byte(); kind {
		case 0: // function: type index
			r.uleb()
			funcs++
		case 1: // table: element type, limits
			r.byte()
			r.limits()
		case 2: // memory
			r.limits()
		case 3: // global: value type, mutability
			r.byte()
			r.byte()
		case 4: // tag: attribute, type index
			r.byte()
			r.uleb()
		default:
			r.fail(fmt.Errorf("import kind %d", kind))
		}
	}
	return funcs
}

// constExpr skips a constant expression of a data segment's offset: the
// constant instructions Go and other linkers write, then end (0x0b).
func (r *wasmReader) constExpr() {
	for r.err == nil {
		switch op := r.byte(); op {
		case 0x0b:
			return
		case 0x41, 0x42, 0x23: // i32.const, i64.const (signed LEB; same length rule), global.get
			r.uleb()
		default:
			r.fail(fmt.Errorf("opcode 0x%02x in a constant expression", op))
		}
	}
}

// functionNames reads the "name" custom section's function-names subsection
// (id 1) into names, by function index.
func (r *wasmReader) functionNames(names map[int]string) {
	for !r.done() {
		id := r.byte()
		size := r.uleb()
		if r.err != nil || size > uint64(len(r.b)-r.off) {
			r.fail(io.ErrUnexpectedEOF)
			return
		}
		sub := &wasmReader{b: r.b[r.off : r.off+int(size)]}
		r.off += int(size)
		if id != 1 {
			continue
		}
		for n := sub.uleb(); n > 0 && sub.err == nil; n-- {
			idx := sub.uleb()
			names[int(idx)] = sub.name()
		}
		r.fail(sub.err)
	}
}
