package lab

import (
	"fmt"
	"strings"
)

// Target is one published target a lab's reproduction checks (seed-results.md), and whether
// the simulation meets it.
type Target struct {
	Name   string
	Pass   bool
	Detail string // the simulated figures the verdict rests on
}

// Targets are a reproduction's checks, in the order it prints them.
type Targets []Target

// Add appends a target.
func (ts *Targets) Add(pass bool, name, detail string) {
	*ts = append(*ts, Target{Name: name, Pass: pass, Detail: detail})
}

// Passed reports whether every target is met.
func (ts Targets) Passed() bool {
	for _, t := range ts {
		if !t.Pass {
			return false
		}
	}
	return true
}

// WriteMarkdown lists the targets, each marked **pass** or **FAIL**, as every lab's
// --reproduce prints them.
func (ts Targets) WriteMarkdown(b *strings.Builder) {
	for _, t := range ts {
		mark := "pass"
		if !t.Pass {
			mark = "FAIL"
		}
		fmt.Fprintf(b, "- **%s** %s: %s\n", mark, t.Name, t.Detail)
	}
}
