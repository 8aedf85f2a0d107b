package vtt

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/captionqa/captionqa/backend/caption"
)

// TestWriteCuesOnly writes a track with a region, a STYLE block and cue
// text with empty lines and a carriage return in the form for ffmpeg: no
// block but the cues, no region setting, no character reference for a
// line break, and the cues read back with their text and spans but for
// the empty lines.
func TestWriteCuesOnly(t *testing.T) {
	t.Parallel()
	w := 100.0
	in := &caption.Track{Version: caption.Version, Language: "en",
		Regions: []caption.Region{{ID: "bottom", Width: &w}},
		Ext:     map[string]json.RawMessage{Format: json.RawMessage(`{"styles":["::cue { color: red }"]}`)},
		Cues: []caption.Cue{
			{StartMs: 1000, EndMs: 2000, Text: "In the region", Placement: &caption.Placement{Region: "bottom", Align: "start"}},
			// "\nas an old\n\nwrinkly\r man": "old" and "wrinkly" italic.
			{StartMs: 3000, EndMs: 4000, Text: "\nas an old\n\nwrinkly\r man", Spans: []caption.Span{{Start: 7, End: 19, Italic: true}}},
		}}
	var full, out bytes.Buffer
	if err := Write(&full, in); err != nil {
		t.Fatal(err)
	}
	if err := WriteCuesOnly(&out, in); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"REGION", "STYLE", "region:", "&#10;", "&#13;"} {
		if !strings.Contains(full.String(), s) {
			t.Errorf("Write wrote no %q, so this test shows nothing:\n%s", s, full.String())
		}
		if strings.Contains(out.String(), s) {
			t.Errorf("WriteCuesOnly wrote %q:\n%s", s, out.String())
		}
	}
	back, _, err := Parse(&out)
	if err != nil {
		t.Fatal(err)
	}
	if len(back.Cues) != 2 || back.Cues[0].Text != "In the region" || back.Cues[0].Placement == nil || back.Cues[0].Placement.Align != "start" {
		t.Fatalf("read back %+v", back.Cues)
	}
	c := back.Cues[1]
	if c.Text != "as an old\nwrinkly man" || len(c.Spans) != 1 || c.Spans[0].Start != 6 || c.Spans[0].End != 17 || !c.Spans[0].Italic {
		t.Errorf("cue 2 read back %q %+v; want \"as an old\\nwrinkly man\" with \"old\\nwrinkly\" (6 to 17) italic", c.Text, c.Spans)
	}
	if in.Regions == nil || in.Ext == nil || in.Cues[1].Text[0] != '\n' {
		t.Error("WriteCuesOnly changed its track")
	}
}
