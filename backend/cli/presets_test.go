package cli

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/engine"
)

// strictFile enforces a line length plainSRT's lines pass, on youtube.
const strictFile = `{"base":"youtube","title":"Studio A","output":"vtt","rules":{"line_too_long":{"level":"enforced","limit":5}}}`

// TestProcessPresetFile: process --preset-file checks with the file's
// preset, named for the file; a file that does not check is the API's
// envelope with the bad field; --preset and --preset-file are exclusive.
func TestProcessPresetFile(t *testing.T) {
	t.Parallel()
	clean := writeFile(t, "clean.srt", plainSRT)
	strict := writeFile(t, "studio-a.json", strictFile)
	code, out, errOut := run(t, "", "process", clean, "--preset-file", strict)
	if code != ExitNeedsAttention {
		t.Fatalf("exit = %d; want %d\n%s\n%s", code, ExitNeedsAttention, out, errOut)
	}
	res := decode[engine.Result](t, out)
	if res.Report.Preset != "studio-a" || res.Report.OutputFormat != "vtt" || !strings.HasPrefix(res.Output, "WEBVTT") {
		t.Errorf("report preset %q, output %q; want studio-a's WebVTT", res.Report.Preset, res.Report.OutputFormat)
	}

	dir := filepath.Dir(writeFile(t, "a.srt", plainSRT))
	if code, out, _ := run(t, "", "process", dir, "--preset-file", strict, "--format", "json"); code != ExitNeedsAttention || !strings.Contains(out, "needs_attention") {
		t.Errorf("a folder with the preset file: exit %d\n%s", code, out)
	}

	bad := writeFile(t, "bad.json", `{"base":"youtube","rules":{"line_too_long":{"limit":-3}}}`)
	code, out, _ = run(t, "", "process", clean, "--preset-file", bad)
	env := decode[struct {
		Error apperr.Body `json:"error"`
	}](t, out)
	if code != ExitUsage || env.Error.Code != "bad_request" || env.Error.Details["field"] != "rules.line_too_long.limit" {
		t.Errorf("a bad preset file: exit %d, %+v; want 2 with bad_request on rules.line_too_long.limit", code, env.Error)
	}
	if code, _, errOut := run(t, "", "process", clean, "--preset", "html5", "--preset-file", strict); code != ExitUsage || !strings.Contains(errOut, "one or the other") {
		t.Errorf("--preset with --preset-file: exit %d, %s", code, errOut)
	}
}

// TestPresetCommands: preset set, list, show and delete manage one
// account's presets; a bad file is refused naming its field.
func TestPresetCommands(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := writeFile(t, "studio.json", strictFile)
	bad := writeFile(t, "bad.json", `{"base":"youtube","title":"","output":"ass"}`)
	steps := []struct {
		name     string
		args     []string
		wantCode int
		wantOut  string
		wantErr  string
	}{
		{"account", []string{"account", "create", "--email", "studio@example.com", "--tier", "pro"}, 0, "studio@example.com", ""},
		{"other account", []string{"account", "create", "--email", "other@example.com", "--tier", "pro"}, 0, "other@example.com", ""},
		{"set", []string{"preset", "set", "studio-a", "--email", "studio@example.com", "--file", file}, 0, "Preset studio-a created (base youtube, vtt", ""},
		{"set again", []string{"preset", "set", "studio-a", "--email", "studio@example.com", "--file", file}, 0, "replaced", ""},
		{"set a bad file", []string{"preset", "set", "studio-b", "--email", "studio@example.com", "--file", bad}, 1, "", "output: "},
		{"set a bad file as json", []string{"preset", "set", "studio-b", "--email", "studio@example.com", "--file", bad, "--json"}, 1, `"field": "title"`, ""},
		{"set a built-in", []string{"preset", "set", "YouTube", "--email", "studio@example.com", "--file", file}, 1, "", "built-in"},
		{"list", []string{"preset", "list", "--email", "studio@example.com"}, 0, "Studio A", ""},
		{"list of another account", []string{"preset", "list", "--email", "other@example.com", "--json"}, 0, `"name": "zoom"`, ""},
		{"show", []string{"preset", "show", "studio-a", "--email", "studio@example.com"}, 0, `"limit": 5`, ""},
		{"show from another account", []string{"preset", "show", "studio-a", "--email", "other@example.com"}, 1, "", "not found"},
		{"no email", []string{"preset", "list"}, 2, "", "--email"},
		{"delete", []string{"preset", "delete", "studio-a", "--email", "studio@example.com"}, 0, "deleted", ""},
		{"delete again", []string{"preset", "delete", "studio-a", "--email", "studio@example.com"}, 1, "", "not found"},
	}
	for _, st := range steps {
		code, out, errOut := admin(t, dir, st.args...)
		if code != st.wantCode || !strings.Contains(out, st.wantOut) || !strings.Contains(errOut, st.wantErr) {
			t.Errorf("%s: exit %d; want %d with %q / %q\nstdout: %s\nstderr: %s", st.name, code, st.wantCode, st.wantOut, st.wantErr, out, errOut)
		}
	}
	if _, out, _ := admin(t, dir, "preset", "list", "--email", "other@example.com"); strings.Contains(out, "studio-a") {
		t.Errorf("another account lists studio-a:\n%s", out)
	}
}
