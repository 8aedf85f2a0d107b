package format

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/captionqa/captionqa/backend/caption"
	"github.com/captionqa/captionqa/backend/internal/corpus"
)

// corpusExtensions are the file names of the eight formats in the corpus.
var corpusExtensions = []string{".srt", ".vtt", ".sbv", ".ass", ".ssa", ".ttml", ".dfxp", ".xml", ".scc", ".stl", ".json"}

// TestCorpusReadsEveryFile reads every corpus file in one of the eight formats
// (IR-shaped .json only; the corpus's expectation files are not captions)
// and checks it returns without a panic, with well-formed output. How
// fast is the benchmarks' business; the readers' fuzz targets and scaling
// checks guard against blow-ups.
func TestCorpusReadsEveryFile(t *testing.T) {
	files := corpus.Glob(t, ".", corpusExtensions...)
	read := 0
	for _, path := range files {
		if strings.HasSuffix(path, ".json") {
			continue // expectation files (MANIFEST, *.expected.json), not IR
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		_, tr, diags, err := Read(filepath.Base(path), "", data)
		read++
		if err != nil {
			t.Errorf("%s: %v", path, err)
			continue
		}
		checkTrack(t, path, tr, diags)
	}
	t.Logf("read %d corpus files", read)
}

// checkTrack asserts the invariants every reader promises.
func checkTrack(t *testing.T, name string, tr *caption.Track, diags []caption.Diagnostic) {
	t.Helper()
	if tr == nil {
		t.Errorf("%s: nil track", name)
		return
	}
	for i, c := range tr.Cues {
		if c.StartMs < 0 || c.EndMs < c.StartMs {
			t.Errorf("%s: cue %d has times %d..%d", name, i, c.StartMs, c.EndMs)
		}
		if i > 0 && c.StartMs < tr.Cues[i-1].StartMs {
			t.Errorf("%s: cue %d is out of order", name, i)
		}
		if strings.HasSuffix(c.Text, "\n") || strings.Contains(c.Text, "\r") {
			t.Errorf("%s: cue %d text %q has a trailing newline or a CR", name, i, c.Text)
		}
		n := len([]rune(c.Text))
		for _, s := range c.Spans {
			if s.Start < 0 || s.End > n || s.Start >= s.End {
				t.Errorf("%s: cue %d span %+v outside text of %d code points", name, i, s, n)
			}
		}
	}
	for _, d := range diags {
		if d.Code == "" || d.Severity == "" || d.Line < 0 || d.Message == "" {
			t.Errorf("%s: incomplete diagnostic %+v", name, d)
		}
	}
}
