//go:build !js

package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"time"

	"github.com/bufferscope/bufferscope/sim/lab"
	"github.com/bufferscope/bufferscope/sim/labs"
)

// reproduceRun is one lab's line of bench-reproduce's output. The field names are those
// readReproduce (benchtargets.go) reads.
type reproduceRun struct {
	Lab       string  `json:"lab"`
	Seconds   float64 `json:"seconds"`   // wall time of the run
	PeakBytes float64 `json:"peakBytes"` // peak resident set (getrusage's ru_maxrss)
	OK        bool    `json:"ok"`        // exit status 0: every published target reproduced
	ExitCode  int     `json:"exitCode"`  // the command's exit status, -1 if it did not exit
	// The lab's budget (lab.Budgeted): seconds, and peak bytes (0 when none).
	LimitSeconds float64 `json:"limitSeconds"`
	LimitBytes   float64 `json:"limitBytes"`
	// Failed are the published targets the run marked FAIL (lab.Targets' "- **FAIL** …"
	// lines), so the report says which check a failed run missed.
	Failed []string `json:"failed,omitempty"`
}

// reproduceReport is the whole file bench-reproduce writes.
type reproduceReport struct {
	Date    string         `json:"date"`    // RFC 3339, UTC
	Machine string         `json:"machine"` // GOOS/GOARCH, CPU count and model
	Runs    []reproduceRun `json:"runs"`
}

func runBenchReproduce(args []string) error {
	flags := newFlagSet("bench-reproduce")
	out := flags.String("out", "", "JSON file to write (required)")
	if err := parseFlags(flags, args); err != nil {
		return err
	}
	if *out == "" {
		return usageErrorf(flags, "-out is required")
	}
	dir, err := os.MkdirTemp("", "bench-reproduce")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	bin := filepath.Join(dir, "bufferscope")
	build := exec.Command("go", "build", "-trimpath", "-o", bin, "./cmd/bufferscope")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		return fmt.Errorf("go build ./cmd/bufferscope: %v", err)
	}
	rep := reproduceReport{Date: time.Now().UTC().Format(time.RFC3339), Machine: machineName()}
	for _, l := range labs.Names() { // every lab whose experiment reproduces published measurements
		lb, _ := labs.ByName(l)
		repro, ok := lb.Experiment().(lab.Reproducer)
		if !ok {
			continue
		}
		fmt.Fprintf(os.Stderr, "bench-reproduce: bufferscope %s --reproduce\n", l)
		r, err := timeReproduce(bin, l, io.Discard, os.Stderr)
		if err != nil {
			return err
		}
		if b, ok := repro.(lab.Budgeted); ok {
			r.LimitSeconds, r.LimitBytes = b.ReproduceBudget()
		}
		fmt.Fprintf(os.Stderr, "bench-reproduce: %s: %.1f s, peak %.0f MB, exit %d\n", l, r.Seconds, r.PeakBytes/1e6, r.ExitCode)
		rep.Runs = append(rep.Runs, r)
	}
	b, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(*out, append(b, '\n'), 0o644)
}

// timeReproduce runs bin <lab> --reproduce with its output sent to stdout and stderr and
// measures it. A run that exits non-zero (a published target missed) is a result, not an
// error; a program that cannot be started is an error.
func timeReproduce(bin, labName string, stdout, stderr io.Writer) (reproduceRun, error) {
	cmd := exec.Command(bin, labName, "--reproduce")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, stderr
	start := time.Now()
	err := cmd.Run()
	r := reproduceRun{Lab: labName, Seconds: time.Since(start).Seconds(), ExitCode: -1}
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		return r, fmt.Errorf("%s %s --reproduce: %v", bin, labName, err)
	}
	if stdout != nil {
		stdout.Write(out.Bytes())
	}
	for _, line := range strings.Split(out.String(), "\n") {
		if f, ok := strings.CutPrefix(line, failPrefix); ok {
			r.Failed = append(r.Failed, strings.TrimSpace(f))
		}
	}
	r.ExitCode = cmd.ProcessState.ExitCode()
	r.OK = cmd.ProcessState.Success()
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		r.PeakBytes = float64(ru.Maxrss) * maxrssUnit()
	}
	return r, nil
}

// failPrefix begins each missed target in a reproduction's output (lab.Targets.WriteMarkdown).
const failPrefix = "- **FAIL** "

// maxrssUnit is the size of ru_maxrss's unit in bytes: kilobytes on Linux, bytes on macOS.
func maxrssUnit() float64 {
	if runtime.GOOS == "darwin" {
		return 1
	}
	return 1024
}

// machineName describes the machine for the report: the platform, the CPU count and, on
// Linux, the CPU's model name.
func machineName() string {
	s := fmt.Sprintf("%s/%s, %d CPUs", runtime.GOOS, runtime.GOARCH, runtime.NumCPU())
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
				return s + ", " + strings.TrimSpace(v)
			}
		}
	}
	return s
}
