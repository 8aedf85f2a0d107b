package video

import (
	"strings"
	"testing"

	"github.com/captionqa/captionqa/backend/caption"
)

func TestWriteASS(t *testing.T) {
	top := &caption.Placement{Area: "top"}
	tr := &caption.Track{Cues: []caption.Cue{
		{StartMs: 1000, EndMs: 2505, Text: "Hello {there}\nC:\\path", Spans: []caption.Span{{Start: 0, End: 5, Italic: true}}},
		{StartMs: 3000, EndMs: 4000, Text: "[MUSIC]", Placement: top},
		{StartMs: 5000, EndMs: 5000, Text: "empty: dropped"},
	}}
	got := string(writeASS(tr, 1280, 720))
	for _, want := range []string{
		"PlayResX: 1280\nPlayResY: 720\nWrapStyle: 2\n",
		"Style: Default,DejaVu Sans,39,",
		"Dialogue: 0,0:00:01.00,0:00:02.51,Default,,0,0,0,,{\\i1}Hello{\\i0} (there)\\NC:∖path\n",
		"Dialogue: 0,0:00:03.00,0:00:04.00,Default,,0,0,0,,{\\an8}[MUSIC]\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("script lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "dropped") {
		t.Error("a cue without duration was written")
	}
	if !strings.Contains(string(writeASS(tr, 0, 0)), "PlayResX: 1920\nPlayResY: 1080\n") {
		t.Error("no frame size: want the 1920x1080 canvas")
	}
}

func FuzzWriteASS(f *testing.F) {
	f.Add("Hello {\\b1}world\\N", 0, 5, int64(0), int64(1000))
	f.Add("é\n\r}{", 3, 2, int64(-5), int64(99999999))
	f.Fuzz(func(t *testing.T, text string, start, end int, from, to int64) {
		tr := &caption.Track{Cues: []caption.Cue{{StartMs: from, EndMs: to, Text: text,
			Spans: []caption.Span{{Start: start, End: end, Bold: true}}}}}
		out := string(writeASS(tr, 640, 360))
		events := out[strings.Index(out, "[Events]"):]
		// Text never opens a tag of its own: every "{" is one we wrote.
		for _, line := range strings.Split(events, "\n")[2:] {
			if line == "" {
				continue
			}
			body := line[strings.Index(line, ",,0,0,0,,")+9:]
			if strings.Count(body, "{") != strings.Count(body, "}") || strings.ContainsAny(body, "\n\r") {
				t.Fatalf("event %q from text %q", body, text)
			}
		}
	})
}
