package rules

import (
	"slices"
	"testing"

	"github.com/captionqa/captionqa/backend/caption"
)

func TestCatalogue(t *testing.T) {
	t.Parallel()
	units := []string{"", UnitCPS, UnitChars, UnitLines, UnitMs, UnitWPM}
	rules := Catalogue()
	seen := map[string]bool{}
	for _, r := range rules {
		code := r.Code()
		if code == "" || seen[code] {
			t.Errorf("code %q is empty or repeated", code)
		}
		seen[code] = true
		if !slices.Contains(units, r.Unit()) {
			t.Errorf("%s: unit %q is not one of the documented units %q", code, r.Unit(), units)
		}
		got, ok := Lookup(code)
		if !ok || got.Code() != code {
			t.Errorf("Lookup(%q) = %v, %v", code, got, ok)
		}
	}
	for _, code := range []string{
		"overlapping_cues", "reading_speed_high", "too_many_lines", "strip_styling", "line_too_long",
		"duration_too_short", "duration_too_long", "gap_too_small", "empty_cue", "cues_out_of_order",
		"invalid_markup", "presentation_rate_high", "position_out_of_bounds", "missing_language_tag",
		"line_unbalanced", "invalid_timestamp", "missing_webvtt_header", "encoding_not_utf8",
	} {
		if !seen[code] {
			t.Errorf("catalogue lacks %q", code)
		}
	}
	if _, ok := Lookup("no_such_rule"); ok {
		t.Error("Lookup found an unknown code")
	}
	again := Catalogue()
	for k := range rules {
		if rules[k].Code() != again[k].Code() {
			t.Fatalf("catalogue order differs between calls at %d", k)
		}
	}
}

// TestCatalogueEmptyTrack: every rule copes with a track without cues.
func TestCatalogueEmptyTrack(t *testing.T) {
	t.Parallel()
	tr := &caption.Track{Version: caption.Version, Language: "en", Cues: []caption.Cue{}}
	for _, r := range Catalogue() {
		if got := r.Check(tr, Params{Limit: 1}); len(got) != 0 {
			t.Errorf("%s: got %v on an empty track", r.Code(), got)
		}
	}
}
