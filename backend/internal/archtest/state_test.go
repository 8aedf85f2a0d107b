package archtest

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// TestNoPackageState enforces rule 8: outside main and test support, a
// package-level var is
// allowed only as a compile-time interface check (var _ I = ...), an error
// sentinel (ErrX), or a table whose doc comment declares it read-only.
func TestNoPackageState(t *testing.T) {
	fset := token.NewFileSet()
	for _, p := range listPackages(t) {
		from, _ := rel(p.ImportPath)
		// Test support (backend/internal) is linked into tests only, where
		// caching a loaded fixture across tests is the point.
		if from == "" || strings.HasPrefix(from, "bench") || strings.HasPrefix(from, "backend/internal/") {
			continue
		}
		for _, name := range p.GoFiles {
			path := filepath.Join(p.Dir, name)
			f, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
			if err != nil {
				t.Fatalf("parse %s: %v", path, err)
			}
			for _, decl := range f.Decls {
				gd, ok := decl.(*ast.GenDecl)
				if !ok || gd.Tok != token.VAR {
					continue
				}
				for _, spec := range gd.Specs {
					vs := spec.(*ast.ValueSpec)
					for _, id := range vs.Names {
						if allowedVar(id.Name, gd.Doc, vs.Doc) {
							continue
						}
						t.Errorf("%s: package-level var %s: rule 8, no package-level mutable state (use a function, a const, or document a read-only table)",
							fset.Position(id.Pos()), id.Name)
					}
				}
			}
		}
	}
}

func allowedVar(name string, docs ...*ast.CommentGroup) bool {
	if name == "_" || strings.HasPrefix(name, "Err") || strings.HasPrefix(name, "err") {
		return true
	}
	for _, d := range docs {
		if d != nil && strings.Contains(strings.ToLower(d.Text()), "read-only") {
			return true
		}
	}
	return false
}
