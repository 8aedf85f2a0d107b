package rules

import (
	"fmt"
	"math"

	"github.com/captionqa/captionqa/backend/caption"
)

// SyncOffset reports a track whose captions sit off the programme's
// speech as a whole: the offset [analysis.EstimateSync] estimates from
// Params.Media's speech, beyond Params.Limit ms either way. It finds
// nothing without an audio analysis, or when the estimate is not
// confident enough to act on ([SyncOf]). The one finding is track-wide;
// Value is the shift in ms the captions need (negative: they are late
// and must move earlier), and the message gives the ratio and the
// confidence. The resync fix applies the shift.
type SyncOffset struct{}

// Code returns "sync_offset".
func (SyncOffset) Code() string { return CodeSyncOffset }

// Unit returns "ms".
func (SyncOffset) Unit() string { return UnitMs }

// Check reports the estimated offset when it exceeds p.Limit.
func (SyncOffset) Check(t *caption.Track, p Params) []caption.Diagnostic {
	s, ok := SyncOf(t, p.Media)
	if !ok || math.Abs(s.OffsetMs) <= p.Limit {
		return nil
	}
	off := math.Round(s.OffsetMs)
	way := "early; move every cue later"
	if off < 0 {
		way = "late; move every cue earlier"
	}
	ratio := ""
	if s.Ratio != 1 {
		ratio = fmt.Sprintf(", after stretching the times by %.5f", s.Ratio)
	}
	msg := fmt.Sprintf("the captions are %s ms %s%s (beyond the %s ms tolerance; confidence %.2f)",
		num(math.Abs(off)), way, ratio, num(p.Limit), s.Confidence)
	return []caption.Diagnostic{measured(caption.Diagnostic{Code: CodeSyncOffset, Message: msg}, off, p.Limit, UnitMs)}
}
