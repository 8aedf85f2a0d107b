package fix

import (
	"fmt"
	"slices"

	"github.com/captionqa/captionqa/backend/caption"
)

// Actions recorded in [Change.Action].
const (
	// ActionTrimEnd pulls a cue's end earlier (overlaps, small gaps).
	ActionTrimEnd = "trim_end"
	// ActionExtendEnd moves a cue's end later into the following gap.
	ActionExtendEnd = "extend_end"
	// ActionMoveStart moves a cue's start earlier into the preceding gap.
	ActionMoveStart = "move_start"
	// ActionRemove deletes a cue without visible text.
	ActionRemove = "remove"
	// ActionAddBreak adds a line break inside an over-long line and keeps
	// every other line break.
	ActionAddBreak = "add_break"
	// ActionRewrap breaks a cue's text into new lines.
	ActionRewrap = "rewrap"
	// ActionSplit turns one cue into several.
	ActionSplit = "split"
	// ActionWhitespace trims line ends, drops blank lines and collapses
	// runs of spaces; the words are untouched.
	ActionWhitespace = "whitespace"
	// ActionRepairRange clamps a negative start or an end before the start.
	ActionRepairRange = "repair_range"
	// ActionReorder moves a cue to its place in presentation order.
	ActionReorder = "reorder"
	// ActionClamp brings a cue's position, line or size into the frame.
	ActionClamp = "clamp"
	// ActionResync moves a cue by the offset (and stretches it by the
	// frame-rate ratio) estimated against the speech ([Resync]).
	ActionResync = "resync"
	// ActionSnapStart moves a cue's start onto a shot change.
	ActionSnapStart = "snap_start"
	// ActionSnapEnd moves a cue's end to two frames before a shot change.
	ActionSnapEnd = "snap_end"
)

// Rule codes the fixes address. They mirror the rule catalogue
// (package rules); codeWhitespace is the one code no rule reports:
// whitespace hygiene is repaired silently by the rules' standards but still
// recorded so the report says what changed.
const (
	codeOverlap        = "overlapping_cues"
	codeTooShort       = "duration_too_short"
	codeTooLong        = "duration_too_long"
	codeGap            = "gap_too_small"
	codeEmpty          = "empty_cue"
	codeLineTooLong    = "line_too_long"
	codeTooManyLines   = "too_many_lines"
	codeReadingSpeed   = "reading_speed_high"
	codeInvalidTime    = "invalid_timestamp"
	codeOutOfOrder     = "cues_out_of_order"
	codeWhitespace     = "whitespace"
	codeLineUnbalance  = "line_unbalanced"
	codePosition       = "position_out_of_bounds"
	codeSyncOffset     = "sync_offset"
	codeSyncDrift      = "sync_drift"
	codeShotChangeNear = "shot_change_near"
)

// record appends a change for the input cue src.
func (f *fixer) record(code string, src int, action, format string, args ...any) {
	f.changes = append(f.changes, Change{Code: code, CueIndex: src, Action: action, Message: fmt.Sprintf(format, args...)})
}

// clock is caption.FormatClock, short for messages.
func clock(ms int64) string { return caption.FormatClock(ms) }

// inCueOrder orders changes by cue, keeping each cue's changes in the
// order they were made (phase by phase). A counting sort: a comparison
// sort of hundreds of thousands of changes would cost more than making
// them.
func inCueOrder(changes []Change, cues int) []Change {
	if len(changes) < 2 {
		return changes
	}
	if len(changes) < cues/16 {
		// Few changes: a stable sort costs less than an array per cue.
		slices.SortStableFunc(changes, func(a, b Change) int { return a.CueIndex - b.CueIndex })
		return changes
	}
	next := make([]int, cues+1)
	for _, c := range changes {
		next[c.CueIndex+1]++
	}
	for i := 1; i <= cues; i++ {
		next[i] += next[i-1]
	}
	out := make([]Change, len(changes))
	for _, c := range changes {
		out[next[c.CueIndex]] = c
		next[c.CueIndex]++
	}
	return out
}
