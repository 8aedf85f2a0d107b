package jsrun

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/captionqa/captionqa/backend/exporttpl"
)

// srtTemplate writes SRT: the benchmark template.
const srtTemplate = "function exportTimeline(cues, ctx) {\n" +
	"  const body = cues.map(c =>\n" +
	"    `${c.index + 1}\\n${ctx.srtTime(c.startMs)} --> ${ctx.srtTime(c.endMs)}\\n${c.lines.join('\\n')}\\n\\n`\n" +
	"  ).join('');\n" +
	"  return {body, filename: ctx.projectName + '.srt', contentType: 'application/x-subrip'};\n" +
	"}"

// benchInput returns n cues of two lines each (about 95 characters), some
// of them not ASCII: realistic subtitles.
func benchInput(n int) *exporttpl.Input {
	in := &exporttpl.Input{Ctx: exporttpl.Context{ProjectID: "p", ProjectName: "bench", IRRevision: 1, Language: "en", FrameRate: 25}}
	for i := range n {
		l1 := fmt.Sprintf("Line one of cue %d, with some words — and “quotes”", i)
		l2 := fmt.Sprintf("and a second line, number %d, Grüße ✓", i)
		in.Cues = append(in.Cues, exporttpl.Cue{
			Index: i, ID: strconv.Itoa(i + 1), StartMs: int64(i) * 2500, EndMs: int64(i)*2500 + 2000,
			Text: l1 + "\n" + l2, Lines: []string{l1, l2},
		})
	}
	return in
}

// shortInput returns n cues of one ASCII line of about 40 characters, the
// size of a typical subtitle cue (126 bytes of JSON a cue).
func shortInput(n int) *exporttpl.Input {
	in := &exporttpl.Input{Ctx: exporttpl.Context{ProjectName: "bench"}}
	for i := range n {
		l := fmt.Sprintf("A short caption line, number %d.", i)
		in.Cues = append(in.Cues, exporttpl.Cue{Index: i, ID: strconv.Itoa(i + 1), StartMs: int64(i) * 2500, EndMs: int64(i)*2500 + 2000, Text: l, Lines: []string{l}})
	}
	return in
}

// goSRT is the baseline: the same SRT written in Go.
func goSRT(in *exporttpl.Input) string {
	var b strings.Builder
	for _, c := range in.Cues {
		b.WriteString(strconv.Itoa(c.Index + 1))
		b.WriteByte('\n')
		b.WriteString(srtTime(c.StartMs))
		b.WriteString(" --> ")
		b.WriteString(srtTime(c.EndMs))
		b.WriteByte('\n')
		b.WriteString(strings.Join(c.Lines, "\n"))
		b.WriteString("\n\n")
	}
	return b.String()
}

func srtTime(ms int64) string {
	return fmt.Sprintf("%02d:%02d:%02d,%03d", ms/3600000, ms/60000%60, ms/1000%60, ms%1000)
}

func TestSRTTemplateMatchesGo(t *testing.T) {
	r := newRunner()
	in := benchInput(200)
	out, err := r.Run(context.Background(), compile(t, r, srtTemplate), in, 0)
	if err != nil {
		t.Fatal(err)
	}
	if want := goSRT(in); out.Body != want {
		t.Errorf("the template's SRT differs from Go's:\n%.300q\n%.300q", out.Body, want)
	}
	if out.Filename != "bench.srt" || out.ContentType != "application/x-subrip" {
		t.Errorf("out = %q, %q", out.Filename, out.ContentType)
	}
}

// BenchmarkRun2000Cues: a fresh VM per run writing SRT from 2,000 cues,
// the cues' JSON encoding and handover included; go-baseline writes the
// same SRT in Go (strings.Builder). The target: at most 30 ms and
// under 1 MiB of Go heap per run. jsrun-short runs the same template on
// 2,000 one-line cues.
func BenchmarkRun2000Cues(b *testing.B) {
	in := benchInput(2000)
	want := goSRT(in)
	runJS := func(b *testing.B, in *exporttpl.Input) {
		r := New(Options{MaxConcurrent: 1})
		c := compile(b, r, srtTemplate)
		want := goSRT(in)
		b.ReportAllocs()
		for b.Loop() {
			out, err := r.Run(context.Background(), c, in, 0)
			if err != nil {
				b.Fatal(err)
			}
			if len(out.Body) != len(want) {
				b.Fatalf("body %d bytes, want %d", len(out.Body), len(want))
			}
		}
		b.ReportMetric(float64(len(want)), "out-bytes")
	}
	b.Run("jsrun", func(b *testing.B) { runJS(b, in) })
	b.Run("jsrun-short", func(b *testing.B) { runJS(b, shortInput(2000)) })
	b.Run("go-baseline", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if out := goSRT(in); len(out) != len(want) {
				b.Fatal("short")
			}
		}
	})
}
