//go:build !js

package e2e

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// Environment variables that control the suite; see the package documentation.
const (
	enableVar   = "BUFFERSCOPE_BROWSER_TESTS"
	chromiumVar = "BUFFERSCOPE_CHROMIUM"
	urlVar      = "BUFFERSCOPE_E2E_URL"
)

// Time limits. Every wait has one; none of them is an assertion about speed.
const (
	buildTimeout  = 5 * time.Minute  // compile ./build, then build the site (a cold wasm build takes ~25 s)
	launchTimeout = 30 * time.Second // start Chromium
	loadTimeout   = 30 * time.Second // navigate, fetch and start the wasm, draw the first frame
	waitTimeout   = 10 * time.Second // any other wait for the page
	testTimeout   = 2 * time.Minute  // a whole test, the last guard against a hang
)

// The viewport of every tab, in CSS pixels at a device scale factor of 1, so a screenshot
// pixel is a CSS pixel.
const viewportW, viewportH = 1280, 900

// failureDir receives a screenshot and the console log of each failed test.
const failureDir = "testdata/failures"

// suite is the served site and the browser the tests share; nil when the tests skip.
var suite *env

// TestMain builds and serves the site and starts Chromium once for all tests.
func TestMain(m *testing.M) {
	flag.Parse()
	if os.Getenv(enableVar) != "1" {
		os.Exit(m.Run()) // each test skips in openPage
	}
	start := time.Now()
	e, err := setup()
	if err != nil {
		fmt.Fprintf(os.Stderr, "e2e: %v\n", err)
		e.close()
		os.Exit(1)
	}
	if testing.Verbose() {
		fmt.Printf("e2e: serving %s and Chromium ready in %.1fs\n", e.baseURL, time.Since(start).Seconds())
	}
	suite = e
	code := m.Run()
	e.close()
	os.Exit(code)
}

// env is the site server and the browser of one test run.
type env struct {
	baseURL string          // "http://127.0.0.1:PORT/"
	browser context.Context // chromedp context of the browser; each tab derives from it
	tmp     string          // holds the build tool, the built site and the browser profile
	tool    string          // the compiled build program, when the suite serves the site itself

	server      *siteServer
	browserLog  syncBuffer // what Chromium printed
	stopBrowser context.CancelFunc
	stopAlloc   context.CancelFunc
}

// setup builds and serves the site and starts the browser. On error, the returned env holds
// whatever was started, for close.
func setup() (*env, error) {
	e := &env{}
	chrome, err := findChromium()
	if err != nil {
		return e, err
	}
	if e.tmp, err = os.MkdirTemp("", "bufferscope-e2e-"); err != nil {
		return e, err
	}
	if err := os.RemoveAll(failureDir); err != nil {
		return e, err
	}
	if u := os.Getenv(urlVar); u != "" {
		e.baseURL = strings.TrimSuffix(u, "/") + "/"
	} else if err := e.serve(); err != nil {
		return e, err
	}
	return e, e.startBrowser(chrome)
}

// findChromium returns the path of the browser: $BUFFERSCOPE_CHROMIUM, or the first
// Chromium or Chrome on PATH.
func findChromium() (string, error) {
	if p := os.Getenv(chromiumVar); p != "" {
		if _, err := os.Stat(p); err != nil {
			return "", fmt.Errorf("%s=%s: %v", chromiumVar, p, err)
		}
		return p, nil
	}
	names := []string{"chromium", "chromium-browser", "google-chrome-stable", "google-chrome"}
	for _, name := range names {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", fmt.Errorf("%s=1 but no browser was found on PATH (looked for %s).\n"+
		"Install one (Debian: apt-get install -y chromium) or set %s to its path.\n"+
		"The browser tests fail rather than skip here, so CI cannot pass without running them",
		enableVar, strings.Join(names, ", "), chromiumVar)
}

// servingLine is what "build serve" prints once the site is built and it listens.
var servingLine = regexp.MustCompile(`^serving (http://\S+)`)

// serve compiles the build program and runs "build serve -test-hooks" on a free loopback
// port, until it prints its address.
func (e *env) serve() error {
	root, err := moduleRoot()
	if err != nil {
		return err
	}
	e.tool = filepath.Join(e.tmp, "buildtool")
	ctx, cancel := context.WithTimeout(context.Background(), buildTimeout)
	defer cancel()
	build := exec.CommandContext(ctx, "go", "build", "-o", e.tool, "./build")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		return fmt.Errorf("go build ./build: %v\n%s", err, out)
	}
	// -test-hooks builds in the hooks faults_test.go uses to make Go panic and the worker die;
	// the site readers get (build dist) never has them.
	e.server, err = startSite(e.tool, "-addr", "127.0.0.1:0", "-test-hooks", "-out", filepath.Join(e.tmp, "dist"))
	if err != nil {
		return err
	}
	e.baseURL = e.server.url
	return nil
}

// siteServer is one "build serve" process: it builds a site and serves it with the headers
// of netlify.toml.
type siteServer struct {
	url string     // "http://127.0.0.1:PORT/"
	log syncBuffer // what it printed
	cmd *exec.Cmd
}

// startSite runs the build program's serve with args from the module's root, and returns once
// it serves the site it built.
func startSite(tool string, args ...string) (*siteServer, error) {
	root, err := moduleRoot()
	if err != nil {
		return nil, err
	}
	s := &siteServer{cmd: exec.Command(tool, append([]string{"serve"}, args...)...)}
	s.cmd.Dir = root
	s.cmd.Stderr = &s.log
	dieWithTests(s.cmd)
	stdout, err := s.cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := s.cmd.Start(); err != nil {
		return nil, fmt.Errorf("build serve: %v", err)
	}
	found := make(chan string, 1)
	exited := make(chan struct{})
	go func() {
		defer close(exited)
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			fmt.Fprintln(&s.log, sc.Text())
			if m := servingLine.FindStringSubmatch(sc.Text()); m != nil {
				select {
				case found <- m[1]:
				default:
				}
			}
		}
		io.Copy(io.Discard, stdout)
	}()
	select {
	case u := <-found:
		s.url = strings.TrimSuffix(u, "/") + "/"
		return s, nil
	case <-exited:
		s.cmd.Wait()
		return nil, fmt.Errorf("build serve exited before it served the site (%v):\n%s", s.cmd.ProcessState, s.log.String())
	case <-time.After(buildTimeout):
		s.stop()
		return nil, fmt.Errorf("build serve printed no %q line within %v:\n%s", "serving http://...", buildTimeout, s.log.String())
	}
}

// stop interrupts the server and waits for it to exit, killing it after 5 s.
func (s *siteServer) stop() {
	if s == nil || s.cmd.Process == nil {
		return
	}
	s.cmd.Process.Signal(os.Interrupt)
	done := make(chan struct{})
	go func() { s.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		s.cmd.Process.Kill()
		<-done
	}
}

// moduleRoot returns the directory of the go.mod above the working directory.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod above the working directory")
		}
		dir = parent
	}
}

// startBrowser starts one headless Chromium with a fresh profile. The flags are the ones
// the project measured to work in its containers (reference/toolchain.md): WebGL2 through
// SwiftShader on the CPU, and no background traffic to a network that is not there.
func (e *env) startBrowser(chrome string) error {
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chrome),
		chromedp.UserDataDir(filepath.Join(e.tmp, "profile")),
		chromedp.NoSandbox, // containers run as root without user namespaces
		chromedp.DisableGPU,
		chromedp.Flag("use-gl", "angle"),
		chromedp.Flag("use-angle", "swiftshader"),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.WindowSize(viewportW, viewportH),
		chromedp.CombinedOutput(&e.browserLog),
	)
	allocCtx, stopAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	browserCtx, stopBrowser := chromedp.NewContext(allocCtx)
	e.stopAlloc, e.stopBrowser, e.browser = stopAlloc, stopBrowser, browserCtx
	// The first Do starts the browser and binds it to browserCtx, so it gets no deadline of
	// its own; the timer below bounds it instead.
	started := make(chan error, 1)
	go func() { started <- chromedp.Do(browserCtx) }()
	select {
	case err := <-started:
		if err != nil {
			return fmt.Errorf("starting %s: %v\n%s", chrome, err, e.browserLog.String())
		}
		return nil
	case <-time.After(launchTimeout):
		return fmt.Errorf("%s did not start within %v:\n%s", chrome, launchTimeout, e.browserLog.String())
	}
}

// close stops the browser and the server and removes the temporary files.
func (e *env) close() {
	if e.browser != nil {
		ctx, cancel := context.WithTimeout(e.browser, 10*time.Second)
		chromedp.Cancel(ctx) // closes Chromium gracefully
		cancel()
		e.stopBrowser()
		e.stopAlloc()
	}
	e.server.stop()
	if e.tmp != "" {
		os.RemoveAll(e.tmp)
	}
}

// syncBuffer is a bytes.Buffer that goroutines may write while a test reads it.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// Len returns how many bytes were written so far.
func (b *syncBuffer) Len() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Len()
}

// Since returns what was written after the first n bytes.
func (b *syncBuffer) Since(n int) string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return string(b.buf.Bytes()[min(n, b.buf.Len()):])
}
