package server_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/account"
	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/server"
	"github.com/captionqa/captionqa/backend/store/sqlite"
)

// Environment of the lock-holding helper process (see TestMain).
const (
	envHoldLockDB    = "CAPTIONQA_TEST_HOLD_LOCK_DB"
	envHoldLockEmail = "CAPTIONQA_TEST_HOLD_LOCK_EMAIL"
)

// TestMain runs the test binary as the lock-holding helper process when
// asked to (holdWriteLock), and the tests otherwise.
func TestMain(m *testing.M) {
	if path := os.Getenv(envHoldLockDB); path != "" {
		os.Exit(holdLockProcess(path, os.Getenv(envHoldLockEmail)))
	}
	os.Exit(m.Run())
}

// holdLockProcess opens the database at path as a second process would
// (an admin command, a backup tool) and holds its write lock, in an open
// write transaction, from printing "held" until its standard input ends.
func holdLockProcess(path, email string) int {
	ctx := context.Background()
	db, err := sqlite.Open(ctx, path, sqlite.Options{})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer db.Close()
	_, err = db.Accounts().UpdateAccount(ctx, email, func(*account.Account) error {
		fmt.Println("held")
		_, err := io.Copy(io.Discard, os.Stdin)
		return err
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// holdWriteLock starts another process holding the write lock of the
// database at path; release ends it and waits for it to exit.
func holdWriteLock(t *testing.T, path, email string) (release func()) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), envHoldLockDB+"="+path, envHoldLockEmail+"="+email)
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil || line != "held\n" {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		t.Fatalf("lock holder: %q, %v", line, err)
	}
	done := false
	release = func() {
		if done {
			return
		}
		done = true
		stdin.Close()
		if err := cmd.Wait(); err != nil {
			t.Errorf("lock holder: %v", err)
		}
	}
	t.Cleanup(release)
	return release
}

// TestBusyDatabase: while another process holds the database's write
// lock, a write through the API answers 503 unavailable with Retry-After
// (not a 500 after the busy timeout) and /readyz answers 503 too; reads
// still answer; once the lock is released both recover.
func TestBusyDatabase(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cfg := testConfig(t, dir)
	cfg.BusyTimeout = 200 * time.Millisecond
	srv := server.New(cfg)
	start(t, srv)
	secret := srv.Owner().Secret

	createKey := func() (int, string, string) {
		t.Helper()
		req, _ := http.NewRequest("POST", srv.URL()+"/api/v1/api-keys",
			strings.NewReader(`{"name":"ci","scopes":["keys:read"]}`))
		req.Header.Set("Authorization", "Bearer "+secret)
		req.Header.Set("Content-Type", "application/json")
		return do(t, req)
	}
	get := func(path string) (int, string, string) {
		t.Helper()
		req, _ := http.NewRequest("GET", srv.URL()+path, nil)
		req.Header.Set("Authorization", "Bearer "+secret)
		return do(t, req)
	}
	if status, _, _ := get("/readyz"); status != 200 {
		t.Fatalf("readyz before the lock: %d", status)
	}

	release := holdWriteLock(t, filepath.Join(dir, server.DBFile), cfg.OwnerEmail)
	for name, got := range map[string]func() (int, string, string){
		"POST /api/v1/api-keys": createKey,
		"GET /readyz":           func() (int, string, string) { return get("/readyz") },
	} {
		status, code, retry := got()
		if status != 503 || code != "unavailable" || retry != "1" {
			t.Errorf("%s while busy: %d %s, Retry-After %q; want 503 unavailable, Retry-After 1", name, status, code, retry)
		}
	}
	if status, _, _ := get("/api/v1/me"); status != 200 {
		t.Errorf("GET /api/v1/me while busy: %d, want 200 (reads do not wait for the writer)", status)
	}

	release()
	if status, _, _ := get("/readyz"); status != 200 {
		t.Errorf("readyz after the release: %d", status)
	}
	if status, code, _ := createKey(); status != 201 {
		t.Errorf("POST /api/v1/api-keys after the release: %d %s", status, code)
	}
}

// do sends req and returns the status, the error code if any and the
// Retry-After header.
func do(t *testing.T, req *http.Request) (status int, code, retryAfter string) {
	t.Helper()
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var env apperr.Envelope
	_ = json.NewDecoder(res.Body).Decode(&env)
	return res.StatusCode, env.Error.Code, res.Header.Get("Retry-After")
}
