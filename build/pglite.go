//go:build !js

package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha512"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/evanw/esbuild/pkg/api"
)

// PGlite is PostgreSQL built for WebAssembly (npm @electric-sql/pglite, Apache-2.0 and the
// PostgreSQL licence): the page's "Real PostgreSQL 18" panel runs it in a worker of its own.
// The build fetches the pinned tarball, checks it against the integrity the registry publishes
// for it (a sha512), keeps it in a cache folder that is not committed, and serves the files it
// needs from this site under hashed names.
const (
	pglitePackage = "@electric-sql/pglite"
	pgliteVersion = "0.5.16"
	// pgliteIntegrity is the registry's dist.integrity of pgliteVersion's tarball.
	pgliteIntegrity = "sha512-Nj8KcIsJL748W408U2N8q4+9IlONdpRIU8MJypIAAINMJ5nqKyqpX7Mgg/5XKkXiAib3AoZGR6hnJFlrlLBrcg=="
	// defaultRegistry is npm's public registry; npm_config_registry (as npm sets it) replaces it.
	defaultRegistry = "https://registry.npmjs.org/"
)

// pgliteFiles are the tarball's files the panel loads (besides the JavaScript that esbuild
// bundles into its worker): the server and initdb modules, the file system image, and the two
// contrib modules the labs read the pool with.
// Each has the key the worker knows it by (__PGLITE_FILES__); the licence has none, and is
// served as LICENSE.txt beside them.
var pgliteFiles = []struct{ name, key string }{
	{"dist/pglite.wasm", "wasm"}, {"dist/initdb.wasm", "initdb"}, {"dist/pglite.data", "data"},
	{"dist/pg_buffercache.tar.gz", "pg_buffercache"}, {"dist/pageinspect.tar.gz", "pageinspect"},
	{"LICENSE", ""},
}

// pglitePkg is the unpacked package: dir holds it as node_modules/@electric-sql/pglite, for
// esbuild to resolve the worker's import of it.
type pglitePkg struct {
	nodeModules string            // the node_modules folder esbuild resolves pglitePackage in
	files       map[string][]byte // each of pgliteFiles by its path in the package
}

// pgliteTarballURL is where registry serves pglitePackage's version's tarball.
func pgliteTarballURL(registry string) string {
	return strings.TrimSuffix(registry, "/") + "/" + pglitePackage + "/-/pglite-" + pgliteVersion + ".tgz"
}

// loadPGlite returns the pinned PGlite from cacheDir, fetching its tarball first when the
// cache does not hold it. A tarball whose sha512 is not pgliteIntegrity is refused, cached or
// fetched.
func loadPGlite(ctx context.Context, cacheDir string) (*pglitePkg, error) {
	registry := os.Getenv("npm_config_registry")
	if registry == "" {
		registry = defaultRegistry
	}
	tgz := filepath.Join(cacheDir, "pglite-"+pgliteVersion+".tgz")
	data, err := os.ReadFile(tgz)
	if err != nil || checkIntegrity(data, pgliteIntegrity) != nil {
		if data, err = fetchTarball(ctx, pgliteTarballURL(registry), pgliteIntegrity); err != nil {
			return nil, err
		}
		if err := writeAtomic(tgz, data); err != nil {
			return nil, err
		}
	}
	return unpackPGlite(data, filepath.Join(cacheDir, pgliteVersion))
}

// fetchTarball downloads url and checks it against integrity ("sha512-<base64>").
func fetchTarball(ctx context.Context, url, integrity string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, fmt.Errorf("fetching %s: %w", url, err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("fetching %s: %s", url, res.Status)
	}
	data, err := io.ReadAll(io.LimitReader(res.Body, 64<<20))
	if err != nil {
		return nil, fmt.Errorf("fetching %s: %w", url, err)
	}
	if err := checkIntegrity(data, integrity); err != nil {
		return nil, fmt.Errorf("fetching %s: %w", url, err)
	}
	return data, nil
}

// checkIntegrity checks data against an npm integrity string, "sha512-" and the base64 of the
// digest.
func checkIntegrity(data []byte, integrity string) error {
	want, ok := strings.CutPrefix(integrity, "sha512-")
	if !ok {
		return fmt.Errorf("integrity %q is not a sha512", integrity)
	}
	sum := sha512.Sum512(data)
	if got := base64.StdEncoding.EncodeToString(sum[:]); got != want {
		return fmt.Errorf("sha512 is %s, not the published %s", got, want)
	}
	return nil
}

// unpackPGlite writes the tarball's JavaScript under dir/node_modules/@electric-sql/pglite
// (once: a finished unpacking leaves a marker) and returns the package with pgliteFiles read
// from the tarball.
func unpackPGlite(tgz []byte, dir string) (*pglitePkg, error) {
	p := &pglitePkg{nodeModules: filepath.Join(dir, "node_modules"), files: map[string][]byte{}}
	root := filepath.Join(p.nodeModules, filepath.FromSlash(pglitePackage))
	marker := filepath.Join(dir, ".unpacked")
	_, err := os.Stat(marker)
	write := err != nil
	if write {
		if err := os.RemoveAll(dir); err != nil {
			return nil, err
		}
	}
	zr, err := gzip.NewReader(bytes.NewReader(tgz))
	if err != nil {
		return nil, fmt.Errorf("unpacking %s %s: %w", pglitePackage, pgliteVersion, err)
	}
	tr := tar.NewReader(zr)
	wanted := map[string]bool{}
	for _, f := range pgliteFiles {
		wanted[f.name] = true
	}
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("unpacking %s %s: %w", pglitePackage, pgliteVersion, err)
		}
		name, ok := strings.CutPrefix(path.Clean(h.Name), "package/")
		if !ok || h.Typeflag != tar.TypeReg || strings.Contains(name, "..") {
			continue
		}
		script := path.Ext(name) == ".js" || name == "package.json"
		if !script && !wanted[name] {
			continue
		}
		data, err := io.ReadAll(tr)
		if err != nil {
			return nil, fmt.Errorf("unpacking %s %s: %w", pglitePackage, pgliteVersion, err)
		}
		if wanted[name] {
			p.files[name] = data
		}
		if script && write {
			to := filepath.Join(root, filepath.FromSlash(name))
			if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
				return nil, err
			}
			if err := os.WriteFile(to, data, 0o644); err != nil {
				return nil, err
			}
		}
	}
	for _, f := range pgliteFiles {
		if p.files[f.name] == nil {
			return nil, fmt.Errorf("unpacking %s %s: the tarball has no %s", pglitePackage, pgliteVersion, f.name)
		}
	}
	if write {
		if err := os.WriteFile(marker, nil, 0o644); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// writeAtomic writes data to name through a temporary file in its folder, so that an
// interrupted write leaves no half file.
func writeAtomic(name string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(name), ".tmp-*")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), name)
}

// pgliteEntry is the script of the real PostgreSQL's worker, a module worker (PGlite is an ES
// module) in pgliteDir beside the files it loads.
const (
	pgliteEntry = "js/pglite/main.js"
	pgliteDir   = "assets/pglite"
)

// pgliteNodeOnly are the modules PGlite imports only under Node, which the browser never
// reaches; the worker's bundle gets an empty module for each (nodeOnly), since a module worker
// cannot resolve a bare "fs" even in an import that never runs.
var pgliteNodeOnly = []string{"fs", "fs/promises", "node:module", "path", "stream", "stream/promises", "util", "zlib", "crypto", "url", "child_process", "ws"}

// nodeOnly is an esbuild plugin that resolves each of modules to an empty module.
func nodeOnly(modules []string) api.Plugin {
	var quoted []string
	for _, m := range modules {
		quoted = append(quoted, regexp.QuoteMeta(m))
	}
	filter := "^(" + strings.Join(quoted, "|") + ")$"
	return api.Plugin{Name: "node-only", Setup: func(b api.PluginBuild) {
		b.OnResolve(api.OnResolveOptions{Filter: filter}, func(a api.OnResolveArgs) (api.OnResolveResult, error) {
			return api.OnResolveResult{Path: a.Path, Namespace: "node-only"}, nil
		})
		b.OnLoad(api.OnLoadOptions{Filter: ".*", Namespace: "node-only"}, func(api.OnLoadArgs) (api.OnLoadResult, error) {
			contents := "export default {};\n"
			return api.OnLoadResult{Contents: &contents, Loader: api.LoaderJS}, nil
		})
	}}
}

// buildPGlite returns the real PostgreSQL's worker and files as hashed assets under pgliteDir,
// and __PGLITE__ for the page scripts: a JavaScript literal with the worker's URL and the bytes
// it will fetch, or null when this build has no PGlite (p is nil) or the site no such worker.
func (s *site) buildPGlite(p *pglitePkg, testHooks bool) ([]*asset, string, error) {
	if p == nil || !s.files[pgliteEntry] {
		return nil, "null", nil
	}
	type file struct {
		Name  string `json:"name"`
		Bytes int    `json:"bytes"`
	}
	var out []*asset
	files := map[string]file{}
	for _, f := range pgliteFiles {
		data := p.files[f.name]
		if f.key == "" {
			out = append(out, &asset{path: pgliteDir + "/LICENSE.txt", data: data})
			continue
		}
		a := hashedAsset(pgliteDir, path.Base(f.name), data)
		out = append(out, a)
		files[f.key] = file{path.Base(a.path), len(data)}
	}
	filesJSON, err := json.Marshal(files)
	if err != nil {
		return nil, "", err
	}
	defines := hooksDefine(testHooks)
	defines["__PGLITE_FILES__"] = string(filesJSON)
	bundles, err := bundle(s.dir, []string{pgliteEntry}, defines, api.FormatESModule, []string{p.nodeModules}, []api.Plugin{nodeOnly(pgliteNodeOnly)})
	if err != nil {
		return nil, "", err
	}
	worker := hashedAsset(pgliteDir, "worker.js", bundles[pgliteEntry])
	out = append(out, worker)
	total := files["wasm"].Bytes + files["initdb"].Bytes + files["data"].Bytes
	info, err := json.Marshal(map[string]any{"worker": worker.path, "bytes": total, "version": pgliteVersion})
	if err != nil {
		return nil, "", err
	}
	return out, string(info), nil
}
