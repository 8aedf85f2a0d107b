package engine

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/captionqa/captionqa/backend/analysis"
	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/caption"
	"github.com/captionqa/captionqa/backend/fix"
	"github.com/captionqa/captionqa/backend/standard"
)

// programme returns an SRT of 80 cues timed lateMs after the speech of
// the analysis it returns, whose 24 fps video cuts 3 frames after the
// speech of cue 10 starts (so its start, once resynced, is near a cut),
// and whose last 3 s of speech no cue captions.
func programme(lateMs int64) ([]byte, *analysis.Analysis) {
	rng := rand.New(rand.NewPCG(11, 3))
	rate := analysis.Rational{Num: 24, Den: 1}
	a := &analysis.Analysis{Version: analysis.Version, Audio: &analysis.Audio{},
		Video: &analysis.Video{FrameRate: rate, FrameCount: 1}}
	var srt strings.Builder
	t := int64(4000)
	for i := range 80 {
		d := 1500 + rng.Int64N(2500)
		on := t + rng.Int64N(41) - 20
		a.Audio.Speech = append(a.Audio.Speech, analysis.Segment{StartMs: on, EndMs: t + d + rng.Int64N(41), Confidence: 0.9})
		if i == 10 {
			f := frameAt(rate, t) + 3
			a.Video.ShotChanges = append(a.Video.ShotChanges, analysis.ShotChange{TimeMs: rate.TimeOf(f), Frame: f, Score: 60})
		}
		fmt.Fprintf(&srt, "%d\n%s --> %s\nLine number %d.\n\n", i+1, stamp(t+lateMs), stamp(t+d+lateMs), i+1)
		t += d + 300 + rng.Int64N(1500)
	}
	a.Audio.Speech = append(a.Audio.Speech, analysis.Segment{StartMs: t + 5000, EndMs: t + 8000, Confidence: 0.9})
	a.DurationMs = t + 10000
	a.Video.FrameCount = frameAt(rate, a.DurationMs)
	return []byte(srt.String()), a
}

func stamp(ms int64) string {
	return strings.Replace(caption.FormatClock(ms), ".", ",", 1)
}

func codesOf(ds []caption.Diagnostic) map[string]int {
	m := map[string]int{}
	for _, d := range ds {
		m[d.Code]++
	}
	return m
}

func TestProcessWithMedia(t *testing.T) {
	t.Parallel()
	e := newTestEngine(t)
	data, media := programme(2000)
	ctx := context.Background()

	t.Run("without media the media rules find nothing", func(t *testing.T) {
		t.Parallel()
		res, err := e.Process(ctx, Request{Filename: "a.srt", Data: data, Standard: "fcc-79.1"})
		if err != nil {
			t.Fatal(err)
		}
		for _, code := range []string{"sync_offset", "sync_drift", "caption_early", "caption_late", "uncaptioned_speech", "caption_without_speech", "shot_change_near"} {
			if n := codesOf(res.Report.Diagnostics)[code]; n > 0 {
				t.Errorf("%d %s findings without media", n, code)
			}
		}
		if c := clause(t, res.Report.Standard, "79.1(j)(2)(ii)"); c.Status != standard.StatusNotEvaluated || !strings.Contains(c.Reason, "needs media") {
			t.Errorf("synchronicity = %s (%q), want not_evaluated for needing media", c.Status, c.Reason)
		}
	})

	t.Run("warn-only reports the media findings", func(t *testing.T) {
		t.Parallel()
		res, err := e.Process(ctx, Request{Filename: "a.srt", Data: data, Media: media, Standard: "fcc-79.1"})
		if err != nil {
			t.Fatal(err)
		}
		got := codesOf(res.Report.Diagnostics)
		if got["sync_offset"] != 1 || got["caption_late"] < 70 || got["uncaptioned_speech"] != 1 {
			t.Errorf("diagnostics %v: want sync_offset, caption_late on most cues, uncaptioned_speech", got)
		}
		if s := codesOf(res.Suggestions); s["sync_offset"] != 1 {
			t.Errorf("suggestions %v: want sync_offset (a suggestion in youtube)", s)
		}
		for _, d := range res.Report.Diagnostics {
			if d.Code == "sync_offset" && (*d.Value > -1950 || *d.Value < -2050) {
				t.Errorf("sync_offset value %v, want about -2000", *d.Value)
			}
		}
		if c := clause(t, res.Report.Standard, "79.1(j)(2)(ii)"); c.Status != standard.StatusFail {
			t.Errorf("synchronicity = %s, want fail", c.Status)
		}
		if c := clause(t, res.Report.Standard, "79.1(j)(2)(iii)"); c.Status != standard.StatusFail {
			t.Errorf("completeness = %s, want fail (uncaptioned speech)", c.Status)
		}
	})

	t.Run("resync moves every cue onto the speech", func(t *testing.T) {
		t.Parallel()
		res, err := e.Process(ctx, Request{Filename: "a.srt", Data: data, Media: media, FixProfile: string(fix.Resync), Standard: "fcc-79.1"})
		if err != nil {
			t.Fatal(err)
		}
		resynced := 0
		for _, c := range res.Report.Fixes {
			if c.Action == fix.ActionResync {
				resynced++
			}
		}
		if resynced != 80 {
			t.Errorf("%d cues resynced, want 80", resynced)
		}
		after := codesOf(res.Suggestions)
		if after["sync_offset"] != 0 || after["caption_late"] != 0 || after["caption_early"] != 0 {
			t.Errorf("suggestions after resync %v: want no sync findings", after)
		}
		if !strings.Contains(res.Output, "00:00:03,9") && !strings.Contains(res.Output, "00:00:04,0") {
			t.Errorf("the first cue did not move back to about 4 s:\n%.200s", res.Output)
		}
		if c := clause(t, res.Report.Standard, "79.1(j)(2)(ii)"); c.Status != standard.StatusPass {
			t.Errorf("synchronicity after resync = %s %v, want pass", c.Status, codesOf(c.Findings))
		}
	})

	t.Run("snap-shot-changes moves a start onto the cut", func(t *testing.T) {
		t.Parallel()
		inSync, m := programme(0)
		res, err := e.Process(ctx, Request{Filename: "a.srt", Data: inSync, Media: m, FixProfile: string(fix.SnapShotChanges)})
		if err != nil {
			t.Fatal(err)
		}
		if before := codesOf(res.Report.Diagnostics)["shot_change_near"]; before != 1 {
			t.Errorf("%d shot_change_near on the source, want 1", before)
		}
		var snapped []fix.Change
		for _, c := range res.Report.Fixes {
			if c.Action == fix.ActionSnapStart || c.Action == fix.ActionSnapEnd {
				snapped = append(snapped, c)
			}
		}
		if len(snapped) != 1 || snapped[0].CueIndex != 10 || snapped[0].Action != fix.ActionSnapStart {
			t.Errorf("snaps %+v: want cue 10's start", snapped)
		}
		if after := codesOf(res.Suggestions)["shot_change_near"]; after != 0 {
			t.Errorf("%d shot_change_near left on the delivery", after)
		}
	})

	t.Run("a bad analysis is refused", func(t *testing.T) {
		t.Parallel()
		bad := *media
		bad.Version = 0
		_, err := e.Process(ctx, Request{Filename: "a.srt", Data: data, Media: &bad})
		if apperr.KindOf(err) != apperr.BadRequest || !strings.Contains(err.Error(), "media") {
			t.Errorf("err = %v, want bad_request naming media", err)
		}
	})
}

// frameAt is the frame showing at t ms at rate.
func frameAt(rate analysis.Rational, t int64) int64 {
	return int64(float64(t) * float64(rate.Num) / (1000 * float64(rate.Den)))
}
