package srt

import (
	"strings"
	"testing"

	"github.com/captionqa/captionqa/backend/caption"
	"github.com/captionqa/captionqa/backend/internal/golden"
)

// TestCorpusAll reads every .srt in the corpus: no panic, the invariants
// hold, under a second each, and what Write makes reads back the same.
func TestCorpusAll(t *testing.T) {
	t.Parallel()
	golden.Corpus(t, func(t *testing.T, c golden.Case) {
		tr, diags := golden.MustParse(t, Parse, c.Input)
		checkInvariants(t, tr, diags)
		assertRoundTrip(t, tr)
	}, ".srt")
}

// TestCorpusEncodings: pysrt's UTF-16 and UTF-32 files hold the same
// captions as its UTF-8 one. Its windows-1252.srt is a different (French)
// file with no UTF-8 twin, so it is only checked to read as Windows-1252.
func TestCorpusEncodings(t *testing.T) {
	t.Parallel()
	want, _ := golden.ParseCorpus(t, Parse, "pysrt/tests/static/bom-utf-8.srt")
	if len(want.Cues) == 0 {
		t.Fatal("bom-utf-8.srt has no cues")
	}
	for _, name := range []string{"bom-utf-16-be.srt", "bom-utf-16-le.srt", "bom-utf-32-le.srt"} {
		got, diags := golden.ParseCorpus(t, Parse, "pysrt/tests/static/"+name)
		assertSameCues(t, want, got)
		for _, d := range diags {
			t.Errorf("%s: unexpected diagnostic %+v", name, d)
		}
	}
	got, diags := golden.ParseCorpus(t, Parse, "pysrt/tests/static/windows-1252.srt")
	if got.Source.Encoding != caption.EncodingWindows1252 || len(got.Cues) == 0 {
		t.Errorf("windows-1252.srt: encoding %q, %d cues", got.Source.Encoding, len(got.Cues))
	}
	if !hasCode(diags, caption.CodeEncodingNotUTF8) {
		t.Error("windows-1252.srt: no encoding_not_utf8 diagnostic")
	}
	if !strings.Contains(got.Cues[0].Text+got.Cues[1].Text, "É") {
		t.Errorf("windows-1252.srt: accented capitals not decoded: %q", got.Cues[1].Text)
	}
}

// TestCorpusAstisub checks the cue times and lines go-astisub's tests
// assert for its SRT inputs.
func TestCorpusAstisub(t *testing.T) {
	t.Parallel()
	checked := 0
	for _, e := range golden.Astisub(t) {
		if !strings.HasSuffix(e.Input, ".srt") || !e.Parses {
			continue
		}
		checked++
		tr, _ := golden.ParseCorpus(t, Parse, "go-astisub/testdata/"+e.Input)
		if len(tr.Cues) != len(e.Cues) {
			t.Errorf("%s: %d cues, want %d", e.Input, len(tr.Cues), len(e.Cues))
			continue
		}
		for i, w := range e.Cues {
			c := tr.Cues[i]
			if c.StartMs != w.StartMs() || c.EndMs != w.EndMs() || c.Text != strings.Join(w.Lines, "\n") {
				t.Errorf("%s cue %d: %d-%d %q, want %v-%v %q", e.Input, i, c.StartMs, c.EndMs, c.Text, w.Start, w.End, w.Lines)
			}
		}
	}
	if checked == 0 {
		t.Error("the manifest lists no SRT inputs")
	}
}

// TestCorpusWebVTTPy checks what webvtt-py/MANIFEST.json says about its SRT
// files. webvtt-py rejects whole files that we read leniently; where we
// deliberately differ, the case says so and checks our behaviour instead.
func TestCorpusWebVTTPy(t *testing.T) {
	t.Parallel()
	tests := []struct {
		file      string
		cues      int
		wantCodes []string // diagnostics that must be present
		check     func(t *testing.T, tr *caption.Track)
	}{
		// webvtt-py rejects these as malformed files; we find no cue in them.
		{file: "invalid_format1.srt", wantCodes: []string{caption.CodeMalformedBlock, caption.CodeNoCues}},
		{file: "invalid_format2.srt", wantCodes: []string{caption.CodeMalformedBlock, caption.CodeNoCues}},
		{file: "invalid_format3.srt", wantCodes: []string{caption.CodeMalformedBlock, caption.CodeNoCues}},
		// Deliberate difference: "some text" above a timing line is read as a
		// (non-numeric) counter, so the file has one cue with no text.
		{file: "invalid_format4.srt", cues: 1, wantCodes: []string{caption.CodeInvalidCounter}},
		// Deliberate difference: webvtt-py rejects the "." before the
		// milliseconds; we read it with a non_standard_syntax note.
		{file: "invalid_timeframe.srt", cues: 5, wantCodes: []string{caption.CodeNonStandardSyntax},
			check: func(t *testing.T, tr *caption.Track) { wantCue(t, tr, 1, 7000, 11890, "Caption text #2") }},
		// Deliberate difference: webvtt-py drops the cue without text (4
		// cues); we keep it with empty text for the rules to report.
		{file: "missing_caption_text.srt", cues: 5,
			check: func(t *testing.T, tr *caption.Track) { wantCue(t, tr, 1, 7000, 11890, "") }},
		// Deliberate difference: webvtt-py rejects the file; we skip the
		// block without a timing line and keep the other four cues.
		{file: "missing_timeframe.srt", cues: 4, wantCodes: []string{caption.CodeMalformedBlock}},
		{file: "one_caption.srt", cues: 1,
			check: func(t *testing.T, tr *caption.Track) { wantCue(t, tr, 0, 500, 7000, "Caption text #1") }},
		{file: "sample.srt", cues: 5, check: func(t *testing.T, tr *caption.Track) {
			wantCue(t, tr, 2, 11890, 16320, "Caption text #3")
			if got := tr.Cues[len(tr.Cues)-1].EndMs / 1000; got != 23 {
				t.Errorf("total length %d s, want 23", got)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			t.Parallel()
			tr, diags := golden.ParseCorpus(t, Parse, "webvtt-py/tests/subtitles/"+tt.file)
			if len(tr.Cues) != tt.cues {
				t.Fatalf("%d cues, want %d", len(tr.Cues), tt.cues)
			}
			for _, code := range tt.wantCodes {
				if !hasCode(diags, code) {
					t.Errorf("no %s diagnostic in %+v", code, diags)
				}
			}
			if tt.check != nil {
				tt.check(t, tr)
			}
		})
	}
}

// TestCorpusOthers checks files whose content is plain to see.
func TestCorpusOthers(t *testing.T) {
	t.Parallel()
	tr, diags := golden.ParseCorpus(t, Parse, "pycaption/examples/example.srt")
	if len(tr.Cues) != 1847 || countSeverity(diags, caption.SeverityError) != 0 {
		t.Errorf("pycaption example.srt: %d cues, %d errors; want 1847, 0", len(tr.Cues), countSeverity(diags, caption.SeverityError))
	}
	tr, _ = golden.ParseCorpus(t, Parse, "ttconv/srt/alignment.srt")
	want := []caption.Placement{{Align: "left"}, {}, {Align: "right"}, {Area: "middle", Align: "left"}, {Area: "middle"},
		{Area: "middle", Align: "right"}, {Area: "top", Align: "left"}, {Area: "top"}, {Area: "top", Align: "right"}}
	if len(tr.Cues) != len(want) {
		t.Fatalf("alignment.srt: %d cues", len(tr.Cues))
	}
	for i, w := range want {
		var got caption.Placement
		if p := tr.Cues[i].Placement; p != nil {
			got = *p
		}
		if got != w || strings.Contains(tr.Cues[i].Text, "{") {
			t.Errorf("alignment.srt cue %d: %+v %q, want %+v", i, got, tr.Cues[i].Text, w)
		}
	}
	tr, _ = golden.ParseCorpus(t, Parse, "pycaption/fixtures/srt/sample_srt.srt")
	if got := tr.Cues[6].Text; got != "<LAUGHING & WHOOPS!>" {
		t.Errorf("sample_srt cue 7 = %q; text in angle brackets that is not a tag must stay", got)
	}
}

func wantCue(t *testing.T, tr *caption.Track, i int, start, end int64, text string) {
	t.Helper()
	if i >= len(tr.Cues) {
		t.Fatalf("no cue %d", i)
	}
	if c := tr.Cues[i]; c.StartMs != start || c.EndMs != end || c.Text != text {
		t.Errorf("cue %d: %d-%d %q, want %d-%d %q", i, c.StartMs, c.EndMs, c.Text, start, end, text)
	}
}

func hasCode(diags []caption.Diagnostic, code string) bool {
	for _, d := range diags {
		if d.Code == code {
			return true
		}
	}
	return false
}

func countSeverity(diags []caption.Diagnostic, sev caption.Severity) int {
	n := 0
	for _, d := range diags {
		if d.Severity == sev {
			n++
		}
	}
	return n
}
