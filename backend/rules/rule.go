// Package rules holds the QA rule catalogue: one file per rule, each a
// [Rule] that measures a [caption.Track] against one threshold and returns
// findings an editor can act on. Rules only measure; whether a finding
// blocks delivery (enforced) or is a suggestion is the preset's call, and
// repairing it is the fix package's job.
//
// Every rule makes one linear pass over the cues and allocates only for
// the findings it returns. Messages name cues by their 0-based index, the
// same number as [caption.Diagnostic.CueIndex], and lines within a cue
// from 1. Findings a reader has already made (cues out of order, bad
// time stamps, a missing WebVTT header, the text encoding, markup it could
// not parse) are promoted to rule findings by [ReaderCode].
package rules

import (
	"github.com/captionqa/captionqa/backend/analysis"
	"github.com/captionqa/captionqa/backend/caption"
)

// Level says what a broken rule means for delivery.
type Level string

// Levels a preset assigns to a rule.
const (
	// Enforced rules decide the delivery status.
	Enforced Level = "enforced"
	// Suggestion rules are reported in suggestions[] and never block.
	Suggestion Level = "suggestion"
)

// Params is what a rule is checked against.
type Params struct {
	// Limit is the rule's threshold in its [Rule.Unit] (characters, lines,
	// characters per second, milliseconds, words per minute). Rules without
	// a threshold ignore it.
	Limit float64
	// FrameRate is the frame rate used to express frame-based limits; 0
	// means the track's own, else 24 fps.
	FrameRate float64
	// Media is the analysis of the programme the track captions
	// (docs/media-checks.md); nil when there is none. The rules that
	// check against the picture or the sound find nothing without it, or
	// without the part they read (Audio, Video).
	Media *analysis.Analysis
}

// Rule is one check of the catalogue.
type Rule interface {
	// Code is the rule's stable code, as diagnostics and presets name it.
	Code() string
	// Unit names what Params.Limit and each finding's Value measure ("cps",
	// "chars", "lines", "ms", "wpm"), "" for rules without a threshold.
	Unit() string
	// Check returns one finding per problem, in cue order. Each carries the
	// code, the cue index, the cue's source line, a message an editor
	// understands and, for threshold rules, Value and Limit. Severity is
	// left empty: the caller sets it from the rule's level.
	Check(t *caption.Track, p Params) []caption.Diagnostic
}
