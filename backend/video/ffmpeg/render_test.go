package ffmpeg

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/blob"
	"github.com/captionqa/captionqa/backend/video"
	"github.com/captionqa/captionqa/backend/video/ffmpeg/fftest"
)

var testCues = []fftest.Cue{
	{Start: 1 * time.Second, End: 2500 * time.Millisecond, Text: "Hello there"},
	{Start: 3 * time.Second, End: 4500 * time.Millisecond, Text: "Second caption\nin two lines"},
}

// plainStore hides fsblob's LocalFile, as an S3 store would not have it:
// the runner must copy the object.
type plainStore struct{ blob.Store }

func TestMuxSoft(t *testing.T) {
	t.Parallel()
	clip := fftest.Clip(t, fftest.ClipOptions{Seconds: 6})
	cases := []struct {
		container, format, codec string
		subtitles                []byte
		wantCodec, wantType      string
		copyInput                bool
	}{
		{"mp4", "srt", "mov_text", fftest.SRT(testCues), "mov_text", "video/mp4", false},
		{"mp4", "srt", "mov_text", fftest.SRT(testCues), "mov_text", "video/mp4", true},
		{"mkv", "srt", "srt", fftest.SRT(testCues), "subrip", "video/x-matroska", false},
		{"mkv", "vtt", "webvtt", vtt(testCues), "webvtt", "video/x-matroska", false},
		{"mkv", "ass", "ass", ass(640, 360, testCues), "ass", "video/x-matroska", false},
	}
	for _, c := range cases {
		name := c.container + "_" + c.codec
		if c.copyInput {
			name += "_copied_input"
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			r, store := newTestRunner(t, func(o *Options) {
				if c.copyInput {
					o.Blobs = plainStore{o.Blobs}
				}
			})
			put(t, store, "media/clip", clip)
			spec := video.RenderSpec{
				Mode: video.ModeMuxSoft, MediaKey: "media/clip", Container: c.container,
				Subtitles: c.subtitles, SubtitleFormat: c.format, SubtitleCodec: c.codec,
				Language: "fra", DurationSeconds: 6,
			}
			out, err := r.Render(context.Background(), spec, nil)
			if err != nil {
				t.Fatal(err)
			}
			path := out.(*output).path
			if got := out.ContentType(); got != c.wantType {
				t.Errorf("ContentType = %q, want %q", got, c.wantType)
			}
			if st, err := os.Stat(path); err != nil || st.Size() != out.Size() {
				t.Errorf("Size = %d, file: %v %v", out.Size(), st, err)
			}
			streams := fftest.Streams(t, path)
			want := []fftest.Stream{
				{Type: "video", Codec: "h264"}, {Type: "audio", Codec: "aac"},
				{Type: "subtitle", Codec: c.wantCodec, Language: "fra", Default: true},
			}
			if len(streams) != len(want) {
				t.Fatalf("streams %+v, want %+v", streams, want)
			}
			for i, w := range want {
				g := streams[i]
				if g.Type != w.Type || g.Codec != w.Codec || (w.Language != "" && g.Language != w.Language) || (w.Default && !g.Default) {
					t.Errorf("stream %d = %+v, want %+v", i, g, w)
				}
			}
			checkCues(t, fftest.Cues(t, path, 0), testCues)
			rc, err := out.Open()
			if err != nil {
				t.Fatal(err)
			}
			n, _ := io.Copy(io.Discard, rc)
			rc.Close()
			if n != out.Size() {
				t.Errorf("Open read %d bytes, Size %d", n, out.Size())
			}
			if err := out.Close(); err != nil {
				t.Fatal(err)
			}
			if left := runFolders(t, r); len(left) != 0 {
				t.Errorf("Close left run folders: %v", left)
			}
		})
	}
}

// TestMuxSoftKeepsEscapedText muxes a track whose text a reader would
// take for a tag but for its format's escapes (WebVTT's "&lt;"), or that
// has none to need (ASS, and SubRip with look-alike brackets): the track
// read back from the file has the text as written, as a track ffmpeg
// converted would not (its WebVTT decoder undoes "&lt;", its encoder does
// not escape it again, and every reader then drops the "tag").
func TestMuxSoftKeepsEscapedText(t *testing.T) {
	t.Parallel()
	clip := fftest.Clip(t, fftest.ClipOptions{Seconds: 6})
	want := []fftest.Cue{
		{Start: 1 * time.Second, End: 2500 * time.Millisecond, Text: "<LAUGHING & WHOOPS!>"},
		{Start: 3 * time.Second, End: 4500 * time.Millisecond, Text: "a < b & c > d"},
	}
	escaped := []fftest.Cue{
		{Start: want[0].Start, End: want[0].End, Text: "&lt;LAUGHING &amp; WHOOPS!&gt;"},
		{Start: want[1].Start, End: want[1].End, Text: "a &lt; b &amp; c &gt; d"},
	}
	lookalikes := []fftest.Cue{
		{Start: want[0].Start, End: want[0].End, Text: "\u2039LAUGHING & WHOOPS!\u203a"},
		{Start: want[1].Start, End: want[1].End, Text: "a \u2039 b & c \u203a d"},
	}
	for _, c := range []struct {
		format, codec string
		subtitles     []byte
		want          []fftest.Cue
	}{
		{"vtt", "webvtt", vtt(escaped), want},
		{"ass", "ass", ass(640, 360, want), want},
		{"srt", "srt", fftest.SRT(lookalikes), lookalikes},
	} {
		t.Run(c.codec, func(t *testing.T) {
			t.Parallel()
			r, store := newTestRunner(t, nil)
			put(t, store, "media/clip", clip)
			out, err := r.Render(context.Background(), video.RenderSpec{Mode: video.ModeMuxSoft, MediaKey: "media/clip",
				Container: "mkv", Subtitles: c.subtitles, SubtitleFormat: c.format, SubtitleCodec: c.codec, DurationSeconds: 6}, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer out.Close()
			checkCues(t, fftest.Cues(t, out.(*output).path, 0), c.want)
		})
	}
}

// checkCues compares cues read back with what was muxed: same text, times
// within 40 ms (MKV shifts by the AAC priming delay).
func checkCues(t *testing.T, got, want []fftest.Cue) {
	t.Helper()
	near := func(a, b time.Duration) bool { return (a - b).Abs() <= 40*time.Millisecond }
	if len(got) != len(want) {
		t.Fatalf("cues %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i].Text != want[i].Text || !near(got[i].Start, want[i].Start) || !near(got[i].End, want[i].End) {
			t.Errorf("cue %d = %+v, want %+v", i, got[i], want[i])
		}
	}
}

func TestBurnIn(t *testing.T) {
	t.Parallel()
	clip := fftest.Clip(t, fftest.ClipOptions{Seconds: 6})
	r, store := newTestRunner(t, nil)
	put(t, store, "media/clip", clip)
	cues := []fftest.Cue{{Start: time.Second, End: 4 * time.Second, Text: "BURNED CAPTION"}}
	spec := video.RenderSpec{
		Mode: video.ModeBurnIn, MediaKey: "media/clip", Container: "mp4",
		Subtitles: ass(640, 360, cues), SubtitleFormat: "ass", DurationSeconds: 6,
	}
	var mu sync.Mutex
	var reports []float64
	out, err := r.Render(context.Background(), spec, func(f float64) {
		mu.Lock()
		reports = append(reports, f)
		mu.Unlock()
	})
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	path := out.(*output).path

	t.Run("progress", func(t *testing.T) {
		checkProgress(t, reports, 0.9)
	})
	t.Run("streams", func(t *testing.T) {
		streams := fftest.Streams(t, path)
		if len(streams) != 2 || streams[0].Codec != "h264" || streams[1].Codec != "aac" {
			t.Errorf("streams %+v, want h264 and the copied aac, no subtitles", streams)
		}
	})
	t.Run("caption on screen", func(t *testing.T) {
		ink, _ := compareBand(t, clip, path, 2500*time.Millisecond)
		if ink < 400 {
			t.Errorf("%d caption pixels in the bottom band while the cue shows, want many", ink)
		}
	})
	t.Run("no caption", func(t *testing.T) {
		ink, diff := compareBand(t, clip, path, 5*time.Second)
		if ink > 50 || diff > 8 {
			t.Errorf("after the cue: %d caption-like pixels, mean difference %.1f; want the source frame", ink, diff)
		}
	})
}

// checkProgress checks reports are in [0, 1], never go back, and reach
// atLeast.
func checkProgress(t *testing.T, reports []float64, atLeast float64) {
	t.Helper()
	prev := 0.0
	for _, f := range reports {
		if f < prev || f < 0 || f > 1 {
			t.Fatalf("progress %v: not monotonic in [0, 1]", reports)
		}
		prev = f
	}
	if prev <= atLeast {
		t.Errorf("progress %v: never passed %v", reports, atLeast)
	}
}

// compareBand compares the bottom quarter of the frames of src and
// burned shown at at: ink counts near-white pixels of burned that differ
// clearly from src (caption text), diff is the mean absolute difference
// per channel over the band.
func compareBand(t *testing.T, src, burned string, at time.Duration) (ink int, diff float64) {
	t.Helper()
	w, h, a := fftest.FrameRGB(t, src, at)
	w2, h2, b := fftest.FrameRGB(t, burned, at)
	if w != w2 || h != h2 {
		t.Fatalf("frame sizes %dx%d and %dx%d", w, h, w2, h2)
	}
	var sum int
	from := (h * 3 / 4) * w * 3
	for i := from; i+2 < len(a); i += 3 {
		d := 0
		white := true
		for c := range 3 {
			d += abs(int(a[i+c]) - int(b[i+c]))
			white = white && b[i+c] > 200
		}
		sum += d
		if white && d > 90 {
			ink++
		}
	}
	return ink, float64(sum) / float64(len(a)-from)
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// TestCancelBurnIn cancels a long burn-in: Render returns promptly with
// context.Canceled, and neither the run folder nor a process is left.
func TestCancelBurnIn(t *testing.T) {
	t.Parallel()
	clip := fftest.Clip(t, fftest.ClipOptions{Width: 1280, Height: 720, Seconds: 60})
	r, store := newTestRunner(t, nil)
	put(t, store, "media/long", clip)
	spec := video.RenderSpec{
		Mode: video.ModeBurnIn, MediaKey: "media/long", Container: "mp4",
		Subtitles: ass(1280, 720, testCues), SubtitleFormat: "ass", DurationSeconds: 60,
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var once sync.Once
	var pgids []int
	var canceledAt time.Time
	stop := func() {
		once.Do(func() {
			pgids = groupsUnder(t, r.workDir)
			canceledAt = time.Now()
			cancel()
		})
	}
	// Cancel on the first progress report, when ffmpeg is surely encoding,
	// or after 20 s whatever happens.
	fallback := time.AfterFunc(20*time.Second, stop)
	defer fallback.Stop()
	out, err := r.Render(ctx, spec, func(float64) { stop() })
	took := time.Since(canceledAt)
	if err == nil {
		out.Close()
		t.Fatal("Render finished a 60 s burn-in before the cancel")
	}
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if took > r.grace+2*time.Second {
		t.Errorf("Render returned %v after the cancel", took)
	}
	if left := runFolders(t, r); len(left) != 0 {
		t.Errorf("run folders left: %v", left)
	}
	if len(pgids) == 0 {
		t.Fatal("found no ffmpeg process running in the run folder")
	}
	for _, pgid := range pgids {
		if left := groupMembers(t, pgid); len(left) > 0 {
			t.Errorf("processes of group %d left: %v", pgid, left)
		}
	}
}

// groupsUnder returns the process groups of the processes whose working
// folder is under dir.
func groupsUnder(t *testing.T, dir string) []int {
	t.Helper()
	procs, err := os.ReadDir("/proc")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[int]bool{}
	var pgids []int
	for _, p := range procs {
		if _, err := strconv.Atoi(p.Name()); err != nil {
			continue
		}
		cwd, err := os.Readlink(filepath.Join("/proc", p.Name(), "cwd"))
		if err != nil || !strings.HasPrefix(cwd, dir+string(filepath.Separator)) {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", p.Name(), "stat"))
		if err != nil {
			continue
		}
		f := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
		if pgid, err := strconv.Atoi(f[2]); err == nil && !seen[pgid] {
			seen[pgid] = true
			pgids = append(pgids, pgid)
		}
	}
	return pgids
}

// TestRenderFailure: ffmpeg failing on media it cannot read (here cut in
// half after upload) gives a *video.RunError whose Stderr says why.
func TestRenderFailure(t *testing.T) {
	t.Parallel()
	clip, err := os.ReadFile(fftest.Clip(t, fftest.ClipOptions{Seconds: 6}))
	if err != nil {
		t.Fatal(err)
	}
	r, store := newTestRunner(t, nil)
	putBytes(t, store, "media/cut", clip[:len(clip)/2])
	spec := video.RenderSpec{
		Mode: video.ModeMuxSoft, MediaKey: "media/cut", Container: "mp4",
		Subtitles: fftest.SRT(testCues), SubtitleFormat: "srt", SubtitleCodec: "mov_text", DurationSeconds: 6,
	}
	_, err = r.Render(context.Background(), spec, nil)
	var re *video.RunError
	if !errors.As(err, &re) {
		t.Fatalf("err = %v, want a *video.RunError", err)
	}
	if re.ExitCode == 0 || !strings.Contains(re.Stderr, "moov atom not found") {
		t.Errorf("RunError{ExitCode: %d, Stderr: %q}: want ffmpeg's reason", re.ExitCode, re.Stderr)
	}
	if left := runFolders(t, r); len(left) != 0 {
		t.Errorf("run folders left: %v", left)
	}
}

func TestRenderMissingMedia(t *testing.T) {
	t.Parallel()
	r, _ := newTestRunner(t, nil)
	spec := muxSpec
	spec.MediaKey = "media/gone"
	if _, err := r.Render(context.Background(), spec, nil); apperr.KindOf(err) != apperr.NotFound {
		t.Errorf("err = %v, want not_found", err)
	}
}
