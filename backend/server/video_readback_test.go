package server_test

import (
	"bytes"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/captionqa/captionqa/backend/caption"
	"github.com/captionqa/captionqa/backend/caption/format"
	"github.com/captionqa/captionqa/backend/caption/readback"
	"github.com/captionqa/captionqa/backend/caption/srt"
	"github.com/captionqa/captionqa/backend/internal/corpus"
	"github.com/captionqa/captionqa/backend/video/ffmpeg/fftest"
)

// TestVideoMuxKeepsEveryCue muxes a project made from a TTML file (with
// styles and regions, and text in angle brackets, "<LAUGHING & WHOOPS!>")
// into MP4 and MKV in every subtitle codec, from deliveries in SRT
// (youtube), WebVTT with REGION blocks (html5) and TTML (lms), and reads
// each track back with ffmpeg: it has exactly the project's cues, their
// times within 40 ms (MKV shifts by the AAC priming delay) and their text
// (readback.Text) as the project has it or, where an SRT file is on the
// way (the youtube delivery, and the SubRip that mov_text and srt tracks
// are made from), as SRT writes it, with look-alikes for what would read
// as markup (srt.Delivered). The fix profile is warn-only, so that the
// delivery's cues are the project's.
func TestVideoMuxKeepsEveryCue(t *testing.T) {
	if testing.Short() {
		t.Skip("renders video with ffmpeg (make test runs it)")
	}
	t.Parallel()
	data, err := os.ReadFile(corpus.Path(t, "pycaption/fixtures/dfxp/sample_dfxp.ttml"))
	if err != nil {
		t.Fatal(err)
	}
	_, track, _, err := format.Read("sample_dfxp.ttml", "", data)
	if err != nil || len(track.Cues) != 7 {
		t.Fatalf("the TTML: %v, %d cues; want 7", err, len(track.Cues))
	}
	var ir bytes.Buffer
	if err := caption.WriteJSON(&ir, track); err != nil {
		t.Fatal(err)
	}
	e := newVideoEnv(t, nil)
	pid := e.newProject("Einstein", ir.String())
	m := e.uploadFile(pid, fftest.Clip(t, fftest.ClipOptions{Width: 320, Height: 180, FPS: 10, Seconds: 40}))
	runs := []struct {
		preset, container, codec, wantCodec string
	}{
		{"youtube", "mp4", "mov_text", "mov_text"},
		{"youtube", "mkv", "srt", "subrip"},
		{"youtube", "mkv", "webvtt", "webvtt"},
		{"html5", "mkv", "webvtt", "webvtt"},
		{"lms", "mkv", "webvtt", "webvtt"},
		{"html5", "mkv", "ass", "ass"},
		{"html5", "mp4", "mov_text", "mov_text"},
	}
	jobs := make([]jobCreated, len(runs))
	for i, r := range runs {
		jobs[i] = e.render(map[string]any{"projectId": pid, "mode": "mux_soft", "preset": r.preset, "fixProfile": "warn-only",
			"mediaObjectKey": m.ObjectKey, "container": r.container, "subtitleCodec": r.codec})
	}
	var wg sync.WaitGroup
	for i, r := range runs {
		wg.Go(func() {
			t.Run(r.preset+" "+r.container+" "+r.codec, func(t *testing.T) {
				e := e.with(t)
				j, _ := e.waitJob(jobs[i].JobID, jobWait, final)
				if j.Status != "succeeded" {
					t.Fatalf("job %+v; want it succeeded", j)
				}
				out := e.artifactFile(t, j, "-"+r.preset+"-subtitled."+r.container, map[string]string{"mp4": "video/mp4", "mkv": "video/x-matroska"}[r.container])
				if s := fftest.Streams(t, out); len(s) != 3 || s[2].Type != "subtitle" || s[2].Codec != r.wantCodec {
					t.Errorf("streams %+v; want video, audio and a %s track", s, r.wantCodec)
				}
				var got []readback.Cue
				for _, c := range fftest.Cues(t, out, 0) {
					got = append(got, readback.Cue{StartMs: c.Start.Milliseconds(), EndMs: c.End.Milliseconds(), Text: c.Text})
				}
				want := track.Cues
				if r.preset == "youtube" || r.codec == "mov_text" || r.codec == "srt" {
					want = srt.Delivered(track).Cues
				}
				readback.Compare(t, filepath.Base(out), got, want, 40)
			})
		})
	}
	wg.Wait()
}
