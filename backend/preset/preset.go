// Package preset loads the platform presets: for each delivery target, the
// output format, whether styling is stripped, and for each rule its
// threshold and whether it is enforced or only a suggestion. Presets are
// data (assets/presets/*.json); [Load] validates all of them at start-up so
// a broken file stops the program with a message naming it.
package preset

import (
	"errors"
	"math"

	"github.com/captionqa/captionqa/backend/rules"
)

// Default is the preset used when a request names none (docs/cli.md,
// process).
const Default = "youtube"

// ErrUnknownPreset is returned by [Set.Lookup] for a name that is not a
// preset.
var ErrUnknownPreset = errors.New("preset: unknown preset")

// Preset is one delivery target.
type Preset struct {
	ID    string `json:"id"`
	Title string `json:"title"`
	// Output is the delivery format: srt, vtt, ttml, ebu-tt-d, scc, stl or
	// json (outputs).
	Output string `json:"output"`
	// FrameRate is the delivery's nominal frame rate in frames per
	// second, 0 for none: the rate [RuleSetting.Frames] are counted at
	// when neither the programme's video analysis nor the caption file
	// gives one (docs/presets.md, Frame-based limits).
	FrameRate float64 `json:"frameRate,omitempty"`
	// StripStyling removes spans, voices and placement from the delivery,
	// for platforms that show plain text only.
	StripStyling bool `json:"stripStyling"`
	// Rules maps a rule code to its level and threshold. A rule absent
	// from the map is not checked for this preset.
	Rules map[string]RuleSetting `json:"rules"`
	// Notes are platform facts worth telling the producer.
	Notes []string `json:"notes,omitempty"`
	// Departures documents where this preset departs from the defaults
	// the presets share for a rule, and why.
	Departures []string `json:"departures,omitempty"`
}

// RuleSetting is one rule's configuration in a preset.
type RuleSetting struct {
	Level rules.Level `json:"level"`
	// Limit is the threshold in the rule's unit; rules without a unit
	// take none.
	Limit float64 `json:"limit,omitempty"`
	// Frames is the threshold of a millisecond rule counted in frames
	// instead, for specs that count in frames whatever the frame rate
	// (Netflix's 2-frame gap); a setting has Limit or Frames, not both.
	Frames float64 `json:"frames,omitempty"`
}

// LimitAt returns the setting's threshold in the rule's unit at fps frames
// per second: Limit, or Frames turned into milliseconds and rounded down,
// since cue times are frame times rounded to the millisecond and a gap or
// a duration of exactly Frames frames must meet it.
func (s RuleSetting) LimitAt(fps float64) float64 {
	if s.Frames == 0 || fps <= 0 {
		return s.Limit
	}
	return math.Floor(s.Frames * 1000 / fps)
}

// Rate returns the frame rate frame-based limits are counted at: the
// first of media's and track's rates (the programme's video, the caption
// file's declared rate) above 0, else the preset's FrameRate.
func (p *Preset) Rate(media, track float64) float64 {
	for _, r := range []float64{media, track} {
		if r > 0 {
			return r
		}
	}
	return p.FrameRate
}

// Setting returns the setting of rule code and whether the preset checks it.
func (p *Preset) Setting(code string) (RuleSetting, bool) {
	s, ok := p.Rules[code]
	return s, ok
}
