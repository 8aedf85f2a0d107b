package engine

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/caption/format"
	"github.com/captionqa/captionqa/backend/internal/golden"
)

// goldenRequest is a case's request.json.
type goldenRequest struct {
	Preset     string `json:"preset"`
	FixProfile string `json:"fixProfile"`
	Standard   string `json:"standard"`
	From       string `json:"from"`
	Language   string `json:"language"`
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
		if st, err := os.Stat(dir); err != nil || !st.IsDir() || dir == filepath.Join("testdata", "check") {
			continue // testdata/check holds TestStudioPresetChecks' cases
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
	res, procErr := eng.Process(context.Background(), Request{
		Filename: filepath.Base(inputs[0]), Data: data, From: req.From,
		Preset: req.Preset, FixProfile: req.FixProfile, Standard: req.Standard, Language: req.Language,
	})
	var got any
	var output, ext string
	if procErr != nil {
		e, ok := apperr.As(procErr)
		if !ok {
			t.Fatalf("Process: %v", procErr)
		}
		got = e.Envelope()
	} else {
		output = res.Output
		ext = format.Extension(res.Report.OutputFormat)
		sameAsEncodingJSON(t, res)
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
	golden.Compare(t, filepath.Join(dir, "want.report.json"), gotJSON)
	if procErr == nil {
		golden.Compare(t, filepath.Join(dir, "want.output"+ext), []byte(output))
	}
}
