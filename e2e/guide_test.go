//go:build !js

package e2e

import (
	"encoding/json"
	"fmt"
	"net/url"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bufferscope/bufferscope/sim/labs"
)

// guideState is what the tests read of the guide card.
type guideState struct {
	Heading string `json:"heading"`
	Status  string `json:"status"`
	Result  string `json:"result"`
	Search  string `json:"search"`
}

const guideJS = `(() => {
	const h = document.getElementById('guide-heading');
	const s = document.querySelector('#guide .guide-status');
	return {heading: h ? h.textContent : '', status: s ? s.textContent : '', result: s ? (s.dataset.result || '') : '', search: location.search};
})()`

// tourLength returns the steps of the tour the page shows, from its heading
// "Tour, step K of N: …".
func tourPosition(t *testing.T, heading string) (k, n int) {
	t.Helper()
	if _, err := fmt.Sscanf(heading, "Tour, step %d of %d:", &k, &n); err != nil {
		t.Fatalf("the guide's heading %q is not a tour step's", heading)
	}
	return k, n
}

// TestTourWalksToItsEnd walks every lab's tour from its first step's address to free
// play: each step's address names it, a prediction is taken, the run gives an answer and
// an explanation, and finishing leaves the tour out of the address.
func TestTourWalksToItsEnd(t *testing.T) {
	for _, l := range labs.All {
		name := l.Info().Name
		t.Run(name, func(t *testing.T) {
			p := openPage(t, "/?lab="+name+"&tour=1")
			g := waitJS[guideState](p, waitTimeout, "the tour's first step", `(g => g.heading.startsWith('Tour') && g)(`+guideJS+`)`)
			_, n := tourPosition(t, g.Heading)
			real := 0 // steps run on the page's PostgreSQL 18
			for k := 1; k <= n; k++ {
				g = eval[guideState](p, guideJS)
				if got, _ := tourPosition(t, g.Heading); got != k {
					t.Fatalf("step %d: the heading says %q", k, g.Heading)
				}
				if q, _ := url.ParseQuery(strings.TrimPrefix(g.Search, "?")); q.Get("tour") != fmt.Sprint(k) {
					t.Fatalf("step %d: the address %q does not name the step", k, g.Search)
				}
				if eval[bool](p, `document.querySelector('#guide input[type=radio]') !== null`) {
					p.click(`#guide input[type=radio]`)
				}
				if eval[bool](p, `document.getElementById('tour-run') !== null`) {
					p.click("#tour-run")
					// Let it play a moment, then skip to the result.
					p.waitFrames(5, 200*time.Millisecond)
					eval[any](p, `(b => b && !b.hidden && b.click())(document.getElementById('tour-skip'))`)
					g = waitJS[guideState](p, 60*time.Second, "the step's result", `(g => g.status !== '' && !g.status.startsWith('Running') && g)(`+guideJS+`)`)
					// The run is paced to end within about ten seconds of real time.
					run := eval[struct{ Step, Speed float64 }](p, `(s => ({Step: s.step, Speed: s.speed === null ? Infinity : s.speed}))(bufferscope.stats())`)
					if run.Speed > 0 && run.Step/run.Speed > 10.5 {
						t.Errorf("step %d: its run takes %.0f steps at %.0f steps/s, %.0f s of waiting", k, run.Step, run.Speed, run.Step/run.Speed)
					}
					if eval[bool](p, `document.querySelector('#guide input[type=radio]') !== null`) &&
						!strings.Contains(g.Status, "Right") && !strings.Contains(g.Status, "Not this time") {
						t.Errorf("step %d: the result %q does not judge the prediction", k, g.Status)
					}
				}
				if eval[bool](p, `document.getElementById('tour-real') !== null`) {
					// A step on the page's real PostgreSQL 18: it starts on demand and answers.
					p.click("#tour-real")
					g = waitJS[guideState](p, realStart+realRun, "PostgreSQL 18's result", `(g => g.status !== '' && !g.status.startsWith('Running') && g)(`+guideJS+`)`)
					if !strings.Contains(g.Status, "Right") && !strings.Contains(g.Status, "Not this time") {
						t.Errorf("step %d on PostgreSQL 18: the result %q does not judge the prediction", k, g.Status)
					}
					real++
				}
				if k < n {
					p.click("#tour-next")
				}
			}
			if real == 0 {
				t.Errorf("no step of the %s lab's tour runs on the page's PostgreSQL 18", name)
			}
			p.click("#tour-finish")
			g = eval[guideState](p, guideJS)
			if strings.Contains(g.Search, "tour=") || g.Heading != "Learn" {
				t.Errorf("after the tour: heading %q, address %q; want the guide closed and no tour in the address", g.Heading, g.Search)
			}
			// Free play gives back the settings the tour was opened with (here the lab's
			// defaults, as the link named none), playing.
			changed := eval[[]string](p, `(() => {
				const lab = bufferscope.labs().find((l) => l.name === bufferscope.stats().lab);
				const now = bufferscope.params().params;
				return lab.params.filter((f) => f.key !== "seed" && now[f.key] !== undefined && now[f.key] !== f.default).map((f) => f.key + "=" + now[f.key]);
			})()`)
			if len(changed) > 0 {
				t.Errorf("free play after the tour keeps the tour's settings %v", changed)
			}
			waitJS[bool](p, waitTimeout, "free play to play", `bufferscope.stats().playing`)
		})
	}
}

// TestTourStepLinks opens a later step of the drop lab's tour by its address: the settings
// of every step before it are in force.
func TestTourStepLinks(t *testing.T) {
	p := openPage(t, "/?lab=drop&tour=3")
	g := waitJS[guideState](p, waitTimeout, "the tour's third step", `(g => g.heading.startsWith('Tour, step 3') && g)(`+guideJS+`)`)
	params := eval[map[string]string](p, `Object.fromEntries(new URLSearchParams(location.search))`)
	if params["policy"] != "pg14" || params["tables"] != "5x1000" || params["mode"] != "recovery" {
		t.Errorf("step 3 by its address: heading %q, address %v; want policy pg14, tables 5x1000, mode recovery", g.Heading, params)
	}
	p2 := openPage(t, "/?lab=drop&tour=99")
	waitJS[bool](p2, waitTimeout, "the error panel", `!document.getElementById('error-panel').hidden && document.getElementById('error-list').textContent.includes('tour "99" is not a step')`)
}

// exerciseAnswer answers the exercise open in p with choice value and returns the state.
func exerciseAnswer(p *page, value string) guideState {
	p.click(fmt.Sprintf(`#guide [data-answer=%q]`, value))
	return waitJS[guideState](p, realStart+realRun, "the answer's judgement", `(g => g.result !== '' && g)(`+guideJS+`)`)
}

// TestExercisesAnsweredRightAndWrong opens each lab's exercises at a fixed seed, answers
// wrong and then, from the same address, right. The drop lab's answer is checked against
// bufferscope drop for the same settings.
func TestExercisesAnsweredRightAndWrong(t *testing.T) {
	for _, l := range labs.All {
		name := l.Info().Name
		t.Run(name, func(t *testing.T) {
			p := openPage(t, "/?play=0&lab="+name)
			ids := eval[[]string](p, `[...document.querySelectorAll('#guide [data-exercise]')].map(b => b.dataset.exercise)`)
			if len(ids) == 0 {
				t.Skipf("the %s lab has no exercise", name)
			}
			if !slices.ContainsFunc(ids, func(id string) bool { return strings.HasSuffix(id, "-real") }) {
				t.Errorf("no exercise of the %s lab (%v) runs on the page's PostgreSQL 18", name, ids)
			}
			for _, id := range ids {
				addr := fmt.Sprintf("/?lab=%s&exercise=%s&exseed=12345", name, id)
				p := openPage(t, addr)
				waitJS[bool](p, waitTimeout, "the exercise", `document.querySelector('#guide [data-answer]') !== null`)
				choices := eval[[]string](p, `[...document.querySelectorAll('#guide [data-answer]')].map(b => b.dataset.answer)`)
				first := exerciseAnswer(p, choices[0])
				right := choices[0]
				if first.Result == "wrong" {
					right = ""
					for _, c := range choices {
						label := eval[string](p, fmt.Sprintf(`document.querySelector('#guide [data-answer=%q]').textContent`, c))
						if strings.Contains(first.Status, "the answer is "+label+".") {
							right = c
						}
					}
					if right == "" {
						t.Fatalf("%s: a wrong answer's judgement %q names none of the choices", id, first.Status)
					}
				}
				// The same address asks the same question: answer it the other way, in a tab of
				// its own while this one stands still.
				eval[any](p, `bufferscope.pause()`)
				p2 := openPage(t, addr)
				waitJS[bool](p2, waitTimeout, "the exercise", `document.querySelector('#guide [data-answer]') !== null`)
				other := right
				if first.Result == "right" {
					other = choices[len(choices)-1]
					if other == right {
						other = choices[len(choices)-2]
					}
				}
				second := exerciseAnswer(p2, other)
				wantSecond := "right"
				if first.Result == "right" {
					wantSecond = "wrong"
				}
				if second.Result != wantSecond {
					t.Errorf("%s: answered %s then %s at the same seed: %s, %s (%q)", id, choices[0], other, first.Result, second.Result, second.Status)
				}
				if name == "drop" && id == "path" {
					checkDropAnswer(t, p2, right)
				}
			}
		})
	}
}

// checkDropAnswer runs bufferscope drop with the page's settings and checks that its path
// is the exercise's right answer.
func checkDropAnswer(t *testing.T, p *page, right string) {
	t.Helper()
	q := eval[map[string]string](p, `(({lab, ...rest}) => rest)(bufferscope.stats().lab === 'drop' ? Object.fromEntries(new URLSearchParams(location.search)) : {})`)
	args := []string{"drop", "--format", "json"}
	for _, k := range []string{"shared_buffers", "tables", "op", "transactions", "mode", "policy", "threshold"} {
		if v, ok := q[k]; ok {
			args = append(args, "--"+strings.ReplaceAll(k, "_", "-"), v)
		}
	}
	out, err := exec.Command(bufferscopeCommand(t), args...).Output()
	if err != nil {
		t.Fatalf("bufferscope %v: %v\n%s", args, err, out)
	}
	var rows []map[string]any
	if err := json.Unmarshal(out, &rows); err != nil || len(rows) != 1 {
		t.Fatalf("bufferscope %v printed %s", args, out)
	}
	path := fmt.Sprint(rows[0]["path"])
	if want := map[bool]string{true: "lookup", false: "scan"}[path == "lookup"]; want != right {
		t.Errorf("bufferscope %v says path %s; the exercise's right answer was %s", args, path, right)
	}
}

// TestScaleLabelFollowsTheGrid: a tour or an exercise opened by link sets up its pool after
// the page has laid out the grid, and the run stands still; the scale over the grid must
// still say how the grid is drawn now, not how it was drawn before.
func TestScaleLabelFollowsTheGrid(t *testing.T) {
	for _, path := range []string{"/?tour=1", "/?exercise=clock&exseed=42"} {
		p := openPage(t, path)
		waitJS[bool](p, waitTimeout, "the scale over the grid to match the grid", `(() => {
			const v = bufferscope.view();
			return document.querySelector("#pool-scale").textContent === "· " + v.label;
		})()`)
	}
	p := openPage(t, "/?lab=ring&tour=1")
	waitJS[bool](p, waitTimeout, "the scale over the ring lab's tour grid to match the grid",
		`document.querySelector("#pool-scale").textContent === "· " + bufferscope.view().label`)
}

// TestClockExerciseSaysWhereTheHandIs: the clock exercise's question tells the reader where
// the hand stands (no counter on the page shows it), as the run it set up has it.
func TestClockExerciseSaysWhereTheHandIs(t *testing.T) {
	p := openPage(t, "/?exercise=clock&exseed=42")
	waitJS[bool](p, waitTimeout, "the exercise", `document.querySelector('#guide [data-answer]') !== null`)
	question := eval[string](p, `document.querySelector('#guide h2 + p').textContent`)
	hand := eval[int](p, `bufferscope.stats().counters.clockHand`)
	if want := fmt.Sprintf("stands at buffer %d.", hand); !strings.Contains(question, want) {
		t.Errorf("the clock exercise asks %q; want it to say the hand %s", question, want)
	}
	if strings.Contains(question, "in the counters") {
		t.Errorf("the clock exercise sends the reader to the counters, which do not show the hand: %q", question)
	}
}
