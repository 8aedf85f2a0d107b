package fftest

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strconv"
	"testing"
	"time"
)

// FrameRGB decodes the frame of file's first video stream shown at at and
// returns its size and pixels, 3 bytes (R, G, B) each, row by row. It
// fails t when ffmpeg cannot.
func FrameRGB(t testing.TB, file string, at time.Duration) (w, h int, pix []byte) {
	t.Helper()
	Need(t)
	out, err := ffmpeg("", "-ss", strconv.FormatFloat(at.Seconds(), 'f', 3, 64), "-i", file,
		"-map", "0:V:0", "-frames:v", "1", "-c:v", "ppm", "-f", "image2pipe", "-")
	if err != nil {
		t.Fatalf("fftest: frame: %v", err)
	}
	// A binary PPM: "P6\n<w> <h>\n255\n" then the pixels. The reader is
	// a RuneScanner, so Fscan stops right after 255.
	r := bufio.NewReader(bytes.NewReader(out))
	var magic string
	var maxval int
	if _, err := fmt.Fscan(r, &magic, &w, &h, &maxval); err != nil || magic != "P6" || maxval != 255 {
		t.Fatalf("fftest: frame of %s: not an 8-bit PPM (%v)", file, err)
	}
	if _, err := r.ReadByte(); err != nil { // the one whitespace byte after maxval
		t.Fatalf("fftest: frame of %s: %v", file, err)
	}
	pix, err = io.ReadAll(r)
	if err != nil || len(pix) != w*h*3 {
		t.Fatalf("fftest: frame of %s: %d pixel bytes for %dx%d (%v)", file, len(pix), w, h, err)
	}
	return w, h, pix
}
