package fftest

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// ClipOptions shape a test clip: testsrc2 video (a busy, colourful
// pattern with a moving part) and, unless NoAudio, a 440 Hz tone.
type ClipOptions struct {
	// Width and Height default to 640×360, FPS to 30, Seconds to 10.
	Width, Height, FPS int
	Seconds            float64
	// Container is "mp4" (the default) or "mkv".
	Container string
	NoAudio   bool
	// Tracks are text subtitle tracks to mux, in order.
	Tracks []Track
}

// Track is a text subtitle track of a clip.
type Track struct {
	// Codec defaults to mov_text in MP4 and srt in MKV (which also takes
	// webvtt and ass).
	Codec    string
	Language string // ISO 639-2; "" leaves it untagged
	Title    string
	Default  bool
	Cues     []Cue
}

// Clip returns the path of a clip of shape o (H.264 ultrafast yuv420p,
// AAC), made once and cached (see the package comment). It fails t when
// ffmpeg is missing or fails.
func Clip(t testing.TB, o ClipOptions) string {
	t.Helper()
	if o.Width == 0 {
		o.Width, o.Height = 640, 360
	}
	if o.FPS == 0 {
		o.FPS = 30
	}
	if o.Seconds == 0 {
		o.Seconds = 10
	}
	if o.Container == "" {
		o.Container = "mp4"
	}
	return cached(t, fmt.Sprintf("clip %+v", o), o.Container, func(out string) error { return makeClip(o, out) })
}

func makeClip(o ClipOptions, out string) error {
	dir := filepath.Dir(out)
	secs := strconv.FormatFloat(o.Seconds, 'f', -1, 64)
	args := []string{"-f", "lavfi", "-i", fmt.Sprintf("testsrc2=size=%dx%d:rate=%d:duration=%s", o.Width, o.Height, o.FPS, secs)}
	maps, inputs := []string{"-map", "0:v"}, 1
	if !o.NoAudio {
		args = append(args, "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration="+secs)
		maps, inputs = append(maps, "-map", "1:a"), inputs+1
	}
	var codecs []string
	for i, tr := range o.Tracks {
		name := fmt.Sprintf("track%d.srt", i)
		if err := os.WriteFile(filepath.Join(dir, name), SRT(tr.Cues), 0o600); err != nil {
			return err
		}
		args = append(args, "-f", "srt", "-i", name)
		maps, inputs = append(maps, "-map", strconv.Itoa(inputs)+":0"), inputs+1
		codec := tr.Codec
		if codec == "" {
			codec = map[string]string{"mp4": "mov_text", "mkv": "srt"}[o.Container]
		}
		s := strconv.Itoa(i)
		codecs = append(codecs, "-c:s:"+s, codec)
		if tr.Language != "" {
			codecs = append(codecs, "-metadata:s:s:"+s, "language="+tr.Language)
		}
		if tr.Title != "" {
			codecs = append(codecs, "-metadata:s:s:"+s, "title="+tr.Title)
		}
		disposition := "0"
		if tr.Default {
			disposition = "default"
		}
		codecs = append(codecs, "-disposition:s:"+s, disposition)
	}
	args = append(args, maps...)
	args = append(args, "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-c:a", "aac")
	args = append(args, codecs...)
	_, err := ffmpeg(dir, append(args, out)...)
	return err
}
