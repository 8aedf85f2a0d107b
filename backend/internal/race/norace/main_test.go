package main

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestFind: the tests that use a marker themselves or through a helper of
// their package are found, with their package folders; the others, the
// bench module and node_modules are not.
func TestFind(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		"a/a_test.go": `package a
import (
	"testing"
	r "github.com/captionqa/captionqa/backend/internal/race"
)
func TestDirect(t *testing.T) { r.Skip(t, "why") }
func TestPlain(t *testing.T) {}
func TestByHelper(t *testing.T) { helper() }
func TestInClosure(t *testing.T) { t.Run("x", func(t *testing.T) { if r.Enabled { return } }) }
`,
		"a/b_test.go": `package a
import "testing"
func helper() { deeper() }
func TestOtherFile(t *testing.T) { helper() }
func TestNotATest_(t *testing.T) {}
`,
		"a/c_test.go": `package a
import "github.com/captionqa/captionqa/backend/internal/race"
func deeper() { _ = race.Enabled }
`,
		"s/s_test.go": `package s
import (
	"testing"
	"github.com/captionqa/captionqa/backend/internal/scaling"
)
func TestScales(t *testing.T) { scaling.Linear(t, 1, nil, func(int) {}) }
`,
		"n/n_test.go": `package n
import "testing"
func TestNothing(t *testing.T) { Skip() }
func Skip() {}
`,
		"bench/x_test.go": `package x
import (
	"testing"
	"github.com/captionqa/captionqa/backend/internal/race"
)
func TestBenchModule(t *testing.T) { race.Skip(t, "") }
`,
		"frontend/node_modules/m/m_test.go": `package m
import (
	"testing"
	"github.com/captionqa/captionqa/backend/internal/race"
)
func TestVendored(t *testing.T) { race.Skip(t, "") }
`,
	}
	for name, src := range files {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tests, pkgs, err := find(root)
	if err != nil {
		t.Fatal(err)
	}
	wantTests := []string{"TestByHelper", "TestDirect", "TestInClosure", "TestOtherFile", "TestScales"}
	if !slices.Equal(tests, wantTests) {
		t.Errorf("tests = %v, want %v", tests, wantTests)
	}
	wantPkgs := []string{"./" + filepath.ToSlash(filepath.Join(root, "a")), "./" + filepath.ToSlash(filepath.Join(root, "s"))}
	if !slices.Equal(pkgs, wantPkgs) {
		t.Errorf("packages = %v, want %v", pkgs, wantPkgs)
	}
}
