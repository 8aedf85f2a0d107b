package stl

import (
	"slices"
	"strings"
	"testing"

	"github.com/captionqa/captionqa/backend/caption"
	"github.com/captionqa/captionqa/backend/internal/golden"
)

// TestCorpusAll reads every .stl in the corpus: no panic, the invariants
// hold (the IR round-trips through JSON among them). It logs how many
// files, cues and diagnostics of each code it saw.
func TestCorpusAll(t *testing.T) {
	t.Parallel()
	tally := golden.NewTally(t, "EBU STL")
	golden.Corpus(t, func(t *testing.T, c golden.Case) {
		tr, diags := golden.MustParse(t, Parse, c.Input)
		checkInvariants(t, tr, diags)
		tally.Add(tr, diags)
	}, ".stl")
}

// TestCorpusAstisub checks the cue times and lines go-astisub's tests
// assert for its STL input, and what its output file reads to.
func TestCorpusAstisub(t *testing.T) {
	t.Parallel()
	checked := 0
	for _, e := range golden.Astisub(t) {
		if !strings.HasSuffix(e.Input, ".stl") || !e.Parses || e.Cues == nil {
			continue
		}
		checked++
		for _, file := range []string{e.Input, strings.Replace(e.Input, "-in", "-out", 1)} {
			tr, _ := golden.ParseCorpus(t, Parse, "go-astisub/testdata/"+file)
			if len(tr.Cues) != len(e.Cues) {
				t.Errorf("%s: %d cues, want %d", file, len(tr.Cues), len(e.Cues))
				continue
			}
			for i, w := range e.Cues {
				c := tr.Cues[i]
				if c.StartMs != w.StartMs() || c.EndMs != w.EndMs() || c.Text != strings.Join(w.Lines, "\n") {
					t.Errorf("%s cue %d: %d-%d %q, want %v-%v %q", file, i, c.StartMs, c.EndMs, c.Text, w.Start, w.End, w.Lines)
				}
			}
			if tr.Language != "fr" || tr.FrameRate != 25 {
				t.Errorf("%s: language %q at %v fps; the manifest says French at 25", file, tr.Language, tr.FrameRate)
			}
		}
	}
	if checked == 0 {
		t.Error("the manifest lists no STL input")
	}
}

// TestProgrammeStart pins how times relate to TCP, the programme start:
// ttconv's test file has a subtitle before the programme, which is left
// out, and one at TCP, which starts at 0; go-astisub's file with a TCP
// after all its subtitles reads as if TCP were 0 (go-astisub's
// IgnoreTimecodeStartOfProgramme: the first cue at 99 s), with a warning.
func TestProgrammeStart(t *testing.T) {
	t.Parallel()
	tr, diags := golden.ParseCorpus(t, Parse, "ttconv/stl/sandflow/test_tcp_processing.stl")
	if len(tr.Cues) != 1 || tr.Cues[0].StartMs != 0 || tr.Cues[0].EndMs != 1960 || tr.Cues[0].Text != "Start of the program." {
		t.Errorf("test_tcp_processing.stl: %+v", tr.Cues)
	}
	if !slices.ContainsFunc(diags, func(d caption.Diagnostic) bool { return d.Code == caption.CodeContentNotDisplayed && d.Line == 1 }) {
		t.Errorf("the subtitle before the programme is not reported: %+v", diags)
	}
	tr, diags = golden.ParseCorpus(t, Parse, "go-astisub/testdata/example-in-nonzero-offset.stl")
	if len(tr.Cues) != 6 || tr.Cues[0].StartMs != 99_000 {
		t.Errorf("example-in-nonzero-offset.stl: %d cues, the first at %v", len(tr.Cues), tr.Cues)
	}
	if !slices.ContainsFunc(diags, func(d caption.Diagnostic) bool {
		return d.Code == caption.CodeNonStandardSyntax && strings.Contains(d.Message, "TCP")
	}) {
		t.Errorf("ignoring TCP is not reported: %+v", diags)
	}
}

// TestCorpusFiles checks ttconv's files whose content is plain to see.
func TestCorpusFiles(t *testing.T) {
	t.Parallel()
	tests := []struct {
		file string
		want []string // the cues' text
	}{
		{"ttconv/stl/sandflow/multi_tti_subtitle.stl", []string{"Foo Bar Baz"}},
		{"ttconv/stl/sandflow/two_contained_tti.stl", []string{"Subtitle One", "Subtitle Two", "Subtitle Three"}},
		{"ttconv/stl/sandflow/vp20_2_newlines.stl", []string{"This is row 20\nThis is row 22"}},
		{"ttconv/stl/irt/requirement-0061-004_modified.stl", []string{"Some text Some text"}},
		{"go-astisub/testdata/example-opn-in.stl", []string{"Title: Test-OPN\nStory:\nLang: opn\nConfig: 1",
			"TEST ÆæØøÅå\n#123&\"@!?`++?'*$£-§§", "TEST ÆæØøÅå\n#123&\"@!?`++?'*$£-", "TEST ÆæØøÅå\n#123&\"@!?`++?'*$£-", "TEST ÆæØøÅå\n#123&\"@!?`++?'*$£-"}},
	}
	for _, tt := range tests {
		tr, _ := golden.ParseCorpus(t, Parse, tt.file)
		var got []string
		for _, c := range tr.Cues {
			got = append(got, c.Text)
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s: %q, want %q", tt.file, got, tt.want)
		}
	}
}
