//go:build !js

package e2e

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/chromedp/chromedp"
)

// harmlessConsole matches console lines that say nothing about the page; they are left out
// of the log, so they neither fail a test nor clutter its output. Each pattern says why it
// is here; add one only with a reason.
var harmlessConsole = []*regexp.Regexp{
	// SwiftShader, the CPU renderer of headless Chromium, warns when WebGL pixels are read
	// back, as screenshots do: "GL Driver Message (OpenGL, Performance, ...): GPU stall due
	// to ReadPixels". It says nothing about the page.
	regexp.MustCompile(`GPU stall due to ReadPixels`),
}

// consoleLog collects the console messages and uncaught exceptions of one tab.
type consoleLog struct {
	mu       sync.Mutex
	msgs     []chromedp.ConsoleMessage
	expected []*expectation // errors the test causes on purpose
	done     chan struct{}  // closed when collecting stops
	markers  chan string    // sync markers, seen in order
	next     int
}

// syncMarker starts the console.debug line that sync writes to find the end of the log.
const syncMarker = "bufferscope-e2e sync "

// collect subscribes to the console of the tab of ctx now and records its messages until
// the context ends.
func (l *consoleLog) collect(ctx context.Context) {
	l.done = make(chan struct{})
	l.markers = make(chan string, 16)
	messages := chromedp.Console(ctx)
	go func() {
		defer close(l.done)
		for m, err := range messages {
			if err != nil {
				return
			}
			if strings.HasPrefix(m.Text, syncMarker) {
				select {
				case l.markers <- m.Text:
				default:
				}
				continue
			}
			if harmless(m.Text) {
				continue
			}
			l.mu.Lock()
			l.msgs = append(l.msgs, m)
			l.mu.Unlock()
		}
	}()
}

// sync returns once every message the page wrote before the call is in the log: it writes
// a marker line and waits, for at most a few seconds, until the marker comes through. The
// console keeps the order of messages, so nothing before the marker is still on its way.
func (l *consoleLog) sync(ctx context.Context) {
	if l.done == nil {
		return
	}
	l.next++
	marker := fmt.Sprintf("%s%d", syncMarker, l.next)
	ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](fmt.Sprintf("console.debug(%q)", marker))); err != nil {
		return
	}
	for {
		select {
		case m := <-l.markers:
			if m == marker {
				return
			}
		case <-ctx.Done():
			return
		case <-l.done:
			return
		}
	}
}

// wait waits until collecting has stopped, after the tab's context ended.
func (l *consoleLog) wait() {
	if l.done != nil {
		<-l.done
	}
}

// harmless reports whether a harmlessConsole pattern matches a console message or a line
// of Chromium's output.
func harmless(text string) bool {
	for _, re := range harmlessConsole {
		if re.MatchString(text) {
			return true
		}
	}
	return false
}

// expectation is a console error a test causes on purpose: a Go panic it asks for, a
// download it makes fail. Errors that match it are not problems, and the test fails if none
// came.
type expectation struct {
	re   *regexp.Regexp
	why  string
	seen bool
}

// expect declares that the page will log console errors (or an uncaught exception) whose
// text matches re, because the test causes them (why says how). They do not fail the test;
// not seeing one does.
func (l *consoleLog) expect(re, why string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.expected = append(l.expected, &expectation{re: regexp.MustCompile(re), why: why})
}

// problems returns the uncaught exceptions and console errors that no expectation matches.
func (l *consoleLog) problems() []chromedp.ConsoleMessage {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []chromedp.ConsoleMessage
	for _, m := range l.msgs {
		if m.Type != chromedp.ConsoleException && m.Type != chromedp.ConsoleError {
			continue
		}
		matched := false
		for _, e := range l.expected {
			if e.re.MatchString(m.Text) {
				e.seen, matched = true, true
			}
		}
		if !matched {
			out = append(out, m)
		}
	}
	return out
}

// unseen describes the expectations no console error matched; call it after problems.
func (l *consoleLog) unseen() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []string
	for _, e := range l.expected {
		if !e.seen {
			out = append(out, fmt.Sprintf("%s (%s)", e.re, e.why))
		}
	}
	return out
}

// String lists every message, one a line, with where it came from.
func (l *consoleLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.msgs) == 0 {
		return "(console empty)\n"
	}
	var b strings.Builder
	for _, m := range l.msgs {
		b.WriteString(formatConsole(m))
		b.WriteByte('\n')
	}
	return b.String()
}

func formatConsole(m chromedp.ConsoleMessage) string {
	s := m.String()
	if m.URL != "" {
		s += fmt.Sprintf("  (%s:%d:%d)", m.URL, m.Line+1, m.Column+1)
	}
	if m.Stack != nil {
		for _, f := range m.Stack.CallFrames {
			name := f.FunctionName
			if name == "" {
				name = "(anonymous)"
			}
			s += fmt.Sprintf("\n\tat %s (%s:%d:%d)", name, f.URL, f.LineNumber+1, f.ColumnNumber+1)
		}
	}
	return s
}
