package httpapi_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/engine"
	"github.com/captionqa/captionqa/backend/server"
)

// irOfCues builds an IR v1 document of n cues.
func irOfCues(n int) string {
	var b strings.Builder
	b.WriteString(`{"version":1,"cues":[`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"id":"%d","startMs":%d,"endMs":%d,"text":"Line %d of the benchmark."}`, i+1, i*3000, i*3000+2000, i)
	}
	b.WriteString(`]}`)
	return b.String()
}

// BenchmarkExport40k: one export of a 40,000-cue project to 3 presets
// through the API (engine runs, blob puts, the transaction, the JSON),
// against three engine process calls on the same IR, in the same
// iterations. It reports both times and their ratio (target: at most
// 1.3).
func BenchmarkExport40k(b *testing.B) {
	ts, secret := benchServer(b)
	ir := irOfCues(40_000)
	id := ts.mustProject(secret, `{"name":"bench","ir":`+jsonString(ir)+`}`)
	eng, err := server.NewEngine(8 << 20)
	if err != nil {
		b.Fatal(err)
	}
	presets := []string{"youtube", "lms", "vimeo"}
	body := `{"presets":["youtube","lms","vimeo"]}`
	ctx := context.Background()
	var exportTime, processTime time.Duration
	b.ResetTimer()
	export := func() {
		ts.clock.Advance(3 * time.Second) // past the export burst limit
		start := time.Now()
		if r := ts.do(request{method: "POST", path: exportPath(id), secret: secret, body: strings.NewReader(body),
			contentType: "application/json", raw: true}); r.status != 201 {
			b.Fatalf("export: %d %s", r.status, r.body)
		}
		exportTime += time.Since(start)
	}
	process := func() {
		start := time.Now()
		for _, p := range presets {
			if _, err := eng.Process(ctx, engine.Request{Filename: "bench.json", From: "json", Data: []byte(ir), Preset: p}); err != nil {
				b.Fatal(err)
			}
		}
		processTime += time.Since(start)
	}
	for i := 0; i < b.N; i++ {
		// Alternating the order spreads the machine's drift over both.
		if i%2 == 0 {
			export()
			process()
		} else {
			process()
			export()
		}
	}
	b.StopTimer()
	n := float64(b.N)
	b.ReportMetric(float64(exportTime.Milliseconds())/n, "export-ms/op")
	b.ReportMetric(float64(processTime.Milliseconds())/n, "3process-ms/op")
	b.ReportMetric(float64(exportTime)/float64(processTime), "ratio")
}
