package rules

import "github.com/captionqa/captionqa/backend/caption"

// InvalidTimestamp is the rule for malformed time stamps and ranges,
// including a cue that ends before it starts. Readers skip such cues, so
// Check finds nothing on a track: its findings are reader diagnostics ([ReaderCode]).
type InvalidTimestamp struct{}

// Code returns "invalid_timestamp".
func (InvalidTimestamp) Code() string { return CodeInvalidTimestamp }

// Unit returns "": the rule has no threshold.
func (InvalidTimestamp) Unit() string { return "" }

// Check returns nil: the track holds only cues with valid times.
func (InvalidTimestamp) Check(*caption.Track, Params) []caption.Diagnostic { return nil }
