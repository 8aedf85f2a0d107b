package rules

import (
	"reflect"
	"testing"

	"github.com/captionqa/captionqa/backend/caption"
)

// TestPerCueText checks the promise of PerCueText: a per-cue-text rule
// finds the same on a track whose times, styling, placement, voices and
// language changed but whose texts did not, and finds on a sub-track of
// some cues what it finds on those cues of the whole track.
func TestPerCueText(t *testing.T) {
	t.Parallel()
	tr := benchTrack(2_000)
	moved := *tr
	moved.Language, moved.FrameRate = "", 25
	moved.Cues = make([]caption.Cue, len(tr.Cues))
	for i, c := range tr.Cues {
		c.StartMs, c.EndMs = c.StartMs*3+int64(i%7)*100, c.StartMs+int64(i%5)*10
		c.Spans, c.Voice, c.Style = nil, "X", "s"
		c.Placement = &caption.Placement{Area: caption.AreaTop}
		moved.Cues[i] = c
	}
	if listed := perCuePromise(t, PerCueText, tr, &moved, "times or styling"); listed != 5 {
		t.Errorf("%d per-cue-text rules; want 5", listed)
	}
}

// TestPerCue checks the promise of PerCue: a per-cue rule finds the same
// on a track whose styling, placement, voices and language changed but
// whose texts and times did not, and finds on a sub-track of
// some cues what it finds on those cues of the whole track.
func TestPerCue(t *testing.T) {
	t.Parallel()
	tr := benchTrack(2_000)
	restyled := *tr
	restyled.Language = ""
	restyled.Cues = make([]caption.Cue, len(tr.Cues))
	for i, c := range tr.Cues {
		c.Spans, c.Voice, c.Style = nil, "X", "s"
		c.Placement = &caption.Placement{Area: caption.AreaTop}
		restyled.Cues[i] = c
	}
	if listed := perCuePromise(t, PerCue, tr, &restyled, "styling or placement"); listed != 9 {
		t.Errorf("%d per-cue rules; want 9", listed)
	}
}

// perCuePromise checks every catalogue rule listed says it judges cues one
// by one: it finds on changed (tr with what the rule must not look at
// changed, as what says) what it finds on tr, and on a sub-track of every
// third cue what it finds on those cues of tr. It returns how many rules
// are listed.
func perCuePromise(t *testing.T, listed func(string) bool, tr, changed *caption.Track, what string) int {
	t.Helper()
	sub := caption.Track{FrameRate: tr.FrameRate}
	var at []int
	for i := 0; i < len(tr.Cues); i += 3 {
		sub.Cues = append(sub.Cues, tr.Cues[i])
		at = append(at, i)
	}
	n := 0
	for _, r := range Catalogue() {
		if !listed(r.Code()) {
			continue
		}
		n++
		p := benchLimits(r.Code())
		whole := r.Check(tr, p)
		if got := r.Check(changed, p); !reflect.DeepEqual(got, whole) {
			t.Errorf("%s: findings change with %s", r.Code(), what)
		}
		var want []caption.Diagnostic
		k := 0
		for _, d := range whole {
			for k < len(at) && at[k] < *d.CueIndex {
				k++
			}
			if k < len(at) && at[k] == *d.CueIndex {
				want = append(want, d)
			}
		}
		got := r.Check(&sub, p)
		for i := range got {
			idx := at[*got[i].CueIndex]
			got[i].CueIndex = &idx
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: findings on a sub-track differ from the whole track's", r.Code())
		}
	}
	return n
}
