package scc

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/captionqa/captionqa/backend/caption"
	"github.com/captionqa/captionqa/backend/internal/golden"
)

// The hand-made inputs, each a few SCC lines:
//   - popon: pop-on captions with preamble rows and indents, tab offsets,
//     italics, colour and underline (preamble and mid-row codes), special
//     and extended characters (with their fallbacks), top, middle, centred
//     and right-aligned captions, a code sent three times.
//   - popon_ndf, dropframe: the timing conventions, an hour in without
//     drop-frame, around the minutes drop-frame skips labels in.
//   - rollup: RU2 and RU3 lines that scroll, arrive in two bursts, are
//     corrected with backspace and delete to end of row, move up with a
//     preamble, are erased, and scroll out.
//   - painton: paint-on text shown as it arrives, a row deleted and
//     rewritten, a mid-row colour.
//   - damaged: another header version, bad parity, words that are not hex,
//     frames out of range, a skipped drop-frame label, timecodes going
//     backwards, lines without a readable timecode.
//   - unshown: text loaded and erased unseen, a caption never erased, text
//     loaded at the end of the file.
//   - channels: caption channel 2, text mode, background attributes.
//   - empty: a header and nothing else.
//
// suite is the golden test of the reader: <case>.want.json,
// <case>.want.diag.txt (the diagnostics after the cues' source lines) and
// <case>.out.scc, what Write makes of the cues read.
func suite() golden.Suite {
	return golden.Suite{Inputs: []string{"testdata/*.in.scc"}, Parse: Parse, Check: checkInvariants,
		Diags: ".want.diag.txt", SourceLines: true, Write: Write, Out: ".out.scc"}
}

// TestGolden parses each testdata/<case>.in.scc and compares the IR with
// <case>.want.json, the diagnostics and cue source lines with
// <case>.want.diag.txt, and the writer's output with <case>.out.scc.
func TestGolden(t *testing.T) {
	t.Parallel()
	suite().Run(t)
}

// checkInvariants asserts what every parse result must satisfy.
func checkInvariants(t *testing.T, tr *caption.Track, diags []caption.Diagnostic) {
	t.Helper()
	if tr == nil || tr.Cues == nil {
		t.Fatal("nil track or cues")
	}
	for i, c := range tr.Cues {
		if c.StartMs < 0 || c.EndMs <= c.StartMs {
			t.Errorf("cue %d: times %d-%d", i, c.StartMs, c.EndMs)
		}
		if i > 0 && c.StartMs < tr.Cues[i-1].StartMs {
			t.Errorf("cue %d starts before cue %d", i, i-1)
		}
		if !utf8.ValidString(c.Text) || c.Text == "" || strings.HasSuffix(c.Text, "\n") || strings.ContainsRune(c.Text, '\r') {
			t.Errorf("cue %d: bad text %q", i, c.Text)
		}
		for _, line := range strings.Split(c.Text, "\n") {
			if n := utf8.RuneCountInString(line); n > screenCols || strings.TrimSpace(line) != line || line == "" {
				t.Errorf("cue %d: line %q is not a trimmed row of at most 32 columns", i, line)
			}
		}
		n := utf8.RuneCountInString(c.Text)
		for _, s := range c.Spans {
			if s.Start < 0 || s.Start >= s.End || s.End > n {
				t.Errorf("cue %d: span [%d,%d) outside %d code points", i, s.Start, s.End, n)
			}
		}
		if c.Placement != nil && c.Placement.IsZero() {
			t.Errorf("cue %d: empty placement", i)
		}
		if c.SourceLine < 1 {
			t.Errorf("cue %d: source line %d", i, c.SourceLine)
		}
	}
	golden.CheckDiagnostics(t, diags)
}
