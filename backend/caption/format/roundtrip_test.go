package format

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/captionqa/captionqa/backend/caption"
	"github.com/captionqa/captionqa/backend/caption/scc"
	"github.com/captionqa/captionqa/backend/caption/srt"
	"github.com/captionqa/captionqa/backend/caption/stl"
	"github.com/captionqa/captionqa/backend/internal/corpus"
)

// roundTripFolders are the corpus folders whose inputs must survive every
// writer: go-astisub, pysubs2, subsrt, webvtt-py and pycaption.
var roundTripFolders = []string{"go-astisub", "pysubs2", "subsrt", "webvtt-py", "pycaption"}

// TestCorpusRoundTrip reads each input, writes it with every writer, reads
// the output back and compares the core fields: the same number of cues,
// the same times and the same text. IDs are compared for the IR, which
// keeps them verbatim (SRT renumbers cues by design).
//
// Text is compared as a viewer reads it, with one normalisation for the
// caption formats: a cue cannot hold an empty line in SRT or WebVTT (a
// blank line ends the cue), so writers drop empty lines inside a cue and
// the comparison does too. No caption writer carries a cue without
// visible text, and TTML none without duration ([Delivers]); they are
// left out of the comparison. SRT writes what would read as markup in
// some reader with look-alikes (srt.RewritesMarkup, reported by Changes):
// its output must read back to what srt.Delivered says. SCC fits cues to
// 608 (re-wrapped, split, characters replaced, times on frames and moved
// to load each caption, each change reported by Changes): its output must
// read back to the captions scc.Delivered says it writes, times to the
// millisecond. EBU STL rounds times to frames and replaces characters its
// Latin table lacks (reported by Changes): its output must read back to
// what stl.Delivered says. The IR round trip is exact.
func TestCorpusRoundTrip(t *testing.T) {
	var files []string
	for _, dir := range roundTripFolders {
		files = append(files, corpus.Glob(t, dir, ".srt", ".vtt", ".sbv", ".ass", ".ssa", ".ttml", ".dfxp", ".xml", ".scc", ".stl")...)
	}
	files = append(files, corpus.Glob(t, "ttconv", ".scc", ".stl")...)
	trips := 0
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		_, orig, _, err := Read(filepath.Base(path), "", data)
		if err != nil || len(orig.Cues) == 0 {
			continue // malformed fixtures with nothing to carry over
		}
		for _, w := range Writable() {
			var out bytes.Buffer
			if err := Write(w, &out, orig); err != nil {
				t.Errorf("%s -> %s: write: %v", path, w, err)
				continue
			}
			back, diags, err := Parse(w, bytes.NewReader(out.Bytes()))
			if err != nil {
				t.Errorf("%s -> %s: reparse: %v", path, w, err)
				continue
			}
			trips++
			want := orig
			switch w {
			case SCC:
				want = scc.Delivered(orig)
			case SRT:
				want = srt.Delivered(orig)
			case STL:
				want = stl.Delivered(orig)
			case VTT, TTML, EBUTTD:
				want = shown(orig, w)
			}
			if msg := compareCore(want, back, w); msg != "" {
				t.Errorf("%s -> %s: %s\n(diagnostics on reparse: %+v)", rel(path), w, msg, firstN(diags, 3))
			}
		}
	}
	t.Logf("%d round trips over %d files", trips, len(files))
}

// compareCore returns "" when b keeps a's core fields, or what differs.
func compareCore(a, b *caption.Track, writer string) string {
	if len(a.Cues) != len(b.Cues) {
		return fmt.Sprintf("cue count %d became %d", len(a.Cues), len(b.Cues))
	}
	for i := range a.Cues {
		x, y := a.Cues[i], b.Cues[i]
		if x.StartMs != y.StartMs || x.EndMs != y.EndMs {
			return fmt.Sprintf("cue %d times %d-%d ms became %d-%d ms", i, x.StartMs, x.EndMs, y.StartMs, y.EndMs)
		}
		xt, yt := x.Text, y.Text
		if writer != JSON {
			xt, yt = dropEmptyLines(xt), dropEmptyLines(yt)
		}
		if xt != yt {
			return fmt.Sprintf("cue %d text %q became %q", i, x.Text, y.Text)
		}
		if writer == JSON && x.ID != y.ID {
			return fmt.Sprintf("cue %d id %q became %q", i, x.ID, y.ID)
		}
	}
	return ""
}

// shown returns a copy of t without the cues that format f does not
// deliver ([Delivers]).
func shown(t *caption.Track, f string) *caption.Track {
	out := *t
	out.Cues = nil
	for _, c := range t.Cues {
		if Delivers(f, &c) {
			out.Cues = append(out.Cues, c)
		}
	}
	return &out
}

func dropEmptyLines(s string) string {
	lines := strings.Split(s, "\n")
	out := lines[:0]
	for _, l := range lines {
		if strings.TrimSpace(l) != "" {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

func rel(path string) string {
	if _, after, ok := strings.Cut(filepath.ToSlash(path), "/corpus/"); ok {
		return after
	}
	return path
}

func firstN(d []caption.Diagnostic, n int) []caption.Diagnostic { return d[:min(n, len(d))] }
