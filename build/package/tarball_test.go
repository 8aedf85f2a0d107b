package package_test

import (
	"archive/tar"
	"bufio"
	"compress/gzip"
	"context"
	"errors"
	"io"
	"io/fs"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestTarball checks this machine's tarball from the inside out: its
// entries, then the binary extracted to an empty folder prints its
// version and serves /healthz from an empty data folder.
func TestTarball(t *testing.T) {
	t.Parallel()
	version := productVersion(t)
	dir := extractTarball(t, version, runtime.GOARCH)
	bin := filepath.Join(dir, "captionqa")
	checkELF(t, bin, runtime.GOARCH, true)
	checkVersion(t, bin, version)
	serveHealthz(t, bin)

	unit, err := os.ReadFile(filepath.Join(dir, "captionqa.service"))
	if err != nil {
		t.Fatal(err)
	}
	// The tarball's unit runs the binary where make install puts it.
	if !strings.Contains(string(unit), "\nExecStart=/usr/local/bin/captionqa serve --data /var/lib/captionqa\n") {
		t.Errorf("the tarball's captionqa.service does not start /usr/local/bin/captionqa:\n%s", unit)
	}
}

// TestOtherTarballs checks the tarballs make dist built for other
// architectures (DIST_ARCHES): the entries and a static binary for that
// architecture.
func TestOtherTarballs(t *testing.T) {
	t.Parallel()
	version := productVersion(t)
	arches := optionalArches(t, version)
	if len(arches) == 0 {
		t.Logf("make dist built no tarball besides linux/%s (DIST_ARCHES)", runtime.GOARCH)
	}
	for _, arch := range arches {
		t.Run(arch, func(t *testing.T) {
			t.Parallel()
			dir := extractTarball(t, version, arch)
			checkELF(t, filepath.Join(dir, "captionqa"), arch, true)
		})
	}
}

// extractTarball checks build/dist/captionqa-VERSION-linux-ARCH.tar.gz
// (one folder of that name with the binary, README.md, the manual's
// docs/*.md, LICENSE, THIRD-PARTY-NOTICES and the unit, owned by root, sensible modes), then
// extracts it into a new temp folder and returns the folder it holds.
func extractTarball(t *testing.T, version, arch string) string {
	t.Helper()
	name := "captionqa-" + version + "-linux-" + arch
	f, err := os.Open(artifact(t, name+".tar.gz"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	want := map[string]fs.FileMode{
		name + "/":                    fs.ModeDir | 0o755,
		name + "/captionqa":           0o755,
		name + "/README.md":           0o644,
		name + "/LICENSE":             0o644,
		name + "/THIRD-PARTY-NOTICES": 0o644,
		name + "/captionqa.service":   0o644,
		name + "/docs/":               fs.ModeDir | 0o755,
	}
	for _, page := range manualPages(t) {
		want[name+"/docs/"+page] = 0o644
	}
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		mode, ok := want[h.Name]
		if !ok {
			t.Errorf("%s: unexpected entry %s", name, h.Name)
			continue
		}
		delete(want, h.Name)
		if got := h.FileInfo().Mode(); got != mode {
			t.Errorf("%s: mode %v, want %v", h.Name, got, mode)
		}
		if h.Uid != 0 || h.Gid != 0 {
			t.Errorf("%s: owned by %d:%d, want 0:0", h.Name, h.Uid, h.Gid)
		}
	}
	for missingName := range want {
		t.Errorf("%s.tar.gz has no %s", name, missingName)
	}
	if t.Failed() {
		t.FailNow()
	}
	// tar extracts, not this process: a binary this process wrote could be
	// held open for writing by a command another test forks at that moment
	// (until that command execs), and running it would fail with "text
	// file busy".
	if out, err := exec.Command("tar", "-xzf", f.Name(), "-C", tmp).CombinedOutput(); err != nil {
		t.Fatalf("tar -xzf %s: %v\n%s", f.Name(), err, out)
	}
	return filepath.Join(tmp, name)
}

// serveHealthz starts BIN serve on a free loopback port with an empty
// data folder and video jobs off, waits for GET /healthz to answer 200,
// then stops it with SIGTERM and checks that it exits 0.
func serveHealthz(t *testing.T, bin string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	data := t.TempDir()
	cmd := exec.CommandContext(ctx, bin, "serve", "--data", data, "--addr", "127.0.0.1:0", "--video", "off", "--log-format", "json")
	// Started from an empty folder, with none of the caller's settings.
	cmd.Dir = t.TempDir()
	cmd.Env = []string{"PATH=/usr/bin:/bin", "HOME=" + data}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := false
	defer func() {
		if !exited {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
		}
	}()

	// The first line names the URL: "CaptionQA is running at URL/ (data
	// folder DIR)", with the port the server picked.
	running := regexp.MustCompile(`^CaptionQA is running at (http://127\.0\.0\.1:[0-9]+)/ `)
	lines := bufio.NewScanner(stdout)
	base := ""
	for base == "" && lines.Scan() {
		if m := running.FindStringSubmatch(lines.Text()); m != nil {
			base = m[1]
		}
	}
	if base == "" {
		t.Fatalf("serve printed no URL; stderr:\n%s", stderr.String())
	}
	go func() { _, _ = io.Copy(io.Discard, stdout) }()

	var res *http.Response
	for deadline := time.Now().Add(20 * time.Second); ; {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, base+"/healthz", nil)
		if res, err = http.DefaultClient.Do(req); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("GET %s/healthz: %v; stderr:\n%s", base, err, stderr.String())
		}
		time.Sleep(100 * time.Millisecond)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Errorf("GET %s/healthz: %d %s", base, res.StatusCode, body)
	}

	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	err = cmd.Wait()
	exited = true
	if err != nil {
		t.Errorf("serve after SIGTERM: %v; stderr:\n%s", err, stderr.String())
	}
	if _, err := os.Stat(filepath.Join(data, "captionqa.db")); err != nil {
		t.Errorf("serve wrote no database to its --data folder: %v", err)
	}
	// The start line logs the build (serve.go).
	if !strings.Contains(stderr.String(), `"build":{"version":"`) {
		t.Errorf("serve did not log its build at start; stderr:\n%s", stderr.String())
	}
}
