package rules

import (
	"encoding/json"
	"testing"

	"github.com/captionqa/captionqa/backend/caption"
)

// placed returns a cue with placement pl.
func placed(pl caption.Placement) caption.Cue {
	c := cue(0, 1000, "text")
	c.Placement = &pl
	return c
}

// withRegions adds regions to a track.
func withRegions(t *caption.Track, regions ...caption.Region) *caption.Track {
	t.Regions = regions
	return t
}

// assCue returns a cue with an ASS ext.
func assCue(ext string) caption.Cue {
	c := cue(0, 1000, "text")
	c.Ext = map[string]json.RawMessage{"ass": json.RawMessage(ext)}
	return c
}

// withASSFrame declares an ASS script frame on t.
func withASSFrame(t *caption.Track, ext string) *caption.Track {
	t.Ext = map[string]json.RawMessage{"ass": json.RawMessage(ext)}
	return t
}

func TestPositionOutOfBounds(t *testing.T) {
	t.Parallel()
	pct := caption.LineUnitPercent
	vttDefault := caption.Region{ID: "r", Width: f64(100), Lines: intp(3), AnchorX: f64(0), AnchorY: f64(100), ViewportX: f64(0), ViewportY: f64(100)}
	tall := vttDefault
	tall.ID, tall.Lines = "tall", intp(3)
	tall.ViewportY = f64(10)
	ttml := caption.Region{ID: "t", Width: f64(80), Height: f64(20), AnchorX: f64(0), AnchorY: f64(0), ViewportX: f64(10), ViewportY: f64(80)}
	wide := ttml
	wide.ID, wide.ViewportX = "wide", f64(30)
	runRuleCases(t, PositionOutOfBounds{}, []rulecase{
		{name: "no placement", track: track(cue(0, 1000, "a"))},
		{name: "in frame", track: track(placed(caption.Placement{Line: f64(100), LineUnit: pct, Position: f64(0), Size: f64(100), PositionAlign: "line-left"}))},
		{name: "line numbers unchecked", track: track(placed(caption.Placement{Line: f64(-20), LineUnit: caption.LineUnitLines}))},
		{name: "line percent over", track: track(cue(0, 1000, "a"), placed(caption.Placement{Line: f64(101), LineUnit: pct})),
			want: []want{{cue: 1, msg: "line 101% is outside the frame"}}},
		{name: "line percent negative", track: track(placed(caption.Placement{Line: f64(-5), LineUnit: pct})),
			want: []want{{cue: 0, msg: "line -5%"}}},
		{name: "position over", track: track(placed(caption.Placement{Position: f64(120)})),
			want: []want{{cue: 0, msg: "position 120%"}}},
		{name: "size negative", track: track(placed(caption.Placement{Size: f64(-1)})),
			want: []want{{cue: 0, msg: "size -1%"}}},
		{name: "line-left box fits at edge", track: track(placed(caption.Placement{Position: f64(60), Size: f64(40), PositionAlign: "line-left"}))},
		{name: "line-left box past edge", track: track(placed(caption.Placement{Position: f64(60), Size: f64(50), PositionAlign: "line-left"})),
			want: []want{{cue: 0, msg: "spans 60% to 110%"}}},
		{name: "line-right box past edge", track: track(placed(caption.Placement{Position: f64(30), Size: f64(40), PositionAlign: "line-right"})),
			want: []want{{cue: 0, msg: "spans -10% to 30%"}}},
		{name: "auto from start align", track: track(placed(caption.Placement{Position: f64(70), Size: f64(40), Align: "start"})),
			want: []want{{cue: 0, msg: "line-left"}}},
		{name: "center box fits", track: track(placed(caption.Placement{Position: f64(50), Size: f64(100)}))},
		{name: "center box past edge", track: track(placed(caption.Placement{Position: f64(20), Size: f64(50)})),
			want: []want{{cue: 0, msg: "center"}}},
		{name: "position without size", track: track(placed(caption.Placement{Position: f64(90), PositionAlign: "line-left"}))},
		{name: "unknown region", track: withRegions(track(placed(caption.Placement{Region: "nope"})), vttDefault),
			want: []want{{cue: 0, msg: `region "nope" is not defined`}}},
		{name: "vtt default region fits", track: withRegions(track(placed(caption.Placement{Region: "r"})), vttDefault)},
		{name: "ttml region fits", track: withRegions(track(placed(caption.Placement{Region: "t"})), ttml)},
		{name: "ttml region past right edge", track: withRegions(track(placed(caption.Placement{Region: "wide"}), cue(1000, 2000, "b"), placed(caption.Placement{Region: "wide"})), wide),
			want: []want{{cue: 0, msg: `region "wide" spans 30%–110% across`}, {cue: 2, msg: "wide"}}},
		// Anchored at its bottom (100%) 10% down the frame: 3 lines of 6% reach above the top.
		{name: "vtt region above top", track: withRegions(track(placed(caption.Placement{Region: "tall"})), tall),
			want: []want{{cue: 0, msg: "-8%–10% down"}}},
		{name: "ass pos in frame", track: withASSFrame(track(assCue(`{"pos":[960,1080]}`)), `{"playResX":1920,"playResY":1080}`)},
		{name: "ass without pos", track: withASSFrame(track(assCue(`{"layer":1}`)), `{"playResX":1920,"playResY":1080}`)},
		{name: "ass pos off frame", track: withASSFrame(track(assCue(`{"layer":1}`), assCue(`{"pos":[2000,500]}`)), `{"playResX":1920,"playResY":1080}`),
			want: []want{{cue: 1, msg: `\pos(2000,500) is outside the script's 1920×1080 frame`}}},
		{name: "ass negative y", track: withASSFrame(track(assCue(`{"pos":[10,-3]}`)), `{"playResY":720}`),
			want: []want{{cue: 0, msg: `\pos(10,-3)`}}},
		{name: "ass undeclared axis unchecked", track: withASSFrame(track(assCue(`{"pos":[5000,10]}`)), `{"playResY":720}`)},
		{name: "ass without play res", track: track(assCue(`{"pos":[-100,-100]}`))},
	})
}

func intp(v int) *int { return &v }

func TestStripStyling(t *testing.T) {
	t.Parallel()
	styled := func(c caption.Cue, spans ...caption.Span) caption.Cue {
		c.Spans = spans
		return c
	}
	voiced := cue(0, 1000, "Hi")
	voiced.Voice = "Bob"
	top := placed(caption.Placement{Area: caption.AreaTop})
	runRuleCases(t, StripStyling{}, []rulecase{
		{name: "plain", track: track(cue(0, 1000, "a"))},
		{name: "empty placement", track: track(placed(caption.Placement{}))},
		{name: "italic", track: track(cue(0, 1000, "a"), styled(cue(1000, 2000, "bc"), caption.Span{Start: 0, End: 2, Italic: true})),
			want: []want{{cue: 1, msg: "styling will be removed for this output: italic"}}},
		{name: "several kinds in order", track: track(styled(cue(0, 1000, "abc"),
			caption.Span{End: 1, Color: "#ffff00", Underline: true}, caption.Span{Start: 1, End: 3, Bold: true, Class: "loud"})),
			want: []want{{cue: 0, msg: "bold, underline, colour, class"}}},
		{name: "voice", track: track(voiced), want: []want{{cue: 0, msg: ": voice"}}},
		{name: "placement", track: track(top), want: []want{{cue: 0, msg: ": placement"}}},
		{name: "span language", track: track(styled(cue(0, 1000, "ab"), caption.Span{End: 2, Lang: "fr"})),
			want: []want{{cue: 0, msg: "language"}}},
	})
}

func TestMissingLanguageTag(t *testing.T) {
	t.Parallel()
	blank := track(cue(0, 1000, "a"))
	blank.Language = " "
	none := track()
	none.Language = ""
	und := track(cue(0, 1000, "a"))
	und.Language = "UND"
	runRuleCases(t, MissingLanguageTag{}, []rulecase{
		{name: "undetermined", track: und, want: []want{{cue: -1}}},
		{name: "declared", track: track(cue(0, 1000, "a"))},
		{name: "blank", track: blank, want: []want{{cue: -1, msg: "declares no language"}}},
		{name: "missing on empty track", track: none, want: []want{{cue: -1}}},
	})
}
