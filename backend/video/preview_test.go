package video_test

import (
	"context"
	"io"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/video"
	"github.com/captionqa/captionqa/backend/video/ffmpeg/fftest"
	"github.com/captionqa/captionqa/backend/video/ffmpeg/fftest/programme"
)

// TestPreviewOfUnplayableMedia renders mode preview of an MPEG-2
// programme with the real ffmpeg: accepted with no preset, one run of
// the pool, and its artifact a WebM of VP9 at most 640 px wide whose
// frames are the source's, at their times from its start.
func TestPreviewOfUnplayableMedia(t *testing.T) {
	e := newFFmpegEnv(t)
	truth := programme.Cached(t, programme.Unplayable())
	key := e.upload(truth.Path)
	j, err := e.svc.Render(context.Background(), e.who, video.RenderInput{ProjectID: e.project, Mode: video.ModePreview, MediaKey: key})
	if err != nil {
		t.Fatal(err)
	}
	if j.Status != video.Queued || j.Preset != "" || j.Container != "webm" || video.LaneOf(j) != video.LaneHeavy || e.used() != 1 {
		t.Fatalf("accepted job: %+v (used %d)", j, e.used())
	}
	if err := e.svc.Work(context.Background(), video.WorkArgs{JobID: j.ID, Run: 1, TimeoutSeconds: int(video.Timeout(j).Seconds())}); err != nil {
		t.Fatal(err)
	}
	got := e.job(j.ID)
	if got.Status != video.Succeeded || len(got.Artifacts) != 1 {
		t.Fatalf("job = %+v, error %+v", got, got.Error)
	}
	a := got.Artifacts[0]
	if a.Filename != "Interview-preview.webm" || a.ContentType != "video/webm" || a.Bytes <= 0 {
		t.Errorf("artifact %+v; want Interview-preview.webm, video/webm", a)
	}
	rc, _, err := e.blobs.Get(context.Background(), a.BlobKey, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	path := filepath.Join(t.TempDir(), "preview.webm")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(f, rc); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	src, pv := fftest.TimingOf(t, truth.Path), fftest.TimingOf(t, path)
	if pv.VideoCodec != "vp9" || pv.Width > 640 || pv.Width%2 != 0 || pv.Height%2 != 0 || pv.FrameRate != src.FrameRate {
		t.Errorf("preview %s %dx%d at %s; want vp9, at most 640 wide, even, at the source's %s", pv.VideoCodec, pv.Width, pv.Height, pv.FrameRate, src.FrameRate)
	}
	n := len(src.Frames)
	if len(pv.Frames) != n {
		t.Fatalf("%d frames; want the source's %d", len(pv.Frames), n)
	}
	// The first and the last frame at the source's times from its start
	// (as the editor counts them), within WebM's millisecond.
	first, last := src.Frames[0]-src.Start, src.Frames[n-1]-src.Start
	if d0, d1 := math.Abs(pv.Frames[0]-first), math.Abs(pv.Frames[n-1]-last); d0 > 0.0005+1e-6 || d1 > 0.0005+1e-6 {
		t.Errorf("preview frames %.6f to %.6f s; the source's %.6f to %.6f s from its start", pv.Frames[0], pv.Frames[n-1], first, last)
	}
}

// TestPreviewRefusesCaptionOptions: a preview takes the media alone.
func TestPreviewRefusesCaptionOptions(t *testing.T) {
	e := newEnv(t)
	for _, c := range []struct {
		name, field string
		in          video.RenderInput
	}{
		{"a container", "container", video.RenderInput{Mode: video.ModePreview, MediaKey: e.key, Container: "mp4"}},
		{"a subtitle codec", "subtitleCodec", video.RenderInput{Mode: video.ModePreview, MediaKey: e.key, SubtitleCodec: "srt"}},
		{"inline", "outputDelivery", video.RenderInput{Mode: video.ModePreview, MediaKey: e.key, OutputDelivery: video.DeliveryInline}},
		{"no media", "mediaObjectKey", video.RenderInput{Mode: video.ModePreview}},
	} {
		c.in.ProjectID = e.project
		_, err := e.svc.Render(context.Background(), e.who, c.in)
		if ae, ok := apperr.As(err); !ok || ae.Kind != apperr.BadRequest || ae.Details["field"] != c.field {
			t.Errorf("%s: err = %v; want bad_request on %s", c.name, err, c.field)
		}
	}
	if n := e.used(); n != 0 {
		t.Errorf("refused previews took %d runs of the pool", n)
	}
}
