package fidelity

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// reach makes every major's binaries runnable by the user the servers run as, before any
// server starts. When this process is not root the servers run as this user and the bin
// directories stay as they are.
//
// As root the servers run as serverUser, who cannot pass a private folder (mode 0700, as
// mktemp -d makes it, or root's home) on the way to a clone's cache. reach then stages each
// unreachable major's package (bin, lib and share, which the binaries find beside each other)
// in one folder under the temporary directory that others may enter, hard-linking files where
// the file system allows and copying them where not; Close removes it. If the server user
// still cannot run them, reach says which folder stops it and what to do, naming the path.
func (e *Env) reach(ctx context.Context) error {
	if os.Geteuid() != 0 {
		return nil
	}
	if _, err := exec.LookPath("runuser"); err != nil {
		return fmt.Errorf("fidelity: PostgreSQL refuses to run as root, and runuser (util-linux), which runs it as %s, is missing: install util-linux or run as an ordinary user", serverUser)
	}
	if _, err := lookupServerUser(); err != nil {
		return err
	}
	for major, bin := range e.Bins {
		if canRun(ctx, bin) == nil {
			continue
		}
		if e.stage == "" {
			stage, err := os.MkdirTemp("", "bufferscope-pg-bins-")
			if err != nil {
				return err
			}
			e.stage = stage
			if err := os.Chmod(stage, 0o755); err != nil {
				return err
			}
		}
		native := filepath.Dir(bin)
		staged := filepath.Join(e.stage, fmt.Sprintf("pg%d", major))
		e.logf("PostgreSQL %d: %s is private to %s; staging its binaries in %s", major, blockingDir(native), serverUser, staged)
		if err := mirror(native, staged); err != nil {
			return fmt.Errorf("fidelity: staging PostgreSQL %d for the server user %s in %s: %w", major, serverUser, staged, err)
		}
		stagedBin := filepath.Join(staged, filepath.Base(bin))
		if err := canRun(ctx, stagedBin); err != nil {
			return fmt.Errorf("fidelity: the server user %s cannot run PostgreSQL %d from %s (%v); %s stops it: "+
				"let others enter that folder (chmod o+x %s), or point TMPDIR at a folder they may enter, such as /tmp",
				serverUser, major, stagedBin, err, blockingDir(stagedBin), blockingDir(stagedBin))
		}
		e.Bins[major] = stagedBin
	}
	return nil
}

// canRun runs bin/postgres --version as the server user: it fails when a folder on the way
// cannot be entered, the file cannot be executed or its libraries cannot be loaded.
func canRun(ctx context.Context, bin string) error {
	out, err := exec.CommandContext(ctx, "runuser", "-u", serverUser, "--", filepath.Join(bin, "postgres"), "--version").CombinedOutput()
	if err != nil {
		return fmt.Errorf("%v: %s", err, strings.TrimSpace(string(out)))
	}
	return nil
}

// blockingDir returns the first folder on the way to path that users other than its owner
// and group cannot enter, or path itself when there is none.
func blockingDir(path string) string {
	path = filepath.Clean(path)
	var dirs []string
	for d := path; ; d = filepath.Dir(d) {
		dirs = append(dirs, d)
		if d == filepath.Dir(d) {
			break
		}
	}
	for i := len(dirs) - 1; i >= 0; i-- {
		fi, err := os.Stat(dirs[i])
		if err != nil {
			return dirs[i]
		}
		if fi.IsDir() && fi.Mode().Perm()&0o001 == 0 {
			return dirs[i]
		}
	}
	return path
}

// mirror recreates the tree at src under dst: folders others may enter, symbolic links as
// they are, files hard-linked (or copied when dst is on another file system) with their modes.
func mirror(src, dst string) error {
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		switch {
		case d.IsDir():
			if err := os.MkdirAll(target, 0o755); err != nil {
				return err
			}
			return os.Chmod(target, 0o755)
		case d.Type()&fs.ModeSymlink != 0:
			link, err := os.Readlink(path)
			if err != nil {
				return err
			}
			return os.Symlink(link, target)
		case d.Type().IsRegular():
			if os.Link(path, target) == nil {
				return nil
			}
			return copyFile(path, target)
		}
		return nil
	})
}

func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	fi, err := in.Stat()
	if err != nil {
		return err
	}
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, fi.Mode().Perm())
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
