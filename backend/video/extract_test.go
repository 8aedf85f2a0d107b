package video_test

import (
	"context"
	"strings"
	"testing"

	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/video"
	"github.com/captionqa/captionqa/backend/video/ffmpeg/fftest"
)

func TestExtractBecomesTheNextRevision(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	key := e.upload(fftest.Clip(t, fftest.ClipOptions{Seconds: 2, Container: "mkv",
		Tracks: []fftest.Track{{Language: "fra", Cues: []fftest.Cue{{Start: 0, End: 1e9, Text: "Bonjour"}}}}}))
	e.runner.extracted = &video.Extracted{Format: "srt", Data: []byte("1\n00:00:00,500 --> 00:00:01,500\nBonjour.\n")}
	j, err := e.svc.Extract(ctx, e.who, video.ExtractInput{ProjectID: e.project, Mode: video.ModeSoftTrack, MediaKey: key})
	if err != nil {
		t.Fatal(err)
	}
	if j.Kind != video.KindExtract || j.TrackIndex != 0 || j.IRRevision != 1 {
		t.Fatalf("accepted job = %+v", j)
	}
	if err := e.svc.Work(ctx, video.WorkArgs{JobID: j.ID, Run: 1}); err != nil {
		t.Fatal(err)
	}
	got := e.job(j.ID)
	if got.Status != video.Succeeded || got.ResultRevision != 2 || len(got.Artifacts) != 2 {
		t.Fatalf("job = %+v (error %+v)", got, got.Error)
	}
	d, err := e.projects.Get(ctx, e.who.ID, e.project)
	if err != nil || d.IRRevision != 2 || !strings.Contains(d.IR, "Bonjour.") || !strings.Contains(d.IR, `"language":"fr"`) {
		t.Fatalf("project after the extract: revision %d, %v\n%s", d.IRRevision, err, d.IR)
	}
}

func TestExtractWithoutCaptionsFails(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	e.runner.extracted = &video.Extracted{Format: "srt", Data: nil}
	j, err := e.svc.Extract(ctx, e.who, video.ExtractInput{ProjectID: e.project, Mode: video.ModeOCRBurned, MediaKey: e.key})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.svc.Work(ctx, video.WorkArgs{JobID: j.ID, Run: 1}); err != nil {
		t.Fatal(err)
	}
	got := e.job(j.ID)
	if got.Status != video.Failed || got.Error.Code != video.ErrCodeNoOCR {
		t.Fatalf("job = %s %+v; want failed no_captions_detected", got.Status, got.Error)
	}
	if d, _ := e.projects.Get(ctx, e.who.ID, e.project); d.IRRevision != 1 {
		t.Errorf("a failed extract changed the project to revision %d", d.IRRevision)
	}
	if n := e.used(); n != 0 {
		t.Errorf("a failed extract keeps %d runs", n)
	}
}

func TestExtractRefusals(t *testing.T) {
	e := newEnv(t)
	two := 2
	for _, c := range []struct {
		name   string
		in     video.ExtractInput
		kind   apperr.Kind
		field  string
		reason string
	}{
		{"unknown mode", video.ExtractInput{Mode: "teletext", MediaKey: e.key}, apperr.BadRequest, "extractMode", ""},
		{"no media", video.ExtractInput{Mode: video.ModeSoftTrack}, apperr.BadRequest, "mediaObjectKey", "missing"},
		{"no subtitle track", video.ExtractInput{Mode: video.ModeSoftTrack, MediaKey: e.key}, apperr.ProcessingFailed, "", "no_subtitle_track"},
		{"track out of range", video.ExtractInput{Mode: video.ModeSoftTrack, MediaKey: e.key, TrackIndex: &two}, apperr.ProcessingFailed, "", "no_subtitle_track"},
		{"no c608 track", video.ExtractInput{Mode: video.ModeBroadcastCC, MediaKey: e.key, TrackIndex: &two}, apperr.BadRequest, "trackIndex", "out_of_range"},
	} {
		t.Run(c.name, func(t *testing.T) {
			in := c.in
			in.ProjectID = e.project
			_, err := e.svc.Extract(context.Background(), e.who, in)
			ae, ok := apperr.As(err)
			if !ok || ae.Kind != c.kind || (c.field != "" && ae.Details["field"] != c.field) || (c.reason != "" && ae.Details["reason"] != c.reason) {
				t.Fatalf("err = %v (details %v); want %v %q %q", err, ae.Details, c.kind, c.field, c.reason)
			}
		})
	}
}
