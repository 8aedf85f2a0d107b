package format_test

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/captionqa/captionqa/backend/caption"
	"github.com/captionqa/captionqa/backend/caption/format"
	"github.com/captionqa/captionqa/backend/caption/readback"
	"github.com/captionqa/captionqa/backend/caption/vtt"
	"github.com/captionqa/captionqa/backend/internal/corpus"
	"github.com/captionqa/captionqa/backend/video/ffmpeg/fftest"
)

// TestReadBackFFmpeg writes each read-back input (readback.Inputs) as SRT,
// as WebVTT and as SCC, reads each file with ffmpeg, and compares what
// ffmpeg got with the track, cue by cue: the cues the format delivers
// (format.Delivers; for SCC the captions scc.Delivered says it writes),
// their text as a viewer reads it (readback.Text) and, but for SCC, their
// times within 10 ms, the centisecond ffmpeg reports them in. ffmpeg
// times an SCC caption from where its codes start, not from the frame
// the caption shows on (up to half a second earlier for a caption that
// takes long to load), so SCC compares text only.
//
// The WebVTT is the form the video pipeline hands ffmpeg
// (vtt.WriteCuesOnly): ffmpeg 5.1 reads no cue after a REGION or STYLE
// block, which every TTML input gives the full form; Chromium reads that
// one (e2e's TestWebVTTTrackCues).
//
// Where ffmpeg reads what is on screen otherwise, the comparison takes
// its reading: it drops a cue that repeats another's times and text
// (dedupe), and it gives an SCC caption that replaces one showing the same
// text as a cue of its own, which the comparison joins to the one before
// (joinRepeats). ffmpegDiffers lists the files ffmpeg reads wrong.
func TestReadBackFFmpeg(t *testing.T) {
	t.Parallel()
	writers := []struct {
		format, demuxer string
		write           func(io.Writer, *caption.Track) error
		times           readback.Times
	}{
		{format.SRT, "srt", func(w io.Writer, t *caption.Track) error { return format.Write(format.SRT, w, t) }, 10},
		{format.VTT, "webvtt", vtt.WriteCuesOnly, 10},
		{format.SCC, "scc", func(w io.Writer, t *caption.Track) error { return format.Write(format.SCC, w, t) }, readback.NoTimes},
	}
	for _, rel := range readback.Inputs() {
		data, err := os.ReadFile(corpus.Path(t, rel))
		if err != nil {
			t.Fatal(err)
		}
		_, track, _, err := format.Read(filepath.Base(rel), "", data)
		if err != nil {
			t.Fatalf("%s: %v", rel, err)
		}
		for _, w := range writers {
			t.Run(rel+"/"+w.format, func(t *testing.T) {
				t.Parallel()
				if why := ffmpegDiffers[rel+"/"+w.format]; why != "" {
					t.Skip(why)
				}
				var out bytes.Buffer
				if err := w.write(&out, track); err != nil {
					t.Fatal(err)
				}
				path := filepath.Join(t.TempDir(), "out."+w.format)
				if err := os.WriteFile(path, out.Bytes(), 0o600); err != nil {
					t.Fatal(err)
				}
				var got []readback.Cue
				for _, c := range fftest.ReadSubtitles(t, path, w.demuxer) {
					got = append(got, readback.Cue{StartMs: c.Start.Milliseconds(), EndMs: c.End.Milliseconds(), Text: c.Text})
				}
				if w.format == format.SCC {
					got = joinRepeats(got)
				}
				readback.Compare(t, "ffmpeg", got, dedupe(readback.Delivered(w.format, track)), w.times)
				if t.Failed() {
					t.Logf("the file:\n%s", out.String())
				}
			})
		}
	}
}

// ffmpegDiffers names the inputs, as input/format, that ffmpeg 5.1 reads
// other than a player of the format, with why: a read-only table. They
// are skipped (the reason in the test log); each is the reader's fault,
// not the writer's.
var ffmpegDiffers = map[string]string{
	// The SCC writer sends every 608 character pair twice, as control
	// codes are sent; a decoder keeps a repeated pair once, and then a
	// third as a new one. ffmpeg compares each pair with the last one it
	// received, not the last it kept, so of "♪♪" (four pairs) it shows "♪".
	"pycaption/fixtures/scc/sample_scc_roll_up_ru2.scc/scc": `ffmpeg shows two 608 special characters in a row ("♪♪") as one`,
	// 608 has "{" and "}" (extended characters); ffmpeg's decoder hands
	// them to the player as ASS unescaped, where libass takes "{…}" for an
	// override block and hides it.
	"wpt-webvtt/file-parsing/header-regions.vtt/scc": `ffmpeg hands 608's "{…}" to libass as an override block, which it hides`,
}

// dedupe returns cues without those that repeat the times and text of an
// earlier one: ffmpeg's subtitle demuxers drop them.
func dedupe(cues []caption.Cue) []caption.Cue {
	var out []caption.Cue
	for _, c := range cues {
		if !slices.ContainsFunc(out, func(o caption.Cue) bool {
			return o.StartMs == c.StartMs && o.EndMs == c.EndMs && readback.Text(o.Text) == readback.Text(c.Text)
		}) {
			out = append(out, c)
		}
	}
	return out
}

// joinRepeats joins each cue that starts, within a frame, where the one
// before it with the same text ends: ffmpeg's 608 decoder gives a caption
// that replaces one showing the same text as a cue of its own, which a
// viewer cannot tell from the one before going on.
func joinRepeats(cues []readback.Cue) []readback.Cue {
	var out []readback.Cue
	for _, c := range cues {
		if n := len(out); n > 0 && out[n-1].Text == c.Text && max(c.StartMs-out[n-1].EndMs, out[n-1].EndMs-c.StartMs) <= 34 {
			out[n-1].EndMs = c.EndMs
			continue
		}
		out = append(out, c)
	}
	return out
}
