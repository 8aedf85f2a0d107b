// Package fix repairs what the rules find, under one of the fix profiles
// (docs/cli.md, Fix profiles). Fixes never lose or reorder text: the
// whitespace-normalised text of a track is the same before and after, and
// every change is reported.
package fix

import (
	"errors"
	"fmt"
	"strings"

	"github.com/captionqa/captionqa/backend/analysis"
	"github.com/captionqa/captionqa/backend/caption"
)

// Profile names how far fixes may go.
type Profile string

// The fix profiles: the first four from the most to the least
// conservative, then the two that retime against the programme's analysis
// (docs/media-checks.md), each layout-preserve-breaks with one more step.
const (
	// WarnOnly changes nothing beyond what the output format demands.
	WarnOnly Profile = "warn-only"
	// LayoutPreserveBreaks fixes timing and hygiene, keeps every author
	// line break, may add a break inside an over-long line, never merges or
	// splits cues.
	LayoutPreserveBreaks Profile = "layout-preserve-breaks"
	// AutoSplitSentences adds re-wrapping and splitting cues at sentence,
	// then clause, boundaries, time shared in proportion to characters.
	AutoSplitSentences Profile = "auto-split-sentences"
	// AutoSplitCPS adds borrowing time from the gaps around a cue, then
	// splitting, until each cue meets the reading-speed limit.
	AutoSplitCPS Profile = "auto-split-cps"
	// Resync does what LayoutPreserveBreaks does after first moving every
	// cue by the offset and frame-rate ratio estimated against the
	// speech of [Targets.Media] (see [fixer.resync]).
	Resync Profile = "resync"
	// SnapShotChanges does what LayoutPreserveBreaks does, then moves
	// in- and out-times near a shot change of [Targets.Media] onto it
	// (see [fixer.snapShots]).
	SnapShotChanges Profile = "snap-shot-changes"
)

// ErrUnknownProfile is returned by [ParseProfile] for a name that is not a
// profile.
var ErrUnknownProfile = errors.New("fix: unknown fix profile")

// Profiles lists every profile name.
func Profiles() []Profile {
	return []Profile{WarnOnly, LayoutPreserveBreaks, AutoSplitSentences, AutoSplitCPS, Resync, SnapShotChanges}
}

// ParseProfile returns the profile named s; "" means [WarnOnly]. It returns
// [ErrUnknownProfile] for any other name.
func ParseProfile(s string) (Profile, error) {
	if s == "" {
		return WarnOnly, nil
	}
	for _, p := range Profiles() {
		if string(p) == s {
			return p, nil
		}
	}
	names := make([]string, 0, len(Profiles()))
	for _, p := range Profiles() {
		names = append(names, string(p))
	}
	return "", fmt.Errorf("%w %q (known: %s)", ErrUnknownProfile, s, strings.Join(names, ", "))
}

// Targets are the limits fixes aim for; a zero field is not targeted. The
// engine fills them from the preset's enforced rules for the delivery, and
// from enforced and suggested rules for the aided output.
type Targets struct {
	MaxCharsPerLine int
	MaxLines        int
	MaxCPS          float64
	MinDurationMs   int64
	MaxDurationMs   int64
	MinGapMs        int64
	// Overlaps asks for overlapping cues to be resolved.
	Overlaps bool
	// EmptyCues asks for cues without visible text to be removed.
	EmptyCues bool
	// ClampPlacement asks for cue settings outside the frame
	// (position_out_of_bounds) to be brought into it: Placement.Line in
	// percent, Position and Size clamped to 0..100, and Size shrunk so
	// that the cue box fits the frame as a WebVTT renderer would. Regions
	// and ASS \pos are reported, not moved. Every profile but [WarnOnly]
	// clamps.
	ClampPlacement bool
	// BalanceLines asks for two-line cues the line_unbalanced rule flags
	// (the top line ending in an article, preposition, conjunction or
	// auxiliary, or much longer than the bottom line) to be re-broken.
	// [AutoSplitSentences] and [AutoSplitCPS] re-break them; the other
	// profiles keep author line breaks and report them.
	BalanceLines bool
	// Suggested marks the limits above that are suggestions, not rules
	// the delivery must meet (the engine's aided output aims at both).
	// Where meeting a suggested limit would cost an enforced one, the
	// enforced one wins: a suggested minimum gap or duration gives way to
	// the time an enforced reading speed needs, a suggested minimum
	// duration to the split an enforced line limit needs, a suggested
	// maximum duration to the time an enforced reading speed needs, and a
	// suggested line length to MaxLines (a cue within it gains no line
	// past it to shorten a line, see [Apply]). So
	// the aided output keeps the enforced rules the delivery meets, except
	// in rare splits a suggested limit causes, where rounding can leave a
	// piece a few milliseconds or characters over (TestAidedKeepsEnforced
	// lists the runs it knows).
	Suggested Limit
	// Media is the analysis of the programme the track captions, which
	// [Resync] and [SnapShotChanges] retime against; without it (or
	// without the audio or video part they read) they do what
	// [LayoutPreserveBreaks] does. The other profiles ignore it.
	Media *analysis.Analysis
	// ShotWindowMs is how near a shot change an in- or out-time is moved
	// onto it ([SnapShotChanges]): shot_change_near's limit; 0 is half a
	// second.
	ShotWindowMs float64
	// ShotGapMs is the least gap [SnapShotChanges] leaves between a cue
	// and the cut it ends before, beside two frames and MinGapMs:
	// gap_too_small's limit whatever its level, so that two frames
	// rounded down a millisecond (83 ms at 24 fps) make no gap the preset
	// reports.
	ShotGapMs int64
	// SkipUnfixed leaves [Result.Unfixed] nil, for a caller that checks
	// the fixed track with the rules itself (the engine) and would
	// otherwise pay for the same measurements twice.
	SkipUnfixed bool
}

// Limit is a set of the numeric targets of [Targets], for
// [Targets.Suggested].
type Limit uint8

// The limits a [Limit] set holds.
const (
	LimitMaxCharsPerLine Limit = 1 << iota
	LimitMaxLines
	LimitMaxCPS
	LimitMinDuration
	LimitMaxDuration
	LimitMinGap
)

// FileLevel is the [Change.CueIndex] of a change to the file as a whole.
const FileLevel = -1

// Change is one edit a fix made.
type Change struct {
	// Code is the rule code the change addresses (e.g. reading_speed_high).
	Code string `json:"code"`
	// CueIndex is the index of the cue in the track given to [Apply], or
	// [FileLevel] for a change to the file as a whole (its header, its
	// encoding), which JSON writes without cueIndex.
	CueIndex int `json:"cueIndex"`
	// Action is what was done: one of the Action constants here, or one
	// of the engine's normalisation (strip, repair_markup, ...).
	Action string `json:"action"`
	// Message says what changed in words an editor understands
	// ("split into 2 cues at the sentence end", "end moved from
	// 00:00:05.000 to 00:00:05.400").
	Message string `json:"message"`
}

// Result is what [Apply] returns.
type Result struct {
	// Track is the fixed copy; the input track is never modified.
	Track *caption.Track
	// Changes lists every edit, in cue order.
	Changes []Change
	// Unfixed lists the targeted problems the profile could not repair,
	// as findings with the code, the cue index (of the fixed track), the
	// value and the limit.
	Unfixed []caption.Diagnostic
	// Sources[i] is the index in the input of the cue Track.Cues[i] comes
	// from (the pieces of a split share it); nil when every cue is where
	// it was.
	Sources []int
}
