package ffmpeg

import (
	"context"
	"crypto/rand"
	"errors"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/media"
	"github.com/captionqa/captionqa/backend/video/ffmpeg/fftest"
)

func TestProbeMP4(t *testing.T) {
	t.Parallel()
	for _, copied := range []bool{false, true} {
		r, store := newTestRunner(t, func(o *Options) {
			if copied {
				o.Blobs = plainStore{o.Blobs}
			}
		})
		put(t, store, "media/clip", fftest.Clip(t, fftest.ClipOptions{Seconds: 6}))
		p, err := r.Probe(context.Background(), "media/clip")
		if err != nil {
			t.Fatal(err)
		}
		if p.Container != "mp4" || !strings.HasPrefix(p.FormatName, "mov,mp4") || math.Abs(p.DurationSeconds-6) > 0.1 || p.ClosedCaptions {
			t.Errorf("copied %v: probe %+v", copied, p)
		}
		want := []media.Stream{
			{Index: 0, Type: "video", Codec: "h264", Width: 640, Height: 360, FrameRate: 30, Default: true},
			{Index: 1, Type: "audio", Codec: "aac", Channels: 1, Default: true},
		}
		checkStreams(t, p.Streams, want)
		if v := p.Video(); v == nil || v.Index != 0 {
			t.Errorf("Video() = %+v", v)
		}
		if left := runFolders(t, r); len(left) != 0 {
			t.Errorf("run folders left: %v", left)
		}
	}
}

func checkStreams(t *testing.T, got, want []media.Stream) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("streams %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("stream %d = %+v, want %+v", i, got[i], want[i])
		}
	}
}

func TestProbeMKVTwoTracks(t *testing.T) {
	t.Parallel()
	clip := fftest.Clip(t, fftest.ClipOptions{Seconds: 6, Container: "mkv", Tracks: []fftest.Track{
		{Codec: "srt", Language: "eng", Title: "English", Default: true, Cues: testCues},
		{Codec: "webvtt", Language: "fra", Title: "Français", Cues: testCues},
	}})
	r, store := newTestRunner(t, nil)
	put(t, store, "media/two", clip)
	p, err := r.Probe(context.Background(), "media/two")
	if err != nil {
		t.Fatal(err)
	}
	if p.Container != "matroska" || p.FormatName != "matroska,webm" {
		t.Errorf("container %q, format %q", p.Container, p.FormatName)
	}
	// ffmpeg marks no MKV stream default unless told to.
	want := []media.Stream{
		{Index: 0, Type: "video", Codec: "h264", Width: 640, Height: 360, FrameRate: 30},
		{Index: 1, Type: "audio", Codec: "aac", Channels: 1},
		{Index: 2, Type: "subtitle", Codec: "subrip", Language: "eng", Title: "English", SubtitleIndex: 0, Text: true, Default: true},
		{Index: 3, Type: "subtitle", Codec: "webvtt", Language: "fra", Title: "Français", SubtitleIndex: 1, Text: true},
	}
	checkStreams(t, p.Streams, want)
}

// TestProbeClosedCaptions: a QuickTime c608 track (muxed from
// testdata/cc.scc) is closed captions.
func TestProbeClosedCaptions(t *testing.T) {
	t.Parallel()
	clip := fftest.Clip(t, fftest.ClipOptions{Seconds: 6})
	scc, err := filepath.Abs("testdata/cc.scc")
	if err != nil {
		t.Fatal(err)
	}
	mov := filepath.Join(t.TempDir(), "cc.mov")
	ffmpegCmd(t, "-i", clip, "-f", "scc", "-i", scc, "-map", "0:v", "-map", "0:a", "-map", "1", "-c", "copy", mov)
	r, store := newTestRunner(t, nil)
	put(t, store, "media/cc", mov)
	p, err := r.Probe(context.Background(), "media/cc")
	if err != nil {
		t.Fatal(err)
	}
	if !p.ClosedCaptions || p.Container != "mp4" {
		t.Errorf("probe %+v: want closed captions in an mp4-family container", p)
	}
	if s := p.Streams[2]; s.Type != "subtitle" || s.Codec != "eia_608" || s.Text {
		t.Errorf("c608 stream %+v", s)
	}
}

// ffmpegCmd runs ffmpeg for a test fixture that fftest does not make.
func ffmpegCmd(t *testing.T, args ...string) {
	t.Helper()
	out, err := exec.Command("ffmpeg", append([]string{"-nostdin", "-v", "error", "-y"}, args...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("ffmpeg %v: %v: %s", args, err, out)
	}
}

func TestProbeUnreadable(t *testing.T) {
	t.Parallel()
	garbage := make([]byte, 64<<10)
	rand.Read(garbage)

	dir := t.TempDir()
	secret := filepath.Join(dir, "secret.ts")
	if err := os.WriteFile(secret, []byte("not for you"), 0o600); err != nil {
		t.Fatal(err)
	}
	playlist := "#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:10,\nfile://" + secret + "\n#EXT-X-ENDLIST\n"

	srt := filepath.Join(dir, "only.srt")
	if err := os.WriteFile(srt, fftest.SRT(testCues), 0o600); err != nil {
		t.Fatal(err)
	}
	subsOnly := filepath.Join(dir, "subs-only.mkv")
	ffmpegCmd(t, "-i", srt, subsOnly)
	subsOnlyBytes, err := os.ReadFile(subsOnly)
	if err != nil {
		t.Fatal(err)
	}

	cases := []struct {
		name, content, wantMessage string
	}{
		{"garbage", string(garbage), "Invalid data found"},
		{"hls playlist posing as mp4", playlist, "not on whitelist"},
		{"empty", "", "Invalid data found"},
		{"no audio or video", string(subsOnlyBytes), "no audio or video stream"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			r, store := newTestRunner(t, nil)
			putBytes(t, store, "media/upload.mp4", []byte(c.content))
			p, err := r.Probe(context.Background(), "media/upload.mp4")
			e, ok := apperr.As(err)
			if !ok || e.Kind != apperr.ProcessingFailed || e.Details["reason"] != "unreadable_media" {
				t.Fatalf("Probe = %+v, %v; want processing_failed unreadable_media", p, err)
			}
			if !strings.Contains(e.Message, c.wantMessage) || strings.Contains(e.Message, r.workDir) || strings.Contains(e.Message, " @ 0x") {
				t.Errorf("message %q: want %q, no paths, no addresses", e.Message, c.wantMessage)
			}
			if left := runFolders(t, r); len(left) != 0 {
				t.Errorf("run folders left: %v", left)
			}
		})
	}
}

func TestProbeCanceled(t *testing.T) {
	t.Parallel()
	r, store := newTestRunner(t, nil)
	put(t, store, "media/clip", fftest.Clip(t, fftest.ClipOptions{Seconds: 6}))
	ctx, cancel := context.WithTimeout(context.Background(), time.Millisecond)
	defer cancel()
	<-ctx.Done()
	if _, err := r.Probe(ctx, "media/clip"); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("err = %v, want the context's", err)
	}
}

func TestDecodeProbe(t *testing.T) {
	t.Parallel()
	webm := `{"format": {"format_name": "matroska,webm", "duration": "12.5"}, "streams": [
		{"index": 0, "codec_type": "video", "codec_name": "mjpeg", "disposition": {"attached_pic": 1}},
		{"index": 1, "codec_type": "video", "codec_name": "vp9", "width": 1920, "height": 1080,
		 "avg_frame_rate": "0/0", "r_frame_rate": "30000/1001", "tags": {"LANGUAGE": "und"}},
		{"index": 2, "codec_type": "audio", "codec_name": "opus", "channels": 2, "tags": {"language": "ger", "title": "Deutsch"}},
		{"index": 3, "codec_type": "attachment", "codec_name": "ttf"}]}`
	p, err := decodeProbe([]byte(webm))
	if err != nil {
		t.Fatal(err)
	}
	if p.Container != "matroska" {
		t.Errorf("container %q: a font attachment is not WebM", p.Container)
	}
	want := []media.Stream{
		{Index: 0, Type: "data", Codec: "mjpeg"},
		{Index: 1, Type: "video", Codec: "vp9", Width: 1920, Height: 1080, FrameRate: 30000.0 / 1001},
		{Index: 2, Type: "audio", Codec: "opus", Channels: 2, Language: "ger", Title: "Deutsch"},
		{Index: 3, Type: "data", Codec: "ttf"},
	}
	checkStreams(t, p.Streams, want)
	if v := p.Video(); v == nil || v.Index != 1 {
		t.Errorf("Video() = %+v, want the vp9 stream, not the cover art", v)
	}

	pure := `{"format": {"format_name": "matroska,webm"}, "streams": [
		{"index": 0, "codec_type": "video", "codec_name": "vp9", "duration": "3.5"},
		{"index": 1, "codec_type": "audio", "codec_name": "opus", "duration": "4.25"}]}`
	if p, err := decodeProbe([]byte(pure)); err != nil || p.Container != "webm" || p.DurationSeconds != 4.25 {
		t.Errorf("pure WebM: %+v, %v; want webm, the longest stream's duration", p, err)
	}
	ts := `{"format": {"format_name": "mpegts", "duration": "1"}, "streams": [{"index": 0, "codec_type": "audio", "codec_name": "mp2"}]}`
	if p, err := decodeProbe([]byte(ts)); err != nil || p.Container != "mpegts" {
		t.Errorf("mpegts: %+v, %v", p, err)
	}
}

func TestHasA53(t *testing.T) {
	t.Parallel()
	with := `{"frames": [{"side_data_list": [{"side_data_type": "H.26[45] User Data Unregistered SEI message"}]},
		{"side_data_list": [{"side_data_type": "ATSC A53 Part 4 Closed Captions"}]}]}`
	without := `{"frames": [{}, {"side_data_list": [{"side_data_type": "H.26[45] User Data Unregistered SEI message"}]}]}`
	if ok, err := hasA53([]byte(with)); !ok || err != nil {
		t.Errorf("with captions: %v, %v", ok, err)
	}
	if ok, err := hasA53([]byte(without)); ok || err != nil {
		t.Errorf("without captions: %v, %v", ok, err)
	}
	if ok, err := hasA53([]byte(`{"frames": []}`)); ok || err != nil {
		t.Errorf("no frames: %v, %v", ok, err)
	}
}
