package sbv

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/captionqa/captionqa/backend/caption"
	"github.com/captionqa/captionqa/backend/internal/golden"
)

// TestCorpusAll reads every .sbv in the corpus: no panic, the invariants
// hold, under a second each.
func TestCorpusAll(t *testing.T) {
	t.Parallel()
	golden.Corpus(t, func(t *testing.T, c golden.Case) {
		tr, diags := golden.MustParse(t, Parse, c.Input)
		checkInvariants(t, tr, diags)
	}, ".sbv")
}

// TestCorpusFiles checks what webvtt-py/MANIFEST.json says about its SBV
// files, and subsrt's sample.sbv against the same captions as SRT.
func TestCorpusFiles(t *testing.T) {
	t.Parallel()
	type cue struct {
		start, end int64
		text       string
	}
	tests := []struct {
		file      string
		cues      int
		wantCodes []string
		want      map[int]cue // by index
	}{
		// webvtt-py rejects it as malformed; we find no cue in it.
		{file: "webvtt-py/tests/subtitles/invalid_format.sbv", wantCodes: []string{caption.CodeMalformedBlock, caption.CodeNoCues}},
		// "a cue without text; file still parses and yields cues". The
		// last cue ends before it starts and is skipped with an error.
		{file: "webvtt-py/tests/subtitles/missing_caption_text.sbv", cues: 4,
			wantCodes: []string{caption.CodeEndBeforeStart},
			want:      map[int]cue{1: {11378, 12305, ""}}},
		// Total length 16 s holds: the skipped last cue (17.484 -> 16.543)
		// does not count, and the one before it ends at 16.234.
		{file: "webvtt-py/tests/subtitles/sample.sbv", cues: 4,
			wantCodes: []string{caption.CodeEndBeforeStart},
			want: map[int]cue{
				1: {11378, 12305, "Caption text #2"},
				2: {13489, 15489, "Caption text #3 (line 1)\nCaption text #3 (line 2)"},
				3: {15489, 16234, "Caption text #4"},
			}},
		{file: "webvtt-py/tests/subtitles/two_captions.sbv", cues: 2, want: map[int]cue{
			0: {378, 11378, "Caption text #1"},
			1: {11378, 12305, "Caption text #2 (line 1)\nCaption text #2 (line 2)"},
		}},
		// No final newline; [br] is a line break.
		{file: "subsrt/test/fixtures/sample.sbv", cues: 5, want: map[int]cue{
			0: {599, 4160, ">> ALICE: Hi, my name is Alice Miller\nand this is John Brown"},
			4: {16700, 21480, "Okay, so we have all the ingredients laid out here"},
		}},
	}
	for _, tt := range tests {
		t.Run(filepath.Base(filepath.Dir(tt.file))+"/"+filepath.Base(tt.file), func(t *testing.T) {
			t.Parallel()
			tr, diags := golden.ParseCorpus(t, Parse, tt.file)
			if len(tr.Cues) != tt.cues {
				t.Fatalf("%d cues, want %d", len(tr.Cues), tt.cues)
			}
			for _, code := range tt.wantCodes {
				found := false
				for _, d := range diags {
					found = found || d.Code == code
				}
				if !found {
					t.Errorf("no %s diagnostic in %+v", code, diags)
				}
			}
			for i, w := range tt.want {
				c := tr.Cues[i]
				if c.StartMs != w.start || c.EndMs != w.end || c.Text != w.text {
					t.Errorf("cue %d: %d-%d %q, want %d-%d %q", i, c.StartMs, c.EndMs, c.Text, w.start, w.end, w.text)
				}
			}
		})
	}
}

// TestCorpusSameAsSRT: subsrt's sample.sbv and sample.srt hold the same
// captions; the SRT puts the [br] line on one line.
func TestCorpusSameAsSRT(t *testing.T) {
	t.Parallel()
	tr, _ := golden.ParseCorpus(t, Parse, "subsrt/test/fixtures/sample.sbv")
	b := golden.ReadCorpus(t, "subsrt/test/fixtures/sample.srt")
	// Read the SRT's times and text by its simple layout, to keep this
	// package independent of the srt package.
	blocks := strings.Split(strings.TrimSpace(string(b)), "\n\n")
	if len(blocks) != len(tr.Cues) {
		t.Fatalf("%d SBV cues, %d SRT blocks", len(tr.Cues), len(blocks))
	}
	for i, blk := range blocks {
		lines := strings.SplitN(blk, "\n", 3)
		times := strings.ReplaceAll(lines[1], ",", ".")
		start, end, _, ok := parseTiming(strings.Replace(times, " --> ", ",", 1))
		c := tr.Cues[i]
		if !ok || c.StartMs != start || c.EndMs != end {
			t.Errorf("cue %d: %d-%d, SRT %q", i, c.StartMs, c.EndMs, lines[1])
		}
		if got := strings.ReplaceAll(c.Text, "\n", " "); got != strings.ReplaceAll(lines[2], "\n", " ") {
			t.Errorf("cue %d: text %q, SRT %q", i, c.Text, lines[2])
		}
	}
}
