// Package package_test checks what make dist built in build/dist/: the
// tarballs, the captionqa .deb and the captionqa-desktop .deb, their
// metadata and contents (dpkg-deb), the systemd unit (systemd-analyze
// verify and security), and the binaries themselves: the tarball's, from
// an empty folder, answers /healthz and prints its version.
//
// make test runs make dist (amd64 only) first. Run alone:
//
//	make dist DIST_ARCHES=amd64 && go test ./build/package/
//
// A missing package or tool fails the test under CI=true and skips it,
// saying why, otherwise.
package package_test

import (
	"bytes"
	"debug/elf"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"
)

// manualPages lists the manual's pages, docs/*.md of the checkout, by
// file name: the packages ship them beside the README, which links to
// them.
func manualPages(t *testing.T) []string {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(repoRoot(t), "docs", "*.md"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no docs/*.md in the checkout (%v)", err)
	}
	pages := make([]string, len(paths))
	for i, p := range paths {
		pages[i] = filepath.Base(p)
	}
	return pages
}

// repoRoot is the checkout: this package is build/package.
func repoRoot(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// missing fails the test under CI=true and skips it otherwise.
func missing(t *testing.T, format string, args ...any) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatalf(format+" (CI=true: this is a failure)", args...)
	}
	t.Skipf(format+" (skipping; under CI=true this fails)", args...)
}

// need returns the path of a tool, or fails or skips (see missing).
func need(t *testing.T, tool, debianPackage string) string {
	t.Helper()
	p, err := exec.LookPath(tool)
	if err != nil {
		missing(t, "%s is not installed (apt-get install %s; make test installs it)", tool, debianPackage)
	}
	return p
}

// productVersion is wails.json's info.productVersion, the version make
// dist builds.
func productVersion(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(repoRoot(t), "wails.json"))
	if err != nil {
		t.Fatal(err)
	}
	var w struct {
		Info struct {
			ProductVersion string `json:"productVersion"`
		} `json:"info"`
	}
	if err := json.Unmarshal(b, &w); err != nil || w.Info.ProductVersion == "" {
		t.Fatalf("wails.json: no info.productVersion (%v)", err)
	}
	return w.Info.ProductVersion
}

// artifact returns build/dist/NAME, or fails or skips when make dist has
// not built it.
func artifact(t *testing.T, name string) string {
	t.Helper()
	p := filepath.Join(repoRoot(t), "build", "dist", name)
	if _, err := os.Stat(p); err != nil {
		missing(t, "build/dist/%s is missing: run make dist DIST_ARCHES=amd64 first (make test does)", name)
	}
	return p
}

// optionalArches are the architectures besides this machine's that make
// dist built (DIST_ARCHES), found by their tarballs.
func optionalArches(t *testing.T, version string) []string {
	t.Helper()
	paths, _ := filepath.Glob(filepath.Join(repoRoot(t), "build", "dist", "captionqa-"+version+"-linux-*.tar.gz"))
	var arches []string
	for _, p := range paths {
		arch := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(p), "captionqa-"+version+"-linux-"), ".tar.gz")
		if arch != runtime.GOARCH {
			arches = append(arches, arch)
		}
	}
	return arches
}

// run runs a command and returns its stdout; it fails the test when the
// command fails.
func run(t *testing.T, name string, args ...string) string {
	t.Helper()
	var stdout, stderr bytes.Buffer
	cmd := exec.Command(name, args...)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %s: %v\n%s%s", name, strings.Join(args, " "), err, stdout.String(), stderr.String())
	}
	return stdout.String()
}

// elfMachine maps GOARCH to the ELF machine its binaries declare.
var elfMachine = map[string]elf.Machine{"amd64": elf.EM_X86_64, "arm64": elf.EM_AARCH64}

// checkELF checks a binary's architecture and, for the headless build,
// that it is static (no interpreter, no shared libraries).
func checkELF(t *testing.T, path, arch string, static bool) *elf.File {
	t.Helper()
	f, err := elf.Open(path)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	t.Cleanup(func() { f.Close() })
	if want, ok := elfMachine[arch]; !ok || f.Machine != want {
		t.Errorf("%s: ELF machine %v, want %v (%s)", path, f.Machine, want, arch)
	}
	if static {
		for _, p := range f.Progs {
			if p.Type == elf.PT_INTERP {
				t.Errorf("%s: has an ELF interpreter: not a static (CGO_ENABLED=0) binary", path)
			}
		}
		if libs, _ := f.ImportedLibraries(); len(libs) > 0 {
			t.Errorf("%s: links shared libraries %v: not a static binary", path, libs)
		}
	}
	return f
}

// versionLine matches captionqa version's output for a make build.
func versionLine(version string) *regexp.Regexp {
	return regexp.MustCompile(`^captionqa ` + regexp.QuoteMeta(version) + ` \(commit ([0-9a-f]{7,}(-dirty)?), built (\S+)\)\n$`)
}

// checkVersion runs BIN version (and version --json) and checks that it
// names the version, the checkout's commit and a build time.
func checkVersion(t *testing.T, bin, version string) {
	t.Helper()
	out := run(t, bin, "version")
	m := versionLine(version).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("%s version printed %q; want %q", bin, out, "captionqa "+version+" (commit abc1234, built 2026-11-26T14:00:00Z)")
	}
	if built, err := time.Parse(time.RFC3339, m[3]); err != nil || built.Location() != time.UTC {
		t.Errorf("build date %q is not RFC 3339 UTC (%v)", m[3], err)
	}
	if head, err := exec.Command("git", "-C", repoRoot(t), "rev-parse", "--short=7", "HEAD").Output(); err == nil {
		if !strings.HasPrefix(m[1], strings.TrimSpace(string(head))) {
			t.Errorf("commit %s is not HEAD's (%s)", m[1], strings.TrimSpace(string(head)))
		}
	}
	var j struct{ Version, Commit, Date, Go string }
	if err := json.Unmarshal([]byte(run(t, bin, "version", "--json")), &j); err != nil ||
		j.Version != version || j.Commit != m[1] || j.Date != m[3] || !strings.HasPrefix(j.Go, "go") {
		t.Errorf("version --json: %+v (%v); want version %s, commit %s, date %s", j, err, version, m[1], m[3])
	}
}
