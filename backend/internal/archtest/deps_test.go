package archtest

import (
	"bytes"
	"encoding/json"
	"io"
	"os/exec"
	"strings"
	"testing"
)

type pkg struct {
	ImportPath string
	Dir        string
	GoFiles    []string
	Imports    []string
}

// listPackages runs go list over the whole module, once per build-tag set
// so that files behind the desktop tag are checked too.
func listPackages(t *testing.T) []pkg {
	t.Helper()
	var out []pkg
	seen := map[string]bool{}
	for _, tags := range []string{"", "desktop,production,webkit2_41"} {
		cmd := exec.Command("go", "list", "-e", "-tags", tags, "-json", module+"/...")
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("go list: %v\n%s", err, stderr.String())
		}
		dec := json.NewDecoder(&stdout)
		for {
			var p pkg
			if err := dec.Decode(&p); err == io.EOF {
				break
			} else if err != nil {
				t.Fatalf("go list output: %v", err)
			}
			key := tags + "|" + p.ImportPath
			if !seen[key] {
				seen[key] = true
				out = append(out, p)
			}
		}
	}
	if len(out) == 0 {
		t.Fatal("go list found no packages")
	}
	return out
}

func rel(importPath string) (string, bool) {
	if importPath == module {
		return "", true
	}
	r, ok := strings.CutPrefix(importPath, module+"/")
	return r, ok
}

// TestDependencyRules enforces rules 1 to 7 and the layer order.
func TestDependencyRules(t *testing.T) {
	for _, p := range listPackages(t) {
		from, _ := rel(p.ImportPath)
		if strings.HasPrefix(from, "bench") {
			continue
		}
		fromLayer, known := layerOf(from)
		if !known && !strings.HasPrefix(from, "backend/internal/") {
			t.Errorf("%s: package is not in the architecture's layer table (add it to layerOf)", p.ImportPath)
		}
		for _, imp := range p.Imports {
			for _, tech := range technologies() {
				if strings.HasPrefix(imp, tech.prefix) && !in(from, tech.allowed...) {
					t.Errorf("%s imports %s: %s", p.ImportPath, imp, tech.rule)
				}
			}
			if imp == "net/http" && !netHTTPAllowed(from) {
				t.Errorf("%s imports net/http: rule 6, domain packages stay out of HTTP", p.ImportPath)
			}
			to, internal := rel(imp)
			if !internal || !known {
				continue
			}
			if strings.HasPrefix(to, "backend/internal/") {
				t.Errorf("%s imports %s: test support is for tests only", p.ImportPath, imp)
				continue
			}
			if isAdapter(from) && isAdapter(to) && !isSQLEngine(from, to) {
				t.Errorf("%s imports %s: rule 7, adapters never import one another", p.ImportPath, imp)
			}
			toLayer, _ := layerOf(to)
			if (to == "assets" || to == "frontend") && fromLayer != layerRoot {
				t.Errorf("%s imports %s: embedded data reaches domain packages through the composition root", p.ImportPath, imp)
			}
			if toLayer > fromLayer {
				t.Errorf("%s (layer %d) imports %s (layer %d): dependencies point down", p.ImportPath, fromLayer, imp, toLayer)
			}
		}
	}
}
