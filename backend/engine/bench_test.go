package engine

import (
	"bytes"
	"context"
	"io"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/caption/format"
	"github.com/captionqa/captionqa/backend/caption/synth"
	"github.com/captionqa/captionqa/backend/fix"
	"github.com/captionqa/captionqa/backend/gctune"
	"github.com/captionqa/captionqa/backend/standard"
)

// BenchmarkProcess is the engine's target: the whole process (read, all
// rules, auto-split-cps, dcmp grading, write) of the 4 MiB, 40,000-cue file
// in at most twice the bare read+write (BenchmarkReadWrite, same run) and
// at most 64 MiB allocated per operation. BenchmarkProcessRatio reports the
// ratio directly.
func BenchmarkProcess(b *testing.B) {
	// The collector as the CLI and the server set it.
	gctune.Apply()
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
	// The collector as the CLI and the server set it.
	gctune.Apply()
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

// BenchmarkProcessRatio runs the process and the bare read+write on the
// same file in each iteration, interleaved so machine load hits both
// alike, and reports process/read-write (target at most 2).
func BenchmarkProcessRatio(b *testing.B) {
	// The collector as the CLI and the server set it.
	gctune.Apply()
	eng := newTestEngine(b)
	data := synth.SRT(40_000)
	req := Request{Filename: "big.srt", Data: data, Preset: "generic", FixProfile: "auto-split-cps", Standard: "dcmp"}
	var proc, bare time.Duration
	for b.Loop() {
		start := time.Now()
		if _, err := eng.Process(context.Background(), req); err != nil {
			b.Fatal(err)
		}
		mid := time.Now()
		readWrite(b, data)
		proc += mid.Sub(start)
		bare += time.Since(mid)
	}
	b.ReportMetric(float64(proc)/float64(bare), "x-readwrite")
	b.ReportMetric(float64(proc)/float64(b.N)/1e6, "ms-process")
	b.ReportMetric(float64(bare)/float64(b.N)/1e6, "ms-readwrite")
}

// BenchmarkProcessStages measures, one at a time on one goroutine, each
// stage BenchmarkProcess runs: its sub-benchmarks add up to the CPU time
// one process costs. Only the read must come before everything else; the
// rest runs side by side, so on P processors a process takes at least
// read + (the other stages)/P, which is what bounds the ratio
// BenchmarkProcessRatio reports on a machine with few processors. Run it
// with -cpu=1 to add them up: the rule checks and the grading otherwise
// spread their rules and clauses over the processors.
func BenchmarkProcessStages(b *testing.B) {
	gctune.Apply()
	eng := newTestEngine(b)
	data := synth.SRT(40_000)
	req := Request{Filename: "big.srt", Data: data, Preset: "generic", FixProfile: "auto-split-cps", Standard: "dcmp"}
	o, err := eng.resolve(req)
	if err != nil {
		b.Fatal(err)
	}
	p := o.preset
	_, src, _, err := format.Read(req.Filename, "", data)
	if err != nil {
		b.Fatal(err)
	}
	dT, aT := targets(p, false, nil, rateOf(p, src, nil)), targets(p, true, nil, rateOf(p, src, nil))
	dT.SkipUnfixed, aT.SkipUnfixed = true, true
	fixed := fix.Apply(src, o.profile, dT)
	out, _ := normalise(fixed.Track, p, true, nil, fixed.Sources)
	sc := checkRules(src, p, false, nil, nil)
	stages := []struct {
		name string
		run  func()
	}{
		{"read", func() { _, _, _, _ = format.Read(req.Filename, "", data) }},
		{"check-source", func() { checkRules(src, p, false, nil, nil) }},
		{"fix-delivery", func() { fix.Apply(src, o.profile, dT) }},
		{"fix-aided", func() { fix.Apply(src, o.profile, aT) }},
		{"write", func() { _ = format.Write(p.Output, io.Discard, out) }},
		{"check-output", func() { checkRules(out, p, true, sc, nil) }},
		{"grade", func() {
			standard.Grade(o.standard, standard.Input{Source: src, Delivery: out, OutputFormat: p.Output})
		}},
	}
	for _, s := range stages {
		b.Run(s.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				s.run()
			}
		})
	}
}

// BenchmarkStripControls is the look for control characters every process
// makes, on the 40,000-cue file, which has none.
func BenchmarkStripControls(b *testing.B) {
	_, src, _, err := format.Read("big.srt", "", synth.SRT(40_000))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, diags := stripControls(src); diags != nil {
			b.Fatal("control characters found")
		}
	}
}
