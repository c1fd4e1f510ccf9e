//go:build !js

// Command build turns the repository into the deployable site and serves it
// locally. Run it from the repository root:
//
//	go run ./build dist [-out dist] [-site site] [-brotli-quality 9]
//	go run ./build serve [-addr 127.0.0.1:8080] [-public] [dist flags]
//	go run ./build bench-report -native FILE -wasm FILE [-out docs/benchmarks.md]
//	go run ./build typings [-out site/js/bufferscope.d.ts]
//	go run ./build wasm-size [-pkg ./wasm] [-json FILE]
//
// dist compiles ./wasm (the app) and ./wasm/worker (the experiment worker's
// program), bundles every site/js/<name>.js that a page loads with
// <script src="js/<name>.js"> and the worker's script site/js/worker/main.js,
// minifies the pages and stylesheets (vendored ones too, such as
// site/vendor/uplot/uPlot.min.css), and writes content-hashed assets under
// dist/assets/. Site JavaScript gets the paths of the hashed files, relative to
// the page, as string constants: __WASM_URL__ (for example
// "assets/wasm/bufferscope.0123abcd.wasm"), so a page loads the app with
// fetch(__WASM_URL__), and __WASM_EXEC_URL__, __WORKER_URL__ and
// __WORKER_WASM_URL__ for the worker. Scripts import vendored libraries by
// relative path (../vendor/uplot/uPlot.esm.js); those are bundled, not copied.
// Pages reference sources exactly as href="style.css", src="wasm_exec.js" and
// src="js/main.js" (double quotes); dist rewrites those and fails on any local
// src or href that names no file.
//
// serve applies the [[headers]] of netlify.toml to every response, so the
// local site and the browser tests run under the production
// Content-Security-Policy.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
)

// command is one subcommand of build.
type command struct {
	name, synopsis string
	run            func(args []string) error
}

var commands = []command{
	{"dist", "build the site into dist/", runDist},
	{"serve", "build the site and serve it on a loopback address", runServe},
	{"bench-report", "write docs/benchmarks.md from go test -bench output", runBenchReport},
	{"bench-reproduce", "time each lab's --reproduce natively into a JSON file", runBenchReproduce},
	{"typings", "write site/js/bufferscope.d.ts from the labs' tables", runTypings},
	{"wasm-size", "print where the app's wasm bytes go, by Go package", runWasmSize},
}

// errUsage reports a command line that was wrong; the message is already printed.
var errUsage = errors.New("usage")

func main() {
	os.Exit(run(os.Args[1:]))
}

func run(args []string) int {
	if len(args) == 0 {
		usage(os.Stderr)
		return 2
	}
	switch args[0] {
	case "-h", "-help", "--help", "help":
		usage(os.Stdout)
		return 0
	}
	for _, c := range commands {
		if c.name != args[0] {
			continue
		}
		err := c.run(args[1:])
		switch {
		case err == nil, errors.Is(err, flag.ErrHelp):
			return 0
		case errors.Is(err, errUsage):
			return 2
		default:
			fmt.Fprintln(os.Stderr, "build:", err)
			return 1
		}
	}
	fmt.Fprintf(os.Stderr, "build: unknown command %q\n\n", args[0])
	usage(os.Stderr)
	return 2
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: go run ./build <command> [flags]")
	fmt.Fprintln(w)
	for _, c := range commands {
		fmt.Fprintf(w, "  %-13s %s\n", c.name, c.synopsis)
	}
	fmt.Fprintln(w, "\nRun go run ./build <command> -h for its flags.")
}

// newFlagSet returns a flag set for a subcommand whose usage names it.
func newFlagSet(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: go run ./build %s [flags]\n", name)
		fs.PrintDefaults()
	}
	return fs
}

// parseFlags parses args into fs and accepts no positional arguments.
// Its errors are flag.ErrHelp or errUsage, after the message is printed.
func parseFlags(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return errUsage
	}
	if fs.NArg() > 0 {
		return usageErrorf(fs, "unexpected argument %q", fs.Arg(0))
	}
	return nil
}

// usageErrorf prints a message about a bad flag value and the usage of fs.
func usageErrorf(fs *flag.FlagSet, format string, args ...any) error {
	fmt.Fprintf(fs.Output(), "build %s: %s\n", fs.Name(), fmt.Sprintf(format, args...))
	fs.Usage()
	return errUsage
}
