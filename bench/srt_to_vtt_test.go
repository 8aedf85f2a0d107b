package bench

import (
	"bytes"
	"fmt"
	"io"
	"testing"

	"github.com/asticode/go-astisub"

	"github.com/captionqa/captionqa/backend/caption/srt"
	"github.com/captionqa/captionqa/backend/caption/synth"
	"github.com/captionqa/captionqa/backend/caption/vtt"
)

// ours is the operation under test: read an SRT file, write WebVTT.
func ours(data []byte) error {
	t, _, err := srt.Parse(bytes.NewReader(data))
	if err != nil {
		return err
	}
	return vtt.Write(io.Discard, t)
}

// theirs is the same operation with go-astisub.
func theirs(data []byte) error {
	s, err := astisub.ReadFromSRT(bytes.NewReader(data))
	if err != nil {
		return err
	}
	return s.WriteToWebVTT(io.Discard)
}

func run(b *testing.B, op func([]byte) error, data []byte) {
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if err := op(data); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSRTToVTT reads and writes the generated file: 4,000 and 40,000
// cues (4 MiB) for CaptionQA, 40,000 for go-astisub.
func BenchmarkSRTToVTT(b *testing.B) {
	for _, n := range []int{4_000, 40_000} {
		data := synth.SRT(n)
		b.Run(fmt.Sprintf("captionqa/cues=%d", n), func(b *testing.B) { run(b, ours, data) })
	}
	data := synth.SRT(40_000)
	b.Run("astisub/cues=40000", func(b *testing.B) { run(b, theirs, data) })
}

// BenchmarkRatio measures both libraries in one run and reports how many
// times faster CaptionQA is (x-astisub), and how the cost grows from 4,000
// to 40,000 cues (cost-40k/4k; 10 is linear).
func BenchmarkRatio(b *testing.B) {
	big, small := synth.SRT(40_000), synth.SRT(4_000)
	measure := func(op func([]byte) error, data []byte) testing.BenchmarkResult {
		return testing.Benchmark(func(b *testing.B) { run(b, op, data) })
	}
	for b.Loop() {
		oursBig := measure(ours, big)
		oursSmall := measure(ours, small)
		astisub := measure(theirs, big)
		speedup := float64(astisub.NsPerOp()) / float64(oursBig.NsPerOp())
		growth := float64(oursBig.NsPerOp()) / float64(oursSmall.NsPerOp())
		b.ReportMetric(speedup, "x-astisub")
		b.ReportMetric(growth, "cost-40k/4k")
		b.ReportMetric(float64(oursBig.NsPerOp())/1e6, "ms-captionqa")
		b.ReportMetric(float64(astisub.NsPerOp())/1e6, "ms-astisub")
		b.ReportMetric(float64(oursBig.AllocedBytesPerOp())/(1<<20), "MiB-captionqa")
		b.Logf("SRT->WebVTT, 40,000 cues: CaptionQA %.1f ms, %.1f MiB; go-astisub %.1f ms, %.1f MiB; CaptionQA is %.1fx faster; 40k/4k cost ratio %.2f",
			float64(oursBig.NsPerOp())/1e6, float64(oursBig.AllocedBytesPerOp())/(1<<20),
			float64(astisub.NsPerOp())/1e6, float64(astisub.AllocedBytesPerOp())/(1<<20), speedup, growth)
	}
}
