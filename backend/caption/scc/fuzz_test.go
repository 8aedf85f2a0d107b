package scc

import (
	"testing"

	"github.com/captionqa/captionqa/backend/caption"
)

// FuzzParse checks that no input makes Parse panic, that what it gives
// keeps the invariants, and that what Write makes of it reads back to
// what Delivered says.
func FuzzParse(f *testing.F) {
	suite().Fuzz(f, func(t *testing.T, tr *caption.Track, diags []caption.Diagnostic) {
		checkInvariants(t, tr, diags)
		assertDelivered(t, tr)
	})
}

// FuzzWrite builds a track of two cues from the fuzzer's text, times and
// a styled span: Write never fails or panics, every change it reports
// names a cue of the track, and its output always reads back, without an
// error, to what Delivered says.
func FuzzWrite(f *testing.F) {
	f.Add("Hello there\nsecond line", int64(1000), int64(3000), "wörld… € ł ♪ *{x}*", int64(2000), int64(2500), 0, 5, true, "#ff0000", "top", "left")
	f.Add("", int64(0), int64(0), "one\ntwo\nthree\nfour\nfive\nsix", int64(0), int64(90_000), -3, 100, false, "#123456", "middle", "right")
	f.Add("a very long line of text that has to be wrapped somewhere, twice at least", int64(-5), int64(40), "\u200b\t\u00a0😀", int64(30), int64(20), 2, 3, true, "", "", "center")
	f.Fuzz(func(t *testing.T, text1 string, start1, end1 int64, text2 string, start2, end2 int64, from, to int, italic bool, colour, area, align string) {
		tr := &caption.Track{Version: caption.Version, Cues: []caption.Cue{
			{StartMs: start1, EndMs: end1, Text: text1, Spans: []caption.Span{{Start: from, End: to, Italic: italic, Color: colour, Underline: !italic}}},
			{StartMs: start2, EndMs: end2, Text: text2, Placement: &caption.Placement{Area: area, Align: align}},
		}}
		for _, d := range Changes(tr) {
			if d.CueIndex != nil && (*d.CueIndex < 0 || *d.CueIndex >= len(tr.Cues)) || d.Code == "" || d.Message == "" {
				t.Errorf("bad change %+v", d)
			}
		}
		assertDelivered(t, tr)
	})
}
