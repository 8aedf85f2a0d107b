package ffmpeg

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/captionqa/captionqa/backend/analysis"
	"github.com/captionqa/captionqa/backend/video"
	"github.com/captionqa/captionqa/backend/video/ffmpeg/fftest/programme"
)

// testLines are what the test programmes say. Read-only.
var testLines = []string{
	"Good evening, and welcome to the programme.",
	"The weather tomorrow will be cold and bright.",
	"Nobody expected the river to rise so quickly.",
	"She opened the letter and read it twice.",
	"Seven ships were waiting outside the harbour.",
	"Thank you, that is all for tonight.",
	"Music plays softly in the background.",
	"We will be right back after this.",
}

// spoken is n lines, one every every ms from 1 s on.
func spoken(n int, every int64) []programme.Line {
	out := make([]programme.Line, n)
	for i := range out {
		out[i] = programme.Line{AtMs: 1000 + int64(i)*every, Text: testLines[i%len(testLines)]}
	}
	return out
}

// scenes is one scene per source, their lengths cycling through lengths.
func scenes(sources []string, lengths ...int) []programme.Scene {
	out := make([]programme.Scene, len(sources))
	for i, s := range sources {
		out[i] = programme.Scene{Source: s, Frames: lengths[i%len(lengths)]}
	}
	return out
}

// testProgrammes are the accuracy test's programmes: hard cuts between
// unlike and like sources (colour fields, sources that change every
// frame), at 25 and 23.976 fps, clean or over a bed, in MKV and MP4; and
// one of slow fades, a pan and a picture that changes wholly every
// frame, whose one cut is into the pan. Cuts into or out of such a
// picture are not among the truth: they are lost in its own changes
// (docs/media.md, Analysis). Read-only.
var testProgrammes = []struct {
	name      string
	container string // the probe's
	spec      programme.Spec
}{
	{"cuts 25 fps clean mkv", "matroska", programme.Spec{
		Scenes: scenes([]string{"testsrc2", "smptebars", "color:red", "rgbtestsrc", "mandelbrot", "color:blue", "yuvtestsrc", "testsrc2", "color:green", "smptebars", "mandelbrot", "rgbtestsrc"}, 40, 70, 100, 110),
		Lines:  spoken(8, 3500),
	}},
	{"cuts 23.976 fps pink bed mp4", "mp4", programme.Spec{
		RateNum: 24000, RateDen: 1001, Container: "mp4", Bed: programme.BedPink, BedDB: -32,
		Scenes: scenes([]string{"smptebars", "testsrc2", "pal75bars", "color:yellow", "rgbtestsrc", "testsrc", "color:navy", "mandelbrot", "smptehdbars", "testsrc2", "color:red"}, 30, 58, 90, 120),
		Lines:  spoken(7, 3500),
	}},
	{"short shots 25 fps mp4", "mp4", programme.Spec{
		Container: "mp4",
		Scenes: scenes([]string{"color:red", "testsrc2", "color:white", "smptebars", "color:black", "rgbtestsrc", "yuvtestsrc", "color:orange", "testsrc", "mandelbrot",
			"color:purple", "smptehdbars", "testsrc2", "color:gray", "rgbtestsrc", "color:cyan", "smptebars", "pal100bars", "color:magenta", "testsrc2"}, 12, 20, 31, 8, 45),
	}},
	{"fades and a pan, tones bed", "matroska", programme.Spec{
		Bed: programme.BedTones, BedDB: -30,
		Scenes: []programme.Scene{{Source: "testsrc2", Frames: 150}, {Source: "smptebars", Frames: 200, FadeFrames: 50}, {Source: "pan", Frames: 250}, {Source: "cellauto", Frames: 150, FadeFrames: 60}},
		Lines:  spoken(5, 3500),
	}},
}

// TestAnalyzeProgrammes measures the analysis against the programmes'
// truth (docs/media.md, Analysis): shot changes at the exact frame with
// precision and recall of at least 0.98 and none on fades and pans;
// every line of 1 s or more found, onsets within 40 ms at the median,
// and no speech where there is only the bed.
func TestAnalyzeProgrammes(t *testing.T) {
	r, store := newTestRunner(t, nil)
	var truthCuts, reported, hits int
	var onsetErrs, endErrs []int64
	for _, p := range testProgrammes {
		t.Run(p.name, func(t *testing.T) {
			truth := programme.Build(t, p.spec)
			put(t, store, "prog", truth.Path)
			num, den := p.spec.RateNum, p.spec.RateDen
			if num == 0 {
				num, den = 25, 1
			}
			a, err := r.Analyze(context.Background(), video.AnalyzeSpec{
				MediaKey: "prog", Container: p.container, Video: true, Audio: true,
				FrameRateNum: num, FrameRateDen: den, DurationSeconds: float64(truth.DurationMs) / 1000,
			}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if err := a.Check(); err != nil {
				t.Fatal(err)
			}
			if a.Video.FrameCount != truth.Frames {
				t.Errorf("%d frames decoded, want %d", a.Video.FrameCount, truth.Frames)
			}
			var got []int64
			for _, c := range a.Video.ShotChanges {
				got = append(got, c.Frame)
				if want := a.Video.FrameRate.TimeOf(c.Frame); c.TimeMs < want-1 || c.TimeMs > want+1 {
					t.Errorf("cut at frame %d: %d ms, want %d", c.Frame, c.TimeMs, want)
				}
			}
			n := 0
			for _, f := range got {
				if slices.Contains(truth.Cuts, f) {
					n++
				}
			}
			if n != len(got) || n != len(truth.Cuts) {
				t.Logf("cuts %v, want %v", got, truth.Cuts)
			}
			truthCuts, reported, hits = truthCuts+len(truth.Cuts), reported+len(got), hits+n

			speech := a.Audio.Speech
			for _, s := range truth.Speech {
				if s.DurationMs() < 1000 {
					continue
				}
				i := slices.IndexFunc(speech, func(g analysis.Segment) bool { return g.StartMs < s.EndMs && g.EndMs > s.StartMs })
				if i < 0 {
					t.Errorf("speech %d-%d ms not found (found %v)", s.StartMs, s.EndMs, speech)
					continue
				}
				onsetErrs = append(onsetErrs, abs64(speech[i].StartMs-s.StartMs))
				// The end is the last overlapping segment's.
				j := i
				for j+1 < len(speech) && speech[j+1].StartMs < s.EndMs {
					j++
				}
				endErrs = append(endErrs, abs64(speech[j].EndMs-s.EndMs))
			}
			for _, q := range quiet(truth) {
				for _, g := range speech {
					if g.StartMs < q[1] && g.EndMs > q[0] {
						t.Errorf("speech %d-%d ms in the bed-only stretch %d-%d ms", g.StartMs, g.EndMs, q[0], q[1])
					}
				}
			}
			// AAC's priming and padding may add a frame of sound or two.
			if w := a.Audio.Waveform; abs64(int64(len(w.Peaks))-truth.DurationMs/10) > 10 {
				t.Errorf("%d peaks for %d ms", len(w.Peaks), truth.DurationMs)
			}
		})
	}
	if truthCuts == 0 || reported == 0 || len(onsetErrs) == 0 {
		t.Fatalf("nothing measured: %d cuts, %d reported, %d lines", truthCuts, reported, len(onsetErrs))
	}
	precision, recall := float64(hits)/float64(reported), float64(hits)/float64(truthCuts)
	slices.Sort(onsetErrs)
	slices.Sort(endErrs)
	median := onsetErrs[len(onsetErrs)/2]
	t.Logf("shot changes: %d cuts, %d reported, precision %.3f, recall %.3f; speech: %d lines, onset error median %d ms, max %d ms; end error median %d ms, max %d ms",
		truthCuts, reported, precision, recall, len(onsetErrs), median, onsetErrs[len(onsetErrs)-1], endErrs[len(endErrs)/2], endErrs[len(endErrs)-1])
	if precision < 0.98 || recall < 0.98 {
		t.Errorf("precision %.3f, recall %.3f: want 0.98 or more", precision, recall)
	}
	if median > 40 {
		t.Errorf("onset error median %d ms, want 40 or less (all: %v)", median, onsetErrs)
	}
}

// quiet returns the stretches of at least 3 s without speech, less a
// margin each side for the VAD's hangover.
func quiet(truth programme.Truth) [][2]int64 {
	var out [][2]int64
	prev := int64(0)
	for _, s := range append(slices.Clone(truth.Speech), analysis.Segment{StartMs: truth.DurationMs}) {
		if s.StartMs-prev >= 3000 {
			out = append(out, [2]int64{prev + 500, s.StartMs - 300})
		}
		prev = s.EndMs
	}
	return out
}

// TestAnalyzeStages: a stage left out is not run, and its part is nil.
func TestAnalyzeStages(t *testing.T) {
	r, store := newTestRunner(t, nil)
	truth := programme.Build(t, programme.Spec{Scenes: scenes([]string{"testsrc2", "smptebars"}, 50), Lines: spoken(1, 0)})
	put(t, store, "prog", truth.Path)
	for _, tc := range []struct{ video, audio bool }{{true, false}, {false, true}} {
		t.Run(fmt.Sprintf("video=%v,audio=%v", tc.video, tc.audio), func(t *testing.T) {
			var last float64
			a, err := r.Analyze(context.Background(), video.AnalyzeSpec{
				MediaKey: "prog", Container: "matroska", Video: tc.video, Audio: tc.audio,
				FrameRateNum: 25, FrameRateDen: 1, DurationSeconds: 4,
			}, func(f float64) {
				if f < last || f > 1 {
					t.Errorf("progress %v after %v", f, last)
				}
				last = f
			})
			if err != nil {
				t.Fatal(err)
			}
			if (a.Video != nil) != tc.video || (a.Audio != nil) != tc.audio {
				t.Fatalf("video %v, audio %v", a.Video, a.Audio)
			}
			if last < 0.99 {
				t.Errorf("last progress %v", last)
			}
			if tc.video && !slices.Equal(frames(a.Video.ShotChanges), []int64{50}) {
				t.Errorf("cuts %v", a.Video.ShotChanges)
			}
			if tc.audio && len(a.Audio.Speech) != 1 {
				t.Errorf("speech %v", a.Audio.Speech)
			}
		})
	}
	if _, err := r.Analyze(context.Background(), video.AnalyzeSpec{MediaKey: "prog", Container: "avi", Video: true}, nil); err == nil {
		t.Error("an unsupported container was analysed")
	}
	if left := runFolders(t, r); len(left) != 0 {
		t.Errorf("run folders left: %v", left)
	}
}

// TestAnalyzeCanceled: a cancel during the decode stops both stages and
// leaves no run folder.
func TestAnalyzeCanceled(t *testing.T) {
	r, store := newTestRunner(t, nil)
	truth := programme.Build(t, programme.Spec{Scenes: scenes([]string{"mandelbrot"}, 500)})
	put(t, store, "prog", truth.Path)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	_, err := r.Analyze(ctx, video.AnalyzeSpec{
		MediaKey: "prog", Container: "matroska", Video: true, Audio: true, FrameRateNum: 25, FrameRateDen: 1, DurationSeconds: 20,
	}, func(float64) { cancel() })
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v, want context.Canceled", err)
	}
	if left := runFolders(t, r); len(left) != 0 {
		t.Errorf("run folders left: %v", left)
	}
}

func frames(cs []analysis.ShotChange) []int64 {
	var out []int64
	for _, c := range cs {
		out = append(out, c.Frame)
	}
	return out
}

func abs64(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

// TestAnalyzeSceneScores reads the metadata filter's print as ffmpeg
// 5.1 writes it, and refuses a line it cannot parse.
func TestAnalyzeSceneScores(t *testing.T) {
	var b strings.Builder
	for f := range 100 {
		mafd := 0.4
		if f == 60 {
			mafd = 40.2
		}
		fmt.Fprintf(&b, "frame:%-4d pts:%-7d pts_time:%g\nlavfi.scd.mafd=%.3f\nlavfi.scd.score=%.3f\n", f, f*512, float64(f)*0.04, mafd, min(mafd, 39.8))
		if f == 60 {
			b.WriteString("lavfi.scd.time=2.4\n")
		}
	}
	var reports []float64
	s := sceneScores{det: analysis.NewShotDetector(analysis.ShotOptions{}), durationS: 4, report: func(f float64) { reports = append(reports, f) }}
	s.read(strings.NewReader(b.String()))
	if s.err != nil {
		t.Fatal(s.err)
	}
	if got := s.det.Changes(); s.frames != 100 || len(got) != 1 || got[0] != (analysis.ShotChange{TimeMs: 2400, Frame: 60, Score: 39.8}) {
		t.Errorf("%d frames, changes %v", s.frames, got)
	}
	if len(reports) != 100 || reports[99] < 0.98 {
		t.Errorf("progress %v", reports[len(reports)-1])
	}
	for _, bad := range []string{"frame:x pts:0 pts_time:0\n", "frame:1 pts:0\n", "frame:1 pts:0 pts_time:0\nlavfi.scd.score=high\n"} {
		s := sceneScores{det: analysis.NewShotDetector(analysis.ShotOptions{}), report: func(float64) {}}
		s.read(strings.NewReader(bad))
		if s.err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

// TestAnalyzeLateSound: a sound that starts after the picture keeps its
// place: times are the programme's, not the sound stream's.
func TestAnalyzeLateSound(t *testing.T) {
	r, store := newTestRunner(t, nil)
	path := filepath.Join(t.TempDir(), "late.mkv")
	cmd := exec.Command("ffmpeg", "-nostdin", "-loglevel", "error", "-f", "lavfi", "-i", "testsrc2=s=160x90:r=25:d=4",
		"-itsoffset", "1", "-f", "lavfi", "-i", "sine=f=440:d=1.5:sample_rate=16000",
		"-map", "0", "-map", "1", "-c:v", "libx264", "-preset", "ultrafast", "-c:a", "pcm_s16le", path)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	put(t, store, "late", path)
	a, err := r.Analyze(context.Background(), video.AnalyzeSpec{
		MediaKey: "late", Container: "matroska", Audio: true, DurationSeconds: 4,
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if s := a.Audio.Speech; len(s) != 1 || abs64(s[0].StartMs-1000) > 30 || abs64(s[0].EndMs-2500) > 30 {
		t.Errorf("speech %v, want 1000-2500 ms", s)
	}
}
