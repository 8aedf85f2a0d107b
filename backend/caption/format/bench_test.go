package format

import (
	"bytes"
	"fmt"
	"io"
	"testing"

	"github.com/captionqa/captionqa/backend/caption/synth"
)

// BenchmarkSRTToVTT is the engine's speed and memory target: read the
// generated SRT and write WebVTT. The 4 MiB, 40,000-cue case must stay
// within 30 ms and 32 MiB allocated per operation; the 4,000-cue case shows
// the cost is linear (at most 12 times for 10 times the cues).
func BenchmarkSRTToVTT(b *testing.B) {
	for _, n := range []int{4_000, 40_000} {
		data := synth.SRT(n)
		b.Run(fmt.Sprintf("cues=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				t, _, err := Parse(SRT, bytes.NewReader(data))
				if err != nil {
					b.Fatal(err)
				}
				if err := Write(VTT, io.Discard, t); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkWrite measures each writer on the parsed 40,000-cue file.
func BenchmarkWrite(b *testing.B) {
	t, _, err := Parse(SRT, bytes.NewReader(synth.SRT(40_000)))
	if err != nil {
		b.Fatal(err)
	}
	for _, f := range Writable() {
		b.Run(f, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := Write(f, io.Discard, t); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
