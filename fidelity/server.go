package fidelity

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
)

// Settings are PostgreSQL configuration parameters, name to value, written to the cluster's
// configuration before a start. Values are written as given, so strings need their quotes.
type Settings map[string]string

// baseSettings apply to every cluster: no autovacuum to disturb the counts, no parallel
// workers (each would bring its own ring), and log lines that start with a millisecond time.
var baseSettings = Settings{
	"autovacuum":                      "off",
	"max_parallel_workers_per_gather": "0",
	"log_line_prefix":                 "'%m [%p] '",
	"log_min_messages":                "info",
	"listen_addresses":                "'127.0.0.1'",
}

// Env owns the servers of a run: Close stops every server it started and removes their
// directories, whatever state the experiments left them in.
type Env struct {
	// Bins maps a major version to the directory holding its initdb, pg_ctl and postgres.
	Bins map[int]string
	// Logf, when set, receives progress lines.
	Logf func(format string, args ...any)

	mu      sync.Mutex
	servers []*Server
	stage   string // folder of binaries staged for the server user, removed by Close
}

// NewEnv returns an Env for the given bin directories (as returned by Install), after making
// sure the user the servers run as can run them (see reach); logf, when not nil, receives
// progress lines.
func NewEnv(ctx context.Context, bins map[int]string, logf func(format string, args ...any)) (*Env, error) {
	e := &Env{Bins: maps.Clone(bins), Logf: logf}
	if err := e.reach(ctx); err != nil {
		e.Close()
		return nil, err
	}
	return e, nil
}

func (e *Env) logf(format string, args ...any) {
	if e.Logf != nil {
		e.Logf(format, args...)
	}
}

// Close stops every server the Env started and removes their directories and any binaries
// staged for the server user; it returns the first error and is safe to call more than once.
func (e *Env) Close() error {
	e.mu.Lock()
	servers, stage := e.servers, e.stage
	e.servers, e.stage = nil, ""
	e.mu.Unlock()
	var first error
	for _, s := range servers {
		if err := s.Close(); err != nil && first == nil {
			first = err
		}
	}
	if stage != "" {
		if err := os.RemoveAll(stage); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// Server is one throwaway PostgreSQL cluster: a data directory in a temporary directory owned
// by the server's user, a socket directory beside it and a loopback TCP port.
type Server struct {
	// Major is the PostgreSQL major version.
	Major int
	// Port is the TCP port on 127.0.0.1 of the current (or last) start.
	Port int
	// Settings are the parameters written at the next start, on top of baseSettings.
	Settings Settings

	env     *Env
	bin     string
	root    string // temporary directory, removed by Close
	data    string
	sock    string
	running bool
	closed  bool
	logMark int64 // size of the server log at the last start
}

// NewServer initdb's a cluster of the given major and starts it with settings.
func (e *Env) NewServer(ctx context.Context, major int, settings Settings) (*Server, error) {
	bin, ok := e.Bins[major]
	if !ok {
		return nil, fmt.Errorf("fidelity: PostgreSQL %d is not installed in this Env", major)
	}
	root, err := os.MkdirTemp("", fmt.Sprintf("bufferscope-pg%d-", major))
	if err != nil {
		return nil, err
	}
	s := &Server{Major: major, Settings: settings, env: e, bin: bin, root: root,
		data: filepath.Join(root, "data"), sock: filepath.Join(root, "sock")}
	e.mu.Lock()
	e.servers = append(e.servers, s)
	e.mu.Unlock()
	if err := os.Mkdir(s.sock, 0o700); err != nil {
		return nil, err
	}
	if err := chownToServerUser(root, s.sock); err != nil {
		return nil, err
	}
	if out, err := s.run(ctx, "initdb", "-D", s.data, "-U", "postgres", "-A", "trust", "--no-sync", "-E", "UTF8", "--locale=C"); err != nil {
		return nil, fmt.Errorf("fidelity: initdb for PostgreSQL %d: %v\n%s", major, err, out)
	}
	conf, err := os.OpenFile(filepath.Join(s.data, "postgresql.conf"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		return nil, err
	}
	_, err = conf.WriteString("\ninclude_if_exists = 'fidelity.conf'\n")
	if cerr := conf.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, err
	}
	return s, s.Start(ctx)
}

// Start writes the settings and starts the server on a free port, waiting until it accepts
// connections (which includes any crash recovery).
func (s *Server) Start(ctx context.Context) error {
	if s.running {
		return fmt.Errorf("fidelity: PostgreSQL %d is already running", s.Major)
	}
	var lines []string
	all := Settings{}
	for k, v := range baseSettings {
		all[k] = v
	}
	for k, v := range s.Settings {
		all[k] = v
	}
	for k, v := range all {
		lines = append(lines, k+" = "+v)
	}
	slices.Sort(lines)
	if err := os.WriteFile(filepath.Join(s.data, "fidelity.conf"), []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		return err
	}
	port, err := freePort()
	if err != nil {
		return err
	}
	s.Port = port
	logPath := filepath.Join(s.data, "server.log")
	if fi, err := os.Stat(logPath); err == nil {
		s.logMark = fi.Size()
	} else {
		s.logMark = 0
	}
	out, err := s.run(ctx, "pg_ctl", "-D", s.data, "-l", logPath, "-w", "-t", "300",
		"-o", fmt.Sprintf("-p %d -k %s", port, s.sock), "start")
	if err != nil {
		return fmt.Errorf("fidelity: starting PostgreSQL %d: %v\n%s\nserver log:\n%s", s.Major, err, out, s.LogSinceStart())
	}
	s.running = true
	return nil
}

// Stop stops the server; mode is "fast" for a clean shutdown (a shutdown checkpoint) or
// "immediate" for a crash: the next Start then replays the WAL since the last checkpoint.
func (s *Server) Stop(ctx context.Context, mode string) error {
	if !s.running {
		return nil
	}
	out, err := s.run(ctx, "pg_ctl", "-D", s.data, "-m", mode, "-w", "-t", "300", "stop")
	if err != nil {
		return fmt.Errorf("fidelity: stopping PostgreSQL %d (%s): %v\n%s", s.Major, mode, err, out)
	}
	s.running = false
	return nil
}

// Restart stops the server cleanly and starts it again with its current Settings; shared
// buffers are empty afterwards.
func (s *Server) Restart(ctx context.Context) error {
	if err := s.Stop(ctx, "fast"); err != nil {
		return err
	}
	return s.Start(ctx)
}

// Close stops the server at once if it is running and removes its directories. It uses its
// own deadline, so it works after the experiment's context was cancelled.
func (s *Server) Close() error {
	if s.closed {
		return nil
	}
	s.closed = true
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	err := s.Stop(ctx, "immediate")
	if err != nil {
		return err // keep the directory: a live server may still use it
	}
	return os.RemoveAll(s.root)
}

// Connect opens a connection to the postgres database as the superuser postgres.
func (s *Server) Connect(ctx context.Context) (*pgx.Conn, error) { return s.ConnectTo(ctx, "postgres") }

// ConnectTo opens a connection to database db as the superuser postgres.
func (s *Server) ConnectTo(ctx context.Context, db string) (*pgx.Conn, error) {
	dsn := fmt.Sprintf("host=127.0.0.1 port=%d user=postgres dbname=%s sslmode=disable", s.Port, db)
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		return nil, fmt.Errorf("fidelity: connecting to PostgreSQL %d on port %d: %w", s.Major, s.Port, err)
	}
	return conn, nil
}

// LogSinceStart returns what the server logged since its last start.
func (s *Server) LogSinceStart() string {
	b, err := os.ReadFile(filepath.Join(s.data, "server.log"))
	if err != nil || int64(len(b)) < s.logMark {
		return ""
	}
	return string(b[s.logMark:])
}

// run runs one of the server's programs, as the server user when this process is root.
func (s *Server) run(ctx context.Context, program string, args ...string) ([]byte, error) {
	path := filepath.Join(s.bin, program)
	var cmd *exec.Cmd
	if os.Geteuid() == 0 {
		cmd = exec.CommandContext(ctx, "runuser", append([]string{"-u", serverUser, "--", path}, args...)...)
	} else {
		cmd = exec.CommandContext(ctx, path, args...)
	}
	cmd.Dir = s.root
	cmd.Env = append(os.Environ(), "LC_ALL=C")
	return cmd.CombinedOutput()
}

// serverUser is the unprivileged user the servers run as when this process is root.
const serverUser = "nobody"

// lookupServerUser finds serverUser, or says that running as root needs it.
func lookupServerUser() (*user.User, error) {
	u, err := user.Lookup(serverUser)
	if err != nil {
		return nil, fmt.Errorf("fidelity: PostgreSQL refuses to run as root and user %q is missing: %w", serverUser, err)
	}
	return u, nil
}

func chownToServerUser(paths ...string) error {
	if os.Geteuid() != 0 {
		return nil
	}
	u, err := lookupServerUser()
	if err != nil {
		return err
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	for _, p := range paths {
		if err := os.Chown(p, uid, gid); err != nil {
			return err
		}
	}
	return nil
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	addr, ok := l.Addr().(*net.TCPAddr)
	if !ok {
		return 0, errors.New("fidelity: no TCP address for a free port")
	}
	return addr.Port, nil
}

// Exec runs each statement in its own implicit transaction and stops at the first error.
func Exec(ctx context.Context, conn *pgx.Conn, statements ...string) error {
	for _, q := range statements {
		if _, err := conn.Exec(ctx, q); err != nil {
			return fmt.Errorf("fidelity: %s: %w", strings.TrimSpace(q), err)
		}
	}
	return nil
}

// QueryInt runs a query returning one integer.
func QueryInt(ctx context.Context, conn *pgx.Conn, q string, args ...any) (int64, error) {
	var n int64
	if err := conn.QueryRow(ctx, q, args...).Scan(&n); err != nil {
		return 0, fmt.Errorf("fidelity: %s: %w", strings.TrimSpace(q), err)
	}
	return n, nil
}
