package labs

import (
	"strconv"
	"strings"
	"testing"

	"github.com/bufferscope/bufferscope/sim/lab"
	"github.com/bufferscope/bufferscope/sim/param"
)

// FuzzLabCommands runs a script on a small run of each registered lab: its parameters as an
// address gives them (the table reads whatever the fuzzer writes; pools over
// maxScriptBuffers are not run) and command lines with steps among them. It checks the
// run's invariants after every line, that every line is either applied or refused with a
// reason (never a panic), that an applied command's text reads back as itself, that the
// same script gives the same transcript and state hash twice, and the same again when every
// step is a call of its own (the naive way of runScript).
func FuzzLabCommands(f *testing.F) {
	for i, l := range All {
		small := smallParams(l.Params())
		f.Add(uint8(i), small+"&shared_buffers=128kB", "step 50")
		r, err := l.New(readParams(l.Params(), small))
		if err != nil {
			f.Fatal(err)
		}
		rel := r.Sim().Relations()[0].Name
		f.Add(uint8(i), small, strings.Join([]string{
			"step 10", "pin b=0 rel=" + rel + " blk=0", "dirty b=0 rel=" + rel + " blk=0", "walflush", "step 20",
			"unpin b=0 rel=" + rel + " blk=0", "checkpoint", "bgwriter", "update b=1 rel=" + rel + " blk=1",
			"recovery on", "droppolicy lookup threshold=NB/4", "step 5", "droprel rel=" + rel + " forks=main first=1",
			"recovery off", "until 10us", "step 3", "relation extra blocks=8 fsm=3 cached=main",
			"read b=2 rel=extra fork=fsm blk=2", "dropall rels=extra," + rel, "clients 2", "updates 50",
			"distribution zipfian s=1.5", "step 100",
		}, "\n"))
	}
	f.Fuzz(func(t *testing.T, labIndex uint8, params, script string) {
		l := All[int(labIndex)%len(All)]
		v := readParams(l.Params(), params)
		if lab.NBuffers(v) > maxScriptBuffers {
			return
		}
		lines := strings.Split(script, "\n")
		a, err := runScript(l, v, linesOf(lines), false)
		if err != nil {
			t.Fatalf("%s %s:\n%s%v", l.Info().Name, writeParams(l.Params(), v), a.transcript.String(), err)
		}
		b, err := runScript(l, v, linesOf(lines), false)
		if err != nil {
			t.Fatalf("%s %s: the second run failed where the first did not: %v", l.Info().Name, writeParams(l.Params(), v), err)
		}
		if a.transcript.String() != b.transcript.String() || a.hash != b.hash {
			t.Fatalf("%s %s: the same script ran two ways:\n%s\n----\n%s", l.Info().Name, writeParams(l.Params(), v), a.transcript.String(), b.transcript.String())
		}
		naive, err := runScript(l, v, linesOf(lines), true)
		if err != nil {
			t.Fatalf("%s %s: stepping one at a time failed where steps in one call did not: %v", l.Info().Name, writeParams(l.Params(), v), err)
		}
		if got, want := naive.transcript.String(), a.transcript.String(); got != want {
			t.Fatalf("%s %s: stepping one at a time gave another run:\n%s\n---- steps in one call:\n%s", l.Info().Name, writeParams(l.Params(), v), got, want)
		}
	})
}

// smallParams writes the parameters of the seeds: a pool of 1MB, and every whole number
// whose default is 10,000 or more at its least value (100,000 rows become 1,000), so that
// building a run costs little and the fuzzer, which mostly keeps a seed's parameters, runs
// many scripts a second.
func smallParams(t *param.Table) string {
	q := "shared_buffers=1MB"
	for _, p := range t.Params {
		if def, err := strconv.ParseFloat(p.Default, 64); err == nil && p.Kind == param.Int && p.Bounds == nil && def >= 10_000 {
			q += "&" + p.Key + "=" + strconv.FormatFloat(p.Min, 'f', -1, 64)
		}
	}
	return q
}
