package rules

import "testing"

func TestOverlappingCues(t *testing.T) {
	t.Parallel()
	runRuleCases(t, OverlappingCues{}, []rulecase{
		{name: "no overlap", track: track(cue(0, 1000, "a"), cue(1000, 2000, "b"), cue(2500, 3000, "c"))},
		{name: "neighbours overlap", track: track(cue(0, 1000, "a"), cue(750, 2000, "b")),
			want: []want{{cue: 1, value: 250, msg: "cues 1 and 2 overlap by 250 ms"}}},
		{name: "same start", track: track(cue(0, 1000, "a"), cue(0, 500, "b")),
			want: []want{{cue: 1, value: 500}}},
		{name: "long cue spans two", track: track(cue(0, 5000, "a"), cue(1000, 2000, "b"), cue(3000, 6000, "c")),
			want: []want{{cue: 1, value: 1000, msg: "cues 1 and 2"}, {cue: 2, value: 2000, msg: "cues 1 and 3"}}},
		{name: "zero-length cue inside another", track: track(cue(0, 1000, "a"), cue(500, 500, "b"))},
		{name: "tolerance at limit passes", limit: 40, track: track(cue(0, 1000, "a"), cue(960, 2000, "b"))},
		{name: "tolerance exceeded", limit: 40, track: track(cue(0, 1000, "a"), cue(959, 2000, "b")),
			want: []want{{cue: 1, value: 41}}},
	})
}

func TestDurationTooShort(t *testing.T) {
	t.Parallel()
	runRuleCases(t, DurationTooShort{}, []rulecase{
		{name: "long enough", limit: 833, track: track(cue(0, 2000, "a"))},
		{name: "at limit passes", limit: 833, track: track(cue(0, 833, "a"))},
		{name: "one ms short", limit: 833, track: track(cue(0, 1000, "a"), cue(2000, 2832, "b")),
			want: []want{{cue: 1, value: 832, msg: "832 ms, below the 833 ms minimum"}}},
		{name: "zero duration", limit: 833, track: track(cue(5, 5, "a")),
			want: []want{{cue: 0, value: 0}}},
	})
}

func TestDurationTooLong(t *testing.T) {
	t.Parallel()
	runRuleCases(t, DurationTooLong{}, []rulecase{
		{name: "short enough", limit: 7000, track: track(cue(0, 2000, "a"))},
		{name: "at limit passes", limit: 7000, track: track(cue(0, 7000, "a"))},
		{name: "over", limit: 7000, track: track(cue(0, 1000, "a"), cue(1000, 8001, "b")),
			want: []want{{cue: 1, value: 7001, msg: "above the 7000 ms maximum"}}},
	})
}

func TestGapTooSmall(t *testing.T) {
	t.Parallel()
	runRuleCases(t, GapTooSmall{}, []rulecase{
		{name: "chained cues pass", limit: 84, track: track(cue(0, 1000, "a"), cue(1000, 2000, "b"))},
		{name: "overlap is not a gap", limit: 84, track: track(cue(0, 1000, "a"), cue(900, 2000, "b"))},
		{name: "gap at limit passes", limit: 84, track: track(cue(0, 1000, "a"), cue(1084, 2000, "b"))},
		{name: "large gap passes", limit: 84, track: track(cue(0, 1000, "a"), cue(5000, 6000, "b"))},
		{name: "small gap", limit: 84, track: track(cue(0, 1000, "a"), cue(1083, 2000, "b"), cue(2001, 3000, "c")),
			want: []want{{cue: 0, value: 83, msg: "gap of 83 ms before cue 2"}, {cue: 1, value: 1, msg: "gap of 1 ms before cue 3"}}},
		{name: "single cue", limit: 84, track: track(cue(0, 1000, "a"))},
	})
}
