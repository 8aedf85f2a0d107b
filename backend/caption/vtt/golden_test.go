package vtt

import (
	"fmt"
	"slices"
	"testing"

	"github.com/captionqa/captionqa/backend/caption"
	"github.com/captionqa/captionqa/backend/internal/golden"
)

// suite is the golden test: <case>.want.json, <case>.diags.txt and
// <case>.out.vtt.
func suite() golden.Suite {
	return golden.Suite{Inputs: []string{"testdata/*.in.vtt"}, Parse: Parse,
		Diags: ".diags.txt", Write: Write, Out: ".out.vtt"}
}

// TestGolden parses each testdata/<case>.in.vtt and compares the IR with
// <case>.want.json, the diagnostics with <case>.diags.txt and the writer's
// output with <case>.out.vtt.
func TestGolden(t *testing.T) {
	t.Parallel()
	suite().Run(t)
}

// TestRoundTrip checks that writing a parsed file and parsing it again
// keeps every cue's id, times, text, spans, voice and placement.
func TestRoundTrip(t *testing.T) {
	t.Parallel()
	suite().RunFiles(t, func(t *testing.T, c golden.Case) { checkRoundTrip(t, c.Input) })
}

// checkRoundTrip reports where parse(write(parse(src))) differs from
// parse(src).
func checkRoundTrip(t testing.TB, src []byte) {
	t.Helper()
	trip := golden.RoundTrip(t, Parse, Write, src)
	second, out := trip.Second, trip.Written
	// Write leaves out the cues without visible text.
	first := *trip.First
	first.Cues = slices.DeleteFunc(slices.Clone(first.Cues), func(c caption.Cue) bool { return !Shows(&c) })
	for _, d := range trip.Diags {
		switch d.Code {
		case caption.CodeMissingWebVTTHeader, caption.CodeInvalidTimestamp, caption.CodeMalformedBlock, caption.CodeInvalidSetting:
			t.Errorf("the written file has diagnostic %s on line %d: %s\n%s", d.Code, d.Line, d.Message, out)
		}
	}
	if got, want := len(second.Cues), len(first.Cues); got != want {
		t.Fatalf("round trip: %d cues, want %d\n%s", got, want, out)
	}
	for i := range first.Cues {
		if msg := diffCue(&second.Cues[i], &first.Cues[i]); msg != "" {
			t.Errorf("round trip cue %d: %s\n%s", i, msg, out)
		}
	}
	if got, want := second.Language, first.Language; got != want {
		t.Errorf("round trip language = %q, want %q", got, want)
	}
	if got, want := string(second.Ext[Format]), string(first.Ext[Format]); got != want {
		t.Errorf("round trip track ext = %s, want %s", got, want)
	}
}

func diffCue(got, want *caption.Cue) string {
	switch {
	case got.ID != want.ID:
		return fmt.Sprintf("id %q, want %q", got.ID, want.ID)
	case got.StartMs != want.StartMs || got.EndMs != want.EndMs:
		return fmt.Sprintf("times %d-%d, want %d-%d", got.StartMs, got.EndMs, want.StartMs, want.EndMs)
	case got.Text != want.Text:
		return fmt.Sprintf("text %q, want %q", got.Text, want.Text)
	case got.Voice != want.Voice:
		return fmt.Sprintf("voice %q, want %q", got.Voice, want.Voice)
	case fmt.Sprint(got.Spans) != fmt.Sprint(want.Spans):
		return fmt.Sprintf("spans %v, want %v", got.Spans, want.Spans)
	case placementString(got.Placement) != placementString(want.Placement):
		return fmt.Sprintf("placement %s, want %s", placementString(got.Placement), placementString(want.Placement))
	}
	return ""
}

func placementString(p *caption.Placement) string {
	if p == nil {
		return "<nil>"
	}
	f := func(v *float64) string {
		if v == nil {
			return "auto"
		}
		return fmt.Sprint(*v)
	}
	return fmt.Sprintf("{area:%s align:%s line:%s %s %s pos:%s %s size:%s vertical:%s region:%s}",
		p.Area, p.Align, f(p.Line), p.LineUnit, p.LineAlign, f(p.Position), p.PositionAlign, f(p.Size), p.Vertical, p.Region)
}
