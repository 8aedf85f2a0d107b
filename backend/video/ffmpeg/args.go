package ffmpeg

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"

	ffmpeggo "github.com/u2takey/ffmpeg-go"

	"github.com/captionqa/captionqa/backend/video"
)

// Whitelists of every media input. The formats are the ones the product
// accepts (ISO/MOV family, Matroska/WebM, MPEG-TS); an HLS playlist or a
// concat list renamed .mp4 is refused instead of being followed to the
// files it names.
const (
	formatWhitelist   = "mov,mp4,m4a,3gp,3g2,mj2,matroska,webm,mpegts"
	protocolWhitelist = "file,subfile"
)

// Fixed names inside a run folder: no user text reaches an argv.
const (
	inputName  = "input"
	subsPrefix = "subs."
	outputBase = "output."
)

// globalFlags keep ffmpeg quiet except for errors, away from the
// terminal, and reporting progress on stdout (progress.go). ffmpeg-go
// emits global args after the output file; ffmpeg reads global options
// wherever they stand. Read-only.
var globalFlags = []string{"-nostdin", "-hide_banner", "-nostats", "-loglevel", "error", "-progress", "pipe:1", "-y"}

// languageTag is an ISO 639-2 code, the form a soft track's language
// takes (see the OpenAPI operation createRenderJob). Read-only.
var languageTag = regexp.MustCompile(`^[a-z]{3}$`)

// subtitleDemuxers maps RenderSpec.SubtitleFormat to the demuxer forced on
// subs.<ext>: never let ffmpeg guess the format of text we were given.
// Read-only.
var subtitleDemuxers = map[string]string{"srt": "srt", "vtt": "webvtt", "ass": "ass"}

// ownCodecs maps RenderSpec.SubtitleFormat to the subtitle codec that is
// the format itself: a track asked in it is copied as written. Converting
// would lose text: ffmpeg's decoders undo the escapes they read
// ("&lt;" in WebVTT) and its SubRip and WebVTT encoders do not escape it
// again, so "<LAUGHING & WHOOPS!>" would reach the track as a tag that
// every reader drops. Read-only.
var ownCodecs = map[string]string{"srt": "srt", "vtt": "webvtt", "ass": "ass"}

// containerCodecs lists the subtitle codecs each output container takes.
// MP4 has only mov_text (srt fails: "Could not find tag for codec
// subrip"). Read-only.
var containerCodecs = map[string][]string{
	"mp4": {"mov_text"},
	"mkv": {"srt", "webvtt", "ass"},
}

// contentTypes maps the output container to its media type. Read-only.
var contentTypes = map[string]string{"mp4": "video/mp4", "mkv": "video/x-matroska", video.PreviewContainer: "video/webm"}

// Shape of a preview (docs/media.md, Playing the media): a proxy at most
// previewWidth wide that the editor's player seeks in quickly (a key
// frame at least every previewGOP frames).
const (
	previewWidth = 640
	previewGOP   = 30
)

// renderArgs returns ffmpeg's arguments (without the binary) for spec,
// reading the media from inputURL. It fails on a spec the adapter cannot
// render: an unknown mode, container, subtitle format or codec, a codec
// the container does not take, a burn_in from anything but ASS, a
// preview in anything but WebM, or a language that is not three
// lowercase letters.
func renderArgs(spec video.RenderSpec, inputURL string) ([]string, error) {
	if _, ok := contentTypes[spec.Container]; !ok {
		return nil, fmt.Errorf("ffmpeg: render: unsupported container %q", spec.Container)
	}
	if spec.Mode == video.ModePreview {
		if spec.Container != video.PreviewContainer {
			return nil, fmt.Errorf("ffmpeg: render: a preview is WebM, not %q", spec.Container)
		}
		return buildArgs(func() *ffmpeggo.Stream { return preview(inputURL) })
	}
	if spec.Container == video.PreviewContainer {
		return nil, fmt.Errorf("ffmpeg: render: only a preview is WebM, not %s", spec.Mode)
	}
	demuxer, ok := subtitleDemuxers[spec.SubtitleFormat]
	if !ok {
		return nil, fmt.Errorf("ffmpeg: render: unsupported subtitle format %q", spec.SubtitleFormat)
	}
	switch spec.Mode {
	case video.ModeMuxSoft:
		if !slices.Contains(containerCodecs[spec.Container], spec.SubtitleCodec) {
			return nil, fmt.Errorf("ffmpeg: render: subtitle codec %q cannot go into %s", spec.SubtitleCodec, spec.Container)
		}
		lang := spec.Language
		if lang == "" {
			lang = "und"
		}
		if !languageTag.MatchString(lang) {
			return nil, fmt.Errorf("ffmpeg: render: language %q is not an ISO 639-2 code", spec.Language)
		}
		return buildArgs(func() *ffmpeggo.Stream { return muxSoft(spec, inputURL, demuxer, lang) })
	case video.ModeBurnIn:
		if spec.SubtitleFormat != "ass" {
			return nil, fmt.Errorf("ffmpeg: render: burn_in needs ASS subtitles, not %q", spec.SubtitleFormat)
		}
		return buildArgs(func() *ffmpeggo.Stream { return burnIn(spec, inputURL) })
	}
	return nil, fmt.Errorf("ffmpeg: render: unsupported mode %q", spec.Mode)
}

// mediaInput is the media as an ffmpeg input, behind both whitelists.
func mediaInput(url string) *ffmpeggo.Stream {
	return ffmpeggo.Input(url, ffmpeggo.KwArgs{
		"format_whitelist":   formatWhitelist,
		"protocol_whitelist": protocolWhitelist,
	})
}

// muxSoft copies the video and audio and adds subs.<ext> as the only
// subtitle track, default and tagged with lang: copied too when it is
// already in the codec asked for ([ownCodecs]), else converted.
//
// The video is mapped as V:0, not v:0: capital V skips attached pictures
// (cover art), which may come before the real video track.
func muxSoft(spec video.RenderSpec, inputURL, demuxer, lang string) *ffmpeggo.Stream {
	in := mediaInput(inputURL)
	subs := ffmpeggo.Input(subsPrefix+spec.SubtitleFormat, ffmpeggo.KwArgs{
		"f":                  demuxer,
		"protocol_whitelist": "file",
	})
	codec := spec.SubtitleCodec
	if ownCodecs[spec.SubtitleFormat] == codec {
		codec = "copy"
	}
	kw := ffmpeggo.KwArgs{
		"c:v":             "copy",
		"c:a":             "copy",
		"c:s":             codec,
		"metadata:s:s:0":  "language=" + lang,
		"disposition:s:0": "default",
	}
	if spec.Container == "mp4" {
		kw["movflags"] = "+faststart"
	}
	return ffmpeggo.Output([]*ffmpeggo.Stream{in.Get("V:0"), in.Get("a?"), subs.Get("0")}, outputBase+spec.Container, kw).
		GlobalArgs(globalFlags...)
}

// burnIn renders subs.ass onto the video with libass and re-encodes it
// with libx264; the audio is copied and subtitle tracks dropped. The
// service writes the ASS with PlayResX/Y equal to the video's size, so
// libass does not rescale it. -a53cc 0 drops A/53 captions the source may
// carry: after a burn-in they would show the captions twice.
func burnIn(spec video.RenderSpec, inputURL string) *ffmpeggo.Stream {
	in := mediaInput(inputURL)
	kw := ffmpeggo.KwArgs{
		"vf":      "ass=" + subsPrefix + "ass",
		"c:v":     "libx264",
		"preset":  "veryfast",
		"crf":     "20",
		"pix_fmt": "yuv420p",
		"a53cc":   "0",
		"c:a":     "copy",
		"sn":      "",
	}
	if spec.Container == "mp4" {
		kw["movflags"] = "+faststart"
	}
	return ffmpeggo.Output([]*ffmpeggo.Stream{in.Get("V:0"), in.Get("a?")}, outputBase+spec.Container, kw).
		GlobalArgs(globalFlags...)
}

// preview transcodes the first real video stream and the first audio
// stream to a small WebM (VP9 and Opus) for the editor's player:
//   - timing kept exactly: the times count from the source's start, as
//     the editor's cue times and the analysis do (docs/media.md,
//     Analysis), ffmpeg's default: an MPEG-TS whose first frame is at
//     1.4 s plays it at 0 as the analysis counts it, where keeping the
//     raw timestamps (-copyts) would show every caption 1.4 s late;
//     -fps_mode passthrough neither drops nor duplicates a frame, so the
//     frame rate and the frame count are the source's; the encoder keeps
//     the source's time base (an MPEG-TS's times are off the frame grid)
//     and WebM counts milliseconds, so each frame lands within half a
//     millisecond of its source time;
//   - the picture at most 640 px wide, the aspect kept and both sides
//     even (VP9's 4:2:0), interlaced frames deinterlaced one for one
//     (yadif without doubling the rate);
//   - speed over size: libvpx's realtime deadline at its fastest
//     setting, 500 kbit/s, a key frame every 30 frames so a seek decodes
//     little; the sound downmixed to stereo Opus at 64 kbit/s;
//   - subtitle and data streams dropped.
func preview(inputURL string) *ffmpeggo.Stream {
	in := mediaInput(inputURL)
	return ffmpeggo.Output([]*ffmpeggo.Stream{in.Get("V:0"), in.Get("a:0?")}, outputBase+video.PreviewContainer, ffmpeggo.KwArgs{
		"vf":       fmt.Sprintf("yadif=mode=send_frame:deint=interlaced,scale=w='min(%d,trunc(iw/2)*2)':h=-2,format=yuv420p", previewWidth),
		"fps_mode": "passthrough",
		// The encoder counts in the source's time base, not in frames:
		// a source whose times are off the frame grid keeps them.
		"enc_time_base:v": "-1",
		"c:v":             "libvpx-vp9",
		"deadline":        "realtime",
		"cpu-used":        "8",
		"row-mt":          "1",
		"b:v":             "500k",
		"g":               strconv.Itoa(previewGOP),
		"c:a":             "libopus",
		// Opus primes its decoder with 6.5 ms before the first sample:
		// that packet goes before 0 rather than the whole file 7 ms
		// later (the muxer's default), so the picture keeps its times.
		"avoid_negative_ts": "disabled",
		"b:a":               "64k",
		"ac":                "2",
		"sn":                "",
		"dn":                "",
	}).GlobalArgs(globalFlags...)
}

// buildArgs runs an ffmpeg-go builder and returns its GetArgs, turning the
// panics ffmpeg-go uses for misuse into an error.
func buildArgs(build func() *ffmpeggo.Stream) (args []string, err error) {
	defer func() {
		if p := recover(); p != nil {
			args, err = nil, fmt.Errorf("ffmpeg: build command: %v", p)
		}
	}()
	return build().GetArgs(), nil
}
