package srt

import (
	"reflect"
	"testing"

	"github.com/captionqa/captionqa/backend/caption"
	"github.com/captionqa/captionqa/backend/internal/golden"
)

// suite is the golden test: <case>.want.json, <case>.want.diag.txt (the
// diagnostics after the cues' source lines) and <case>.out.srt.
func suite() golden.Suite {
	return golden.Suite{Inputs: []string{"testdata/*.in.srt"}, Parse: Parse, Check: checkInvariants,
		Diags: ".want.diag.txt", SourceLines: true, Write: Write, Out: ".out.srt"}
}

// TestGolden parses each testdata/<case>.in.srt and compares the IR with
// <case>.want.json, the diagnostics and cue source lines with
// <case>.want.diag.txt, and the writer's output with <case>.out.srt.
func TestGolden(t *testing.T) {
	t.Parallel()
	suite().Run(t)
}

// TestRoundTrip checks that what Write produces reads back to the same
// times, text, spans and placement.
func TestRoundTrip(t *testing.T) {
	t.Parallel()
	suite().RunFiles(t, func(t *testing.T, c golden.Case) {
		first, _ := golden.MustParse(t, Parse, c.Input)
		for _, d := range assertRoundTrip(t, first) {
			if d.Severity != caption.SeverityInfo && d.Code != caption.CodeNoCues && d.Code != caption.CodeEmptyInput {
				t.Errorf("written file reads back with %s %s on line %d: %s", d.Severity, d.Code, d.Line, d.Message)
			}
		}
	})
}

func assertSameCues(t *testing.T, want, got *caption.Track) {
	t.Helper()
	if len(got.Cues) != len(want.Cues) {
		t.Fatalf("round trip: %d cues, want %d", len(got.Cues), len(want.Cues))
	}
	for i := range want.Cues {
		w, g := want.Cues[i], got.Cues[i]
		if g.StartMs != w.StartMs || g.EndMs != w.EndMs || g.Text != w.Text {
			t.Errorf("cue %d: got %d-%d %q, want %d-%d %q", i, g.StartMs, g.EndMs, g.Text, w.StartMs, w.EndMs, w.Text)
		}
		if !reflect.DeepEqual(g.Spans, w.Spans) {
			t.Errorf("cue %d spans: got %+v, want %+v", i, g.Spans, w.Spans)
		}
		if !reflect.DeepEqual(g.Placement, w.Placement) {
			t.Errorf("cue %d placement: got %+v, want %+v", i, g.Placement, w.Placement)
		}
	}
}

// assertRoundTrip checks that what Write makes of tr reads back to the
// same cues, but for what it leaves out or rewrites ([Delivered]), and
// returns the diagnostics of reading it back.
func assertRoundTrip(t *testing.T, tr *caption.Track) []caption.Diagnostic {
	t.Helper()
	again, diags := golden.MustParse(t, Parse, golden.MustWrite(t, Write, tr))
	assertSameCues(t, Delivered(tr), again)
	return diags
}
