// Package corpus finds the shared caption test corpus for conformance tests.
//
// Where the corpus lives, outside the repository, is in docs/development.md
// (The test corpus); CAPTIONQA_CORPUS points elsewhere. It is never copied
// into the project: tests read it in place and skip, saying why, when it is
// absent. Under CI=true an absent corpus fails the test instead: a
// conformance suite that skips there would let a run pass without checking
// anything.
package corpus

import (
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// Dir returns the corpus folder, or skips the test with a clear message
// when it is absent (fails it under CI=true).
func Dir(tb testing.TB) string {
	tb.Helper()
	if d := os.Getenv("CAPTIONQA_CORPUS"); d != "" {
		if isDir(d) {
			return d
		}
		Missing(tb, "CAPTIONQA_CORPUS="+d+" is not a folder")
		return ""
	}
	root, err := moduleRoot()
	if err == nil {
		d := filepath.Join(root, "..", "shared", "corpus")
		if isDir(d) {
			return d
		}
	}
	Missing(tb, "the test corpus folder next to the checkout is absent and CAPTIONQA_CORPUS is unset (docs/development.md, The test corpus)")
	return ""
}

// Missing ends a test that lacks corpus files: a skip that says why, or,
// under CI=true, a failure.
func Missing(tb testing.TB, why string) {
	tb.Helper()
	if os.Getenv("CI") == "true" {
		tb.Fatalf("corpus: %s; CI runs the conformance tests on the corpus", why)
		return
	}
	tb.Skipf("corpus: %s; conformance test skipped (CI=true makes this a failure)", why)
}

// Path returns the file or folder rel inside the corpus (slash separated).
func Path(tb testing.TB, rel string) string {
	tb.Helper()
	return filepath.Join(Dir(tb), filepath.FromSlash(rel))
}

// Glob walks the corpus folder sub and returns, sorted, every file whose
// name ends in one of the suffixes (".vtt", ".isd-times.txt").
func Glob(tb testing.TB, sub string, suffixes ...string) []string {
	tb.Helper()
	var out []string
	err := filepath.WalkDir(Path(tb, sub), func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		for _, s := range suffixes {
			if strings.HasSuffix(strings.ToLower(p), s) {
				out = append(out, p)
				break
			}
		}
		return nil
	})
	if err != nil {
		tb.Fatalf("corpus: walk %s: %v", sub, err)
	}
	sort.Strings(out)
	return out
}

func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", os.ErrNotExist
		}
		dir = parent
	}
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}
