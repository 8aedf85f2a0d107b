package scc

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/captionqa/captionqa/backend/caption"
	"github.com/captionqa/captionqa/backend/caption/synth"
)

// benchTrack is the engine's 40,000-cue benchmark file, read as SRT
// would give it: a cue every 2.5 s or so, one or two lines.
func benchTrack(b *testing.B) *caption.Track {
	b.Helper()
	// A tiny reader of the synthetic file (counter, timing, text, blank)
	// keeps this package free of the srt package.
	t, _, err := caption.Read(bytes.NewReader(synth.SRT(40_000)), "srt", synthSRT)
	if err != nil {
		b.Fatal(err)
	}
	return t
}

// BenchmarkWrite writes the 40,000 cues as SCC.
func BenchmarkWrite(b *testing.B) {
	t := benchTrack(b)
	b.ReportAllocs()
	for b.Loop() {
		if err := Write(io.Discard, t); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkParse reads back what Write makes of the 40,000 cues.
func BenchmarkParse(b *testing.B) {
	var buf bytes.Buffer
	if err := Write(&buf, benchTrack(b)); err != nil {
		b.Fatal(err)
	}
	data := buf.Bytes()
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		t, _, err := Parse(bytes.NewReader(data))
		if err != nil {
			b.Fatal(err)
		}
		if len(t.Cues) < 39_000 {
			b.Fatalf("%d cues", len(t.Cues))
		}
	}
}

// synthSRT reads the synthetic SRT file: blocks of a counter, a timing
// line and text, tags dropped.
func synthSRT(text string) (*caption.Track, caption.Diagnostics) {
	t := &caption.Track{}
	clock := func(s string) int64 {
		var h, m, sec, ms int64
		fmt.Sscanf(s, "%d:%d:%d,%d", &h, &m, &sec, &ms)
		return ((h*60+m)*60+sec)*1000 + ms
	}
	for block := range strings.SplitSeq(strings.TrimSpace(text), "\n\n") {
		lines := strings.Split(block, "\n")
		if len(lines) < 3 {
			continue
		}
		a, b, _ := strings.Cut(lines[1], " --> ")
		body := strings.Join(lines[2:], "\n")
		for _, tag := range []string{"<i>", "</i>"} {
			body = strings.ReplaceAll(body, tag, "")
		}
		t.Cues = append(t.Cues, caption.Cue{StartMs: clock(a), EndMs: clock(b), Text: body})
	}
	return t, nil
}
