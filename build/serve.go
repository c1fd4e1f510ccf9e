//go:build !js

package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"mime"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path"
	"strconv"
	"strings"
	"syscall"
	"time"
)

func runServe(args []string) error {
	flags := newFlagSet("serve")
	o := addDistFlags(flags)
	addr := flags.String("addr", "127.0.0.1:8080", "address to listen on, host:port; port 0 picks a free port")
	public := flags.Bool("public", false, "allow an address other than loopback, reachable from other machines")
	flags.BoolVar(&o.testHooks, "test-hooks", false, "build the test hooks in (bufferscope.__panicForTest, bufferscopeTest.killWorker), for the browser tests; never for a site others read")
	if err := parseFlags(flags, args); err != nil {
		return err
	}
	if err := o.check(flags); err != nil {
		return err
	}
	host, _, err := net.SplitHostPort(*addr)
	if err != nil {
		return usageErrorf(flags, "-addr %s: %v", *addr, err)
	}
	if ip := net.ParseIP(host); !*public && host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return usageErrorf(flags, "-addr %s is not a loopback address; add -public to serve other machines", *addr)
	}
	if o.testHooks && *public {
		return usageErrorf(flags, "-test-hooks cannot be served to other machines (-public): the hooks let any page crash the app")
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	defer ln.Close()
	rules, err := dist(*o, os.Stdout)
	if err != nil {
		return err
	}
	root, err := os.OpenRoot(o.out)
	if err != nil {
		return err
	}
	defer root.Close()
	srv := &http.Server{Handler: &siteHandler{root.FS(), rules}, ReadHeaderTimeout: 10 * time.Second}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() {
		<-ctx.Done()
		srv.Shutdown(context.Background())
	}()
	fmt.Printf("serving http://%s/\n", ln.Addr())
	if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// siteHandler serves a built site as Netlify would: the headers of
// netlify.toml on every response (by the path asked for, so /embed gets the
// block for "/embed"), a page for its path without .html when no file or
// folder has that name, and the precompressed .br or .gz variant of a file
// when the request accepts it.
type siteHandler struct {
	files fs.FS
	rules headerRules
}

func (h *siteHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	urlPath := path.Clean("/" + r.URL.Path)
	name := strings.TrimPrefix(urlPath, "/")
	if name == "" {
		name = "."
	}
	if _, err := fs.Stat(h.files, name); err != nil && path.Ext(name) == "" {
		// Netlify serves a page without its extension too: /embed for embed.html.
		if info, err := fs.Stat(h.files, name+".html"); err == nil && !info.IsDir() {
			name += ".html"
		}
	}
	if info, err := fs.Stat(h.files, name); err == nil && info.IsDir() {
		if !strings.HasSuffix(r.URL.Path, "/") {
			http.Redirect(w, r, urlPath+"/", http.StatusMovedPermanently)
			return
		}
		name = path.Join(name, "index.html")
	}
	headers, err := h.rules.headersFor(urlPath)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	ctype := mime.TypeByExtension(path.Ext(name))
	variants := map[string]bool{}
	if ctype != "" {
		for _, enc := range []string{"br", "gzip"} {
			if _, err := fs.Stat(h.files, name+encodingSuffix[enc]); err == nil {
				variants[enc] = true
			}
		}
	}
	enc := negotiate(r.Header.Get("Accept-Encoding"), variants)
	f, err := h.files.Open(name + encodingSuffix[enc])
	if err != nil {
		http.NotFound(w, r)
		return
	}
	defer f.Close()
	info, err := f.Stat()
	content, ok := f.(io.ReadSeeker)
	if err != nil || info.IsDir() || !ok {
		http.NotFound(w, r)
		return
	}
	if ctype != "" {
		w.Header().Set("Content-Type", ctype)
	}
	if len(variants) > 0 {
		w.Header().Add("Vary", "Accept-Encoding")
	}
	if enc != "" {
		w.Header().Set("Content-Encoding", enc)
		if r.Header.Get("Range") == "" {
			// ServeContent leaves Content-Length out when Content-Encoding
			// is set; here the bytes sent are exactly the variant's.
			w.Header().Set("Content-Length", strconv.FormatInt(info.Size(), 10))
		}
	}
	for k, v := range headers {
		w.Header()[k] = v
	}
	http.ServeContent(w, r, name, info.ModTime(), content)
}

// encodingSuffix maps a content coding to the suffix of its precompressed file.
var encodingSuffix = map[string]string{"": "", "br": ".br", "gzip": ".gz"}

// negotiate picks the coding to send from those available, given an
// Accept-Encoding header (RFC 9110 12.5.3): brotli before gzip at equal
// quality, "" (the file as it is) when neither is acceptable.
func negotiate(acceptEncoding string, available map[string]bool) string {
	q := map[string]float64{}
	for _, part := range strings.Split(acceptEncoding, ",") {
		coding, params, _ := strings.Cut(part, ";")
		coding = strings.ToLower(strings.TrimSpace(coding))
		weight := 1.0
		if k, v, ok := strings.Cut(strings.TrimSpace(params), "="); ok && strings.TrimSpace(strings.ToLower(k)) == "q" {
			w, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
			if err != nil || w < 0 || w > 1 {
				continue
			}
			weight = w
		}
		if coding != "" {
			q[coding] = weight
		}
	}
	weight := func(coding string) float64 {
		if w, ok := q[coding]; ok {
			return w
		}
		return q["*"]
	}
	best, bestWeight := "", 0.0
	for _, coding := range []string{"br", "gzip"} {
		if w := weight(coding); available[coding] && w > bestWeight {
			best, bestWeight = coding, w
		}
	}
	return best
}
