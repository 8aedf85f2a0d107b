package vtt

import (
	"bytes"
	"io"
	"strconv"
	"strings"
	"testing"

	"github.com/captionqa/captionqa/backend/caption"
)

// benchTrack builds n cues of about 100 bytes each, a few of them styled.
func benchTrack(n int) *caption.Track {
	t := &caption.Track{Version: caption.Version, Cues: make([]caption.Cue, n)}
	for i := range t.Cues {
		c := &t.Cues[i]
		c.ID = strconv.Itoa(i + 1)
		c.StartMs, c.EndMs = int64(i)*2000, int64(i)*2000+1800
		c.Text = "The quick brown fox jumps over\nthe lazy dog & friends, line " + strconv.Itoa(i)
		if i%10 == 0 {
			c.Spans = []caption.Span{{Start: 4, End: 9, Italic: true}}
			c.Placement = &caption.Placement{Area: caption.AreaTop}
		}
	}
	return t
}

func BenchmarkWrite(b *testing.B) {
	t := benchTrack(40_000)
	var out bytes.Buffer
	if err := Write(&out, t); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(out.Len()))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if err := Write(io.Discard, t); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkParse(b *testing.B) {
	var out bytes.Buffer
	if err := Write(&out, benchTrack(40_000)); err != nil {
		b.Fatal(err)
	}
	src := out.Bytes()
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, _, err := Parse(bytes.NewReader(src)); err != nil {
			b.Fatal(err)
		}
	}
}

// TestWriteLarge checks the benchmark track reads back whole.
func TestWriteLarge(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	if err := Write(&out, benchTrack(2000)); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(out.String(), "WEBVTT\n\n1\n00:00:00.000 --> 00:00:01.800 line:0\nThe <i>quick</i> brown") {
		t.Errorf("unexpected start:\n%.200s", out.String())
	}
	checkRoundTrip(t, out.Bytes())
}
