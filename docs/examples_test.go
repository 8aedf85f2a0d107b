// Package docs_test runs the manual's examples, so that they stay true:
// every fenced block whose info string is "sh example" in README.md and
// docs/*.md, file by file and in order, each in its own bash -euo pipefail
// with the repository root as working directory, against a fresh
// captionqa serve per file. In a block, the address http://127.0.0.1:8787
// is that server's, $KEY holds its owner API key, $CAPTIONQA_DATA is its
// data folder and captionqa on PATH is this checkout's command line. A
// block fails on a non-zero exit; docs/development.md says how to write
// one.
package docs_test

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/cli"
)

// init makes the test binary the captionqa command when it runs under
// that name (the examples' PATH holds a link to it), so that the examples
// run this checkout's code without a separate build.
func init() {
	if filepath.Base(os.Args[0]) != "captionqa" {
		return
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := cli.Run(ctx, os.Args[1:], cli.Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr})
	stop()
	os.Exit(code)
}

// documentedURL is the address the examples are written for.
const documentedURL = "http://127.0.0.1:8787"

// example is one runnable block.
type example struct {
	line   int // of the opening fence
	script string
}

// TestExamples runs every file's examples against a server of its own.
func TestExamples(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	files, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	files = append([]string{filepath.Join(root, "README.md")}, files...)
	bin := commandDir(t)
	total := 0
	for _, file := range files {
		examples, err := parse(file)
		if err != nil {
			t.Fatal(err)
		}
		total += len(examples)
		if len(examples) == 0 {
			continue
		}
		rel, _ := filepath.Rel(root, file)
		t.Run(rel, func(t *testing.T) {
			t.Parallel()
			srv := startServe(t, bin)
			for _, ex := range examples {
				runExample(t, root, bin, srv, rel, ex)
			}
		})
	}
	if total == 0 {
		t.Fatal(`no "sh example" block in README.md or docs/*.md`)
	}
}

// fence matches a block's opening line and its info string.
var fence = regexp.MustCompile("^```\\s*(.*?)\\s*$")

// parse returns the file's "sh example" blocks.
func parse(file string) ([]example, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	var (
		out    []example
		cur    *example
		inside bool
		body   strings.Builder
	)
	for i, line := range strings.Split(string(b), "\n") {
		m := fence.FindStringSubmatch(line)
		switch {
		case m != nil && !inside:
			inside = true
			if m[1] == "sh example" {
				cur = &example{line: i + 1}
				body.Reset()
			}
		case m != nil && inside && m[1] == "":
			inside = false
			if cur != nil {
				cur.script = body.String()
				out = append(out, *cur)
				cur = nil
			}
		case cur != nil:
			body.WriteString(line)
			body.WriteByte('\n')
		}
	}
	if inside {
		return nil, fmt.Errorf("%s: a code block is not closed", file)
	}
	return out, nil
}

// commandDir returns a folder holding "captionqa", a link to this test
// binary (see init).
func commandDir(t *testing.T) string {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.Symlink(self, filepath.Join(dir, "captionqa")); err != nil {
		t.Fatal(err)
	}
	return dir
}

// server is a running captionqa serve.
type server struct {
	url, key, data string
}

var (
	runningAt = regexp.MustCompile(`running at (http://[0-9.:]+)/`)
	ownerKey  = regexp.MustCompile(`^\s*(cqa_[a-z0-9]{12}_[A-Za-z0-9_-]{43})\s*$`)
)

// startServe starts captionqa serve on a new data folder and returns once
// it has printed its address and the owner key; it is stopped with
// SIGINT when the test ends.
func startServe(t *testing.T, bin string) server {
	t.Helper()
	data := t.TempDir()
	cmd := exec.Command(filepath.Join(bin, "captionqa"), "serve", "--addr", "127.0.0.1:0", "--data", data)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Signal(os.Interrupt)
		_ = cmd.Wait()
	})
	srv := server{data: data}
	lines := bufio.NewScanner(out)
	for srv.url == "" || srv.key == "" {
		if !lines.Scan() {
			t.Fatalf("serve ended before it printed its address and owner key (%v)", lines.Err())
		}
		if m := runningAt.FindStringSubmatch(lines.Text()); m != nil {
			srv.url = m[1]
		}
		if m := ownerKey.FindStringSubmatch(lines.Text()); m != nil {
			srv.key = m[1]
		}
	}
	// The rest of its output is not read: drain it so serve never blocks.
	go func() {
		for lines.Scan() {
		}
	}()
	return srv
}

// runExample runs one block; a failure ends the file's run, since later
// blocks may build on it.
func runExample(t *testing.T, root, bin string, srv server, file string, ex example) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	script := strings.ReplaceAll(ex.script, documentedURL, srv.url)
	cmd := exec.CommandContext(ctx, "bash", "-euo", "pipefail", "-c", script)
	cmd.Dir = root
	cmd.Env = append(os.Environ(),
		"PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"),
		"KEY="+srv.key,
		"CAPTIONQA_DATA="+srv.data,
	)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s:%d: the example failed (%v):\n%s\noutput:\n%s", file, ex.line, err, ex.script, out)
	}
}
