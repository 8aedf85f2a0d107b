package engine

import (
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
	diag := func(code string, sev caption.Severity, line int) caption.Diagnostic {
		return caption.Diagnostic{Code: code, Severity: sev, Line: line, Message: "m"}
	}
	tests := []struct {
		name    string
		out     *caption.Track
		sources []int // out's cues to src's; nil: the same
		diag    caption.Diagnostic
		format  string
		want    int // the source cue of the one change; fix.FileLevel for the file
		wantNil bool
	}{
		{"markup inside a cue's text maps to its cue", src, nil, diag(caption.CodeInvalidMarkup, caption.SeverityWarning, 7), format.VTT, 1, false},
		{"a cue's own line", src, nil, diag(caption.CodeCuesOutOfOrder, caption.SeverityWarning, 9), format.SRT, 2, false},
		{"a split cue: the cue it came from", &caption.Track{Cues: []caption.Cue{cue(1, "a"), cue(5, "b1"), cue(5, "b2"), cue(9, "c")}}, []int{0, 1, 1, 2},
			diag(caption.CodeInvalidMarkup, caption.SeverityWarning, 6), format.VTT, 1, false},
		{"cues the fixes reordered: still the source cue", &caption.Track{Cues: []caption.Cue{cue(5, "b"), cue(1, "a"), cue(9, "c")}}, []int{1, 0, 2},
			diag(caption.CodeInvalidMarkup, caption.SeverityWarning, 2), format.VTT, 0, false},
		{"a cue the fixes removed: no change", &caption.Track{Cues: []caption.Cue{cue(1, "a"), cue(9, "c")}}, []int{0, 2},
			diag(caption.CodeInvalidMarkup, caption.SeverityWarning, 6), format.VTT, 0, true},
		{"before every cue: the file", src, nil, diag(caption.CodeInvalidTimestamp, caption.SeverityWarning, 0), format.SRT, fix.FileLevel, false},
		{"a time still invalid in the output: no repair", &caption.Track{Cues: []caption.Cue{cue(1, "a"), {SourceLine: 5, Text: "b", StartMs: 0, EndMs: 0}, cue(9, "c")}}, nil,
			diag(caption.CodeInvalidTimestamp, caption.SeverityWarning, 5), format.SRT, 0, true},
		{"the header: the file", src, nil, diag(caption.CodeMissingWebVTTHeader, caption.SeverityWarning, 1), format.VTT, fix.FileLevel, false},
		{"the encoding: the file", src, nil, diag(caption.CodeEncodingNotUTF8, caption.SeverityWarning, 0), format.SRT, fix.FileLevel, false},
		{"dropped content is not repaired", src, nil, diag(caption.CodeInvalidTimestamp, caption.SeverityError, 5), format.SRT, 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := readerRepairs([]caption.Diagnostic{tt.diag}, src, tt.out, tt.sources, tt.format)
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
