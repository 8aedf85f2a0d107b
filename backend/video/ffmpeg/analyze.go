package ffmpeg

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"sync"
	"time"

	ffmpeggo "github.com/u2takey/ffmpeg-go"

	"github.com/captionqa/captionqa/backend/analysis"
	"github.com/captionqa/captionqa/backend/video"
)

// analyzeFlags are globalFlags without -progress: each stage's standard
// output carries its data (scene scores, PCM), and progress is read from
// that. Read-only.
var analyzeFlags = []string{"-nostdin", "-hide_banner", "-nostats", "-loglevel", "error", "-y"}

// pcmBytesPerSecond is the audio stage's output: 16 kHz mono s16le.
const pcmBytesPerSecond = 2 * analysis.WaveformSampleRate

// Stage weights of the progress: the picture's decode costs some 30
// times the sound's (docs/media.md, Analysis).
const (
	pictureWeight = 0.95
	soundWeight   = 1 - pictureWeight
)

// Analyze computes the analysis of the media at spec.MediaKey in a run
// folder of its own: shot changes from the picture (spec.Video), speech
// and waveform from the sound (spec.Audio), by two ffmpeg processes that
// run at once on the one staged input, each under the memory limit.
//
// The picture stage decodes the first video stream through scdet and
// prints every frame's difference and score, which
// [analysis.ShotDetector] filters;
// frame count and times come from that decode. The sound stage decodes
// the first audio stream to 16 kHz mono PCM on a pipe (padded at the
// start when the sound starts late, so times stay the programme's), read
// as it comes by [analysis.VAD] and [analysis.WaveformBuilder]: memory
// stays flat whatever the length. Progress (0 to 1) weighs the two stages by their
// cost. When ctx ends or one stage fails, both processes' groups are
// stopped.
//
// Errors: those of Render (a *[video.RunError] when ffmpeg fails, ctx's
// error when canceled); an error for a container the adapter does not
// decode.
func (r *Runner) Analyze(ctx context.Context, spec video.AnalyzeSpec, report func(float64)) (*analysis.Analysis, error) {
	demuxer, ok := demuxers[spec.Container]
	if !ok {
		return nil, fmt.Errorf("ffmpeg: analyze: unsupported container %q", spec.Container)
	}
	src, err := r.locate(ctx, spec.MediaKey)
	if err != nil {
		return nil, err
	}
	dir, done, err := r.stagedRun(ctx, src)
	if err != nil {
		return nil, err
	}
	defer done()

	start := time.Now()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	prog := newStageProgress(ctx, spec, report)
	out := &analysis.Analysis{Version: analysis.Version, DurationMs: int64(math.Round(spec.DurationSeconds * 1000))}
	var (
		wg       sync.WaitGroup
		mu       sync.Mutex
		firstErr error
	)
	fail := func(err error) {
		mu.Lock()
		defer mu.Unlock()
		if firstErr == nil {
			firstErr = err
			cancel() // the other stage is of no use now
		}
	}
	var pictureTime, soundTime time.Duration
	if spec.Video {
		wg.Go(func() {
			t := time.Now()
			v, err := r.analyzePicture(ctx, dir, src.url(), demuxer, spec, prog.picture)
			pictureTime = time.Since(t)
			if err != nil {
				fail(err)
				return
			}
			out.Video = v
		})
	}
	if spec.Audio {
		wg.Go(func() {
			t := time.Now()
			a, err := r.analyzeSound(ctx, dir, src.url(), demuxer, prog.sound)
			soundTime = time.Since(t)
			if err != nil {
				fail(err)
				return
			}
			out.Audio = a
		})
	}
	wg.Wait()
	if firstErr != nil {
		r.log.Warn("ffmpeg: analyze failed", "key", spec.MediaKey, "elapsed", time.Since(start), "err", firstErr)
		return nil, firstErr
	}
	prog.finish()
	r.log.Info("ffmpeg: analyzed", "key", spec.MediaKey, "elapsed", time.Since(start), "picture", pictureTime, "sound", soundTime)
	return out, nil
}

// pictureDecoding are the picture stage's decoder options: no deblocking
// and the decoders' fast paths. On the 10-minute 720p H.264 benchmark
// programme they took some 15% off the decode's CPU time with the same
// cuts at the same frames (docs/media.md, Analysis): scdet compares whole
// frames, which block edges hardly move. Read-only.
var pictureDecoding = map[string]string{"skip_loop_filter": "all", "flags2": "fast"}

// analyzeInput is the media as an analysis stage's input: behind the
// whitelists, its demuxer forced to the probe's, with decoder options.
func analyzeInput(url, demuxer string, decoding map[string]string) *ffmpeggo.Stream {
	kw := ffmpeggo.KwArgs{
		"f":                  demuxer,
		"format_whitelist":   formatWhitelist,
		"protocol_whitelist": protocolWhitelist,
	}
	for k, v := range decoding {
		kw[k] = v
	}
	return ffmpeggo.Input(url, kw)
}

// analyzePicture runs the picture stage.
func (r *Runner) analyzePicture(ctx context.Context, dir, url, demuxer string, spec video.AnalyzeSpec, report func(float64)) (*analysis.Video, error) {
	args, err := buildArgs(func() *ffmpeggo.Stream {
		in := analyzeInput(url, demuxer, pictureDecoding)
		return ffmpeggo.Output([]*ffmpeggo.Stream{in.Get("V:0")}, "-", ffmpeggo.KwArgs{
			"vf": "scdet=threshold=" + strconv.Itoa(analysis.DefaultShotThreshold) + ",metadata=print:file=-",
			"an": "", "sn": "", "dn": "", "f": "null",
		}).GlobalArgs(analyzeFlags...)
	})
	if err != nil {
		return nil, err
	}
	det := analysis.NewShotDetector(analysis.ShotOptions{})
	sc := sceneScores{det: det, durationS: spec.DurationSeconds, report: report}
	if err := r.run(ctx, dir, r.ffmpegBin, r.mem, args, sc.read); err != nil {
		return nil, err
	}
	if sc.err != nil {
		return nil, sc.err
	}
	rate := analysis.Rational{Num: spec.FrameRateNum, Den: spec.FrameRateDen}
	if rate.Num <= 0 || rate.Den <= 0 {
		rate = decodedRate(sc.frames, sc.lastPtsS)
	}
	return &analysis.Video{FrameRate: rate, FrameCount: sc.frames, ShotChanges: det.Changes()}, nil
}

// decodedRate is the rate frames over lastPts seconds show, for a probe
// that gave none: in thousandths of a frame a second.
func decodedRate(frames int64, lastPtsS float64) analysis.Rational {
	if frames < 2 || lastPtsS <= 0 {
		return analysis.Rational{Num: 25, Den: 1}
	}
	return analysis.Rational{Num: int64(math.Round(float64(frames-1) / lastPtsS * 1000)), Den: 1000}
}

// sceneScores reads the metadata filter's print of scdet: for each frame
// a line "frame:N pts:P pts_time:T" and its keys, lavfi.scd.mafd and
// lavfi.scd.score among them.
type sceneScores struct {
	det       *analysis.ShotDetector
	durationS float64
	report    func(float64)

	frames   int64
	frame    int64
	ptsS     float64
	mafd     float64
	lastPtsS float64
	err      error
}

func (s *sceneScores) read(rd io.Reader) {
	sc := bufio.NewScanner(rd)
	for sc.Scan() {
		line := sc.Bytes()
		switch {
		case bytes.HasPrefix(line, []byte("frame:")):
			if err := s.frameLine(line); err != nil {
				s.err = err
				return
			}
		case bytes.HasPrefix(line, []byte(mafdKey)):
			if s.mafd, s.err = parseValue(line, mafdKey); s.err != nil {
				return
			}
		case bytes.HasPrefix(line, []byte(scoreKey)):
			// scdet prints the difference, then the score.
			score, err := parseValue(line, scoreKey)
			if err != nil {
				s.err = err
				return
			}
			s.det.Add(analysis.FrameScore{Frame: s.frame, TimeMs: int64(math.Round(s.ptsS * 1000)), Score: score, MAFD: s.mafd})
		}
	}
	if err := sc.Err(); err != nil {
		s.err = fmt.Errorf("ffmpeg: analyze: scene scores: %w", err)
	}
}

// scdet's keys.
const (
	mafdKey  = "lavfi.scd.mafd="
	scoreKey = "lavfi.scd.score="
)

func parseValue(line []byte, key string) (float64, error) {
	v, err := strconv.ParseFloat(string(line[len(key):]), 64)
	if err != nil {
		return 0, fmt.Errorf("ffmpeg: analyze: scene detector line %q", line)
	}
	return v, nil
}

// frameLine parses "frame:N    pts:P       pts_time:T".
func (s *sceneScores) frameLine(line []byte) error {
	var n int64
	var pts float64
	fields := bytes.Fields(line)
	ok := len(fields) == 3
	if ok {
		var err1, err2 error
		n, err1 = strconv.ParseInt(string(bytes.TrimPrefix(fields[0], []byte("frame:"))), 10, 64)
		pts, err2 = strconv.ParseFloat(string(bytes.TrimPrefix(fields[2], []byte("pts_time:"))), 64)
		ok = err1 == nil && err2 == nil
	}
	if !ok {
		return fmt.Errorf("ffmpeg: analyze: frame line %q", line)
	}
	s.frame, s.ptsS = n, pts
	s.frames = n + 1
	s.lastPtsS = max(s.lastPtsS, pts)
	if s.durationS > 0 {
		s.report(min(pts/s.durationS, 1))
	}
	return nil
}

// analyzeSound runs the sound stage.
func (r *Runner) analyzeSound(ctx context.Context, dir, url, demuxer string, report func(float64)) (*analysis.Audio, error) {
	args, err := buildArgs(func() *ffmpeggo.Stream {
		in := analyzeInput(url, demuxer, nil)
		return ffmpeggo.Output([]*ffmpeggo.Stream{in.Get("a:0")}, "-", ffmpeggo.KwArgs{
			// first_pts pads a sound that starts after the picture
			// with silence, so that sample 0 is the programme's start.
			"af": "aresample=first_pts=0",
			"ac": "1", "ar": strconv.Itoa(analysis.WaveformSampleRate), "f": "s16le",
			"vn": "", "sn": "", "dn": "",
		}).GlobalArgs(analyzeFlags...)
	})
	if err != nil {
		return nil, err
	}
	vad := analysis.NewVAD()
	wave := analysis.NewWaveformBuilder(0)
	var readErr error
	err = r.run(ctx, dir, r.ffmpegBin, r.mem, args, func(rd io.Reader) {
		counted := &pcmProgress{report: report}
		buf := make([]byte, 64<<10)
		_, readErr = io.CopyBuffer(io.MultiWriter(vad, wave, counted), rd, buf)
	})
	if err != nil {
		return nil, err
	}
	if readErr != nil && !errors.Is(readErr, io.EOF) {
		return nil, fmt.Errorf("ffmpeg: analyze: sound: %w", readErr)
	}
	return &analysis.Audio{Speech: vad.Segments(), Waveform: wave.Waveform()}, nil
}

// pcmProgress reports the seconds of PCM that went by.
type pcmProgress struct {
	n      int64
	report func(float64)
}

func (p *pcmProgress) Write(b []byte) (int, error) {
	p.n += int64(len(b))
	p.report(float64(p.n) / pcmBytesPerSecond)
	return len(b), nil
}

// stageProgress combines the stages' progress into one fraction for
// report: each stage's weight times its share done, never going back, at
// most one report per progressInterval, none once ctx has ended.
type stageProgress struct {
	ctx        context.Context
	report     func(float64)
	durationS  float64
	wPic, wSnd float64

	mu       sync.Mutex
	pic, snd float64
	sent     float64
	sentAt   time.Time
}

func newStageProgress(ctx context.Context, spec video.AnalyzeSpec, report func(float64)) *stageProgress {
	p := &stageProgress{ctx: ctx, report: report, durationS: spec.DurationSeconds}
	switch {
	case spec.Video && spec.Audio:
		p.wPic, p.wSnd = pictureWeight, soundWeight
	case spec.Video:
		p.wPic = 1
	default:
		p.wSnd = 1
	}
	return p
}

// picture takes the picture stage's fraction.
func (p *stageProgress) picture(f float64) { p.update(&p.pic, f) }

// sound takes the seconds of sound decoded.
func (p *stageProgress) sound(seconds float64) {
	if p.durationS > 0 {
		p.update(&p.snd, min(seconds/p.durationS, 1))
	}
}

func (p *stageProgress) update(stage *float64, f float64) {
	if p.report == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	*stage = max(*stage, f)
	p.send(false)
}

// send reports the combined fraction if it moved (and, unless final, if
// progressInterval has gone by).
func (p *stageProgress) send(final bool) {
	v := min(p.wPic*p.pic+p.wSnd*p.snd, 1)
	if v <= p.sent || p.ctx.Err() != nil || (!final && time.Since(p.sentAt) < progressInterval) {
		return
	}
	p.sent, p.sentAt = v, time.Now()
	p.report(v)
}

// finish reports the last value after both stages ended well.
func (p *stageProgress) finish() {
	if p.report == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.send(true)
}
