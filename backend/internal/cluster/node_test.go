package cluster_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/cli"
	"github.com/captionqa/captionqa/backend/internal/pgtest"
	"github.com/captionqa/captionqa/backend/internal/s3test"
)

// envNodeArgs makes the test binary a cluster node: the variable holds
// the JSON array of the `captionqa serve` flags it runs with.
const envNodeArgs = "CAPTIONQA_CLUSTER_NODE"

// The roles of a node (serve --role).
const (
	roleAll    = "all"
	roleAPI    = "api"
	roleWorker = "worker"
)

// startLimit bounds a node's start: the first start of a cluster
// migrates the database, and under -race on two cores three nodes start
// at once.
const startLimit = 90 * time.Second

// init turns the test binary into a node when asked: init runs before
// any test, so a node never runs one. It runs `captionqa serve` with the
// flags given, as main does, until SIGINT or SIGTERM (or kill -9).
func init() {
	v := os.Getenv(envNodeArgs)
	if v == "" {
		return
	}
	var args []string
	if err := json.Unmarshal([]byte(v), &args); err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", envNodeArgs, err)
		os.Exit(cli.ExitUsage)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := cli.Run(ctx, append([]string{"serve"}, args...), cli.Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr})
	stop()
	os.Exit(code)
}

// node is one `captionqa serve` process of a cluster.
type node struct {
	name string // index and role, as the test's messages name it
	dir  string // its data folder
	url  string // http://127.0.0.1:PORT
	cmd  *exec.Cmd
	done chan struct{} // closed once the process has exited
}

// stdoutFile and logFile are where a node's standard output (the lines
// serve prints for the operator) and standard error (its JSON logs, and
// any race report) go, in its data folder's parent.
func (n *node) stdoutFile() string { return filepath.Join(filepath.Dir(n.dir), "stdout.txt") }
func (n *node) logFile() string    { return filepath.Join(filepath.Dir(n.dir), "log.json") }

// cluster is a set of nodes sharing a database and a bucket.
type cluster struct {
	store  string // the database's postgres:// URL
	bucket s3test.Target
	nodes  []*node
}

// burstOff lifts the burst limits (a key's, and its account's at twice
// the key's) far above what a test sends, so that only what the test
// measures refuses a request; read-only.
var burstOff = []string{"--burst", "1000", "--burst-rate", "1000"}

// newCluster starts one node per role, all at once, on a fresh database
// and bucket, each with flags besides its own (--addr, --data, --store,
// --blobs, --role, --log-format), and waits until every node is ready.
// The nodes are killed when t ends; a node's log is shown when t failed,
// and a data race a node reported fails t.
func newCluster(t *testing.T, flags []string, roles ...string) *cluster {
	t.Helper()
	c := &cluster{store: pgtest.Database(t), bucket: s3test.Bucket(t)}
	for i, role := range roles {
		base := t.TempDir()
		n := &node{name: fmt.Sprintf("node %d (%s)", i+1, role), dir: filepath.Join(base, "data"), done: make(chan struct{})}
		args := append([]string{"--addr", "127.0.0.1:0", "--data", n.dir, "--store", c.store, "--blobs", c.bucket.URL(),
			"--role", role, "--log-format", "json"}, flags...)
		n.start(t, args, c.bucket)
		c.nodes = append(c.nodes, n)
	}
	t.Cleanup(func() { c.report(t) })
	var wg sync.WaitGroup
	errs := make([]error, len(c.nodes))
	for i, n := range c.nodes {
		wg.Go(func() { errs[i] = n.waitReady() })
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	return c
}

// start starts the node's process with args, its credentials for the
// bucket in the environment as an operator would set them.
func (n *node) start(t *testing.T, args []string, b s3test.Target) {
	t.Helper()
	j, err := json.Marshal(args)
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := os.Create(n.stdoutFile())
	if err != nil {
		t.Fatal(err)
	}
	defer stdout.Close()
	logs, err := os.Create(n.logFile())
	if err != nil {
		t.Fatal(err)
	}
	defer logs.Close()
	n.cmd = exec.Command(os.Args[0], "-test.run=^$")
	n.cmd.Env = append(os.Environ(), envNodeArgs+"="+string(j),
		"AWS_ACCESS_KEY_ID="+b.AccessKey, "AWS_SECRET_ACCESS_KEY="+b.SecretKey)
	n.cmd.Stdout, n.cmd.Stderr = stdout, logs
	// A node dies with the test binary, however that ends.
	n.cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := n.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		_ = n.cmd.Wait()
		close(n.done)
	}()
	t.Cleanup(func() { n.kill9(t) })
}

// waitReady waits for the line serve prints once it listens ("CaptionQA
// is running at URL/ ..."), then for /readyz to answer 200.
func (n *node) waitReady() error {
	deadline := time.Now().Add(startLimit)
	const prefix = "CaptionQA is running at "
	for n.url == "" {
		b, _ := os.ReadFile(n.stdoutFile())
		for _, line := range strings.Split(string(b), "\n") {
			if rest, ok := strings.CutPrefix(line, prefix); ok {
				n.url = strings.TrimSuffix(strings.Fields(rest)[0], "/")
			}
		}
		if n.url != "" {
			break
		}
		select {
		case <-n.done:
			return fmt.Errorf("%s exited before it listened: %s\n%s", n.name, n.cmd.ProcessState, n.tail())
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%s did not listen within %v\n%s", n.name, startLimit, n.tail())
		}
	}
	for {
		res, err := http.Get(n.url + "/readyz")
		if err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				return nil
			}
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%s not ready within %v (%v)\n%s", n.name, startLimit, err, n.tail())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// kill9 kills the process with SIGKILL and waits until it is gone;
// killing a dead node does nothing.
func (n *node) kill9(t testing.TB) {
	t.Helper()
	select {
	case <-n.done:
		return
	default:
	}
	if err := n.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Errorf("kill %s: %v", n.name, err)
	}
	<-n.done
}

// tail is the end of the node's output and log, for failure messages.
func (n *node) tail() string {
	out, _ := os.ReadFile(n.stdoutFile())
	logs, _ := os.ReadFile(n.logFile())
	const keep = 4000
	if len(logs) > keep {
		logs = append([]byte("…"), logs[len(logs)-keep:]...)
	}
	return fmt.Sprintf("--- %s stdout:\n%s--- %s log:\n%s", n.name, out, n.name, logs)
}

// logged returns the node's JSON log records whose msg is msg.
func (n *node) logged(t testing.TB, msg string) []map[string]any {
	t.Helper()
	f, err := os.Open(n.logFile())
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []map[string]any
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var rec map[string]any
		if json.Unmarshal(sc.Bytes(), &rec) == nil && rec["msg"] == msg {
			out = append(out, rec)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// report fails t for a data race a node reported (a node built with
// -race prints it on standard error and goes on), and shows every node's
// output and log when t failed.
func (c *cluster) report(t *testing.T) {
	for _, n := range c.nodes {
		b, _ := os.ReadFile(n.logFile())
		if i := strings.Index(string(b), "WARNING: DATA RACE"); i >= 0 {
			t.Errorf("%s reported a data race:\n%s", n.name, b[i:min(len(b), i+6000)])
		}
	}
	if t.Failed() {
		for _, n := range c.nodes {
			t.Log(n.tail())
		}
	}
}

// workProcs lists the processes (pid and command line) working in the
// node's video work folder: the ffmpeg runs of its jobs.
func (n *node) workProcs() []string {
	work := filepath.Join(n.dir, "work") + string(filepath.Separator)
	entries, _ := os.ReadDir("/proc")
	var found []string
	for _, e := range entries {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		cwd, err := os.Readlink(filepath.Join("/proc", e.Name(), "cwd"))
		if err != nil || !strings.HasPrefix(cwd+string(filepath.Separator), work) {
			continue
		}
		cmdline, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		found = append(found, e.Name()+": "+strings.ReplaceAll(string(cmdline), "\x00", " "))
	}
	return found
}
