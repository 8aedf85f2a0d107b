package srt

import (
	"bytes"
	"io"
	"testing"

	"github.com/captionqa/captionqa/backend/caption/synth"
)

// BenchmarkParse reads the engine's 4 MiB benchmark file: 40,000 cues of
// about 105 bytes, one or two lines, every seventh in italics.
func BenchmarkParse(b *testing.B) {
	data := synth.SRT(40_000)
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		t, _, err := Parse(bytes.NewReader(data))
		if err != nil {
			b.Fatal(err)
		}
		if len(t.Cues) != 40_000 {
			b.Fatalf("%d cues", len(t.Cues))
		}
	}
}

// BenchmarkWrite writes the parsed 40,000-cue file back as SRT.
func BenchmarkWrite(b *testing.B) {
	t, _, err := Parse(bytes.NewReader(synth.SRT(40_000)))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if err := Write(io.Discard, t); err != nil {
			b.Fatal(err)
		}
	}
}
