// Package pgtest starts a throwaway PostgreSQL cluster for tests, from
// Debian's postgresql package: initdb in a temporary folder and the
// postgres server on a free loopback port, one cluster per test binary,
// started on first use and killed with the binary (the server runs as the
// test's child with a parent-death signal, so no cluster outlives a
// crashed or killed test). Each test gets a database of its own, created
// from a migrated template in tens of milliseconds.
//
// A machine without PostgreSQL's binaries fails the test with a message
// naming the package to install; it never skips (make test installs it).
package pgtest

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/internal/procdir"
	"github.com/jackc/pgx/v5"
)

// cluster is this test binary's server; started once.
type cluster struct {
	dir  string
	port int
	cmd  *exec.Cmd
}

// The test binary's one cluster and the templates made on it. They are
// written once under their sync.Once/mutex and read-only after.
var (
	once      sync.Once
	shared    *cluster
	sharedErr error

	templatesMu sync.Mutex
	templates   = map[string]error{}
	counter     atomic.Int64
)

// BinDir finds PostgreSQL's server binaries (initdb, postgres): Debian
// keeps them in /usr/lib/postgresql/<major>/bin; PG_BINDIR overrides.
func BinDir() (string, error) {
	if d := os.Getenv("PG_BINDIR"); d != "" {
		return d, nil
	}
	matches, _ := filepath.Glob("/usr/lib/postgresql/*/bin/initdb")
	if len(matches) == 0 {
		if p, err := exec.LookPath("initdb"); err == nil {
			return filepath.Dir(p), nil
		}
		return "", errors.New("pgtest: PostgreSQL's initdb not found: install Debian's postgresql package (make test does)")
	}
	return filepath.Dir(matches[len(matches)-1]), nil
}

// start runs initdb and the server. As root (CI), both run as the
// postgres user, since PostgreSQL refuses to run as root.
func start() (*cluster, error) {
	bin, err := BinDir()
	if err != nil {
		return nil, err
	}
	dir, err := procdir.Make("captionqa-pg-")
	if err != nil {
		return nil, err
	}
	var cred *syscall.Credential
	if os.Geteuid() == 0 {
		u, err := user.Lookup("postgres")
		if err != nil {
			return nil, fmt.Errorf("pgtest: running as root needs the postgres user (Debian's postgresql package makes it): %w", err)
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		cred = &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}
		if err := os.Chown(dir, uid, gid); err != nil {
			return nil, err
		}
	}
	data := filepath.Join(dir, "data")
	initdb := exec.Command(filepath.Join(bin, "initdb"), "-D", data, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--no-sync", "--locale=C")
	initdb.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
	if out, err := initdb.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("pgtest: initdb: %v\n%s", err, out)
	}
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	// Durability is the test's to lose: fsync off makes creating a
	// database per test cheap.
	cmd := exec.Command(filepath.Join(bin, "postgres"), "-D", data, "-p", strconv.Itoa(port),
		"-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories="+dir,
		"-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off",
		"-c", "max_connections=300", "-c", "shared_buffers=64MB")
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred, Pdeathsig: syscall.SIGKILL, Setpgid: true}
	logf, err := os.Create(filepath.Join(dir, "postgres.log"))
	if err != nil {
		return nil, err
	}
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("pgtest: start postgres: %w", err)
	}
	c := &cluster{dir: dir, port: port, cmd: cmd}
	deadline := time.Now().Add(30 * time.Second)
	for {
		conn, err := pgx.Connect(context.Background(), c.url("postgres"))
		if err == nil {
			conn.Close(context.Background())
			return c, nil
		}
		if time.Now().After(deadline) {
			log, _ := os.ReadFile(filepath.Join(dir, "postgres.log"))
			_ = cmd.Process.Kill()
			return nil, fmt.Errorf("pgtest: postgres did not start: %v\n%s", err, log)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

func (c *cluster) url(db string) string {
	return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/%s?sslmode=disable", c.port, db)
}

// Cluster returns the URL of the test binary's cluster's maintenance
// database ("postgres"), starting the cluster on first use.
func Cluster(t testing.TB) string {
	t.Helper()
	once.Do(func() { shared, sharedErr = start() })
	if sharedErr != nil {
		t.Fatal(sharedErr)
	}
	return shared.url("postgres")
}

// Database creates an empty database for the test and returns its URL;
// it is dropped when the test ends.
func Database(t testing.TB) string {
	t.Helper()
	return create(t, "template0")
}

// FromTemplate creates a database for the test as a copy of the template
// named name, which setup prepares once per test binary (given its URL:
// run the migrations there); it is dropped when the test ends.
func FromTemplate(t testing.TB, name string, setup func(ctx context.Context, url string) error) string {
	t.Helper()
	Cluster(t)
	templatesMu.Lock()
	err, done := templates[name]
	if !done {
		err = makeTemplate(name, setup)
		templates[name] = err
	}
	templatesMu.Unlock()
	if err != nil {
		t.Fatalf("pgtest: template %s: %v", name, err)
	}
	return create(t, name)
}

func makeTemplate(name string, setup func(ctx context.Context, url string) error) error {
	ctx := context.Background()
	if err := exec1(ctx, `CREATE DATABASE `+pgx.Identifier{name}.Sanitize()); err != nil {
		return err
	}
	return setup(ctx, shared.url(name))
}

func exec1(ctx context.Context, sql string) error {
	conn, err := pgx.Connect(ctx, shared.url("postgres"))
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	_, err = conn.Exec(ctx, sql)
	return err
}

func create(t testing.TB, template string) string {
	t.Helper()
	Cluster(t)
	name := fmt.Sprintf("t%d_%d", os.Getpid(), counter.Add(1))
	ctx := context.Background()
	if err := exec1(ctx, `CREATE DATABASE `+name+` TEMPLATE `+pgx.Identifier{template}.Sanitize()); err != nil {
		t.Fatalf("pgtest: create database: %v", err)
	}
	t.Cleanup(func() {
		if err := exec1(context.Background(), `DROP DATABASE IF EXISTS `+name+` WITH (FORCE)`); err != nil {
			t.Logf("pgtest: drop database %s: %v", name, err)
		}
	})
	return shared.url(name)
}
