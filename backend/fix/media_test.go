package fix

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/captionqa/captionqa/backend/analysis"
	"github.com/captionqa/captionqa/backend/caption"
)

func TestParseProfileMedia(t *testing.T) {
	t.Parallel()
	for _, want := range []Profile{Resync, SnapShotChanges} {
		if got, err := ParseProfile(string(want)); err != nil || got != want {
			t.Errorf("ParseProfile(%q) = %q, %v", want, got, err)
		}
	}
	if _, err := ParseProfile("resync-all"); err == nil {
		t.Error("ParseProfile(resync-all): want an error")
	}
}

// talk returns 120 cues and speech over each, starting within ±30 ms of
// the cue, the cues then shifted by shift ms after their times were
// multiplied by k.
func talk(k float64, shift int64) ([]caption.Cue, []int64, *analysis.Analysis) {
	rng := rand.New(rand.NewPCG(9, 9))
	a := &analysis.Analysis{Version: analysis.Version, DurationMs: 3_600_000, Audio: &analysis.Audio{}}
	var cues []caption.Cue
	var onsets []int64
	t := int64(5000)
	for i := range 120 {
		d := 1200 + rng.Int64N(3000)
		on := t + rng.Int64N(61) - 30
		a.Audio.Speech = append(a.Audio.Speech, analysis.Segment{StartMs: on, EndMs: t + d + rng.Int64N(61), Confidence: 1})
		onsets = append(onsets, on)
		cues = append(cues, cue(fmt.Sprint(i+1), int64(math.Round(float64(t)*k))+shift, int64(math.Round(float64(t+d)*k))+shift, "Words here."))
		t += d + 400 + rng.Int64N(2000)
	}
	return cues, onsets, a
}

func TestResync(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		k     float64
		shift int64
		code  string
	}{
		{"late by 4 s", 1, 4000, codeSyncOffset},
		{"early by 1.3 s", 1, -1300, codeSyncOffset},
		{"23.976 fps captions on 25 fps media", 25 / (24000.0 / 1001), 700, codeSyncDrift},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			cues, onsets, media := talk(tc.k, tc.shift)
			in := &caption.Track{Version: caption.Version, Cues: cues}
			r := Apply(in, Resync, Targets{Media: media})
			if len(r.Track.Cues) != len(cues) {
				t.Fatalf("%d cues, want %d", len(r.Track.Cues), len(cues))
			}
			for i, c := range r.Track.Cues {
				if d := c.StartMs - onsets[i]; d < -80 || d > 80 {
					t.Errorf("cue %d starts %d ms from its speech after resync", i, d)
				}
			}
			if len(r.Changes) != len(cues) {
				t.Fatalf("%d changes, want one a cue", len(r.Changes))
			}
			for _, ch := range r.Changes {
				if ch.Code != tc.code || ch.Action != ActionResync {
					t.Fatalf("change %+v: want code %s, action %s", ch, tc.code, ActionResync)
				}
			}
			// Resynced, the track needs no more.
			again := Apply(r.Track, Resync, Targets{Media: media})
			if len(again.Changes) != 0 {
				t.Errorf("a second resync changed %d cues: %+v", len(again.Changes), again.Changes[0])
			}
		})
	}
	t.Run("without media it is layout-preserve-breaks", func(t *testing.T) {
		t.Parallel()
		cues, _, media := talk(1, 4000)
		in := &caption.Track{Version: caption.Version, Cues: cues}
		for _, m := range []*analysis.Analysis{nil, {Version: analysis.Version, Video: media.Video}} {
			if r := Apply(in, Resync, Targets{Media: m}); len(r.Changes) != 0 || !equalCues(r.Track.Cues, cues) {
				t.Errorf("media %v: changes %+v", m, r.Changes)
			}
		}
	})
	t.Run("other profiles ignore the media", func(t *testing.T) {
		t.Parallel()
		cues, _, media := talk(1, 4000)
		if r := Apply(&caption.Track{Version: caption.Version, Cues: cues}, AutoSplitCPS, Targets{Media: media}); len(r.Changes) != 0 {
			t.Errorf("auto-split-cps resynced: %+v", r.Changes[0])
		}
	})
}

func equalCues(a, b []caption.Cue) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].StartMs != b[i].StartMs || a[i].EndMs != b[i].EndMs || a[i].Text != b[i].Text {
			return false
		}
	}
	return true
}

func TestSnapShotChanges(t *testing.T) {
	t.Parallel()
	rate := analysis.Rational{Num: 24, Den: 1}
	ms := rate.TimeOf
	cuts := func(frames ...int64) *analysis.Analysis {
		v := &analysis.Video{FrameRate: rate, FrameCount: 100_000}
		for _, f := range frames {
			v.ShotChanges = append(v.ShotChanges, analysis.ShotChange{TimeMs: ms(f), Frame: f, Score: 50})
		}
		return &analysis.Analysis{Version: analysis.Version, Video: v}
	}
	// Cuts at frames 240 (10 s) and 480 (20 s).
	media := cuts(240, 480)
	type span struct{ start, end int64 }
	tests := []struct {
		name    string
		tg      Targets
		in      []span
		want    []span
		actions []string
	}{
		{name: "in-time 3 frames before the cut moves onto it",
			in: []span{{ms(237), ms(300)}}, want: []span{{ms(240), ms(300)}}, actions: []string{ActionSnapStart}},
		{name: "in-time 5 frames after moves back onto it",
			in: []span{{ms(245), ms(300)}}, want: []span{{ms(240), ms(300)}}, actions: []string{ActionSnapStart}},
		{name: "out-time crossing by 4 frames ends 2 frames before",
			in: []span{{ms(180), ms(244)}}, want: []span{{ms(180), ms(238)}}, actions: []string{ActionSnapEnd}},
		{name: "out-time 6 frames before extends to 2 frames before",
			in: []span{{ms(180), ms(234)}}, want: []span{{ms(180), ms(238)}}, actions: []string{ActionSnapEnd}},
		{name: "a pair around a cut: out then in",
			in:      []span{{ms(180), ms(243)}, {ms(245), ms(320)}},
			want:    []span{{ms(180), ms(238)}, {ms(240), ms(320)}},
			actions: []string{ActionSnapEnd, ActionSnapStart}},
		{name: "the out-time waits for the next in-time to reach the cut",
			in:      []span{{ms(180), ms(234)}, {ms(236), ms(320)}},
			want:    []span{{ms(180), ms(238)}, {ms(240), ms(320)}},
			actions: []string{ActionSnapEnd, ActionSnapStart}},
		{name: "never shortened below the minimum duration",
			tg: Targets{MinDurationMs: 1000},
			in: []span{{ms(220), ms(246)}}, want: []span{{ms(220), ms(246)}}},
		{name: "shortened to the minimum duration",
			tg: Targets{MinDurationMs: 1000},
			in: []span{{ms(214), ms(244)}}, want: []span{{ms(214), ms(238)}}, actions: []string{ActionSnapEnd}},
		{name: "a start not moved within two frames of the cue before",
			tg:   Targets{MinDurationMs: 1000},
			in:   []span{{ms(215), ms(239)}, {ms(243), ms(300)}},
			want: []span{{ms(215), ms(239)}, {ms(243), ms(300)}}},
		{name: "the preset's gap when it is more than two frames",
			tg: Targets{MinGapMs: 84},
			in: []span{{ms(180), ms(244)}, {ms(240), ms(300)}}, want: []span{{ms(180), ms(240) - 84}, {ms(240), ms(300)}},
			actions: []string{ActionSnapEnd}},
		{name: "the suggested gap, however the fixes target it",
			tg: Targets{ShotGapMs: 84},
			in: []span{{ms(180), ms(244)}}, want: []span{{ms(180), ms(240) - 84}},
			actions: []string{ActionSnapEnd}},
		{name: "times on the cuts stay",
			in: []span{{ms(240), ms(478)}, {ms(480), ms(600)}}, want: []span{{ms(240), ms(478)}, {ms(480), ms(600)}}},
		{name: "outside the window",
			in: []span{{ms(253), ms(300)}}, want: []span{{ms(253), ms(300)}}},
		{name: "a narrower window",
			tg: Targets{ShotWindowMs: 100},
			in: []span{{ms(237), ms(300)}}, want: []span{{ms(237), ms(300)}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var in []caption.Cue
			for i, s := range tc.in {
				in = append(in, cue(fmt.Sprint(i+1), s.start, s.end, "Text."))
			}
			tg := tc.tg
			tg.Media = media
			r := Apply(&caption.Track{Version: caption.Version, Cues: in}, SnapShotChanges, tg)
			for i, c := range r.Track.Cues {
				if got := (span{c.StartMs, c.EndMs}); got != tc.want[i] {
					t.Errorf("cue %d: %v, want %v", i, got, tc.want[i])
				}
			}
			var actions []string
			for _, ch := range r.Changes {
				if ch.Code != codeShotChangeNear {
					t.Errorf("change %+v: want code %s", ch, codeShotChangeNear)
				}
				actions = append(actions, ch.Action)
			}
			if fmt.Sprint(actions) != fmt.Sprint(tc.actions) {
				t.Errorf("actions %v, want %v (%+v)", actions, tc.actions, r.Changes)
			}
			// Without the video the profile only lays out.
			if r := Apply(&caption.Track{Version: caption.Version, Cues: in}, SnapShotChanges, tc.tg); len(r.Changes) != 0 {
				t.Errorf("without media: %+v", r.Changes)
			}
		})
	}
}
