package ffmpeg

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/video"
	"github.com/captionqa/captionqa/backend/video/ffmpeg/fftest"
)

// ocrFixture is a clip with 30 burned-in cues and its truth.
type ocrFixture struct {
	path    string
	spec    video.ExtractSpec
	cues    []fftest.Cue
	seconds float64
}

// burnedFixture returns the shared accuracy fixture of size w×h and
// colour ("white", "yellow" or "mixed"): 30 cues, about 47 s at 30 fps.
func burnedFixture(t testing.TB, w, h int, colour string) ocrFixture {
	t.Helper()
	cues := fftest.BurnedCues(30, 30)
	o := fftest.BurnedOptions{Width: w, Height: h, FPS: 30, Colour: colour, Cues: cues}
	seconds := cues[len(cues)-1].End.Seconds() + 1
	return ocrFixture{
		path: fftest.Burned(t, o),
		spec: video.ExtractSpec{
			Mode: video.ModeOCRBurned, MediaKey: "media/burned", Container: "mp4", TrackIndex: -1,
			Width: w, Height: h, FrameRate: 30, DurationSeconds: seconds,
		},
		cues:    cues,
		seconds: seconds,
	}
}

// ocrScore compares extracted cues with the truth: the character error
// rate (edit distance over the reference's characters, line breaks
// counted, cues paired in order) and the largest start or end error in
// frames. It fails t when the cue counts differ.
func ocrScore(t testing.TB, got, want []fftest.Cue, fps int) (cer float64, maxFrames float64) {
	t.Helper()
	if len(got) != len(want) {
		for i := range max(len(got), len(want)) {
			var g, w fftest.Cue
			if i < len(got) {
				g = got[i]
			}
			if i < len(want) {
				w = want[i]
			}
			t.Logf("%2d got  %v-%v %q\n   want %v-%v %q", i, g.Start, g.End, g.Text, w.Start, w.End, w.Text)
		}
		t.Fatalf("got %d cues, want %d", len(got), len(want))
	}
	edits, chars := 0, 0
	frame := time.Second / time.Duration(fps)
	for i := range want {
		if d := editDistance([]rune(got[i].Text), []rune(want[i].Text)); d > 0 {
			edits += d
			t.Logf("cue %d: got %q, want %q", i, got[i].Text, want[i].Text)
		}
		chars += len([]rune(want[i].Text))
		for _, e := range []time.Duration{got[i].Start - want[i].Start, got[i].End - want[i].End} {
			maxFrames = math.Max(maxFrames, math.Abs(float64(e))/float64(frame))
		}
	}
	return float64(edits) / float64(chars), maxFrames
}

// parseOCRSRT reads the SRT ocr writes.
func parseOCRSRT(t testing.TB, data []byte) []fftest.Cue {
	t.Helper()
	var cues []fftest.Cue
	for block := range strings.SplitSeq(strings.TrimSpace(string(data)), "\n\n") {
		lines := strings.Split(block, "\n")
		if len(lines) < 3 {
			t.Fatalf("bad SRT block %q", block)
		}
		var h1, m1, s1, ms1, h2, m2, s2, ms2 int
		if _, err := fmt.Sscanf(lines[1], "%d:%d:%d,%d --> %d:%d:%d,%d", &h1, &m1, &s1, &ms1, &h2, &m2, &s2, &ms2); err != nil {
			t.Fatalf("bad SRT time line %q: %v", lines[1], err)
		}
		at := func(h, m, s, ms int) time.Duration {
			return time.Duration(((h*60+m)*60+s)*1000+ms) * time.Millisecond
		}
		cues = append(cues, fftest.Cue{Start: at(h1, m1, s1, ms1), End: at(h2, m2, s2, ms2), Text: strings.Join(lines[2:], "\n")})
	}
	return cues
}

func TestOCRAccuracy(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		w, h   int
		colour string
	}{
		{1280, 720, "white"},
		{1280, 720, "yellow"},
		{1920, 1080, "mixed"},
	} {
		t.Run(fmt.Sprintf("%dp_%s", c.h, c.colour), func(t *testing.T) {
			t.Parallel()
			fx := burnedFixture(t, c.w, c.h, c.colour)
			r, store := newTestRunner(t, nil)
			put(t, store, fx.spec.MediaKey, fx.path)
			var mu sync.Mutex
			var reports []float64
			out, err := r.ocr(context.Background(), fx.spec, func(f float64) {
				mu.Lock()
				reports = append(reports, f)
				mu.Unlock()
			})
			if err != nil {
				t.Fatal(err)
			}
			if out.Format != "srt" {
				t.Errorf("format %q, want srt", out.Format)
			}
			cer, frames := ocrScore(t, parseOCRSRT(t, out.Data), fx.cues, 30)
			t.Logf("CER %.2f%%, largest time error %.2f frames", 100*cer, frames)
			if cer > 0.01 {
				t.Errorf("CER %.2f%%, want at most 1%%", 100*cer)
			}
			if frames > 1.04 { // one frame, and the millisecond SRT rounds to
				t.Errorf("a cue is %.2f frames off, want at most 1", frames)
			}
			mu.Lock()
			defer mu.Unlock()
			if len(reports) == 0 || reports[len(reports)-1] < 0.99 {
				t.Errorf("progress reports %v, want them to reach 1", reports)
			}
			for i := 1; i < len(reports); i++ {
				if reports[i] < reports[i-1] {
					t.Errorf("progress went back: %v", reports)
					break
				}
			}
			if names := runFolders(t, r); len(names) != 0 {
				t.Errorf("run folders left: %v", names)
			}
		})
	}
}

// benchmarkOCR runs ocr on the w×h accuracy fixture and reports how many
// times faster than real time it ran, and the CPU seconds it used
// (this process and its children: ffmpeg, tesseract).
func benchmarkOCR(b *testing.B, w, h int, colour string) {
	fx := burnedFixture(b, w, h, colour)
	r, store := newTestRunner(b, nil)
	put(b, store, fx.spec.MediaKey, fx.path)
	cpu0 := cpuSeconds()
	for b.Loop() {
		if _, err := r.ocr(context.Background(), fx.spec, nil); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(fx.seconds*float64(b.N)/b.Elapsed().Seconds(), "x_realtime")
	b.ReportMetric((cpuSeconds()-cpu0)/float64(b.N), "cpu_s/op")
}

// cpuSeconds is the user and system time of this process and its waited
// children.
func cpuSeconds() float64 {
	var total float64
	for _, who := range []int{syscall.RUSAGE_SELF, syscall.RUSAGE_CHILDREN} {
		var ru syscall.Rusage
		if err := syscall.Getrusage(who, &ru); err == nil {
			total += time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds()
		}
	}
	return total
}

// BenchmarkOCR720p reads the 30 cues of the 47 s 720p30 white fixture.
func BenchmarkOCR720p(b *testing.B) { benchmarkOCR(b, 1280, 720, "white") }

// BenchmarkOCR1080p reads the 30 cues of the 47 s 1080p30 mixed fixture.
func BenchmarkOCR1080p(b *testing.B) { benchmarkOCR(b, 1920, 1080, "mixed") }

// smallBurnedFixture is a 640×360 clip of 6 cues, mixed colours: cues 1
// and 4 are placed at the top (\an8), the others at the bottom, which are
// returned as the truth.
func smallBurnedFixture(t testing.TB) (fx ocrFixture, bottom []fftest.Cue) {
	t.Helper()
	cues := fftest.BurnedCues(30, 6)
	burned := make([]fftest.Cue, len(cues))
	for i, c := range cues {
		burned[i] = c
		if i == 1 || i == 4 {
			burned[i].Text = `{\an8}` + c.Text
			continue
		}
		bottom = append(bottom, c)
	}
	seconds := cues[len(cues)-1].End.Seconds() + 1
	return ocrFixture{
		path: fftest.Burned(t, fftest.BurnedOptions{Width: 640, Height: 360, FPS: 30, Colour: "mixed", Cues: burned}),
		spec: video.ExtractSpec{
			Mode: video.ModeOCRBurned, MediaKey: "media/small", Container: "mp4", TrackIndex: -1,
			Width: 640, Height: 360, FrameRate: 30, DurationSeconds: seconds,
		},
		cues:    bottom,
		seconds: seconds,
	}, bottom
}

// TestOCRSmallFrames reads a 360p clip (its band upscaled twice): the
// bottom captions to the frame, the top ones not at all (a documented
// limit: only the bottom third is read).
func TestOCRSmallFrames(t *testing.T) {
	t.Parallel()
	fx, bottom := smallBurnedFixture(t)
	r, store := newTestRunner(t, nil)
	put(t, store, fx.spec.MediaKey, fx.path)
	out, err := r.ocr(context.Background(), fx.spec, nil)
	if err != nil {
		t.Fatal(err)
	}
	cer, frames := ocrScore(t, parseOCRSRT(t, out.Data), bottom, 30)
	t.Logf("360p: CER %.2f%%, largest time error %.2f frames", 100*cer, frames)
	// Not a requirement (720p and 1080p are); measured 4.7%, mostly
	// letters of 1-pixel strokes lost to crf 28.
	if cer > 0.08 {
		t.Errorf("CER %.2f%%, want at most 8%% at 360p", 100*cer)
	}
	if frames > 1.04 {
		t.Errorf("a cue is %.2f frames off, want at most 1", frames)
	}
}

func TestOCRNoCaptions(t *testing.T) {
	t.Parallel()
	clip := fftest.Clip(t, fftest.ClipOptions{Seconds: 6})
	r, store := newTestRunner(t, nil)
	put(t, store, "media/plain", clip)
	spec := video.ExtractSpec{Mode: video.ModeOCRBurned, MediaKey: "media/plain", Container: "mp4", TrackIndex: -1,
		Width: 640, Height: 360, FrameRate: 30, DurationSeconds: 6}
	_, err := r.ocr(context.Background(), spec, nil)
	e, ok := apperr.As(err)
	if !ok || e.Kind != apperr.ProcessingFailed || e.Details["jobError"] != "no_captions_detected" {
		t.Fatalf("err = %v, want processing_failed with jobError no_captions_detected", err)
	}
	if left := runFolders(t, r); len(left) != 0 {
		t.Errorf("run folders left: %v", left)
	}
}

func TestOCRBadInput(t *testing.T) {
	t.Parallel()
	r, store := newTestRunner(t, nil)
	spec := video.ExtractSpec{Mode: video.ModeOCRBurned, MediaKey: "media/gone", Container: "mp4", TrackIndex: -1,
		Width: 640, Height: 360, FrameRate: 30, DurationSeconds: 6}
	if _, err := r.ocr(context.Background(), spec, nil); apperr.KindOf(err) != apperr.NotFound {
		t.Errorf("missing media: err = %v, want not_found", err)
	}
	noSize := spec
	noSize.Width, noSize.Height = 0, 0
	if _, err := r.ocr(context.Background(), noSize, nil); err == nil || !strings.Contains(err.Error(), "frame size") {
		t.Errorf("no frame size: err = %v", err)
	}
	// Not a video at all: ffmpeg refuses it.
	putBytes(t, store, "media/junk", []byte("#EXTM3U\n#EXT-X-ENDLIST\n"))
	junk := spec
	junk.MediaKey = "media/junk"
	var re *video.RunError
	if _, err := r.ocr(context.Background(), junk, nil); !errors.As(err, &re) {
		t.Errorf("junk media: err = %v, want a *video.RunError", err)
	}
	if left := runFolders(t, r); len(left) != 0 {
		t.Errorf("run folders left: %v", left)
	}
}

// TestOCRFFmpegNotStarted: when ffmpeg cannot even start, ocr returns
// the error (and does not wait for frames that never come).
func TestOCRFFmpegNotStarted(t *testing.T) {
	t.Parallel()
	bin := script(t, "exit 0\n")
	r, store := newTestRunner(t, func(o *Options) { o.FFmpeg, o.Nice, o.MemoryLimit = bin, -1, -1 }) // no nice nor limit shell: exec itself fails
	if err := os.Remove(bin); err != nil {
		t.Fatal(err)
	}
	putBytes(t, store, "media/clip", []byte("not read"))
	spec := video.ExtractSpec{Mode: video.ModeOCRBurned, MediaKey: "media/clip", Container: "mp4", TrackIndex: -1,
		Width: 640, Height: 360, FrameRate: 30, DurationSeconds: 6}
	if _, err := r.ocr(context.Background(), spec, nil); err == nil || !strings.Contains(err.Error(), "start") {
		t.Errorf("err = %v, want ffmpeg's start failure", err)
	}
	if left := runFolders(t, r); len(left) != 0 {
		t.Errorf("run folders left: %v", left)
	}
}

// TestOCRCancelDecode cancels while ffmpeg decodes: ocr returns ctx's
// error soon, and leaves neither processes nor a run folder.
func TestOCRCancelDecode(t *testing.T) {
	t.Parallel()
	fx := burnedFixture(t, 1280, 720, "white")
	r, store := newTestRunner(t, nil)
	put(t, store, fx.spec.MediaKey, fx.path)
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
	fallback := time.AfterFunc(20*time.Second, stop)
	defer fallback.Stop()
	_, err := r.ocr(ctx, fx.spec, func(float64) { stop() })
	took := time.Since(canceledAt)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if took > r.grace+5*time.Second {
		t.Errorf("ocr returned %v after the cancel", took)
	}
	if len(pgids) == 0 {
		t.Fatal("found no ffmpeg process running in the run folder")
	}
	for _, pgid := range pgids {
		if left := groupMembers(t, pgid); len(left) > 0 {
			t.Errorf("processes of group %d left: %v", pgid, left)
		}
	}
	if left := runFolders(t, r); len(left) != 0 {
		t.Errorf("run folders left: %v", left)
	}
}

// fakeTesseract puts a shell script named tesseract, with env and sleep,
// alone on PATH (the runner's ffmpeg, ffprobe and nice were resolved by
// New).
func fakeTesseract(t *testing.T, body string) {
	t.Helper()
	dir := t.TempDir()
	for _, name := range []string{"env", "sleep"} {
		path, err := exec.LookPath(name)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(path, filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	if body != "" {
		writeScript(t, filepath.Join(dir, "tesseract"), body)
	}
	t.Setenv("PATH", dir)
}

// TestOCRTesseract runs ocr with stand-ins for tesseract: one that hangs
// and ignores SIGTERM (a cancel kills its group), one that fails, one
// that returns too few pages, and none at all. Not parallel: it sets
// PATH.
func TestOCRTesseract(t *testing.T) {
	fx, _ := smallBurnedFixture(t)
	const grace = 300 * time.Millisecond
	newRunner := func(t *testing.T) *Runner {
		r, store := newTestRunner(t, func(o *Options) { o.Grace = grace })
		put(t, store, fx.spec.MediaKey, fx.path)
		return r
	}

	t.Run("cancel", func(t *testing.T) {
		r := newRunner(t)
		pidFile := filepath.Join(t.TempDir(), "pid")
		fakeTesseract(t, "trap '' TERM\necho $$ > "+pidFile+"\nsleep 60 &\nsleep 60\n")
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		var canceledAt time.Time
		go func() {
			for ctx.Err() == nil {
				if _, err := os.Stat(pidFile); err == nil {
					canceledAt = time.Now()
					cancel()
					return
				}
				time.Sleep(20 * time.Millisecond)
			}
		}()
		_, err := r.ocr(ctx, fx.spec, nil)
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("err = %v, want context.Canceled", err)
		}
		if took := time.Since(canceledAt); took > grace+5*time.Second {
			t.Errorf("ocr returned %v after the cancel", took)
		}
		b, err := os.ReadFile(pidFile)
		if err != nil {
			t.Fatal(err)
		}
		pgid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
		if left := groupMembers(t, pgid); len(left) > 0 {
			t.Errorf("processes of group %d left: %v", pgid, left)
		}
		if left := runFolders(t, r); len(left) != 0 {
			t.Errorf("run folders left: %v", left)
		}
	})
	t.Run("fails", func(t *testing.T) {
		r := newRunner(t)
		fakeTesseract(t, "echo 'Error opening data file eng.traineddata' >&2\nexit 1\n")
		_, err := r.ocr(context.Background(), fx.spec, nil)
		var re *video.RunError
		if !errors.As(err, &re) || !strings.Contains(re.Stderr, "eng.traineddata") || !strings.Contains(err.Error(), "tesseract") {
			t.Errorf("err = %v, want a *video.RunError naming tesseract, with its stderr", err)
		}
		if left := runFolders(t, r); len(left) != 0 {
			t.Errorf("run folders left: %v", left)
		}
	})
	t.Run("too_few_pages", func(t *testing.T) {
		r := newRunner(t)
		fakeTesseract(t, "printf 'one\\f'\n")
		if _, err := r.ocr(context.Background(), fx.spec, nil); err == nil || !strings.Contains(err.Error(), "pages") {
			t.Errorf("err = %v, want the page count", err)
		}
	})
	t.Run("missing", func(t *testing.T) {
		r := newRunner(t)
		fakeTesseract(t, "")
		if _, err := r.ocr(context.Background(), fx.spec, nil); err == nil || !strings.Contains(err.Error(), "tesseract-ocr") {
			t.Errorf("err = %v, want advice to install tesseract-ocr", err)
		}
		if err := r.CheckOCR(context.Background()); err == nil || !strings.Contains(err.Error(), "tesseract-ocr") {
			t.Errorf("CheckOCR: err = %v, want advice to install tesseract-ocr", err)
		}
	})
	t.Run("no_english", func(t *testing.T) {
		r := newRunner(t)
		fakeTesseract(t, "echo 'List of available languages in \"/x/\" (1):'\necho osd\n")
		if err := r.CheckOCR(context.Background()); err == nil || !strings.Contains(err.Error(), "tesseract-ocr-eng") {
			t.Errorf("CheckOCR: err = %v, want advice to install tesseract-ocr-eng", err)
		}
	})
}

func TestCheckOCR(t *testing.T) {
	t.Parallel()
	r, _ := newTestRunner(t, nil)
	if err := r.CheckOCR(context.Background()); err != nil {
		t.Errorf("CheckOCR: %v", err)
	}
}

func TestOCRArgs(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		w, h    int
		fps     ocrRate
		demuxer string
		want    string
	}{
		{1920, 1080, ocrRate{30000, 1001}, "mov", "-f mov -format_whitelist " + formatWhitelist + " -noautorotate -protocol_whitelist file,subfile " +
			"-i file:input -map 0:V:0 -an -dn -f rawvideo -sn " +
			"-vf fps=fps=30000/1001:start_time=0,scale=1920:1080,crop=1920:360:0:720,format=yuv420p pipe:1 " +
			"-nostdin -hide_banner -nostats -loglevel error"},
		{640, 360, ocrRate{25, 1}, "", "-format_whitelist " + formatWhitelist + " -noautorotate -protocol_whitelist file,subfile " +
			"-i file:input -map 0:V:0 -an -dn -f rawvideo -sn " +
			"-vf fps=fps=25/1:start_time=0,scale=640:360,crop=640:120:0:240,scale=1280:240:flags=lanczos,format=yuv420p pipe:1 " +
			"-nostdin -hide_banner -nostats -loglevel error"},
	} {
		g, err := newOCRGeometry(c.w, c.h)
		if err != nil {
			t.Fatal(err)
		}
		args, err := ocrArgs(g, c.fps, "file:input", c.demuxer)
		if got := strings.Join(args, " "); err != nil || got != c.want {
			t.Errorf("%dx%d: args\n%s\nwant\n%s (err %v)", c.w, c.h, got, c.want, err)
		}
	}
	for _, size := range [][2]int{{0, 0}, {15, 720}, {1280, 9000}} {
		if _, err := newOCRGeometry(size[0], size[1]); err == nil {
			t.Errorf("frame size %v accepted", size)
		}
	}
}

func TestInkImagePGM(t *testing.T) {
	t.Parallel()
	m := &inkImage{w: 3, h: 2, pix: []byte{1, 0, 1, 0, 1, 1}}
	if got, want := string(m.pgm(1, 1)), "P5\n5 4\n255\n"+
		"\xff\xff\xff\xff\xff"+
		"\xff\x00\xff\x00\xff"+
		"\xff\xff\x00\x00\xff"+
		"\xff\xff\xff\xff\xff"; got != want {
		t.Errorf("pgm = %q, want %q", got, want)
	}
	// Halved: each output pixel averages a 2×2 block.
	m = &inkImage{w: 4, h: 2, pix: []byte{1, 1, 1, 0, 1, 1, 0, 0}}
	if got, want := string(m.pgm(0.5, 0)), "P5\n2 1\n255\n\x00\xc0"; got != want {
		t.Errorf("pgm at half = %q, want %q", got, want)
	}
}
