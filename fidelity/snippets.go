package fidelity

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
)

// The page's "Try it on a real server" card shows, for each lab, blocks of SQL a reader runs
// in psql (site/js/labs/<lab>/sql.js). This file runs them as written on the harness's
// servers, so that what the page tells a reader to type works on the versions it names.

// SnippetDoc is one lab's card: its blocks, in the order a reader runs them.
type SnippetDoc struct {
	Intro  string    `json:"intro"`
	Blocks []Snippet `json:"blocks"`
}

// Snippet is one block of the card.
type Snippet struct {
	Title string `json:"title"`
	Code  string `json:"code"`
	Since int    `json:"since"` // the first version it runs on; 0 for every one
	Until int    `json:"until"` // the last; 0 for every one
	Needs string `json:"needs"` // what it needs beyond SQL sessions (pgbench); the harness skips it
}

// On reports whether the block names major among its versions.
func (s Snippet) On(major int) bool {
	return (s.Since == 0 || major >= s.Since) && (s.Until == 0 || major <= s.Until)
}

// LoadSnippets reads lab's card from site/js/labs/<lab>/sql.js under root, by importing the
// module in node (the page's own data, not a copy of it).
func LoadSnippets(ctx context.Context, root, lab string) (SnippetDoc, error) {
	var doc SnippetDoc
	path, err := filepath.Abs(filepath.Join(root, "site", "js", "labs", lab, "sql.js"))
	if err != nil {
		return doc, err
	}
	const script = `const m = await import(require('node:url').pathToFileURL(process.argv[1]));
if (!m.SQL || typeof m.SQL !== 'object') throw new Error('sql.js exports no SQL object');
process.stdout.write(JSON.stringify(m.SQL));`
	cmd := exec.CommandContext(ctx, "node", "--input-type=commonjs", "-e", "(async () => {"+script+"})().catch((e) => { console.error(e.message); process.exit(1); })", path)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return doc, fmt.Errorf("fidelity: reading %s with node: %v: %s", path, err, strings.TrimSpace(stderr.String()))
	}
	if err := json.Unmarshal(out, &doc); err != nil {
		return doc, fmt.Errorf("fidelity: %s: %w", path, err)
	}
	return doc, nil
}

// A Step is one statement of a block and the session it runs in (1 for the first).
type Step struct {
	Session int
	SQL     string
	Gexec   bool // psql's \gexec: run SQL, then every value it returns as a statement
}

// ParseSnippet splits a block into steps as psql would read it: a statement ends with a
// line that ends in ';' or in \gexec; "-- session N" moves to session N; \timing is psql's
// display and is ignored; any other backslash command, which the harness cannot run, is
// refused.
func ParseSnippet(code string) ([]Step, error) {
	var steps []Step
	var cur []string
	session := 1
	for _, line := range strings.Split(code, "\n") {
		t := strings.TrimSpace(line)
		if n, ok := strings.CutPrefix(t, "-- session "); ok {
			if len(cur) > 0 {
				return nil, fmt.Errorf("a statement runs on into %q", t)
			}
			k, err := strconv.Atoi(strings.TrimSpace(n))
			if err != nil || k < 1 || k > 9 {
				return nil, fmt.Errorf("%q names no session from 1 to 9", t)
			}
			session = k
			continue
		}
		if t == "" || strings.HasPrefix(t, "--") && len(cur) == 0 {
			continue
		}
		if strings.HasPrefix(t, `\timing`) && len(cur) == 0 {
			continue
		}
		if q, ok := strings.CutSuffix(t, `\gexec`); ok {
			cur = append(cur, strings.TrimSpace(q))
			steps = append(steps, Step{Session: session, SQL: strings.Join(cur, "\n"), Gexec: true})
			cur = nil
			continue
		}
		if strings.HasPrefix(t, `\`) {
			return nil, fmt.Errorf("%q is a psql command the harness cannot run", t)
		}
		cur = append(cur, line)
		if strings.HasSuffix(t, ";") {
			steps = append(steps, Step{Session: session, SQL: strings.Join(cur, "\n")})
			cur = nil
		}
	}
	if len(cur) > 0 {
		return nil, fmt.Errorf("the block ends inside a statement: %q", strings.Join(cur, "\n"))
	}
	return steps, nil
}

// snippetSettle is how long a step may take before the runner takes it as waiting (a VACUUM
// behind another session's pin) and goes on with the next, as a reader at a second terminal
// would.
const snippetSettle = 3 * time.Second

// session is one connection of a block, running its steps in order in a goroutine of its own.
type session struct {
	conn  *pgx.Conn
	steps chan Step
	done  chan stepResult // one per step, in order
	owed  int             // steps sent whose result has not been read
}

// stepResult is what one step did: the first row it returned, or its error.
type stepResult struct {
	step  Step
	first []any
	err   error
}

func (s *session) run(ctx context.Context) {
	for st := range s.steps {
		first, err := runStep(ctx, s.conn, st)
		s.done <- stepResult{st, first, err}
	}
	close(s.done)
}

// runStep runs one statement, and for \gexec every value its rows hold, in order.
func runStep(ctx context.Context, conn *pgx.Conn, st Step) ([]any, error) {
	rows, err := conn.Query(ctx, st.SQL, pgx.QueryExecModeSimpleProtocol)
	if err != nil {
		return nil, err
	}
	var first []any
	var gexec []string
	for rows.Next() {
		vals, err := rows.Values()
		if err != nil {
			rows.Close()
			return nil, err
		}
		if first == nil {
			first = vals
		}
		for _, v := range vals {
			if q, ok := v.(string); ok && st.Gexec {
				gexec = append(gexec, q)
			}
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	for _, q := range gexec {
		if _, err := conn.Exec(ctx, q, pgx.QueryExecModeSimpleProtocol); err != nil {
			return nil, fmt.Errorf("%s (from \\gexec): %w", q, err)
		}
	}
	return first, nil
}

// SnippetRun is what a block's last step returned, for the test's log.
type SnippetRun struct {
	Steps int
	Last  []any
}

// RunSnippet runs one block's steps on srv's database db, each session on a connection of
// its own. A step still running after snippetSettle is left waiting and the next runs; at the
// end the sessions end their work in order (the first one's COMMIT lets a waiting VACUUM
// go on), and any step that failed, or did not finish within a minute, fails the block.
func RunSnippet(ctx context.Context, srv *Server, db string, steps []Step) (SnippetRun, error) {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	sessions := map[int]*session{}
	defer func() {
		for _, s := range sessions {
			close(s.steps)
			s.conn.Close(context.Background())
		}
	}()
	var out SnippetRun
	var errs []error
	collect := func(r stepResult) {
		if r.err != nil {
			errs = append(errs, fmt.Errorf("session %d: %s: %w", r.step.Session, strings.TrimSpace(r.step.SQL), r.err))
		}
		out.Steps++
		out.Last = r.first
	}
	// wait reads s's owed results for up to d, and reports whether it is idle.
	wait := func(s *session, d time.Duration) bool {
		timer := time.NewTimer(d)
		defer timer.Stop()
		for s.owed > 0 {
			select {
			case r := <-s.done:
				s.owed--
				collect(r)
			case <-timer.C:
				return false
			}
		}
		return true
	}
	for _, st := range steps {
		s := sessions[st.Session]
		if s == nil {
			conn, err := srv.ConnectTo(ctx, db)
			if err != nil {
				return out, err
			}
			s = &session{conn: conn, steps: make(chan Step, len(steps)), done: make(chan stepResult, len(steps))}
			sessions[st.Session] = s
			go s.run(ctx)
		}
		s.steps <- st
		s.owed++
		wait(s, snippetSettle)
		if len(errs) > 0 {
			break
		}
	}
	for k := 1; k <= 9; k++ {
		if s := sessions[k]; s != nil && !wait(s, time.Minute) {
			errs = append(errs, fmt.Errorf("session %d still waiting a minute after the block's end", k))
		}
	}
	return out, errors.Join(errs...)
}
