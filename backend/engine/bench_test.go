package engine

import (
	"bytes"
	"context"
	"io"
	"testing"

	"github.com/captionqa/captionqa/backend/caption/format"
	"github.com/captionqa/captionqa/backend/caption/synth"
)

// BenchmarkProcess is the engine's target: the whole process (read, all
// rules, auto-split-cps, dcmp grading, write) of the 4 MiB, 40,000-cue file
// in at most twice the bare read+write (BenchmarkReadWrite, same run) and
// at most 64 MiB allocated per operation. BenchmarkProcessRatio reports the
// ratio directly.
func BenchmarkProcess(b *testing.B) {
	eng := newTestEngine(b)
	data := synth.SRT(40_000)
	req := Request{Filename: "big.srt", Data: data, Preset: "generic", FixProfile: "auto-split-cps", Standard: "dcmp"}
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := eng.Process(context.Background(), req); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReadWrite is the bare read + write the process is measured
// against: SRT in, SRT out (the generic preset's format).
func BenchmarkReadWrite(b *testing.B) {
	data := synth.SRT(40_000)
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		readWrite(b, data)
	}
}

func readWrite(b *testing.B, data []byte) {
	t, _, err := format.Parse(format.SRT, bytes.NewReader(data))
	if err != nil {
		b.Fatal(err)
	}
	if err := format.Write(format.SRT, io.Discard, t); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkProcessRatio measures both in one run and reports
// process/read-write (target at most 2) and the process's MiB per op.
func BenchmarkProcessRatio(b *testing.B) {
	eng := newTestEngine(b)
	data := synth.SRT(40_000)
	req := Request{Filename: "big.srt", Data: data, Preset: "generic", FixProfile: "auto-split-cps", Standard: "dcmp"}
	for b.Loop() {
		proc := testing.Benchmark(func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := eng.Process(context.Background(), req); err != nil {
					b.Fatal(err)
				}
			}
		})
		bare := testing.Benchmark(func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				readWrite(b, data)
			}
		})
		b.ReportMetric(float64(proc.NsPerOp())/float64(bare.NsPerOp()), "x-readwrite")
		b.ReportMetric(float64(proc.NsPerOp())/1e6, "ms-process")
		b.ReportMetric(float64(bare.NsPerOp())/1e6, "ms-readwrite")
		b.ReportMetric(float64(proc.AllocedBytesPerOp())/(1<<20), "MiB-process")
	}
}
