package fftest

import (
	"bytes"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
)

// A53Options shape a clip whose H.264 video carries CEA-608 captions as
// A/53 user data: one byte pair of field 1 (CC1) per frame.
type A53Options struct {
	Width, Height, FPS int
	Frames             int
	// Pairs maps a frame number to the 608 byte pair it carries (parity
	// already set); frames without one carry the filler 0x80 0x80.
	Pairs map[int][2]byte
	// MPEG2 transcodes the result to MPEG-2 video in MPEG-TS (ffmpeg
	// carries the A/53 data over) instead of H.264 in MP4.
	MPEG2 bool
}

// A53 returns the path of a clip of shape o (testsrc2, a tone), made once
// and cached. ffmpeg cannot attach captions to video itself, so the clip
// is raw H.264 without B-frames, each access unit given an SEI NAL (ATSC
// A/53 user_data_registered_itu_t_t35) before its first slice, then muxed
// (video-pipeline.md 3.2).
func A53(t testing.TB, o A53Options) string {
	t.Helper()
	if o.Width == 0 {
		o.Width, o.Height = 640, 360
	}
	if o.FPS == 0 {
		o.FPS = 30
	}
	ext := "mp4"
	if o.MPEG2 {
		ext = "ts"
	}
	return cached(t, fmt.Sprintf("a53 %d %d %d %d %v %v", o.Width, o.Height, o.FPS, o.Frames, sortedPairs(o.Pairs), o.MPEG2), ext,
		func(out string) error { return makeA53(o, out) })
}

// sortedPairs spells pairs in frame order, for the cache key.
func sortedPairs(p map[int][2]byte) string {
	frames := slices.Sorted(maps.Keys(p))
	var b bytes.Buffer
	for _, f := range frames {
		fmt.Fprintf(&b, "%d:%02x%02x,", f, p[f][0], p[f][1])
	}
	return b.String()
}

func makeA53(o A53Options, out string) error {
	dir := filepath.Dir(out)
	secs := strconv.FormatFloat(float64(o.Frames)/float64(o.FPS), 'f', 6, 64)
	if _, err := ffmpeg(dir, "-f", "lavfi", "-i", fmt.Sprintf("testsrc2=size=%dx%d:rate=%d", o.Width, o.Height, o.FPS),
		"-frames:v", strconv.Itoa(o.Frames), "-c:v", "libx264", "-preset", "ultrafast", "-bf", "0", "-x264-params", "aud=1",
		"-pix_fmt", "yuv420p", "-f", "h264", "plain.h264"); err != nil {
		return err
	}
	raw, err := os.ReadFile(filepath.Join(dir, "plain.h264"))
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "cc.h264"), injectA53(raw, o.Pairs), 0o600); err != nil {
		return err
	}
	args := []string{"-framerate", strconv.Itoa(o.FPS), "-i", "cc.h264", "-f", "lavfi", "-i", "sine=frequency=440:duration=" + secs,
		"-map", "0:v", "-map", "1:a", "-c:v", "copy", "-c:a", "aac", "-shortest", out}
	if o.MPEG2 {
		args = []string{"-framerate", strconv.Itoa(o.FPS), "-i", "cc.h264", "-c:v", "mpeg2video", "-a53cc", "1", "-q:v", "4", out}
	}
	_, err = ffmpeg(dir, args...)
	return err
}

// injectA53 inserts before the first slice (NAL type 1 or 5) of each
// access unit (each starts with an AUD, NAL type 9) an SEI NAL carrying
// that frame's pair.
func injectA53(raw []byte, pairs map[int][2]byte) []byte {
	var out bytes.Buffer
	frame, sent := -1, false
	for _, nal := range splitNALs(raw) {
		typ := nal[0] & 0x1f
		if typ == 9 {
			frame, sent = frame+1, false
		}
		if (typ == 1 || typ == 5) && !sent {
			p, ok := pairs[frame]
			if !ok {
				p = [2]byte{0x80, 0x80}
			}
			out.Write([]byte{0, 0, 0, 1})
			out.Write(seiNAL(p))
			sent = true
		}
		out.Write([]byte{0, 0, 0, 1})
		out.Write(nal)
	}
	return out.Bytes()
}

// splitNALs returns the NAL units of an Annex B stream, without their
// start codes.
func splitNALs(b []byte) [][]byte {
	var nals [][]byte
	start := -1
	for i := 0; i+3 <= len(b); i++ {
		if b[i] == 0 && b[i+1] == 0 && b[i+2] == 1 {
			if start >= 0 {
				end := i
				if end > start && b[end-1] == 0 {
					end-- // the 4-byte start code's leading zero
				}
				nals = append(nals, b[start:end])
			}
			start = i + 3
			i += 2
		}
	}
	if start >= 0 && start < len(b) {
		nals = append(nals, b[start:])
	}
	return nals
}

// seiNAL is an SEI NAL with one A/53 cc_data triplet of field 1.
func seiNAL(pair [2]byte) []byte {
	payload := []byte{0xB5, 0x00, 0x31, 'G', 'A', '9', '4', 0x03, 0x40 | 1, 0xFF, 0xFC, pair[0], pair[1], 0xFF}
	rbsp := append([]byte{0x04, byte(len(payload))}, payload...)
	rbsp = append(rbsp, 0x80)
	var nal bytes.Buffer
	nal.WriteByte(0x06)
	zeros := 0
	for _, c := range rbsp {
		if zeros >= 2 && c <= 3 {
			nal.WriteByte(0x03) // emulation prevention
			zeros = 0
		}
		nal.WriteByte(c)
		if c == 0 {
			zeros++
		} else {
			zeros = 0
		}
	}
	return nal.Bytes()
}
