package drift

import (
	"testing"

	"github.com/captionqa/captionqa/backend/caption"
)

// FuzzDiff diffs two small tracks made from the input and checks what
// holds for any pair: no panic, a summary that counts the full item list,
// items that each name valid cues of their sides, each cue in at most one
// item, and nothing at all between a track and itself.
func FuzzDiff(f *testing.F) {
	for _, seed := range [][]byte{
		{},
		{6, 0, 20, 1, 10, 20, 2, 0, 20, 1, 10, 20, 2},
		{6, 0, 20, 1, 10, 20, 2, 0, 20, 1, 10, 20, 3},
		{9, 0, 20, 5, 5, 20, 5, 5, 20, 5, 20, 20, 5, 5, 20, 5},
		{6, 0, 40, 0, 0, 20, 4, 0, 20, 6, 0, 20, 7},
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		a, b := fuzzTracks(data)
		r := Diff(a, b, Options{PreviewCap: -1})
		checkItems(t, a, b, r)
		for _, tr := range []*caption.Track{a, b} {
			if self := Diff(tr, tr, Options{}); self.Summary != (Summary{}) || len(self.Preview) != 0 || self.OffsetMs != 0 || self.Truncated {
				t.Fatalf("a track differs from itself: %+v", self)
			}
		}
		capped := Diff(a, b, Options{PreviewCap: 1})
		if capped.Summary != r.Summary || capped.Truncated != (len(r.Preview) > 1) || len(capped.Preview) > 1 {
			t.Fatalf("capped diff %+v disagrees with the full one %+v", capped, r)
		}
	})
}

// fuzzTracks splits data at its first byte into two tracks of at most 40
// cues, three bytes a cue: the pause before it and its duration, in
// tenths of a second, and a text and voice drawn from a small set, so
// that texts repeat, reword one another and overlap in time.
func fuzzTracks(data []byte) (a, b *caption.Track) {
	if len(data) == 0 {
		return fuzzTrack(nil), fuzzTrack(nil)
	}
	cut := 1 + int(data[0])%len(data)
	return fuzzTrack(data[1:cut]), fuzzTrack(data[cut:])
}

func fuzzTrack(p []byte) *caption.Track {
	texts := [...]string{"♪", "Yes.", "Hello there.", "Hello there, friend.", "", "I told you to wait.", "I told you to stay.", "Go."}
	tr := &caption.Track{Version: caption.Version, Cues: []caption.Cue{}}
	var start int64
	for ; len(p) >= 3 && len(tr.Cues) < 40; p = p[3:] {
		start += int64(p[0]) * 100
		c := caption.Cue{StartMs: start, EndMs: start + int64(p[1])*100, Text: texts[p[2]%8]}
		if p[2]&0x40 != 0 {
			c.Voice = "Ann"
		}
		if p[2]&0x80 != 0 {
			c.Spans = []caption.Span{{Start: 0, End: 1, Italic: true}}
		}
		tr.Cues = append(tr.Cues, c)
	}
	return tr
}

// checkItems checks r, an uncapped diff of a against b.
func checkItems(t *testing.T, a, b *caption.Track, r Result) {
	t.Helper()
	var got Summary
	seenA, seenB := map[int]bool{}, map[int]bool{}
	for _, it := range r.Preview {
		hasA, hasB := it.CurrentIndex != nil, it.CandidateIndex != nil
		switch it.Kind {
		case Added:
			got.Added++
		case Removed:
			got.Removed++
		case Changed:
			got.Changed++
		}
		if hasA != (it.Kind != Added) || hasB != (it.Kind != Removed) || (it.Before != nil) != hasA || (it.After != nil) != hasB ||
			(len(it.Fields) > 0) != (it.Kind == Changed) {
			t.Fatalf("item does not fit its kind: %+v", it)
		}
		if hasA {
			i := *it.CurrentIndex
			if i < 0 || i >= len(a.Cues) || seenA[i] || *it.Before != *view(&a.Cues[i]) {
				t.Fatalf("bad or repeated current index in %+v", it)
			}
			seenA[i] = true
		}
		if hasB {
			j := *it.CandidateIndex
			if j < 0 || j >= len(b.Cues) || seenB[j] || *it.After != *view(&b.Cues[j]) {
				t.Fatalf("bad or repeated candidate index in %+v", it)
			}
			seenB[j] = true
		}
	}
	if got != r.Summary || r.Truncated {
		t.Fatalf("summary %+v (truncated %v) but the items count %+v", r.Summary, r.Truncated, got)
	}
	// Cues in no item are matched and unchanged, one for one.
	if len(a.Cues)-got.Removed != len(b.Cues)-got.Added {
		t.Fatalf("%d current cues less %d removed is not %d candidate cues less %d added",
			len(a.Cues), got.Removed, len(b.Cues), got.Added)
	}
}
