package explain

import (
	"context"
	"encoding/json"
	"os"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/caption/synth"
	"github.com/captionqa/captionqa/backend/engine"
	"github.com/captionqa/captionqa/backend/gctune"
	"github.com/captionqa/captionqa/backend/standard"
)

// BenchmarkExplainOverhead is ExplainAI's target: the built-in explainer
// (plan, prose and its JSON) adds at most 10% to the process time of the
// 4 MiB, 40,000-cue benchmark file. Each iteration times one process run
// and one explanation of its result; "explain-%" is the second over the
// first, both measured in the same run. The cases are the engine's own
// benchmark request and a warn-only run whose report is full of findings.
func BenchmarkExplainOverhead(b *testing.B) {
	gctune.Apply()
	presets := loadPresets(b)
	standards, err := standard.Load(os.DirFS("../../assets/standards"))
	if err != nil {
		b.Fatal(err)
	}
	eng := engine.New(engine.Options{Presets: presets, Standards: standards})
	x := New(Options{Presets: presets})
	data := synth.SRT(40_000)
	for _, c := range []struct {
		name string
		req  engine.Request
	}{
		{"generic-auto-split-cps-dcmp", engine.Request{Filename: "big.srt", Data: data, Preset: "generic", FixProfile: "auto-split-cps", Standard: "dcmp"}},
		{"youtube-warn-only-dcmp", engine.Request{Filename: "big.srt", Data: data, Preset: "youtube", Standard: "dcmp"}},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			var process, explain time.Duration
			actions := 0
			for b.Loop() {
				start := time.Now()
				res, err := eng.Process(context.Background(), c.req)
				if err != nil {
					b.Fatal(err)
				}
				mid := time.Now()
				in := FromResult(res)
				e, err := x.Explain(context.Background(), &in)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := json.Marshal(e); err != nil {
					b.Fatal(err)
				}
				explain += time.Since(mid)
				process += mid.Sub(start)
				actions = len(e.Actions)
			}
			b.ReportMetric(100*float64(explain)/float64(process), "explain-%")
			b.ReportMetric(float64(explain.Microseconds())/float64(b.N), "explain-µs/op")
			b.ReportMetric(float64(actions), "actions")
		})
	}
}
