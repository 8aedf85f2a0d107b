package rules

import "github.com/captionqa/captionqa/backend/caption"

// ReaderCode maps a reader diagnostic code to the rule code whose finding
// it is (readers see these problems, a track no longer shows them): cues_out_of_order, invalid_markup, invalid_timestamp,
// missing_webvtt_header and encoding_not_utf8 map to themselves, and
// end_before_start maps to invalid_timestamp, whose catalogue entry covers
// "end ≤ start" (rules-reference 7.1). Every code it returns is in the
// [Catalogue], so [Lookup] finds the rule a promoted finding belongs to.
func ReaderCode(code string) (string, bool) {
	switch code {
	case caption.CodeCuesOutOfOrder, caption.CodeInvalidMarkup, caption.CodeInvalidTimestamp,
		caption.CodeMissingWebVTTHeader, caption.CodeEncodingNotUTF8:
		return code, true
	case caption.CodeEndBeforeStart:
		return caption.CodeInvalidTimestamp, true
	}
	return "", false
}

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

// MissingWebVTTHeader is the rule for a WebVTT file without "WEBVTT" on
// its first line. Only the reader sees the file's header, so Check finds
// nothing on a track: its findings are reader diagnostics ([ReaderCode]).
type MissingWebVTTHeader struct{}

// Code returns "missing_webvtt_header".
func (MissingWebVTTHeader) Code() string { return CodeMissingWebVTTHeader }

// Unit returns "": the rule has no threshold.
func (MissingWebVTTHeader) Unit() string { return "" }

// Check returns nil: a track has no header.
func (MissingWebVTTHeader) Check(*caption.Track, Params) []caption.Diagnostic { return nil }

// EncodingNotUTF8 is the rule for a file that was not UTF-8 and was
// decoded as Windows-1252. Only the reader sees the bytes, so Check finds
// nothing on a track: its findings are reader diagnostics ([ReaderCode]).
type EncodingNotUTF8 struct{}

// Code returns "encoding_not_utf8".
func (EncodingNotUTF8) Code() string { return CodeEncodingNotUTF8 }

// Unit returns "": the rule has no threshold.
func (EncodingNotUTF8) Unit() string { return "" }

// Check returns nil: a track's text is always UTF-8.
func (EncodingNotUTF8) Check(*caption.Track, Params) []caption.Diagnostic { return nil }
