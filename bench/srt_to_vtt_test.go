package bench

import (
	"bytes"
	"fmt"
	"io"
	"runtime"
	"testing"
	"time"

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

// BenchmarkRatio runs both libraries on the same 40,000-cue file in each
// iteration, interleaved so machine load hits both alike, plus CaptionQA on
// 4,000 cues. It reports how many times faster CaptionQA is (x-astisub)
// and how its cost grows from 4,000 to 40,000 cues (cost-40k/4k; 10 is
// linear, the target is at most 12).
func BenchmarkRatio(b *testing.B) {
	big, small := synth.SRT(40_000), synth.SRT(4_000)
	var oursBig, oursSmall, astisub time.Duration
	timed := func(op func([]byte) error, data []byte) time.Duration {
		// Collect first, outside the timing: go-astisub leaves ~640 MB of
		// garbage per run, which would otherwise be collected during the
		// next timed call, whichever library that is.
		runtime.GC()
		start := time.Now()
		if err := op(data); err != nil {
			b.Fatal(err)
		}
		return time.Since(start)
	}
	for b.Loop() {
		oursBig += timed(ours, big)
		astisub += timed(theirs, big)
		for range 10 {
			oursSmall += timed(ours, small)
		}
	}
	n := float64(b.N)
	b.ReportMetric(float64(astisub)/float64(oursBig), "x-astisub")
	b.ReportMetric(float64(oursBig)/(float64(oursSmall)/10), "cost-40k/4k")
	b.ReportMetric(float64(oursBig)/n/1e6, "ms-captionqa")
	b.ReportMetric(float64(astisub)/n/1e6, "ms-astisub")
}
