package rules

import (
	"testing"

	"github.com/captionqa/captionqa/backend/caption"
)

func TestReaderCode(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in, want string
		ok       bool
	}{
		{caption.CodeEncodingNotUTF8, CodeEncodingNotUTF8, true},
		{caption.CodeCuesOutOfOrder, CodeCuesOutOfOrder, true},
		{caption.CodeInvalidMarkup, CodeInvalidMarkup, true},
		{caption.CodeInvalidTimestamp, CodeInvalidTimestamp, true},
		{caption.CodeEndBeforeStart, CodeInvalidTimestamp, true},
		{caption.CodeMissingWebVTTHeader, CodeMissingWebVTTHeader, true},
		{caption.CodeEmptyInput, "", false},
		{caption.CodeMalformedBlock, "", false},
		{caption.CodeNoCues, "", false},
	}
	for _, tt := range tests {
		got, ok := ReaderCode(tt.in)
		if got != tt.want || ok != tt.ok {
			t.Errorf("ReaderCode(%q) = %q, %v; want %q, %v", tt.in, got, ok, tt.want, tt.ok)
		}
		if ok {
			if _, found := Lookup(got); !found {
				t.Errorf("rule code %q is not in the catalogue", got)
			}
		}
	}
}

// TestReaderRulesFindNothing: rules whose findings come from the reader
// report nothing on a track, even one that would have broken them.
func TestReaderRulesFindNothing(t *testing.T) {
	t.Parallel()
	tr := track(cue(2000, 1000, "backwards"), cue(0, 500, "a"))
	for _, r := range []Rule{CuesOutOfOrder{}, MissingWebVTTHeader{}, EncodingNotUTF8{}} {
		if got := r.Check(tr, Params{}); got != nil {
			t.Errorf("%s: got %v, want nil", r.Code(), got)
		}
	}
}

// TestInvalidTimestamp: the reader skips a cue that ends before it starts;
// the rule reports the ones a track can still hold, ending at or before
// their start.
func TestInvalidTimestamp(t *testing.T) {
	t.Parallel()
	runRuleCases(t, InvalidTimestamp{}, []rulecase{
		{name: "a cue of positive length passes", track: track(cue(1000, 1001, "a"))},
		{name: "zero length", track: track(cue(0, 500, "a"), cue(1000, 1000, "b")),
			want: []want{{cue: 1, msg: "cue ends at 00:00:01.000, not after it starts (00:00:01.000)"}}},
		{name: "backwards", track: track(cue(2000, 1000, "c")), want: []want{{cue: 0}}},
	})
}
