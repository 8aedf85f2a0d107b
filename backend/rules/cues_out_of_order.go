package rules

import "github.com/captionqa/captionqa/backend/caption"

// CuesOutOfOrder is the rule for cues whose start is earlier than a
// previous cue's in the source (WebVTT forbids it; players may drop them).
// The reader has already sorted the cues and reported it, so Check finds
// nothing on a track: its findings are reader diagnostics ([ReaderCode]).
type CuesOutOfOrder struct{}

// Code returns "cues_out_of_order".
func (CuesOutOfOrder) Code() string { return CodeCuesOutOfOrder }

// Unit returns "": the rule has no threshold.
func (CuesOutOfOrder) Unit() string { return "" }

// Check returns nil: a track's cues are always in order.
func (CuesOutOfOrder) Check(*caption.Track, Params) []caption.Diagnostic { return nil }
