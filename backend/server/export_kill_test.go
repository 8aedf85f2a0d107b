package server_test

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/blob"
	"github.com/captionqa/captionqa/backend/blob/fsblob"
	"github.com/captionqa/captionqa/backend/httpapi"
	"github.com/captionqa/captionqa/backend/server"
	"github.com/captionqa/captionqa/backend/store/sqlite"
)

// envServeDir makes the test binary a server child process on that data
// folder (see init below), for the kill -9 test.
const envServeDir = "CAPTIONQA_TEST_SERVE_DIR"

// init turns the test binary into a server child process when asked:
// init runs before TestMain (which lives in busy_test.go), so the child
// never runs a test. It serves the data folder on a loopback port, prints
// "ready <url> <owner secret or ->" and serves until killed.
func init() {
	dir := os.Getenv(envServeDir)
	if dir == "" {
		return
	}
	os.Exit(serveChild(dir, nil))
}

// serveChild serves dir until killed; edit, when set, adjusts the
// configuration (the webhook child's receiver and schedule).
func serveChild(dir string, edit func(*server.Config)) int {
	cfg := server.DefaultConfig()
	cfg.DataDir, cfg.Addr = dir, "127.0.0.1:0"
	cfg.MaxUploads, cfg.MaxUploadsPerClient = 100, 100
	cfg.BurstPerSecond, cfg.Burst = 1e6, 1e6
	// Children are killed on purpose: their jobs are taken for dead after
	// 5 s of silence, not 30, so a test waits seconds for the rescue.
	cfg.VideoStaleAfter = 5 * time.Second
	if edit != nil {
		edit(&cfg)
	}
	srv := server.New(cfg)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := srv.Open(ctx); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if err := srv.Listen(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	secret := srv.Owner().Secret
	if secret == "" {
		secret = "-"
	}
	fmt.Printf("ready %s %s\n", srv.URL(), secret)
	if err := srv.Run(ctx); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// child is a server process on a data folder.
type child struct {
	cmd         *exec.Cmd
	url, secret string
}

// startChild starts a server child on dir; env, when given, replaces
// the variable that makes the test binary a child (the webhook child's).
func startChild(t *testing.T, dir string, env ...string) *child {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	if env == nil {
		env = []string{envServeDir + "=" + dir}
	}
	cmd.Env = append(os.Environ(), env...)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	line, err := bufio.NewReader(out).ReadString('\n')
	f := strings.Fields(line)
	if err != nil || len(f) != 3 || f[0] != "ready" {
		t.Fatalf("server child: %q, %v", line, err)
	}
	return &child{cmd: cmd, url: f[1], secret: f[2]}
}

// kill9 sends SIGKILL and reaps the process.
func (c *child) kill9(t *testing.T) {
	t.Helper()
	if err := c.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = c.cmd.Wait()
}

// call sends a JSON request with the owner key; it returns the status
// and body, or an error when the connection died (the server was
// killed).
func call(method, url, secret, body string) (int, []byte, error) {
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		return 0, nil, err
	}
	if secret != "" {
		req.Header.Set("Authorization", "Bearer "+secret)
	}
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	return res.StatusCode, b, err
}

// longIR is an IR document of n cues.
func longIR(n int) string {
	var b strings.Builder
	b.WriteString(`{"version":1,"cues":[`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"id":"%d","startMs":%d,"endMs":%d,"text":"Cue number %d says something a viewer reads."}`, i+1, i*3000, i*3000+2500, i+1)
	}
	b.WriteString(`]}`)
	return b.String()
}

// TestExportKill9: kill -9 during bursts of exports loses no export that
// got a 201 and leaves no artifact row without its bytes; the bytes
// without a row that the kill leaves are what the sweeper deletes.
func TestExportKill9(t *testing.T) {
	if testing.Short() {
		t.Skip("starts server processes")
	}
	dir := t.TempDir()
	c := startChild(t, dir)
	secret := c.secret
	ir, _ := json.Marshal(longIR(3000))
	status, body, err := call("POST", c.url+"/api/v1/projects", secret, `{"name":"kill test","ir":`+string(ir)+`}`)
	if err != nil || status != 201 {
		t.Fatalf("create project: %d %s %v", status, body, err)
	}
	var p httpapi.ProjectView
	_ = json.Unmarshal(body, &p)

	var (
		mu   sync.Mutex
		done []httpapi.ExportCreated
	)
	var links []string // signed links fetched before a kill
	for round := range 3 {
		if round > 0 {
			c = startChild(t, dir)
		}
		var wg sync.WaitGroup
		first := make(chan struct{}, 10)
		for range 10 { // the export burst limit allows 10 at once
			wg.Go(func() {
				status, body, err := call("POST", c.url+"/api/v1/projects/"+p.ID+"/exports", secret, `{"presets":["youtube","lms","vimeo"]}`)
				if err != nil {
					return // killed under it: no 201, no promise
				}
				if status != 201 {
					t.Errorf("export: %d %s", status, body)
					return
				}
				var e httpapi.ExportCreated
				if err := json.Unmarshal(body, &e); err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				done = append(done, e)
				mu.Unlock()
				first <- struct{}{}
			})
		}
		select {
		case <-first:
		case <-time.After(time.Minute):
			t.Fatal("no export finished")
		}
		mu.Lock()
		e := done[len(done)-1]
		mu.Unlock()
		if st, b, err := call("GET", c.url+"/api/v1/artifacts/"+e.Artifacts[0].ArtifactID, secret, ""); err == nil && st == 200 {
			var l struct{ URL string } // the link's url: httpapi's artifactURL is unexported
			_ = json.Unmarshal(b, &l)
			links = append(links, l.URL)
		}
		c.kill9(t)
		wg.Wait()
	}
	if len(done) < 3 {
		t.Fatalf("only %d exports got a 201", len(done))
	}

	// After a restart, every export that got a 201 is there, whole.
	c = startChild(t, dir)
	for _, e := range done {
		for _, a := range e.Artifacts {
			st, b, err := call("GET", c.url+"/api/v1/artifacts/"+a.ArtifactID, secret, "")
			if err != nil || st != 200 {
				t.Fatalf("artifact %s of export %s after restart: %d %s %v", a.ArtifactID, e.ExportID, st, b, err)
			}
			var l struct{ URL string } // the link's url: httpapi's artifactURL is unexported
			_ = json.Unmarshal(b, &l)
			st, data, err := call("GET", l.URL, "", "")
			sum := sha256.Sum256(data)
			if err != nil || st != 200 || hex.EncodeToString(sum[:]) != a.SHA256 {
				t.Errorf("download %s: %d, sha %x, want %s, %v", a.ArtifactID, st, sum, a.SHA256, err)
			}
		}
	}
	// Links signed before a kill still work: the key is the install's.
	for _, l := range links {
		// A restarted child listens on another port; the link's path and
		// query are what is signed.
		path := l[strings.Index(l, "/api/artifacts/"):]
		if st, b, err := call("GET", c.url+path, "", ""); err != nil || st != 200 {
			t.Errorf("link from before the kill: %d %s %v", st, b, err)
		}
	}
	c.kill9(t)

	// No artifact row without its bytes; bytes without a row are orphans
	// the sweeper deletes, and only those.
	ctx := context.Background()
	db, err := sqlite.Open(ctx, filepath.Join(dir, server.DBFile), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	blobs, err := fsblob.Open(filepath.Join(dir, server.BlobsDir), fsblob.Options{})
	if err != nil {
		t.Fatal(err)
	}
	keys, err := db.Exports().ArtifactBlobKeys(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(keys) < 3*len(done) {
		t.Errorf("%d artifact rows; %d exports got a 201 with 3 each", len(keys), len(done))
	}
	for _, k := range keys {
		rc, _, err := blobs.Get(ctx, k, nil)
		if err != nil {
			t.Errorf("artifact row %s has no bytes: %v", k, err)
			continue
		}
		rc.Close()
	}
	swept, err := blob.Sweep(ctx, blobs, "artifacts/", time.Nanosecond, time.Now().Add(time.Hour), db.Exports().KnownBlobs)
	if err != nil {
		t.Fatal(err)
	}
	left := 0
	for info, err := range blobs.List(ctx, "artifacts/") {
		if err != nil {
			t.Fatal(err)
		}
		left++
		_ = info
	}
	if left != len(keys) {
		t.Errorf("after the sweep %d objects are left for %d rows", left, len(keys))
	}
	t.Logf("%d exports got a 201 across 3 kills; %d artifact rows; %d orphaned objects swept", len(done), len(keys), swept)
}
