package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/caption/format"
)

var update = flag.Bool("update", false, "rewrite the engine's golden files")

// goldenRequest is a case's request.json.
type goldenRequest struct {
	Preset     string `json:"preset"`
	FixProfile string `json:"fixProfile"`
	Standard   string `json:"standard"`
	From       string `json:"from"`
	// Note says what the case shows; it is not sent to the engine.
	Note string `json:"note"`
}

// TestGolden runs every case in testdata/<case>/: input.<ext> and
// request.json in; want.report.json (the result without the output
// bodies, or the error envelope) and want.output.<ext> (the delivery)
// out. go test -run TestGolden -update rewrites the wants.
func TestGolden(t *testing.T) {
	eng := newTestEngine(t)
	dirs, err := filepath.Glob("testdata/*")
	if err != nil {
		t.Fatal(err)
	}
	cases := 0
	for _, dir := range dirs {
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			continue
		}
		cases++
		t.Run(filepath.Base(dir), func(t *testing.T) {
			t.Parallel()
			runGolden(t, eng, dir)
		})
	}
	if cases < 40 {
		t.Errorf("only %d golden cases; the engine keeps at least 40", cases)
	}
}

func runGolden(t *testing.T, eng *Engine, dir string) {
	inputs, _ := filepath.Glob(filepath.Join(dir, "input.*"))
	if len(inputs) != 1 {
		t.Fatalf("want exactly one input.* file, found %v", inputs)
	}
	data, err := os.ReadFile(inputs[0])
	if err != nil {
		t.Fatal(err)
	}
	var req goldenRequest
	if b, err := os.ReadFile(filepath.Join(dir, "request.json")); err == nil {
		if err := json.Unmarshal(b, &req); err != nil {
			t.Fatalf("request.json: %v", err)
		}
	}
	res, err := eng.Process(context.Background(), Request{
		Filename: filepath.Base(inputs[0]), Data: data, From: req.From,
		Preset: req.Preset, FixProfile: req.FixProfile, Standard: req.Standard,
	})
	var got any
	var output, ext string
	if err != nil {
		e, ok := apperr.As(err)
		if !ok {
			t.Fatalf("Process: %v", err)
		}
		got = e.Envelope()
	} else {
		output = res.Output
		ext = format.Extension(res.Report.OutputFormat)
		trimmed := *res
		trimmed.Output, trimmed.AidedOutput = "<want.output"+ext+">", "<aided output>"
		if res.AidedSameAsDelivery {
			trimmed.AidedOutput = "<same as output>"
		}
		got = trimmed
	}
	gotJSON, err := json.MarshalIndent(got, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	gotJSON = append(gotJSON, '\n')
	compareGolden(t, filepath.Join(dir, "want.report.json"), gotJSON)
	if err == nil {
		compareGolden(t, filepath.Join(dir, "want.output"+ext), []byte(output))
	}
}

func compareGolden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -run TestGolden -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs:\n%s", path, firstDiff(string(want), string(got)))
	}
}

// firstDiff shows the first differing line with some context.
func firstDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < max(len(w), len(g)); i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			return fmt.Sprintf("line %d:\n  want: %s\n  got:  %s", i+1, wl, gl)
		}
	}
	return "(no line differs; check trailing bytes)"
}
