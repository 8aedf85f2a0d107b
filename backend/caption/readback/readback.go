// Package readback is the harness of the read-back tests: a file
// CaptionQA wrote is read by an independent reader (ffmpeg for SRT,
// WebVTT, ASS and SCC; Chromium's track.cues for WebVTT), and what the
// reader got is compared cue by cue with the track the file was written
// from (docs/development.md, Read-back tests). It is for _test files
// only; production code must not import it.
package readback

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/captionqa/captionqa/backend/caption"
	"github.com/captionqa/captionqa/backend/caption/format"
	"github.com/captionqa/captionqa/backend/caption/scc"
	"github.com/captionqa/captionqa/backend/caption/srt"
	"github.com/captionqa/captionqa/backend/caption/stl"
)

// Inputs returns the corpus files the read-back tests write in every
// format, as paths inside the test corpus (docs/development.md, The test
// corpus): SRT with text in angle brackets, tags and empty cues; TTML
// with styles and regions (which WebVTT writes as STYLE and REGION
// blocks) and the same angle brackets escaped; WebVTT with cue settings,
// regions, voices, classes, text in braces and empty cues; SCC pop-on and
// roll-up; ASS, SBV and EBU STL.
func Inputs() []string {
	return []string{
		"pycaption/fixtures/srt/sample_srt.srt",
		"pycaption/fixtures/srt/sample_srt_blank_lines.srt",
		"pysrt/tests/static/bom-utf-8.srt",
		"pysrt/tests/static/empty.srt",
		"webvtt-py/tests/subtitles/missing_caption_text.srt",
		"go-astisub/testdata/example-in-html-entities.srt",
		"pycaption/fixtures/dfxp/sample_dfxp.ttml",
		"pycaption/fixtures/dfxp/sample_dfxp_from_sami_with_positioning.ttml",
		"imsc-tests/imsc1/ttml/timing/BasicTiming001.ttml",
		"go-astisub/testdata/example-in.ttml",
		"pycaption/fixtures/webvtt/sample_webvtt_from_srt.vtt",
		"webvtt-py/tests/subtitles/sample.vtt",
		"wpt-webvtt/file-parsing/header-regions.vtt",
		"webvtt-py/tests/subtitles/cue_tags.vtt",
		"wpt-webvtt/file-parsing/settings-region.vtt",
		"wpt-webvtt/file-parsing/stylesheets-newlines.vtt",
		"mozilla-vtt.js/file-layout/cue-spacing.vtt",
		"pycaption/fixtures/scc/sample_scc_pop_on.scc",
		"pycaption/fixtures/scc/sample_scc_roll_up_ru2.scc",
		"pysubs2/tests/data/ttml_example2.ass",
		"libass-tests/regression/scaling_playres/playresx_sbas-no.ass",
		"go-astisub/testdata/example-in.ssa",
		"webvtt-py/tests/subtitles/sample.sbv",
		"go-astisub/testdata/example-in.stl",
		"ttconv/stl/sandflow/vp18_3_lines.stl",
	}
}

// Cue is a cue as an independent reader gave it.
type Cue struct {
	StartMs, EndMs int64
	Text           string // lines separated by "\n", markup left out
}

// Delivered returns the cues a file of format f written from t gives its
// reader, as the writer documents it: the cues [format.Delivers] passes;
// for SCC, the captions [scc.Delivered] says the writer writes; for SRT,
// with the look-alikes it writes for what would read as markup
// ([srt.Delivered]); for EBU STL, the subtitles [stl.Delivered] says it
// writes, times on frames and substitutes in.
func Delivered(f string, t *caption.Track) []caption.Cue {
	switch f {
	case format.SCC:
		return scc.Delivered(t).Cues
	case format.SRT:
		return srt.Delivered(t).Cues
	case format.STL:
		return stl.Delivered(t).Cues
	}
	var out []caption.Cue
	for i := range t.Cues {
		if format.Delivers(f, &t.Cues[i]) {
			out = append(out, t.Cues[i])
		}
	}
	return out
}

// Text is cue text as the comparison reads it: white space folded to one
// space (line breaks included: readers re-flow, and SRT and WebVTT
// writers drop empty lines), and the typographic apostrophe ffmpeg shows
// for 608's apostrophe read as the ASCII one.
func Text(s string) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(s, "\u2019", "'")), " ")
}

// Times is how far a time read back may be from the track's; NoTimes
// compares text only.
type Times int64

// NoTimes says the reader's times are not compared (ffmpeg only
// approximates SCC's, see the read-back test).
const NoTimes Times = -1

// Compare fails t for each difference between the cues a reader got and
// want (see [Delivered]): their number, and cue by cue, in order of time,
// the times within tol and the text ([Text]). Both sides are put in the
// order of the HTML track (start time, then end time, latest first), so
// that cues that start together compare whatever order the reader kept.
// name says what was read, for the messages.
func Compare(t testing.TB, name string, got []Cue, want []caption.Cue, tol Times) {
	t.Helper()
	w := make([]Cue, len(want))
	for i, c := range want {
		w[i] = Cue{StartMs: c.StartMs, EndMs: c.EndMs, Text: Text(c.Text)}
	}
	g := make([]Cue, len(got))
	for i, c := range got {
		g[i] = Cue{StartMs: c.StartMs, EndMs: c.EndMs, Text: Text(c.Text)}
	}
	order := func(a, b Cue) int {
		return cmp.Or(cmp.Compare(a.StartMs, b.StartMs), cmp.Compare(b.EndMs, a.EndMs), strings.Compare(a.Text, b.Text))
	}
	slices.SortStableFunc(w, order)
	if tol != NoTimes {
		slices.SortStableFunc(g, order)
	}
	if len(g) != len(w) {
		t.Errorf("%s: %d cues read back, want %d\ngot:  %s\nwant: %s", name, len(g), len(w), list(g), list(w))
		return
	}
	near := func(a, b int64) bool { return tol == NoTimes || max(a-b, b-a) <= int64(tol) }
	for i := range w {
		if g[i].Text != w[i].Text || !near(g[i].StartMs, w[i].StartMs) || !near(g[i].EndMs, w[i].EndMs) {
			t.Errorf("%s: cue %d read back %d-%d ms %q, want %d-%d ms %q", name, i+1, g[i].StartMs, g[i].EndMs, g[i].Text,
				w[i].StartMs, w[i].EndMs, w[i].Text)
		}
	}
}

func list(cues []Cue) string {
	var b strings.Builder
	for _, c := range cues {
		fmt.Fprintf(&b, "[%d-%d %q] ", c.StartMs, c.EndMs, c.Text)
	}
	return b.String()
}
