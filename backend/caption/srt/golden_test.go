package srt

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/captionqa/captionqa/backend/caption"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// inputs returns the golden inputs testdata/<case>.in.srt.
func inputs(tb testing.TB) []string {
	tb.Helper()
	files, err := filepath.Glob("testdata/*.in.srt")
	if err != nil || len(files) == 0 {
		tb.Fatalf("no golden inputs: %v", err)
	}
	return files
}

// TestGolden parses each testdata/<case>.in.srt and compares the IR with
// <case>.want.json, the diagnostics and cue source lines with
// <case>.want.diag.txt, and the writer's output with <case>.out.srt.
func TestGolden(t *testing.T) {
	t.Parallel()
	for _, in := range inputs(t) {
		base := strings.TrimSuffix(in, ".in.srt")
		t.Run(filepath.Base(base), func(t *testing.T) {
			t.Parallel()
			tr, diags := mustParseFile(t, in)
			checkInvariants(t, tr, diags)
			var js, out bytes.Buffer
			if err := caption.WriteJSON(&js, tr); err != nil {
				t.Fatal(err)
			}
			if err := Write(&out, tr); err != nil {
				t.Fatal(err)
			}
			compareGolden(t, base+".want.json", js.Bytes())
			compareGolden(t, base+".want.diag.txt", []byte(describe(tr, diags)))
			compareGolden(t, base+".out.srt", out.Bytes())
		})
	}
}

// TestRoundTrip checks that what Write produces reads back to the same
// times, text, spans and placement.
func TestRoundTrip(t *testing.T) {
	t.Parallel()
	for _, in := range inputs(t) {
		t.Run(filepath.Base(in), func(t *testing.T) {
			t.Parallel()
			first, _ := mustParseFile(t, in)
			var out bytes.Buffer
			if err := Write(&out, first); err != nil {
				t.Fatal(err)
			}
			second, diags, err := Parse(&out)
			if err != nil {
				t.Fatal(err)
			}
			assertSameCues(t, first, second)
			for _, d := range diags {
				if d.Severity != caption.SeverityInfo && d.Code != caption.CodeNoCues && d.Code != caption.CodeEmptyInput {
					t.Errorf("written file reads back with %s %s on line %d: %s", d.Severity, d.Code, d.Line, d.Message)
				}
			}
		})
	}
}

func assertSameCues(t *testing.T, want, got *caption.Track) {
	t.Helper()
	if len(got.Cues) != len(want.Cues) {
		t.Fatalf("round trip: %d cues, want %d", len(got.Cues), len(want.Cues))
	}
	for i := range want.Cues {
		w, g := want.Cues[i], got.Cues[i]
		if g.StartMs != w.StartMs || g.EndMs != w.EndMs || g.Text != w.Text {
			t.Errorf("cue %d: got %d-%d %q, want %d-%d %q", i, g.StartMs, g.EndMs, g.Text, w.StartMs, w.EndMs, w.Text)
		}
		if !reflect.DeepEqual(g.Spans, w.Spans) {
			t.Errorf("cue %d spans: got %+v, want %+v", i, g.Spans, w.Spans)
		}
		if !reflect.DeepEqual(g.Placement, w.Placement) {
			t.Errorf("cue %d placement: got %+v, want %+v", i, g.Placement, w.Placement)
		}
	}
}

func mustParseFile(t *testing.T, path string) (*caption.Track, []caption.Diagnostic) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	tr, diags, err := Parse(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	return tr, diags
}

// describe lists the cues' source lines and the diagnostics, one a line.
func describe(tr *caption.Track, diags []caption.Diagnostic) string {
	var sb strings.Builder
	sb.WriteString("source lines:")
	for _, c := range tr.Cues {
		fmt.Fprintf(&sb, " %d", c.SourceLine)
	}
	sb.WriteString("\n")
	for _, d := range diags {
		fmt.Fprintf(&sb, "%d %s %s: %s\n", d.Line, d.Severity, d.Code, d.Message)
	}
	return sb.String()
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
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs (run go test -update after checking):\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}
