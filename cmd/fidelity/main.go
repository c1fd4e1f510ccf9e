// Command fidelity runs the fidelity experiments on real PostgreSQL servers and writes the
// report (make fidelity):
//
//	go run ./cmd/fidelity -majors 13,16,18 -out docs/fidelity.md
//
// With -results it also saves the measured figures as JSON; -render re-renders the report from
// such a file without running any server (e.g. after a hook changed).
//
// It installs the servers into the project's cache (.cache/postgres) with npm when missing.
// Every server it starts is stopped before it exits, also on Ctrl-C.
package main

import (
	"context"
	"encoding/json"
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
	results := flag.String("results", "", "also save the measured figures as JSON to this file")
	render := flag.String("render", "", "re-render the report from a -results file instead of running the servers")
	flag.Parse()
	log.SetFlags(log.Ltime)
	if *render != "" {
		if err := rerender(*render, *out); err != nil {
			log.Fatal(err)
		}
		return
	}
	if err := run(*majorsFlag, *cache, *out, *results); err != nil {
		log.Fatal(err)
	}
}

// rerender writes the report from the figures saved by an earlier run.
func rerender(in, out string) error {
	b, err := os.ReadFile(in)
	if err != nil {
		return err
	}
	var res fidelity.Results
	if err := json.Unmarshal(b, &res); err != nil {
		return fmt.Errorf("%s: %v", in, err)
	}
	return write(&res, out)
}

// write renders the report with every simulated side.
func write(res *fidelity.Results, out string) error {
	f, err := os.Create(out)
	if err != nil {
		return err
	}
	if err := fidelity.Report(f, res, fidelity.AllHooks()); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func run(majorsFlag, cache, out, results string) error {
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
	env, err := fidelity.NewEnv(ctx, bins, log.Printf)
	if err != nil {
		return err
	}
	defer func() {
		if err := env.Close(); err != nil {
			log.Printf("stopping the servers: %v", err)
		}
	}()
	res := fidelity.RunAll(ctx, env, majors)
	if results != "" {
		b, err := json.MarshalIndent(res, "", "\t")
		if err != nil {
			return err
		}
		if err := os.WriteFile(results, b, 0o644); err != nil {
			return err
		}
	}
	if err := write(res, out); err != nil {
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
