package engine

import (
	"fmt"
	"slices"
	"testing"

	"github.com/captionqa/captionqa/backend/caption"
	"github.com/captionqa/captionqa/backend/caption/format"
	"github.com/captionqa/captionqa/backend/fix"
)

func TestReaderRepairs(t *testing.T) {
	t.Parallel()
	cue := func(line int, text string) caption.Cue {
		return caption.Cue{SourceLine: line, Text: text, StartMs: int64(line) * 1000, EndMs: int64(line)*1000 + 500}
	}
	// The source: cues from lines 1, 5 and 9, in time order.
	src := &caption.Track{Cues: []caption.Cue{cue(1, "a"), cue(5, "b"), cue(9, "c")}}
	// Two cues on one line, as a JSON IR written on one line has them.
	oneLine := &caption.Track{Cues: []caption.Cue{cue(1, "a"), {SourceLine: 1, Text: "b", StartMs: 3000, EndMs: 3500}}}
	ttml := &caption.Track{Cues: src.Cues, Source: &caption.Source{Format: format.TTML}}
	diag := func(code string, sev caption.Severity, line int) caption.Diagnostic {
		return caption.Diagnostic{Code: code, Severity: sev, Line: line, Message: "m"}
	}
	dropped := func(line int) []caption.Diagnostic {
		return []caption.Diagnostic{diag(caption.CodeMalformedBlock, caption.SeverityError, line)}
	}
	markup := func(line int) caption.Diagnostic {
		return diag(caption.CodeInvalidMarkup, caption.SeverityWarning, line)
	}
	control := func(cue int) caption.Diagnostic {
		return caption.Diagnostic{Code: CodeControlCharacter, Severity: caption.SeverityWarning, Line: 99, CueIndex: &cue, Message: controlsIn + "text: U+001B"}
	}
	tests := []struct {
		name    string
		src     *caption.Track // nil: src
		out     *caption.Track // nil: the source
		sources []int          // out's cues to src's; nil: the same
		dropped []caption.Diagnostic
		diag    caption.Diagnostic
		format  string
		want    int // the source cue of the one change; fix.FileLevel for the file
		wantNil bool
	}{
		{name: "markup inside a cue's text maps to its cue", diag: markup(7), format: format.VTT, want: 1},
		{name: "a cue's own line", diag: diag(caption.CodeCuesOutOfOrder, caption.SeverityWarning, 9), format: format.SRT, want: 2},
		{name: "a split cue: the cue it came from", out: &caption.Track{Cues: []caption.Cue{cue(1, "a"), cue(5, "b1"), cue(5, "b2"), cue(9, "c")}},
			sources: []int{0, 1, 1, 2}, diag: markup(6), format: format.VTT, want: 1},
		{name: "cues the fixes reordered: still the source cue", out: &caption.Track{Cues: []caption.Cue{cue(5, "b"), cue(1, "a"), cue(9, "c")}},
			sources: []int{1, 0, 2}, diag: markup(2), format: format.VTT, want: 0},
		{name: "a cue the fixes removed: no change", out: &caption.Track{Cues: []caption.Cue{cue(1, "a"), cue(9, "c")}},
			sources: []int{0, 2}, diag: markup(6), format: format.VTT, wantNil: true},
		{name: "before every cue: the file", diag: diag(caption.CodeInvalidTimestamp, caption.SeverityWarning, 0), format: format.SRT, want: fix.FileLevel},
		{name: "a time still invalid in the output: no repair",
			out:  &caption.Track{Cues: []caption.Cue{cue(1, "a"), {SourceLine: 5, Text: "b", StartMs: 0, EndMs: 0}, cue(9, "c")}},
			diag: diag(caption.CodeInvalidTimestamp, caption.SeverityWarning, 5), format: format.SRT, wantNil: true},
		{name: "the header: the file", diag: diag(caption.CodeMissingWebVTTHeader, caption.SeverityWarning, 1), format: format.VTT, want: fix.FileLevel},
		{name: "the encoding: the file", diag: diag(caption.CodeEncodingNotUTF8, caption.SeverityWarning, 0), format: format.SRT, want: fix.FileLevel},
		{name: "dropped content is not repaired", diag: diag(caption.CodeInvalidTimestamp, caption.SeverityError, 5), format: format.SRT, wantNil: true},
		{name: "markup before content the reader dropped: still its cue", dropped: dropped(8), diag: markup(7), format: format.VTT, want: 1},
		{name: "after content the reader dropped: the line may be in it, so the file", dropped: dropped(6), diag: markup(7), format: format.VTT, want: fix.FileLevel},
		{name: "dropped content on the cue's own line: the file", dropped: dropped(5), diag: markup(5), format: format.VTT, want: fix.FileLevel},
		{name: "a line two cues share names neither: the file", src: oneLine, out: oneLine,
			diag: diag(caption.CodeCuesOutOfOrder, caption.SeverityWarning, 1), format: format.SRT, want: fix.FileLevel},
		{name: "control characters: their cue, whatever its line", diag: control(1), format: format.SRT, want: 1},
		{name: "control characters in TTML: still their cue", src: ttml, out: ttml, diag: control(2), format: format.VTT, want: 2},
		{name: "control characters in a cue the fixes removed: no change", out: &caption.Track{Cues: []caption.Cue{cue(1, "a"), cue(9, "c")}},
			sources: []int{0, 2}, diag: control(1), format: format.SRT, wantNil: true},
		{name: "TTML elements nest and share lines, so a line names no paragraph: the file", src: ttml, out: ttml,
			diag: diag(caption.CodeInvalidTimestamp, caption.SeverityWarning, 7), format: format.SRT, want: fix.FileLevel},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s, out := src, tt.out
			if tt.src != nil {
				s = tt.src
			}
			if out == nil {
				out = s
			}
			got := readerRepairs([]caption.Diagnostic{tt.diag}, tt.dropped, s, out, tt.sources, tt.format)
			if tt.wantNil {
				if len(got) != 0 {
					t.Errorf("changes = %+v; want none", got)
				}
				return
			}
			if len(got) != 1 || got[0].CueIndex != tt.want || got[0].Code != tt.diag.Code {
				t.Errorf("changes = %+v; want one %s on cue %d", got, tt.diag.Code, tt.want)
			}
		})
	}
}

// TestRewrittenSays: each way the SRT writer changes text is reported as
// what it is, a look-alike for markup, "--›" for a timing arrow; other
// formats change none.
func TestRewrittenSays(t *testing.T) {
	t.Parallel()
	track := &caption.Track{Cues: []caption.Cue{
		{Text: "<LAUGHING & WHOOPS!>", StartMs: 0, EndMs: 1000},
		{Text: "00:00:01,000 --> 00:00:02,000", StartMs: 1000, EndMs: 2000},
		{Text: "plain 3 < 4", StartMs: 2000, EndMs: 3000},
	}}
	tests := []struct {
		format string
		want   []string // actions by cue, in order
	}{
		{format.SRT, []string{actionRewriteLookalike, actionRewriteArrow}},
		{format.VTT, nil},
		{format.TTML, nil},
		// EBU STL writes all three as they are, on frames already.
		{format.STL, nil},
	}
	for _, tt := range tests {
		var got []string
		for _, c := range rewritten(track, tt.format) {
			got = append(got, c.Action)
			if c.Action == actionRewriteLookalike && c.CueIndex != 0 || c.Action == actionRewriteArrow && c.CueIndex != 1 {
				t.Errorf("%s: %s names cue %d", tt.format, c.Action, c.CueIndex)
			}
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s: actions %v, want %v", tt.format, got, tt.want)
		}
	}
}

// TestRewrittenFitsFormat: what the EBU STL writer changes to fit its
// format is a fit_format change of the cue, and rounding to frames one of
// the file.
func TestRewrittenFitsFormat(t *testing.T) {
	t.Parallel()
	track := &caption.Track{Cues: []caption.Cue{
		{Text: "It costs 5 €", StartMs: 0, EndMs: 1000},
		{Text: "Plain", StartMs: 1000, EndMs: 2010},
	}}
	var got []string
	for _, c := range rewritten(track, format.STL) {
		got = append(got, fmt.Sprintf("%s %d", c.Action, c.CueIndex))
	}
	want := []string{actionFitFormat + " 0", fmt.Sprintf("%s %d", actionFitFormat, fix.FileLevel)}
	if !slices.Equal(got, want) {
		t.Errorf("changes %v, want %v", got, want)
	}
}
