package rules

import (
	"math"
	"strconv"

	"github.com/captionqa/captionqa/backend/caption"
)

// finding starts a rule finding for cue i of t: code, cue index, the
// cue's source line and the message. Severity stays empty for the engine.
// It is only called once a cue has failed, so its allocations (the index
// pointer) never touch cues that pass.
func finding(code string, t *caption.Track, i int, msg string) caption.Diagnostic {
	idx := i
	return caption.Diagnostic{Code: code, Line: t.Cues[i].SourceLine, CueIndex: &idx, Message: msg}
}

// measured adds the measured value, the limit it broke and their unit.
func measured(d caption.Diagnostic, value, limit float64, unit string) caption.Diagnostic {
	d.Value, d.Limit, d.Unit = &value, &limit, unit
	return d
}

// withLimit adds only the limit, for findings whose value is not a finite
// number (a rate over zero time), which JSON could not carry.
func withLimit(d caption.Diagnostic, limit float64, unit string) caption.Diagnostic {
	d.Limit, d.Unit = &limit, unit
	return d
}

// num formats a limit the way an editor writes it: 20, 17.5, 833.
func num(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

// round1 rounds to one decimal, the precision rates are reported in.
func round1(v float64) float64 { return math.Round(v*10) / 10 }
