package ffmpeg

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	ffmpeggo "github.com/u2takey/ffmpeg-go"

	"github.com/captionqa/captionqa/backend/video"
)

const testURL = "subfile,,start,40,end,0,,:input"

// TestArgsGolden pins the argv of each mode (one argument a line): run
// with -update to rewrite testdata/*.golden after a deliberate change.
func TestArgsGolden(t *testing.T) {
	t.Parallel()
	mux := func(container, format, codec string) video.RenderSpec {
		return video.RenderSpec{Mode: video.ModeMuxSoft, Container: container, SubtitleFormat: format, SubtitleCodec: codec, Language: "eng"}
	}
	burn := func(container string) video.RenderSpec {
		return video.RenderSpec{Mode: video.ModeBurnIn, Container: container, SubtitleFormat: "ass"}
	}
	cases := []struct {
		name string
		args func() ([]string, error)
	}{
		{"mux_soft_mp4", func() ([]string, error) { return renderArgs(mux("mp4", "srt", "mov_text"), testURL) }},
		{"mux_soft_mkv_srt", func() ([]string, error) { return renderArgs(mux("mkv", "srt", "srt"), testURL) }},
		{"mux_soft_mkv_webvtt", func() ([]string, error) { return renderArgs(mux("mkv", "vtt", "webvtt"), testURL) }},
		{"mux_soft_mkv_ass", func() ([]string, error) { return renderArgs(mux("mkv", "ass", "ass"), testURL) }},
		{"mux_soft_mp4_copied_input", func() ([]string, error) { return renderArgs(mux("mp4", "vtt", "mov_text"), "file:input") }},
		{"burn_in_mp4", func() ([]string, error) { return renderArgs(burn("mp4"), testURL) }},
		{"burn_in_mkv", func() ([]string, error) { return renderArgs(burn("mkv"), testURL) }},
		{"preview", func() ([]string, error) {
			return renderArgs(video.RenderSpec{Mode: video.ModePreview, Container: video.PreviewContainer}, testURL)
		}},
		{"probe_streams", func() ([]string, error) { return probeArgs(testURL, streamsQuery...), nil }},
		{"probe_a53", func() ([]string, error) { return probeArgs(testURL, a53Query...), nil }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			args, err := c.args()
			if err != nil {
				t.Fatal(err)
			}
			got := strings.Join(args, "\n") + "\n"
			path := filepath.Join("testdata", c.name+".golden")
			if *update {
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if got != string(want) {
				t.Errorf("argv changed (run with -update if deliberate)\ngot:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}

func TestArgsRefuse(t *testing.T) {
	t.Parallel()
	ok := video.RenderSpec{Mode: video.ModeMuxSoft, Container: "mp4", SubtitleFormat: "srt", SubtitleCodec: "mov_text", Language: "eng"}
	if _, err := renderArgs(ok, testURL); err != nil {
		t.Fatalf("valid spec refused: %v", err)
	}
	cases := []struct {
		name string
		edit func(*video.RenderSpec)
	}{
		{"sidecar mode", func(s *video.RenderSpec) { s.Mode = video.ModeSidecar }},
		{"webm container", func(s *video.RenderSpec) { s.Container = "webm" }},
		{"ttml subtitles", func(s *video.RenderSpec) { s.SubtitleFormat = "ttml" }},
		{"srt codec in mp4", func(s *video.RenderSpec) { s.SubtitleCodec = "srt" }},
		{"mov_text in mkv", func(s *video.RenderSpec) { s.Container = "mkv" }},
		{"two-letter language", func(s *video.RenderSpec) { s.Language = "en" }},
		{"upper-case language", func(s *video.RenderSpec) { s.Language = "ENG" }},
		{"language with option text", func(s *video.RenderSpec) { s.Language = "eng -f" }},
		{"burn_in from srt", func(s *video.RenderSpec) { s.Mode = video.ModeBurnIn }},
		{"preview in mp4", func(s *video.RenderSpec) { s.Mode = video.ModePreview }},
	}
	for _, c := range cases {
		spec := ok
		c.edit(&spec)
		if args, err := renderArgs(spec, testURL); err == nil {
			t.Errorf("%s: accepted: %q", c.name, args)
		}
	}
	// An empty language is "und".
	spec := ok
	spec.Language = ""
	args, err := renderArgs(spec, testURL)
	if err != nil || !strings.Contains(strings.Join(args, " "), "language=und") {
		t.Errorf("empty language: %q, %v; want language=und", args, err)
	}
}

// TestBuildArgsRecovers checks that ffmpeg-go's panics become errors.
func TestBuildArgsRecovers(t *testing.T) {
	t.Parallel()
	_, err := buildArgs(func() *ffmpeggo.Stream {
		// Output on an output stream is misuse: ffmpeg-go panics.
		return ffmpeggo.Input("input").Output("a.mp4").Output("b.mp4")
	})
	if err == nil {
		t.Fatal("no error from a panicking builder")
	}
}
