package fidelity

import (
	"context"
	"fmt"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// snippetLabs are the labs whose pages show a "Try it on a real server" card.
var snippetLabs = []string{"free", "drop", "ring", "pins"}

// loadAllSnippets reads every lab's card through node, skipping the test without node.
func loadAllSnippets(t *testing.T) map[string]SnippetDoc {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node reads the page's SQL cards (site/js/labs/*/sql.js); it is not on PATH")
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	docs := map[string]SnippetDoc{}
	for _, lab := range snippetLabs {
		doc, err := LoadSnippets(ctx, "..", lab)
		if err != nil {
			t.Fatal(err)
		}
		if len(doc.Blocks) == 0 {
			t.Fatalf("the %s lab's card has no blocks", lab)
		}
		docs[lab] = doc
	}
	return docs
}

// TestSnippetsParse checks, without a server, that every block of every lab's card is SQL
// the harness can run: statements ended, no psql command it cannot emulate, versions that
// are PostgreSQL's, and a reason for any block it must leave out.
func TestSnippetsParse(t *testing.T) {
	for lab, doc := range loadAllSnippets(t) {
		for _, b := range doc.Blocks {
			if b.Needs == "" {
				if steps, err := ParseSnippet(b.Code); err != nil {
					t.Errorf("%s, %q: %v", lab, b.Title, err)
				} else if len(steps) == 0 {
					t.Errorf("%s, %q: no statement to run, and no needs saying why", lab, b.Title)
				}
			}
			if b.Since != 0 && (b.Since < 13 || b.Since > 18) || b.Until != 0 && (b.Until < 13 || b.Until > 18) || b.Until != 0 && b.Until < b.Since {
				t.Errorf("%s, %q: versions %d to %d", lab, b.Title, b.Since, b.Until)
			}
		}
	}
}

func TestParseSnippet(t *testing.T) {
	steps, err := ParseSnippet("SET a = 1;\n\\timing on\nSELECT x\nFROM y \\gexec\n-- a comment\n-- session 2\nSELECT 1,\n  -- inside\n  2;\n-- session 1\nCOMMIT;")
	if err != nil {
		t.Fatal(err)
	}
	want := []Step{{1, "SET a = 1;", false}, {1, "SELECT x\nFROM y", true}, {2, "SELECT 1,\n  -- inside\n  2;", false}, {1, "COMMIT;", false}}
	if len(steps) != len(want) {
		t.Fatalf("steps %+v, want %+v", steps, want)
	}
	for i := range want {
		if steps[i] != want[i] {
			t.Errorf("step %d: %+v, want %+v", i, steps[i], want[i])
		}
	}
	for _, bad := range []string{"\\set aid 1\nSELECT 1;", "SELECT 1", "SELECT\n-- session 2\n1;", "-- session x\nSELECT 1;"} {
		if _, err := ParseSnippet(bad); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
}

// TestRealSnippets runs every lab's card as a reader would, block after block in a database
// of its own, on the harness's server of BUFFERSCOPE_FIDELITY_MAJOR: each block the version
// is named for must run without an error, and every lab must have a block for it.
func TestRealSnippets(t *testing.T) {
	docs := loadAllSnippets(t)
	env, major := realEnv(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	srv, err := env.NewServer(ctx, major, Settings{"shared_buffers": "'128MB'"})
	if err != nil {
		t.Fatal(err)
	}
	conn, err := srv.Connect(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	for _, lab := range snippetLabs {
		t.Run(lab, func(t *testing.T) {
			db := "snippets_" + lab
			if err := Exec(ctx, conn, "CREATE DATABASE "+db); err != nil {
				t.Fatal(err)
			}
			ran := 0
			for _, b := range docs[lab].Blocks {
				switch {
				case !b.On(major):
					t.Logf("%q: not for PostgreSQL %d", b.Title, major)
					continue
				case b.Needs != "":
					t.Logf("%q: left out, it needs %s", b.Title, b.Needs)
					continue
				}
				steps, err := ParseSnippet(b.Code)
				if err != nil {
					t.Fatalf("%q: %v", b.Title, err)
				}
				start := time.Now()
				res, err := RunSnippet(ctx, srv, db, steps)
				if err != nil {
					t.Errorf("%q on PostgreSQL %d: %v", b.Title, major, err)
					continue
				}
				ran++
				t.Logf("%q: %d statements in %.1fs, the last returned %s", b.Title, res.Steps, time.Since(start).Seconds(), row(res.Last))
			}
			if ran == 0 {
				t.Errorf("no block of the %s lab's card runs on PostgreSQL %d", lab, major)
			}
		})
	}
}

// row writes a returned row for the log.
func row(vals []any) string {
	if vals == nil {
		return "no row"
	}
	var b strings.Builder
	for i, v := range vals {
		if i > 0 {
			b.WriteString(" | ")
		}
		b.WriteString(strings.TrimSpace(strings.ReplaceAll(fmt.Sprint(v), "\n", " ")))
	}
	return b.String()
}
