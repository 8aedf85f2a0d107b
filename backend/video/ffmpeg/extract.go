package ffmpeg

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"time"

	ffmpeggo "github.com/u2takey/ffmpeg-go"

	"github.com/captionqa/captionqa/backend/video"
)

// demuxers maps the probe's container to the demuxer a decode through
// the movie filter is forced to (the filter takes no whitelist). Read-only.
var demuxers = map[string]string{"mp4": "mov", "matroska": "matroska", "webm": "matroska", "mpegts": "mpegts"}

// Extract reads the captions spec.Mode asks for, in a run folder of its
// own that is removed before it returns:
//   - soft_track: subtitle stream spec.TrackIndex, converted to SRT;
//   - broadcast_cc: a c608 track (spec.TrackIndex ≥ 0) copied as SCC, or
//     else CEA-608 field 1 (CC1) from the video's A/53 user data, decoded
//     by ffmpeg's movie filter and written as SCC, one line per frame;
//   - ocr_burned: see ocr.
//
// The caller decodes the SCC with its own 608 decoder (pop-on, roll-up,
// paint-on), so times stay on frames. Errors: those of Render.
func (r *Runner) Extract(ctx context.Context, spec video.ExtractSpec, report func(float64)) (*video.Extracted, error) {
	switch spec.Mode {
	case video.ModeSoftTrack:
		return r.extractTrack(ctx, spec, "srt", report)
	case video.ModeBroadcastCC:
		if spec.TrackIndex >= 0 {
			return r.extractTrack(ctx, spec, "scc", report)
		}
		return r.extractA53(ctx, spec, report)
	case video.ModeOCRBurned:
		return r.ocr(ctx, spec, report)
	}
	return nil, fmt.Errorf("ffmpeg: extract: unsupported mode %q", spec.Mode)
}

// extractTrack writes subtitle stream spec.TrackIndex as format: SRT
// (converted from any text codec) or SCC (a c608 track, copied).
func (r *Runner) extractTrack(ctx context.Context, spec video.ExtractSpec, format string, report func(float64)) (*video.Extracted, error) {
	src, err := r.locate(ctx, spec.MediaKey)
	if err != nil {
		return nil, err
	}
	codec := map[string]string{"srt": "srt", "scc": "copy"}[format]
	args, err := buildArgs(func() *ffmpeggo.Stream {
		in := mediaInput(src.url())
		return ffmpeggo.Output([]*ffmpeggo.Stream{in.Get("s:" + strconv.Itoa(spec.TrackIndex))}, outputBase+format,
			ffmpeggo.KwArgs{"c:s": codec, "f": format}).GlobalArgs(globalFlags...)
	})
	if err != nil {
		return nil, err
	}
	return r.extractRun(ctx, src, spec, args, format, report)
}

// extractA53 decodes the whole video for its A/53 captions. The movie
// filter opens its file without the whitelists, so it gets a plain copy
// of the media under the fixed name and the probed demuxer forced (never
// a guess: a playlist cannot be followed). A second output decodes the
// video into nothing so that -progress reports the frames decoded; the
// captions alone report only at the end.
func (r *Runner) extractA53(ctx context.Context, spec video.ExtractSpec, report func(float64)) (*video.Extracted, error) {
	demuxer, ok := demuxers[spec.Container]
	if !ok {
		return nil, fmt.Errorf("ffmpeg: extract: unsupported container %q", spec.Container)
	}
	args, err := buildArgs(func() *ffmpeggo.Stream {
		in := ffmpeggo.Input("movie="+inputName+":f="+demuxer+"[out0+subcc]", ffmpeggo.KwArgs{"f": "lavfi"})
		captions := ffmpeggo.Output([]*ffmpeggo.Stream{in.Get("s")}, outputBase+"scc", ffmpeggo.KwArgs{"c:s": "copy", "f": "scc"})
		frames := ffmpeggo.Output([]*ffmpeggo.Stream{in.Get("v")}, "-", ffmpeggo.KwArgs{"f": "null"})
		return ffmpeggo.MergeOutputs(captions, frames).GlobalArgs(globalFlags...)
	})
	if err != nil {
		return nil, err
	}
	return r.extractRun(ctx, source{key: spec.MediaKey}, spec, args, "scc", report)
}

// extractRun stages src in a new run folder, runs args there and reads
// the output.
func (r *Runner) extractRun(ctx context.Context, src source, spec video.ExtractSpec, args []string, format string, report func(float64)) (*video.Extracted, error) {
	dir, done, err := r.stagedRun(ctx, src)
	if err != nil {
		return nil, err
	}
	defer done()
	start := time.Now()
	p := newProgress(ctx, spec.DurationSeconds, report)
	if err := r.run(ctx, dir, r.ffmpegBin, r.mem, args, p.read); err != nil {
		r.log.Warn("ffmpeg: extract failed", "mode", spec.Mode, "key", spec.MediaKey, "elapsed", time.Since(start), "err", err)
		return nil, err
	}
	data, err := os.ReadFile(filepath.Join(dir, outputBase+format))
	if err != nil {
		return nil, fmt.Errorf("ffmpeg: extract output: %w", err)
	}
	r.log.Info("ffmpeg: extracted", "mode", spec.Mode, "key", spec.MediaKey, "bytes", len(data), "elapsed", time.Since(start))
	return &video.Extracted{Data: data, Format: format}, nil
}
