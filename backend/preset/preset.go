// Package preset loads the platform presets: for each delivery target, the
// output format, whether styling is stripped, and for each rule its
// threshold and whether it is enforced or only a suggestion. Presets are
// data (assets/presets/*.json); [Load] validates all of them at start-up so
// a broken file stops the program with a message naming it.
package preset

import (
	"errors"

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
}

// Setting returns the setting of rule code and whether the preset checks it.
func (p *Preset) Setting(code string) (RuleSetting, bool) {
	s, ok := p.Rules[code]
	return s, ok
}
