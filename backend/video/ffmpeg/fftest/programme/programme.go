// Package programme makes test programmes for the media analysis: a
// media file whose shot changes and speech are known, built with
// espeak-ng and ffmpeg from a [Spec], with the truth read from what was
// rendered (docs/media.md, Analysis). [Cached] keeps the long ones (a
// benchmark's) between runs. It is for _test files only.
//
// When espeak-ng or ffmpeg is missing, Build skips the test with the
// install step to take, and fails it when CI=true: in CI a skip would
// hide a missing install step.
package programme

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/captionqa/captionqa/backend/analysis"
)

// speechRate is espeak-ng's output rate; the speech track is mixed at it.
const speechRate = 22050

// onsetLevel is the sample level (about -40 dBFS) from which espeak-ng's
// output counts as speech: its lead-in and tail are exact zeros or near.
const onsetLevel = 328

// Spec describes a programme.
type Spec struct {
	// Width and Height of the picture; default 320x180.
	Width, Height int
	// RateNum/RateDen is the frame rate; default 25/1.
	RateNum, RateDen int64
	// Scenes follow one another: each boundary is a hard cut unless the
	// later scene has a FadeFrames.
	Scenes []Scene
	// Lines are spoken by espeak-ng, each starting at its AtMs (its
	// speech starts a little later: the truth says when).
	Lines []Line
	// Bed under the whole programme: "" for none, BedPink (pink noise)
	// or BedTones (a chord changing every 2 s), at BedDB dBFS (default
	// -30).
	Bed   string
	BedDB float64
	// Container is "mkv" (H.264 and PCM), "mp4" (H.264 and AAC) or, with
	// Codec CodecMPEG2, "ts"; default "mkv".
	Container string
	// Codec is "" (H.264, and the container's sound) or CodecMPEG2:
	// MPEG-2 video and MP2 sound at 48 kHz, as broadcast MPEG-TS carries
	// them, which a browser does not play.
	Codec string
}

// CodecMPEG2 is Spec.Codec for MPEG-2 video and MP2 sound.
const CodecMPEG2 = "mpeg2"

// Unplayable is a programme no browser plays, the tests of the preview's
// (docs/media.md, Playing the media): 10 s of 720p at 29.97 fps, MPEG-2
// and MP2 in an MPEG-TS whose times start at about 1.4 s, one cut and
// one spoken line.
func Unplayable() Spec {
	return Spec{Width: 1280, Height: 720, RateNum: 30000, RateDen: 1001, Container: "ts", Codec: CodecMPEG2,
		Lines:  []Line{{AtMs: 1000, Text: "This programme plays in the editor as a preview."}},
		Scenes: []Scene{{Source: "testsrc2", Frames: 150}, {Source: "smptebars", Frames: 150}}}
}

// Beds.
const (
	BedPink  = "pink"
	BedTones = "tones"
)

// Scene is Frames frames of one lavfi source: "testsrc2", "smptebars",
// "rgbtestsrc", "mandelbrot", "cellauto" (both change every frame),
// "color:NAME" (a colour field), or "pan" (HD bars panned across the
// scene's length, a camera move and no cut).
type Scene struct {
	Source string
	Frames int
	// FadeFrames, when set, joins the scene to the one before by a slow
	// fade through black: the earlier fades out over its last FadeFrames
	// frames, this one in over its first; that boundary is not a cut.
	FadeFrames int
}

// Line is one line of speech.
type Line struct {
	AtMs int64
	Text string
}

// Truth is what a built programme holds.
type Truth struct {
	// Path is the media file, in the test's temp dir.
	Path       string
	DurationMs int64
	Frames     int64
	// Cuts are the first frames of the shots after hard cuts.
	Cuts []int64
	// Speech is each line's speech, from its first to its last sample
	// over -40 dBFS, in time order.
	Speech []analysis.Segment
}

// Need skips t (fails it under CI=true) unless ffmpeg and espeak-ng are
// installed.
func Need(t testing.TB) {
	t.Helper()
	for _, bin := range []string{"ffmpeg", "espeak-ng"} {
		if _, err := exec.LookPath(bin); err != nil {
			msg := fmt.Sprintf("programme: %v: install it (apt-get install ffmpeg espeak-ng)", err)
			if os.Getenv("CI") == "true" {
				t.Fatal(msg)
			}
			t.Skip(msg)
		}
	}
}

// Build writes the programme spec describes into a temp dir of t and
// returns its truth.
func Build(t testing.TB, spec Spec) Truth {
	t.Helper()
	return build(t, spec, t.TempDir())
}

// recipe versions the programmes Cached keeps: bump it when Build's
// output changes.
const recipe = "programme-1"

// Cached is Build for programmes that take minutes to make (a
// benchmark's): the file and its truth are kept in a folder of the
// user's temp dir under a hash of spec, and later calls reuse them. A
// programme is made in a temp folder and renamed into place, so a killed
// run leaves none half made. Tests must not modify the file.
func Cached(t testing.TB, spec Spec) Truth {
	t.Helper()
	Need(t)
	root := filepath.Join(os.TempDir(), fmt.Sprintf("captionqa-programme-%d", os.Getuid()))
	if err := os.MkdirAll(root, 0o700); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(fmt.Appendf(nil, "%s\x00%#v", recipe, spec))
	dir := filepath.Join(root, hex.EncodeToString(sum[:12]))
	if b, err := os.ReadFile(filepath.Join(dir, "truth.json")); err == nil {
		var truth Truth
		if err := json.Unmarshal(b, &truth); err != nil {
			t.Fatal(err)
		}
		truth.Path = filepath.Join(dir, filepath.Base(truth.Path))
		return truth
	}
	tmp, err := os.MkdirTemp(root, "make-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(tmp)
	truth := build(t, spec, tmp)
	// Only the programme is kept: the lines and the speech track are
	// tens of MB for a long one.
	parts, err := filepath.Glob(filepath.Join(tmp, "*.wav"))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range parts {
		if err := os.Remove(p); err != nil {
			t.Fatal(err)
		}
	}
	b, err := json.Marshal(truth)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(tmp, "truth.json"), b, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, dir); err != nil && !errors.Is(err, os.ErrExist) {
		// Another process made it first (ENOTEMPTY): use its copy.
		if _, serr := os.Stat(filepath.Join(dir, "truth.json")); serr != nil {
			t.Fatal(err)
		}
	}
	truth.Path = filepath.Join(dir, filepath.Base(truth.Path))
	return truth
}

// build makes the programme in dir.
func build(t testing.TB, spec Spec, dir string) Truth {
	t.Helper()
	Need(t)
	s := withDefaults(spec)
	var frames int64
	for _, sc := range s.Scenes {
		frames += int64(sc.Frames)
	}
	if frames == 0 {
		t.Fatal("programme: no scenes")
	}
	durMs := frames * 1000 * s.RateDen / s.RateNum
	truth := Truth{Path: filepath.Join(dir, "programme."+s.Container), DurationMs: durMs, Frames: frames}
	for i, sc := range s.Scenes[1:] {
		if sc.FadeFrames == 0 {
			truth.Cuts = append(truth.Cuts, cutFrame(s.Scenes[:i+1]))
		}
	}

	track := make([]int16, durMs*speechRate/1000)
	for i, l := range s.Lines {
		line := speak(t, dir, i, l.Text)
		at := int(l.AtMs * speechRate / 1000)
		first, last := -1, -1
		for j, v := range line {
			if at+j >= len(track) {
				t.Fatalf("programme: line %d runs past the end", i)
			}
			track[at+j] = clamp(int32(track[at+j]) + int32(v))
			if v >= onsetLevel || v <= -onsetLevel {
				if first < 0 {
					first = j
				}
				last = j
			}
		}
		if first < 0 {
			t.Fatalf("programme: line %d is silent", i)
		}
		truth.Speech = append(truth.Speech, analysis.Segment{
			StartMs:    int64(at+first) * 1000 / speechRate,
			EndMs:      int64(at+last+1) * 1000 / speechRate,
			Confidence: 1,
		})
	}
	for i := 1; i < len(truth.Speech); i++ {
		if truth.Speech[i].StartMs < truth.Speech[i-1].EndMs {
			t.Fatalf("programme: line %d overlaps the one before", i)
		}
	}
	writeWAV(t, filepath.Join(dir, "speech.wav"), track)

	run(t, dir, "ffmpeg", ffmpegArgs(s, durMs, truth.Path)...)
	return truth
}

func withDefaults(s Spec) Spec {
	if s.Width == 0 {
		s.Width, s.Height = 320, 180
	}
	if s.RateNum == 0 {
		s.RateNum, s.RateDen = 25, 1
	}
	if s.BedDB == 0 {
		s.BedDB = -30
	}
	if s.Container == "" {
		s.Container = "mkv"
	}
	return s
}

// cutFrame is the first frame after scenes.
func cutFrame(scenes []Scene) int64 {
	var n int64
	for _, sc := range scenes {
		n += int64(sc.Frames)
	}
	return n
}

// ffmpegArgs renders the picture from lavfi sources, mixes the speech
// track with the bed and encodes both.
func ffmpegArgs(s Spec, durMs int64, out string) []string {
	rate := fmt.Sprintf("%d/%d", s.RateNum, s.RateDen)
	size := fmt.Sprintf("%dx%d", s.Width, s.Height)
	var g strings.Builder
	for i, sc := range s.Scenes {
		g.WriteString(source(sc, size, rate, s.Width))
		fmt.Fprintf(&g, ",trim=end_frame=%d,setpts=PTS-STARTPTS,format=yuv420p", sc.Frames)
		if sc.FadeFrames > 0 {
			fmt.Fprintf(&g, ",fade=t=in:s=0:n=%d", sc.FadeFrames)
		}
		if i+1 < len(s.Scenes) && s.Scenes[i+1].FadeFrames > 0 {
			n := s.Scenes[i+1].FadeFrames
			fmt.Fprintf(&g, ",fade=t=out:s=%d:n=%d", sc.Frames-n, n)
		}
		fmt.Fprintf(&g, "[v%d];", i)
	}
	for i := range s.Scenes {
		fmt.Fprintf(&g, "[v%d]", i)
	}
	fmt.Fprintf(&g, "concat=n=%d:v=1:a=0[v];", len(s.Scenes))
	dur := strconv.FormatFloat(float64(durMs)/1000, 'f', 3, 64)
	amp := math.Pow(10, s.BedDB/20)
	switch s.Bed {
	case BedPink:
		fmt.Fprintf(&g, "anoisesrc=color=pink:amplitude=%.5f:sample_rate=%d:duration=%s:seed=1[bed];", amp, speechRate, dur)
	case BedTones:
		// A chord (root, fifth) moving between three roots every 2 s.
		fmt.Fprintf(&g, "aevalsrc='%.5f*(sin(2*PI*(220+55*mod(floor(t/2)\\,3))*t)+0.5*sin(3*PI*(220+55*mod(floor(t/2)\\,3))*t))':s=%d:d=%s[bed];", amp/1.5, speechRate, dur)
	default:
		fmt.Fprintf(&g, "anullsrc=r=%d:cl=mono,atrim=end=%s[bed];", speechRate, dur)
	}
	g.WriteString("[bed][0:a]amix=inputs=2:duration=first:normalize=0[a]")
	args := []string{"-nostdin", "-hide_banner", "-loglevel", "error", "-y", "-i", "speech.wav",
		"-filter_complex", g.String(), "-map", "[v]", "-map", "[a]"}
	if s.Codec == CodecMPEG2 {
		return append(args, "-c:v", "mpeg2video", "-q:v", "4", "-pix_fmt", "yuv420p", "-c:a", "mp2", "-b:a", "192k", "-ar", "48000", out)
	}
	args = append(args, "-c:v", "libx264", "-preset", "veryfast", "-crf", "23", "-pix_fmt", "yuv420p")
	if s.Container == "mp4" {
		args = append(args, "-c:a", "aac", "-b:a", "96k")
	} else {
		args = append(args, "-c:a", "pcm_s16le")
	}
	return append(args, out)
}

// source is a scene's lavfi source.
func source(sc Scene, size, rate string, width int) string {
	switch {
	case strings.HasPrefix(sc.Source, "color:"):
		return fmt.Sprintf("color=c=%s:s=%s:r=%s", strings.TrimPrefix(sc.Source, "color:"), size, rate)
	case sc.Source == "pan":
		h := size[strings.IndexByte(size, 'x')+1:]
		return fmt.Sprintf("smptehdbars=s=%dx%s:r=%s,crop=w=%d:h=%s:x=n*%d/%d:y=0", 2*width, h, rate, width, h, width, max(sc.Frames, 1))
	}
	return fmt.Sprintf("%s=s=%s:r=%s", sc.Source, size, rate)
}

// speak renders text with espeak-ng and returns its samples.
func speak(t testing.TB, dir string, i int, text string) []int16 {
	t.Helper()
	path := filepath.Join(dir, fmt.Sprintf("line%d.wav", i))
	run(t, dir, "espeak-ng", "-v", "en", "-s", "160", "-w", path, text)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	pcm, rate, err := readWAV(b)
	if err != nil {
		t.Fatalf("programme: line %d: %v", i, err)
	}
	if rate != speechRate {
		t.Fatalf("programme: espeak-ng wrote %d Hz, not %d", rate, speechRate)
	}
	return pcm
}

// readWAV returns a mono 16-bit WAV's samples and rate.
func readWAV(b []byte) ([]int16, int, error) {
	if len(b) < 12 || string(b[:4]) != "RIFF" || string(b[8:12]) != "WAVE" {
		return nil, 0, errors.New("not a WAV file")
	}
	var rate int
	for p := 12; p+8 <= len(b); {
		id, n := string(b[p:p+4]), int(binary.LittleEndian.Uint32(b[p+4:]))
		body := b[p+8 : min(p+8+n, len(b))]
		switch id {
		case "fmt ":
			if len(body) < 16 || binary.LittleEndian.Uint16(body[2:]) != 1 || binary.LittleEndian.Uint16(body[14:]) != 16 {
				return nil, 0, errors.New("not mono 16-bit")
			}
			rate = int(binary.LittleEndian.Uint32(body[4:]))
		case "data":
			out := make([]int16, len(body)/2)
			for i := range out {
				out[i] = int16(binary.LittleEndian.Uint16(body[2*i:]))
			}
			return out, rate, nil
		}
		p += 8 + n + n%2
	}
	return nil, 0, errors.New("no data chunk")
}

// writeWAV writes samples as a mono 16-bit WAV at speechRate.
func writeWAV(t testing.TB, path string, samples []int16) {
	t.Helper()
	var b bytes.Buffer
	le := binary.LittleEndian
	b.WriteString("RIFF")
	_ = binary.Write(&b, le, uint32(36+2*len(samples)))
	b.WriteString("WAVEfmt ")
	for _, v := range []any{uint32(16), uint16(1), uint16(1), uint32(speechRate), uint32(2 * speechRate), uint16(2), uint16(16)} {
		_ = binary.Write(&b, le, v)
	}
	b.WriteString("data")
	_ = binary.Write(&b, le, uint32(2*len(samples)))
	_ = binary.Write(&b, le, samples)
	if err := os.WriteFile(path, b.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
}

func run(t testing.TB, dir, bin string, args ...string) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("programme: %s: %v: %s", bin, err, out)
	}
}

func clamp(v int32) int16 { return int16(max(-32768, min(32767, v))) }
