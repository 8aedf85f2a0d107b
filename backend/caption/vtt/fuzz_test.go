package vtt

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/captionqa/captionqa/backend/caption"
)

func addSeeds(f *testing.F) {
	f.Helper()
	seeds, _ := filepath.Glob("testdata/*.vtt")
	for _, p := range seeds {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte("WEBVTT\n\n00:00.000 --> 00:01.000 line:0 region:r\n<v a><c.x.y><i><b><u><lang en><ruby>a<rt>b</ruby>&amp;&#x1F600;<00:00.500>"))
}

// FuzzParse checks that Parse never panics and keeps its invariants on any
// input.
func FuzzParse(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		track, diags, err := Parse(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("Parse returned an error for in-memory input: %v", err)
		}
		checkDiagnostics(t, diags)
		for i, c := range track.Cues {
			if c.StartMs < 0 || c.EndMs < 0 {
				t.Errorf("cue %d has a negative time: %d-%d", i, c.StartMs, c.EndMs)
			}
			if c.SourceLine < 1 {
				t.Errorf("cue %d has source line %d", i, c.SourceLine)
			}
			n := len([]rune(c.Text))
			for _, s := range c.Spans {
				if s.Start < 0 || s.End > n || s.Start >= s.End {
					t.Errorf("cue %d span [%d,%d) outside its %d characters", i, s.Start, s.End, n)
				}
			}
		}
	})
}

// FuzzRoundTrip checks that whatever Parse reads, Write produces a file
// that reads back the same.
func FuzzRoundTrip(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		checkRoundTrip(t, data)
	})
}

func checkDiagnostics(t testing.TB, diags []caption.Diagnostic) {
	t.Helper()
	for _, d := range diags {
		switch {
		case d.Code == "":
			t.Errorf("diagnostic without a code: %+v", d)
		case d.Severity != caption.SeverityError && d.Severity != caption.SeverityWarning && d.Severity != caption.SeverityInfo:
			t.Errorf("diagnostic with severity %q: %+v", d.Severity, d)
		case d.Line < 0:
			t.Errorf("diagnostic with line %d: %+v", d.Line, d)
		case d.Message == "":
			t.Errorf("diagnostic without a message: %+v", d)
		}
	}
}
