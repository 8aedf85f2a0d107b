package preset

import (
	"os"
	"testing"
)

// TestLimitAt: a limit in frames is counted at the given rate and
// rounded down, so a gap of exactly that many frames, its times rounded
// to the millisecond, meets it; a limit in the rule's unit is kept.
func TestLimitAt(t *testing.T) {
	t.Parallel()
	tests := []struct {
		s    RuleSetting
		fps  float64
		want float64
	}{
		{RuleSetting{Frames: 2}, 24000.0 / 1001, 83},
		{RuleSetting{Frames: 2}, 25, 80},
		{RuleSetting{Frames: 2}, 30000.0 / 1001, 66},
		{RuleSetting{Frames: 15}, 29.97, 500},
		{RuleSetting{Limit: 833}, 25, 833},
		{RuleSetting{Limit: 42}, 0, 42},
	}
	for _, tt := range tests {
		if got := tt.s.LimitAt(tt.fps); got != tt.want {
			t.Errorf("%+v at %v fps = %v; want %v", tt.s, tt.fps, got, tt.want)
		}
	}
}

// TestRate: the programme's video rate wins over the caption file's, and
// the preset's own rate is the fallback.
func TestRate(t *testing.T) {
	t.Parallel()
	p := &Preset{FrameRate: 25}
	for _, tt := range []struct{ media, track, want float64 }{
		{29.97, 24, 29.97}, {0, 24, 24}, {0, 0, 25},
	} {
		if got := p.Rate(tt.media, tt.track); got != tt.want {
			t.Errorf("Rate(%v, %v) = %v; want %v", tt.media, tt.track, got, tt.want)
		}
	}
}

// TestStudioFigures checks the figures docs/presets.md gives for the
// delivery-spec presets.
func TestStudioFigures(t *testing.T) {
	t.Parallel()
	s, err := Load(os.DirFS("../../assets/presets"))
	if err != nil {
		t.Fatal(err)
	}
	type fig struct {
		code  string
		limit float64
		at    float64 // the limit in the rule's unit at the preset's rate
	}
	want := map[string][]fig{
		"netflix":       {{"line_too_long", 42, 42}, {"too_many_lines", 2, 2}, {"reading_speed_high", 20, 20}, {"duration_too_short", 833, 833}, {"duration_too_long", 7000, 7000}, {"gap_too_small", 0, 83}, {"shot_change_near", 500, 500}},
		"bbc":           {{"line_too_long", 37, 37}, {"too_many_lines", 3, 3}, {"presentation_rate_high", 180, 180}, {"gap_too_small", 0, 80}},
		"broadcast-scc": {{"line_too_long", 32, 32}, {"too_many_lines", 4, 4}, {"presentation_rate_high", 160, 160}, {"duration_too_short", 2000, 2000}, {"caption_late", 0, 500}},
		"ebu-stl":       {{"line_too_long", 37, 37}, {"too_many_lines", 3, 3}, {"gap_too_small", 0, 80}},
		"amazon":        {{"line_too_long", 42, 42}, {"too_many_lines", 3, 3}, {"reading_speed_high", 17, 17}},
	}
	for id, figs := range want {
		p, err := s.Lookup(id)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range figs {
			st, ok := p.Setting(f.code)
			if !ok || st.Limit != f.limit || st.LimitAt(p.FrameRate) != f.at {
				t.Errorf("%s %s = %+v at %v fps; want limit %v, %v at its rate", id, f.code, st, p.FrameRate, f.limit, f.at)
			}
		}
	}
}
