package sim

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the expected output of testdata files")

// TestTranscripts replays every testdata/*.txt scenario. A block is one command line, a line
// "----", then the expected output up to a blank line; "#" lines are comments. Besides the
// commands of ParseCommand a block may say:
//
//	new nbuffers=16 [version=19] [seed=1]   a simulation with no workload; prints the pool
//	describe                                prints the pool
//
// Other commands print their events, or "error: ..." when they fail. The invariants are
// checked after every command. Run with -update to rewrite the files, then review the diff.
func TestTranscripts(t *testing.T) {
	files, err := filepath.Glob("testdata/*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("no transcripts: %v", err)
	}
	for _, f := range files {
		t.Run(strings.TrimSuffix(filepath.Base(f), ".txt"), func(t *testing.T) { runTranscript(t, f) })
	}
}

func runTranscript(t *testing.T, path string) {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	var out strings.Builder
	var s *Sim
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			out.WriteString(line + "\n")
			continue
		}
		if i+1 >= len(lines) || lines[i+1] != "----" {
			t.Fatalf("%s:%d: command %q is not followed by ----", path, i+1, line)
		}
		start := i + 2
		end := start
		for end < len(lines) && lines[end] != "" {
			end++
		}
		want := strings.Join(lines[start:end], "\n")
		var got string
		s, got = transcriptCommand(t, s, line)
		got = strings.TrimRight(got, "\n")
		if s != nil {
			if err := s.CheckInvariants(); err != nil {
				t.Fatalf("%s:%d: after %q: invariant violated: %v", path, i+1, line, err)
			}
		}
		if !*update && got != want {
			t.Errorf("%s:%d: %s\n got:\n%s\nwant:\n%s", path, i+1, line, got, want)
		}
		fmt.Fprintf(&out, "%s\n----\n%s\n", line, got)
		i = end - 1
	}
	if *update {
		if err := os.WriteFile(path, []byte(strings.TrimRight(out.String(), "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// transcriptCommand runs one transcript line and returns the simulation and its output.
func transcriptCommand(t *testing.T, s *Sim, line string) (*Sim, string) {
	f := strings.Fields(line)
	switch f[0] {
	case "new":
		cfg := Config{NBuffers: 16, Workload: &Workload{WALWriterDelay: 200 * Millisecond, BgWriterDelay: 200 * Millisecond, OSCachePercent: 100}}
		for _, a := range f[1:] {
			k, v, _ := strings.Cut(a, "=")
			n, err := strconv.ParseUint(v, 10, 64)
			if err != nil {
				t.Fatalf("new: bad argument %q", a)
			}
			switch k {
			case "nbuffers":
				cfg.NBuffers = int(n)
			case "version":
				cfg.Version = Version(n)
			case "seed":
				cfg.Seed = n
			default:
				t.Fatalf("new: unknown argument %q", a)
			}
		}
		ns, err := New(cfg)
		if err != nil {
			return nil, "error: " + err.Error()
		}
		return ns, ns.Describe()
	case "describe":
		return s, s.Describe()
	}
	if s == nil {
		t.Fatalf("%q before new", line)
	}
	c, err := ParseCommand(line)
	if err != nil {
		return s, "error: " + err.Error()
	}
	if c.String() != line {
		t.Errorf("ParseCommand(%q).String() = %q: the text form does not round-trip", line, c.String())
	}
	err = s.Apply(c)
	var out string
	switch c.(type) {
	case DropRelCmd, DropAllCmd:
		out = s.LastDrop().String() + "\n"
	}
	if err != nil {
		return s, out + "error: " + err.Error()
	}
	if out += s.DescribeEvents(); out != "" {
		return s, out
	}
	return s, "ok"
}
