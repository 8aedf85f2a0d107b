package ffmpeg

import (
	"context"
	"fmt"
	"math/bits"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/caption/format"
	"github.com/captionqa/captionqa/backend/video"
	"github.com/captionqa/captionqa/backend/video/ffmpeg/fftest"
)

func TestExtractSoftTrack(t *testing.T) {
	r, store := newTestRunner(t, nil)
	en := []fftest.Cue{{Start: 500 * time.Millisecond, End: 2 * time.Second, Text: "Hello there."},
		{Start: 3 * time.Second, End: 4500 * time.Millisecond, Text: "Two lines\nof text."}}
	fr := []fftest.Cue{{Start: time.Second, End: 2500 * time.Millisecond, Text: "Bonjour à tous."},
		{Start: 3 * time.Second, End: 4 * time.Second, Text: "Deux."}}
	for _, c := range []struct {
		name      string
		container string
		tracks    []fftest.Track
		index     int
		want      []fftest.Cue
	}{
		{"mkv srt", "mkv", []fftest.Track{{Language: "eng", Cues: en}, {Codec: "webvtt", Language: "fra", Cues: fr}}, 0, en},
		{"mkv webvtt", "mkv", []fftest.Track{{Language: "eng", Cues: en}, {Codec: "webvtt", Language: "fra", Cues: fr}}, 1, fr},
		{"mkv ass", "mkv", []fftest.Track{{Codec: "ass", Cues: fr}}, 0, fr},
		{"mp4 mov_text", "mp4", []fftest.Track{{Language: "eng", Cues: en}}, 0, en},
	} {
		t.Run(c.name, func(t *testing.T) {
			clip := fftest.Clip(t, fftest.ClipOptions{Seconds: 5, Container: c.container, Tracks: c.tracks})
			put(t, store, "media/soft", clip)
			x, err := r.Extract(context.Background(), video.ExtractSpec{Mode: video.ModeSoftTrack, MediaKey: "media/soft",
				Container: c.container, TrackIndex: c.index, DurationSeconds: 5}, func(float64) {})
			if err != nil {
				t.Fatal(err)
			}
			checkCues(t, cuesOf(t, x), c.want)
		})
	}
	if left := runFolders(t, r); len(left) != 0 {
		t.Errorf("run folders left: %v", left)
	}
}

// cuesOf reads an extraction with the engine's readers.
func cuesOf(t *testing.T, x *video.Extracted) []fftest.Cue {
	t.Helper()
	_, track, _, err := format.Read("x."+x.Format, x.Format, x.Data)
	if err != nil {
		t.Fatal(err)
	}
	var cues []fftest.Cue
	for _, c := range track.Cues {
		cues = append(cues, fftest.Cue{Start: time.Duration(c.StartMs) * time.Millisecond, End: time.Duration(c.EndMs) * time.Millisecond,
			Text: c.Text})
	}
	return cues
}

// cc608 builds the CC1 byte pairs of a caption stream, one pair a frame
// from a starting frame, as a broadcast encoder sends them.
type cc608 struct {
	pairs map[int][2]byte
	frame int
}

func odd(b byte) byte {
	if bits.OnesCount8(b)%2 == 0 {
		return b | 0x80
	}
	return b
}

// control sends a control code twice, as encoders do.
func (c *cc608) control(b1, b2 byte) {
	c.send(b1, b2)
	c.send(b1, b2)
}

func (c *cc608) send(b1, b2 byte) {
	c.pairs[c.frame] = [2]byte{odd(b1), odd(b2)}
	c.frame++
}

func (c *cc608) text(s string) {
	for i := 0; i < len(s); i += 2 {
		b2 := byte(0)
		if i+1 < len(s) {
			b2 = s[i+1]
		}
		c.send(s[i], b2)
	}
}

// The 608 codes the fixtures use (channel 1).
const (
	rcl, eoc, edm, enm = 0x20, 0x2f, 0x2c, 0x2e
	ru2, cr            = 0x25, 0x2d
)

// popOn loads text (lines of at most 32 characters) and shows it at
// frame show, erasing it at frame hide.
func (c *cc608) popOn(lines []string, show, hide int) {
	need := 4 + 2
	for _, l := range lines {
		need += 2 + (len(l)+1)/2
	}
	c.frame = show - need + 2
	c.control(0x14, rcl)
	c.control(0x14, enm)
	for i, l := range lines {
		row := 15 - (len(lines) - 1 - i) // bottom rows
		c.control(pac(row))
		c.text(l)
	}
	c.frame = show
	c.control(0x14, eoc)
	c.frame = hide
	c.control(0x14, edm)
}

// pac is the preamble address code of row (1-15) at column 0, white
// (CEA-608 table 53, channel 1, parity not yet set).
func pac(row int) (byte, byte) {
	codes := [16][2]byte{{}, {0x11, 0x40}, {0x11, 0x60}, {0x12, 0x40}, {0x12, 0x60}, {0x15, 0x40}, {0x15, 0x60},
		{0x16, 0x40}, {0x16, 0x60}, {0x17, 0x40}, {0x17, 0x60}, {0x10, 0x40}, {0x13, 0x40}, {0x13, 0x60}, {0x14, 0x40}, {0x14, 0x60}}
	return codes[row][0], codes[row][1]
}

// scc writes the pairs as an SCC file, each on its own frame's line: the
// reference a clean decode of the same bytes must give.
func (c *cc608) scc(fps int) []byte {
	var b strings.Builder
	b.WriteString("Scenarist_SCC V1.0\n\n")
	for f := range c.frame + 60 {
		p, ok := c.pairs[f]
		if !ok {
			continue
		}
		fmt.Fprintf(&b, "%02d:%02d:%02d:%02d\t%02x%02x\n\n", f/fps/3600, f/fps/60%60, f/fps%60, f%fps, p[0], p[1])
	}
	return []byte(b.String())
}

func TestExtractBroadcastCC(t *testing.T) {
	r, store := newTestRunner(t, nil)
	pop := &cc608{pairs: map[int][2]byte{}}
	pop.popOn([]string{"Hello there."}, 45, 90)
	pop.popOn([]string{"TWO LINES ON", "THE SCREEN."}, 120, 180)
	pop.popOn([]string{"Last one!"}, 210, 255)
	roll := &cc608{pairs: map[int][2]byte{}}
	for i, line := range []string{"FIRST LINE ROLLS UP", "SECOND LINE", "THIRD LINE HERE", "AND A FOURTH"} {
		roll.frame = 30 + i*45
		roll.control(0x14, ru2)
		roll.control(0x14, cr)
		roll.control(pac(15))
		roll.text(line)
	}
	roll.frame = 250
	roll.control(0x14, edm)
	for _, c := range []struct {
		name  string
		cc    *cc608
		mpeg2 bool
	}{{"pop-on h264", pop, false}, {"pop-on mpeg2", pop, true}, {"roll-up h264", roll, false}} {
		t.Run(c.name, func(t *testing.T) {
			clip := fftest.A53(t, fftest.A53Options{Frames: 300, Pairs: c.cc.pairs, MPEG2: c.mpeg2})
			put(t, store, "media/a53", clip)
			container := "mp4"
			if c.mpeg2 {
				container = "mpegts"
			}
			var reports []float64
			x, err := r.Extract(context.Background(), video.ExtractSpec{Mode: video.ModeBroadcastCC, MediaKey: "media/a53",
				Container: container, TrackIndex: -1, DurationSeconds: 10}, func(p float64) { reports = append(reports, p) })
			if err != nil {
				t.Fatal(err)
			}
			want := cuesOf(t, &video.Extracted{Format: "scc", Data: c.cc.scc(30)})
			checkTruth(t, c.cc == roll, want)
			checkFrames(t, cuesOf(t, x), want)
			if len(reports) == 0 || reports[len(reports)-1] < 0.9 {
				t.Errorf("progress %v, want reports reaching 0.9", reports)
			}
		})
	}
	t.Run("c608 track", func(t *testing.T) {
		dir := t.TempDir()
		scc := filepath.Join(dir, "cc.scc")
		// ffmpeg's SCC demuxer drops the last event's duration: a filler
		// line after it keeps it (video-pipeline.md 3.1).
		if err := os.WriteFile(scc, append(pop.scc(30), "00:00:09:00\t8080\n"...), 0o600); err != nil {
			t.Fatal(err)
		}
		mov := filepath.Join(dir, "cc.mov")
		base := fftest.Clip(t, fftest.ClipOptions{Seconds: 10})
		if out, err := runFFmpeg(dir, "-i", base, "-f", "scc", "-i", scc, "-map", "0:v", "-map", "0:a", "-map", "1", "-c", "copy", mov); err != nil {
			t.Fatalf("%v: %s", err, out)
		}
		put(t, store, "media/c608", mov)
		x, err := r.Extract(context.Background(), video.ExtractSpec{Mode: video.ModeBroadcastCC, MediaKey: "media/c608",
			Container: "mp4", TrackIndex: 0, DurationSeconds: 10}, func(float64) {})
		if err != nil {
			t.Fatal(err)
		}
		checkFrames(t, cuesOf(t, x), cuesOf(t, &video.Extracted{Format: "scc", Data: pop.scc(30)}))
	})
	t.Run("no captions", func(t *testing.T) {
		put(t, store, "media/plain", fftest.Clip(t, fftest.ClipOptions{Seconds: 3}))
		x, err := r.Extract(context.Background(), video.ExtractSpec{Mode: video.ModeBroadcastCC, MediaKey: "media/plain",
			Container: "mp4", TrackIndex: -1, DurationSeconds: 3}, func(float64) {})
		if err != nil {
			t.Fatal(err)
		}
		if cues := cuesOf(t, x); len(cues) != 0 {
			t.Fatalf("cues from a clip without captions: %+v", cues)
		}
	})
	if left := runFolders(t, r); len(left) != 0 {
		t.Errorf("run folders left: %v", left)
	}
}

// checkTruth checks the fixture's own decode against what was sent: the
// pop-on captions between their EOC and EDM frames, the roll-up lines
// each once, in order (an editor's cues, not screen states).
func checkTruth(t *testing.T, rollUp bool, cues []fftest.Cue) {
	t.Helper()
	var texts []string
	for _, c := range cues {
		texts = append(texts, c.Text)
	}
	if rollUp {
		if got := strings.Join(texts, "|"); got != "FIRST LINE ROLLS UP|SECOND LINE|THIRD LINE HERE|AND A FOURTH" {
			t.Fatalf("roll-up lines = %q", got)
		}
		return
	}
	frame := func(n int) time.Duration { return time.Duration(n) * time.Second / 30 }
	want := []fftest.Cue{{Start: frame(45), End: frame(90), Text: "Hello there."},
		{Start: frame(120), End: frame(180), Text: "TWO LINES ON\nTHE SCREEN."}, {Start: frame(210), End: frame(255), Text: "Last one!"}}
	checkFrames(t, cues, want)
}

// checkFrames compares cues: same text, times within one frame (30 fps).
func checkFrames(t *testing.T, got, want []fftest.Cue) {
	t.Helper()
	frame := time.Second/30 + time.Millisecond
	near := func(a, b time.Duration) bool { return (a - b).Abs() <= frame }
	if len(got) != len(want) {
		t.Fatalf("cues %+v\nwant %+v", got, want)
	}
	for i := range want {
		if got[i].Text != want[i].Text || !near(got[i].Start, want[i].Start) || !near(got[i].End, want[i].End) {
			t.Errorf("cue %d = %+v, want %+v", i, got[i], want[i])
		}
	}
}

func runFFmpeg(dir string, args ...string) ([]byte, error) {
	cmd := exec.Command("ffmpeg", append([]string{"-nostdin", "-v", "error", "-y"}, args...)...)
	cmd.Dir = dir
	return cmd.CombinedOutput()
}
