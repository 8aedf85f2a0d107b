package rules

import (
	"fmt"

	"github.com/captionqa/captionqa/backend/caption"
)

// InvalidTimestamp is the rule for malformed time stamps and ranges: a
// cue that ends before it starts, or when it starts (end ≤ start).
// Readers skip a cue that ends before it starts and report
// it ([ReaderCode]); a cue of zero length they keep, and Check reports it:
// no player shows it.
type InvalidTimestamp struct{}

// Code returns "invalid_timestamp".
func (InvalidTimestamp) Code() string { return CodeInvalidTimestamp }

// Unit returns "": the rule has no threshold.
func (InvalidTimestamp) Unit() string { return "" }

// Check reports each cue that does not end after it starts.
func (InvalidTimestamp) Check(t *caption.Track, _ Params) []caption.Diagnostic {
	var out []caption.Diagnostic
	for i := range t.Cues {
		c := &t.Cues[i]
		if c.EndMs > c.StartMs {
			continue
		}
		out = append(out, finding(CodeInvalidTimestamp, t, i, fmt.Sprintf(
			"cue ends at %s, not after it starts (%s): no player shows it", caption.FormatClock(c.EndMs), caption.FormatClock(c.StartMs))))
	}
	return out
}
