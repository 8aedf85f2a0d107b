package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/captionqa/captionqa/backend/caption"
)

func run(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = Run(context.Background(), args, Env{Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errb})
	return code, out.String(), errb.String()
}

func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

const sampleSRT = "1\n00:00:01,000 --> 00:00:02,500\n<i>Hello</i> there.\n\n2\n00:00:03,000 --> 00:00:04,000\nBye.\n"

func TestConvert(t *testing.T) {
	t.Parallel()
	srtFile := writeFile(t, "in.srt", sampleSRT)
	tests := []struct {
		name       string
		stdin      string
		args       []string
		wantCode   int
		wantOut    string // substring of stdout
		wantErrSub string // substring of stderr
	}{
		{"srt to vtt", "", []string{"convert", "--to", "vtt", srtFile}, 0, "WEBVTT", ""},
		{"flags after the file", "", []string{"convert", srtFile, "--to", "json"}, 0, `"startMs": 1000`, ""},
		{"default output is vtt", "", []string{"convert", srtFile}, 0, "00:00:01.000 --> 00:00:02.500", ""},
		{"stdin with --from", sampleSRT, []string{"convert", "--from", "srt", "--to", "ttml", "-"}, 0, "<tt ", ""},
		{"stdin detected", "WEBVTT\n\n00:01.000 --> 00:02.000\nhi\n", []string{"convert", "--to", "srt", "-"}, 0, "00:00:01,000 --> 00:00:02,000", ""},
		{"what the output cannot carry is reported", "WEBVTT\n\n00:01.000 --> 00:02.000\n<c.yellow>hi</c>\n", []string{"convert", "--to", "ttml", "-"}, 0, "<tt ",
			`"line":3,"message":"cue 1: left out, as TTML cannot carry it: class"`},
		{"a whole-cue speaker SRT cannot carry is reported", "WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n<v Bob>Hello there.\n", []string{"convert", "--to", "srt", "-"}, 0, "Hello there.",
			`"line":3,"message":"cue 1: left out, as SRT cannot carry it: speaker of the cue"`},
		{"a cue the output does not deliver is reported", "WEBVTT\n\n00:01.000 --> 00:02.000\nhi\n\n00:03.000 --> 00:03.000\nzero\n", []string{"convert", "--to", "ttml", "-"}, 0, "<tt ",
			`"message":"cue 2 was left out: TTML shows no cue without duration"`},
		{"a cue without text is left out of SRT", "WEBVTT\n\n00:01.000 --> 00:02.000\nhi\n\n00:03.000 --> 00:04.000\n&nbsp;\n", []string{"convert", "--to", "srt", "-"}, 0, "1\n00:00:01,000 --> 00:00:02,000\nhi\n\n",
			`"message":"cue 2 was left out: SRT shows no cue without visible text"`},
		{"a cue without text is left out of WebVTT", "1\n00:00:01,000 --> 00:00:02,000\n\n2\n00:00:03,000 --> 00:00:04,000\nhi\n", []string{"convert", "--to", "vtt", "-"}, 0, "WEBVTT\n\n2\n00:00:03.000 --> 00:00:04.000\nhi\n",
			`"message":"cue 1 was left out: WebVTT shows no cue without visible text"`},
		{"text SRT writes with look-alikes is reported", "WEBVTT\n\n00:01.000 --> 00:02.000\n&lt;LAUGHING &amp; WHOOPS!&gt;\n", []string{"convert", "--to", "srt", "-"}, 0, "\u2039LAUGHING & WHOOPS!\u203a",
			`"code":"invalid_markup","severity":"warning","line":3,"cueIndex":0,"message":"cue 1: text would read as markup in SRT players`},
		{"no cues", "WEBVTT\n\nno cues here\n", []string{"convert", "-"}, 1, "", `"code":"no_cues"`},
		{"empty input", "", []string{"convert", "-"}, 1, "", `"code":"empty_input"`},
		{"unknown --to", "", []string{"convert", "--to", "sami", srtFile}, 2, "", "--to"},
		{"read-only --to", "", []string{"convert", "--to", "ass", srtFile}, 2, "", "can be read but not written"},
		{"unknown --from", "", []string{"convert", "--from", "sami", srtFile}, 2, "", "--from"},
		{"missing file", "", []string{"convert", "/nonexistent/x.srt"}, 2, "", "no such file"},
		{"no file", "", []string{"convert"}, 2, "", "exactly one FILE"},
		{"two files", "", []string{"convert", srtFile, srtFile}, 2, "", "exactly one FILE"},
		{"bad flag", "", []string{"convert", "--nope", srtFile}, 2, "", "flag provided but not defined"},
		{"convert help", "", []string{"convert", "--help"}, 0, "", "--to"},
		{"help", "", []string{"--help"}, 0, "convert", ""},
		{"no command", "", nil, 2, "", "Commands:"},
		{"unknown command", "", []string{"frobnicate"}, 2, "", `unknown command "frobnicate"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			code, out, errOut := run(t, tt.stdin, tt.args...)
			if code != tt.wantCode {
				t.Errorf("exit = %d; want %d\nstdout: %s\nstderr: %s", code, tt.wantCode, out, errOut)
			}
			if !strings.Contains(out, tt.wantOut) {
				t.Errorf("stdout %q does not contain %q", out, tt.wantOut)
			}
			if !strings.Contains(errOut, tt.wantErrSub) {
				t.Errorf("stderr %q does not contain %q", errOut, tt.wantErrSub)
			}
		})
	}
}

// TestConvertDiagnosticsAreJSONLines checks every stderr line is a JSON
// diagnostic with a code, a severity and a line.
func TestConvertDiagnosticsAreJSONLines(t *testing.T) {
	t.Parallel()
	in := "1\n00:00:01.000 --> 00:00:02,000\nfirst\n\n3\n00:00:03,000 --> bad\nbroken\n\n4\n00:00:05,000 --> 00:00:06,000\nlast\n"
	code, out, errOut := run(t, in, "convert", "--from", "srt", "--to", "json", "-")
	if code != 0 {
		t.Fatalf("exit = %d; stderr %s", code, errOut)
	}
	var ir caption.Track
	if err := json.Unmarshal([]byte(out), &ir); err != nil || len(ir.Cues) != 2 {
		t.Fatalf("stdout is not an IR with 2 cues: %v\n%s", err, out)
	}
	sc := bufio.NewScanner(strings.NewReader(errOut))
	var codes []string
	for sc.Scan() {
		var d caption.Diagnostic
		// line alone, a pointer: it tells a missing line from line 0.
		var line struct {
			Line *int `json:"line"`
		}
		if err := json.Unmarshal(sc.Bytes(), &d); err != nil || json.Unmarshal(sc.Bytes(), &line) != nil ||
			d.Code == "" || d.Severity == "" || line.Line == nil {
			t.Fatalf("stderr line %q is not a diagnostic: %v", sc.Text(), err)
		}
		codes = append(codes, d.Code)
	}
	if !strings.Contains(strings.Join(codes, ","), "invalid_timestamp") {
		t.Errorf("diagnostics %v lack invalid_timestamp", codes)
	}
}
