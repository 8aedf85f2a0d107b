package vtt

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/captionqa/captionqa/backend/caption"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// TestGolden parses each testdata/<case>.in.vtt and compares the IR with
// <case>.want.json, the diagnostics with <case>.diags.txt and the writer's
// output with <case>.out.vtt.
func TestGolden(t *testing.T) {
	t.Parallel()
	inputs, err := filepath.Glob("testdata/*.in.vtt")
	if err != nil || len(inputs) == 0 {
		t.Fatalf("no golden inputs: %v", err)
	}
	for _, in := range inputs {
		name := strings.TrimSuffix(filepath.Base(in), ".in.vtt")
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			src, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			track, diags, err := Parse(bytes.NewReader(src))
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			var js, out bytes.Buffer
			if err := caption.WriteJSON(&js, track); err != nil {
				t.Fatal(err)
			}
			if err := Write(&out, track); err != nil {
				t.Fatal(err)
			}
			base := strings.TrimSuffix(in, ".in.vtt")
			golden(t, base+".want.json", js.Bytes())
			golden(t, base+".diags.txt", formatDiags(diags))
			golden(t, base+".out.vtt", out.Bytes())
		})
	}
}

func formatDiags(diags []caption.Diagnostic) []byte {
	var b bytes.Buffer
	for _, d := range diags {
		fmt.Fprintf(&b, "%d %s %s: %s\n", d.Line, d.Severity, d.Code, d.Message)
	}
	return b.Bytes()
}

// golden compares got with the file, or rewrites it under -update.
func golden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs (run go test -update to accept):\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}

// TestRoundTrip checks that writing a parsed file and parsing it again
// keeps every cue's id, times, text, spans, voice and placement.
func TestRoundTrip(t *testing.T) {
	t.Parallel()
	inputs, _ := filepath.Glob("testdata/*.in.vtt")
	for _, in := range inputs {
		t.Run(filepath.Base(in), func(t *testing.T) {
			t.Parallel()
			src, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			checkRoundTrip(t, src)
		})
	}
}

// checkRoundTrip reports where parse(write(parse(src))) differs from
// parse(src).
func checkRoundTrip(t testing.TB, src []byte) {
	t.Helper()
	first, _, err := Parse(bytes.NewReader(src))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := Write(&out, first); err != nil {
		t.Fatal(err)
	}
	second, diags, err := Parse(bytes.NewReader(out.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range diags {
		switch d.Code {
		case caption.CodeMissingWebVTTHeader, caption.CodeInvalidTimestamp, caption.CodeMalformedBlock, caption.CodeInvalidSetting:
			t.Errorf("the written file has diagnostic %s on line %d: %s\n%s", d.Code, d.Line, d.Message, out.Bytes())
		}
	}
	if got, want := len(second.Cues), len(first.Cues); got != want {
		t.Fatalf("round trip: %d cues, want %d\n%s", got, want, out.Bytes())
	}
	for i := range first.Cues {
		if msg := diffCue(&second.Cues[i], &first.Cues[i]); msg != "" {
			t.Errorf("round trip cue %d: %s\n%s", i, msg, out.Bytes())
		}
	}
	if got, want := second.Language, first.Language; got != want {
		t.Errorf("round trip language = %q, want %q", got, want)
	}
	if got, want := string(second.Ext[Format]), string(first.Ext[Format]); got != want {
		t.Errorf("round trip track ext = %s, want %s", got, want)
	}
}

func diffCue(got, want *caption.Cue) string {
	switch {
	case got.ID != want.ID:
		return fmt.Sprintf("id %q, want %q", got.ID, want.ID)
	case got.StartMs != want.StartMs || got.EndMs != want.EndMs:
		return fmt.Sprintf("times %d-%d, want %d-%d", got.StartMs, got.EndMs, want.StartMs, want.EndMs)
	case got.Text != want.Text:
		return fmt.Sprintf("text %q, want %q", got.Text, want.Text)
	case got.Voice != want.Voice:
		return fmt.Sprintf("voice %q, want %q", got.Voice, want.Voice)
	case fmt.Sprint(got.Spans) != fmt.Sprint(want.Spans):
		return fmt.Sprintf("spans %v, want %v", got.Spans, want.Spans)
	case placementString(got.Placement) != placementString(want.Placement):
		return fmt.Sprintf("placement %s, want %s", placementString(got.Placement), placementString(want.Placement))
	}
	return ""
}

func placementString(p *caption.Placement) string {
	if p == nil {
		return "<nil>"
	}
	f := func(v *float64) string {
		if v == nil {
			return "auto"
		}
		return fmt.Sprint(*v)
	}
	return fmt.Sprintf("{area:%s align:%s line:%s %s %s pos:%s %s size:%s vertical:%s region:%s}",
		p.Area, p.Align, f(p.Line), p.LineUnit, p.LineAlign, f(p.Position), p.PositionAlign, f(p.Size), p.Vertical, p.Region)
}
