package rules

import (
	"math/rand/v2"
	"testing"

	"github.com/captionqa/captionqa/backend/analysis"
	"github.com/captionqa/captionqa/backend/caption"
)

// heard is an analysis with audio whose speech runs over the given
// [start, end] pairs, in ms.
func heard(segs ...[2]int64) *analysis.Analysis {
	a := &analysis.Analysis{Version: analysis.Version, DurationMs: 3_600_000, Audio: &analysis.Audio{Speech: []analysis.Segment{}}}
	for _, s := range segs {
		a.Audio.Speech = append(a.Audio.Speech, analysis.Segment{StartMs: s[0], EndMs: s[1], Confidence: 0.9})
	}
	return a
}

// film is 24 fps video with shot changes at the given frames.
func film(frames ...int64) *analysis.Analysis {
	rate := analysis.Rational{Num: 24, Den: 1}
	v := &analysis.Video{FrameRate: rate, FrameCount: 100_000}
	for _, f := range frames {
		v.ShotChanges = append(v.ShotChanges, analysis.ShotChange{TimeMs: rate.TimeOf(f), Frame: f, Score: 40})
	}
	return &analysis.Analysis{Version: analysis.Version, DurationMs: 3_600_000, Video: v}
}

// spoken returns 200 cues and speech that matches them within ±30 ms at
// the start, the speech ending up to 60 ms after each cue; the cues are
// then shifted by shift ms and their times multiplied by k first.
func spoken(k float64, shift int64) (*caption.Track, *analysis.Analysis) {
	return spokenBy(5, k, shift)
}

// spokenBy is spoken with another random programme for each seed.
func spokenBy(seed uint64, k float64, shift int64) (*caption.Track, *analysis.Analysis) {
	rng := rand.New(rand.NewPCG(seed, 5))
	var cues []caption.Cue
	var segs [][2]int64
	t := int64(1000)
	for range 200 {
		d := 1000 + rng.Int64N(3000)
		segs = append(segs, [2]int64{t + rng.Int64N(61) - 30, t + d + rng.Int64N(61)})
		s, e := int64(float64(t)*k)+shift, int64(float64(t+d)*k)+shift
		cues = append(cues, cue(s, e, "words"))
		t += d + 300 + rng.Int64N(2000)
	}
	return track(cues...), heard(segs...)
}

func TestMediaRulesNeedMedia(t *testing.T) {
	t.Parallel()
	tr := track(cue(0, 1000, "a"), cue(1040, 2000, "b"))
	video, audio := film(24), heard([2]int64{5000, 9000})
	for _, r := range []Rule{SyncOffset{}, SyncDrift{}, CaptionEarly{}, CaptionLate{}, UncaptionedSpeech{}, CaptionWithoutSpeech{}} {
		for _, m := range []*analysis.Analysis{nil, video} {
			if got := r.Check(tr, Params{Limit: 1, Media: m}); len(got) != 0 {
				t.Errorf("%s without audio: %+v", r.Code(), got)
			}
		}
	}
	for _, m := range []*analysis.Analysis{nil, audio} {
		if got := (ShotChangeNear{}).Check(tr, Params{Limit: 500, Media: m}); len(got) != 0 {
			t.Errorf("shot_change_near without video: %+v", got)
		}
	}
}

func TestSyncOffset(t *testing.T) {
	t.Parallel()
	late, lateMedia := spoken(1, 2500)
	early, earlyMedia := spoken(1, -700)
	inSync, syncMedia := spoken(1, 0)
	drifted, driftMedia := spoken(25/(24000.0/1001), 0)
	_, otherMedia := spokenBy(6, 1, 0)
	runRuleCases(t, SyncOffset{}, []rulecase{
		{name: "late", limit: 100, track: late, media: lateMedia,
			want: []want{{cue: -1, value: -2501, msg: "2501 ms late; move every cue earlier"}}},
		{name: "early", limit: 100, track: early, media: earlyMedia,
			want: []want{{cue: -1, value: 699, msg: "early; move every cue later"}}},
		{name: "within tolerance", limit: 100, track: inSync, media: syncMedia},
		{name: "drift alone is not an offset", limit: 100, track: drifted, media: driftMedia},
		{name: "unrelated speech is not confident", limit: 100, track: late, media: otherMedia},
	})
}

func TestSyncDrift(t *testing.T) {
	t.Parallel()
	drifted, driftMedia := spoken(25/(24000.0/1001), 1200)
	inSync, syncMedia := spoken(1, 3000)
	runRuleCases(t, SyncDrift{}, []rulecase{
		{name: "25 fps captions on 23.976 media", track: drifted, media: driftMedia,
			want: []want{{cue: -1, msg: "stretching by 0.95904 (timed at another frame rate, e.g. 23.976 fps captions on 25 fps media)"}}},
		{name: "offset alone is no drift", track: inSync, media: syncMedia},
	})
}

func TestCaptionEarlyLate(t *testing.T) {
	t.Parallel()
	// Speech at 1 s, 5 s (one long utterance over two cues) and 12 s.
	media := heard([2]int64{1000, 3000}, [2]int64{5000, 9000}, [2]int64{12000, 13000})
	tr := track(
		cue(850, 2900, "early by 150"),
		cue(5080, 7000, "late by 80"),
		cue(7000, 9000, "continues the speech"),
		cue(12400, 13500, "late by 400"),
		cue(30000, 31000, "no speech near"),
	)
	runRuleCases(t, CaptionEarly{}, []rulecase{
		{name: "early", limit: 84, track: tr, media: media,
			want: []want{{cue: 0, value: 150, msg: "cue 1 appears 150 ms before the speech it captions starts at 00:00:01.000"}}},
		{name: "at limit", limit: 150, track: tr, media: media},
		{name: "nearest onset of a cue over no speech", limit: 84, media: media,
			track: track(cue(4200, 4900, "before the speech")),
			want:  []want{{cue: 0, value: 800}}},
	})
	runRuleCases(t, CaptionLate{}, []rulecase{
		{name: "late", limit: 84, track: tr, media: media,
			want: []want{{cue: 3, value: 400, msg: "cue 4 appears 400 ms after"}}},
		{name: "looser limit", limit: 40, track: tr, media: media,
			want: []want{{cue: 1, value: 80}, {cue: 3, value: 400}}},
	})
}

func TestUncaptionedSpeech(t *testing.T) {
	t.Parallel()
	media := heard([2]int64{0, 1000}, [2]int64{2000, 4000}, [2]int64{5000, 5400}, [2]int64{6000, 8000}, [2]int64{20000, 21500})
	runRuleCases(t, UncaptionedSpeech{}, []rulecase{
		{name: "long speech without a cue", limit: 1500, media: media,
			// A long cue covers 0-1 s and 2-4 s; 6-8 s and 20-21.5 s have
			// none; 5-5.4 s is too short.
			track: track(cue(500, 2100, "a"), cue(10000, 12000, "b")),
			want: []want{
				{cue: -1, value: 2000, msg: "speech from 00:00:06.000 to 00:00:08.000 (2000 ms) has no caption"},
				{cue: -1, value: 1500},
			}},
		{name: "every segment overlapped", limit: 1500, media: media,
			track: track(cue(0, 500, "a"), cue(3900, 6100, "b"), cue(21000, 22000, "c"))},
		{name: "cues out of order", limit: 1500, media: heard([2]int64{6000, 8000}),
			track: track(cue(7000, 9000, "b"), cue(0, 500, "a"))},
	})
}

func TestCaptionWithoutSpeech(t *testing.T) {
	t.Parallel()
	media := heard([2]int64{1000, 3000})
	runRuleCases(t, CaptionWithoutSpeech{}, []rulecase{
		{name: "cues over and off speech", media: media,
			track: track(cue(1000, 3000, "Hello."), cue(4000, 5000, "Nobody says this."), cue(2900, 3500, "overlaps the end")),
			want:  []want{{cue: 1, msg: "cue 2 (00:00:04.000–00:00:05.000) is shown over no speech"}}},
		{name: "sound and music labels", media: media,
			track: track(cue(4000, 5000, "[door slams]"), cue(5000, 6000, "(laughs)"), cue(6000, 7000, "♪ la la la ♪"), cue(7000, 8000, "  ")),
		},
		{name: "label with words", media: media,
			track: track(cue(4000, 5000, "[sighs] Fine.")),
			want:  []want{{cue: 0}}},
		{name: "no speech at all", media: heard(),
			track: track(cue(0, 1000, "Hi.")),
			want:  []want{{cue: 0}}},
	})
}

func TestShotChangeNear(t *testing.T) {
	t.Parallel()
	// Cuts at frames 240 (10 s) and 480 (20 s); 12 frames is 500 ms.
	media := film(240, 480)
	ms := func(frame int64) int64 { return analysis.Rational{Num: 24, Den: 1}.TimeOf(frame) }
	runRuleCases(t, ShotChangeNear{}, []rulecase{
		{name: "on the cuts", limit: 500, media: media,
			track: track(cue(ms(240), ms(478), "in on the cut, out 2 frames before"), cue(ms(480), ms(600), "b"))},
		{name: "out on the cut", limit: 500, media: media,
			track: track(cue(ms(200), ms(240), "ends on the cut"))},
		{name: "in 3 frames before a cut", limit: 500, media: media,
			track: track(cue(ms(237), ms(300), "a")),
			want:  []want{{cue: 0, value: 125, msg: "cue 1 starts 3 frames before the shot change at 00:00:10.000 and crosses it"}}},
		{name: "in 5 frames after", limit: 500, media: media,
			track: track(cue(ms(245), ms(300), "a")),
			want:  []want{{cue: 0, value: 208, msg: "starts 5 frames after"}}},
		{name: "out crosses by 4 frames", limit: 500, media: media,
			track: track(cue(ms(200), ms(244), "a")),
			want:  []want{{cue: 0, value: 167, msg: "ends 4 frames after the shot change at 00:00:10.000 and crosses it"}}},
		{name: "out 6 frames before", limit: 500, media: media,
			track: track(cue(ms(100), ms(234), "a")),
			want:  []want{{cue: 0, value: 250, msg: "ends 6 frames before"}}},
		{name: "both times", limit: 500, media: media,
			track: track(cue(ms(243), ms(476), "a")),
			want:  []want{{cue: 0, value: 125, msg: "starts 3 frames after"}, {cue: 0, value: 167, msg: "ends 4 frames before the shot change at 00:00:20.000"}}},
		{name: "outside the window", limit: 500, media: media,
			track: track(cue(ms(253), ms(300), "13 frames after"))},
		{name: "window scales with the rate", limit: 500, media: &analysis.Analysis{Version: analysis.Version, Video: &analysis.Video{
			FrameRate:   analysis.Rational{Num: 30000, Den: 1001},
			ShotChanges: []analysis.ShotChange{{TimeMs: 10010, Frame: 300}},
		}},
			// 14 frames at 29.97 fps (467 ms) is within half a second.
			track: track(cue(analysis.Rational{Num: 30000, Den: 1001}.TimeOf(314), 12000, "a")),
			want:  []want{{cue: 0, value: 467}}},
	})
}

func TestNonSpeech(t *testing.T) {
	t.Parallel()
	for text, want := range map[string]bool{
		"[door slams]":          true,
		"(laughs) [applause]":   true,
		"♪ we will rock you ♪":  true,
		"[MUSIC PLAYING]...":    true,
		"JOHN: Hello.":          false,
		"[sighs] Fine.":         false,
		"":                      false,
		"Fine. (whispers) okay": false,
	} {
		if got := NonSpeech(text); got != want {
			t.Errorf("NonSpeech(%q) = %v, want %v", text, got, want)
		}
	}
}

// TestCaptionLateWholeTrack shifts a whole track 2.5 s late, more than
// its gaps: each cue is still paired with its own speech, not the next.
func TestCaptionLateWholeTrack(t *testing.T) {
	t.Parallel()
	tr, media := spoken(1, 2500)
	p := Params{Limit: 84, Media: media}
	if late, early := (CaptionLate{}).Check(tr, p), (CaptionEarly{}).Check(tr, p); len(late) != len(tr.Cues) || len(early) != 0 {
		t.Errorf("%d late and %d early of %d cues, want every cue late", len(late), len(early), len(tr.Cues))
	}
}
