// Command norace prints the go test arguments of the pass without the race
// detector: -run with every Test function that steps aside under -race
// (it calls race.Skip, reads race.Enabled or runs scaling.Linear), then
// the packages that hold them.
//
//	go test -count=1 $(go run ./backend/internal/race/norace)
//
// It reads the sources, so a test that learns to skip under -race joins the
// pass by itself; a test that calls a helper of its package that uses a
// marker counts as using it.
package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

const module = "github.com/captionqa/captionqa/"

// markers are the package-level names whose use marks a test, by import path.
var markers = map[string][]string{
	module + "backend/internal/race":    {"Skip", "Enabled"},
	module + "backend/internal/scaling": {"Linear"},
}

var testName = regexp.MustCompile(`^Test[A-Z0-9_]`)

func main() {
	tests, pkgs, err := find(".")
	if err != nil {
		fmt.Fprintln(os.Stderr, "norace:", err)
		os.Exit(1)
	}
	if len(tests) == 0 {
		fmt.Fprintln(os.Stderr, "norace: no test steps aside under -race")
		os.Exit(1)
	}
	fmt.Printf("-run=^(%s)$ %s\n", strings.Join(tests, "|"), strings.Join(pkgs, " "))
}

// find walks the module under root (not the bench module, not
// node_modules) and returns the marked tests and their package folders.
func find(root string) (tests, pkgs []string, err error) {
	fset := token.NewFileSet()
	byDir := map[string][]*ast.File{}
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "node_modules" || d.Name() == "bench") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		dir := filepath.Dir(path)
		byDir[dir] = append(byDir[dir], f)
		return nil
	})
	for dir, files := range byDir {
		if found := marked(files); len(found) > 0 {
			tests = append(tests, found...)
			pkgs = append(pkgs, "./"+filepath.ToSlash(dir))
		}
	}
	slices.Sort(tests)
	slices.Sort(pkgs)
	return slices.Compact(tests), slices.Compact(pkgs), err
}

// marked returns the Test functions of one package's test files that use a
// marker, themselves or through the package's helpers they call.
func marked(files []*ast.File) []string {
	funcs := map[string]*ast.FuncDecl{} // the package's plain functions, by name
	direct := map[string]bool{}         // functions that use a marker themselves
	for _, f := range files {
		local := markerNames(f)
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				continue
			}
			if fn.Recv == nil {
				funcs[fn.Name.Name] = fn
			}
			if len(local) > 0 && usesMarker(fn, local) {
				direct[fn.Name.Name] = true
			}
		}
	}
	// A function is marked when it uses a marker or calls a marked one.
	memo := map[string]bool{}
	var isMarked func(name string, seen map[string]bool) bool
	isMarked = func(name string, seen map[string]bool) bool {
		if v, ok := memo[name]; ok {
			return v
		}
		if direct[name] {
			return true
		}
		fn, ok := funcs[name]
		if !ok || seen[name] {
			return false
		}
		seen[name] = true
		found := false
		ast.Inspect(fn.Body, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok && !found {
				if id, ok := call.Fun.(*ast.Ident); ok && id.Name != name && isMarked(id.Name, seen) {
					found = true
				}
			}
			return !found
		})
		memo[name] = found
		return found
	}
	var tests []string
	for name := range funcs {
		if testName.MatchString(name) && isMarked(name, map[string]bool{}) {
			tests = append(tests, name)
		}
	}
	return tests
}

// markerNames maps the file's names for the marker packages to their
// marker identifiers.
func markerNames(f *ast.File) map[string][]string {
	local := map[string][]string{}
	for _, imp := range f.Imports {
		path, _ := strconv.Unquote(imp.Path.Value)
		names, ok := markers[path]
		if !ok {
			continue
		}
		name := path[strings.LastIndex(path, "/")+1:]
		if imp.Name != nil {
			name = imp.Name.Name
		}
		local[name] = names
	}
	return local
}

func usesMarker(fn *ast.FuncDecl, local map[string][]string) bool {
	found := false
	ast.Inspect(fn, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if x, ok := sel.X.(*ast.Ident); ok && slices.Contains(local[x.Name], sel.Sel.Name) {
				found = true
			}
		}
		return !found
	})
	return found
}
