package rules

import "github.com/captionqa/captionqa/backend/caption"

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
