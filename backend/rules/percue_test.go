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
	var sub caption.Track
	var at []int
	for i := 0; i < len(tr.Cues); i += 3 {
		sub.Cues = append(sub.Cues, tr.Cues[i])
		at = append(at, i)
	}
	listed := 0
	for _, r := range Catalogue() {
		if !PerCueText(r.Code()) {
			continue
		}
		listed++
		p := benchLimits(r.Code())
		whole := r.Check(tr, p)
		if got := r.Check(&moved, p); !reflect.DeepEqual(got, whole) {
			t.Errorf("%s: findings change with times or styling", r.Code())
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
	if listed != 5 {
		t.Errorf("%d per-cue-text rules; want 5", listed)
	}
}

// TestPerCue checks the promise of PerCue: a per-cue rule finds the same
// on a track whose styling, placement, voices, language and frame rate
// changed but whose texts and times did not, and finds on a sub-track of
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
	sub := caption.Track{FrameRate: tr.FrameRate}
	var at []int
	for i := 1; i < len(tr.Cues); i += 4 {
		sub.Cues = append(sub.Cues, tr.Cues[i])
		at = append(at, i)
	}
	listed := 0
	for _, r := range Catalogue() {
		if !PerCue(r.Code()) {
			continue
		}
		listed++
		p := benchLimits(r.Code())
		whole := r.Check(tr, p)
		if got := r.Check(&restyled, p); !reflect.DeepEqual(got, whole) {
			t.Errorf("%s: findings change with styling or placement", r.Code())
		}
		var want []caption.Diagnostic
		for _, d := range whole {
			for k, i := range at {
				if i == *d.CueIndex {
					d.CueIndex = &at[k]
					want = append(want, d)
				}
			}
		}
		got := r.Check(&sub, p)
		for i := range got {
			got[i].CueIndex = &at[*got[i].CueIndex]
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: findings on a sub-track differ from the whole track's", r.Code())
		}
	}
	if listed != 9 {
		t.Errorf("%d per-cue rules; want 9", listed)
	}
}
