package cli

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/captionqa/captionqa/backend/analysis"
	"github.com/captionqa/captionqa/backend/caption"
	"github.com/captionqa/captionqa/backend/video/ffmpeg/fftest/programme"
)

// TestAnalyzeAndProcessAgainstIt: analyze prints what a programme holds
// and, with --json, the analysis that process --analysis takes back;
// process --media analyses on the way. Captions 1.5 s late are then
// reported (sync_offset), as they are not without media.
func TestAnalyzeAndProcessAgainstIt(t *testing.T) {
	t.Parallel()
	programme.Need(t)
	texts := []string{"Good evening and welcome.", "The weather will be cold tomorrow.", "That is all for tonight, goodbye."}
	var lines []programme.Line
	for i, s := range texts {
		lines = append(lines, programme.Line{AtMs: 1000 + int64(i)*4200, Text: s})
	}
	truth := programme.Cached(t, programme.Spec{Lines: lines,
		Scenes: []programme.Scene{{Source: "testsrc2", Frames: 150}, {Source: "smptebars", Frames: 200}}})

	code, out, stderr := run(t, "", "analyze", truth.Path)
	if code != 0 || !strings.Contains(out, fmt.Sprintf("Shot changes:  %d", len(truth.Cuts))) ||
		!strings.Contains(out, fmt.Sprintf("Speech:        %d segments", len(truth.Speech))) {
		t.Fatalf("analyze: %d\n%s\n%s", code, out, stderr)
	}
	code, out, stderr = run(t, "", "analyze", truth.Path, "--json")
	var a analysis.Analysis
	if code != 0 || json.Unmarshal([]byte(out), &a) != nil || a.Check() != nil || a.Video == nil || len(a.Audio.Speech) != len(truth.Speech) {
		t.Fatalf("analyze --json: %d %s\n%.300s", code, stderr, out)
	}
	saved := writeFile(t, "programme.json", out)

	var srt strings.Builder
	for i, s := range truth.Speech {
		fmt.Fprintf(&srt, "%d\n%s --> %s\n%s\n\n", i+1, srtTime(s.StartMs+1500), srtTime(s.EndMs+1800), texts[i])
	}
	captions := writeFile(t, "late.srt", srt.String())
	for _, flags := range [][]string{{"--analysis", saved}, {"--media", truth.Path}} {
		_, out, stderr = run(t, "", append([]string{"process", captions}, flags...)...)
		if !strings.Contains(out, `"sync_offset"`) {
			t.Errorf("process %v: no sync_offset\n%.500s\n%s", flags, out, stderr)
		}
	}
	if _, out, _ = run(t, "", "process", captions); strings.Contains(out, `"sync_offset"`) {
		t.Error("process without media reports sync_offset")
	}
	if code, out, stderr = run(t, "", "process", captions, "--analysis", captions); code == 0 || !strings.Contains(stderr+out, "not an analysis") {
		t.Errorf("process --analysis with a caption file: %d %s", code, stderr)
	}
	if code, _, stderr = run(t, "", "process", captions, "--analysis", saved, "--media", truth.Path); code != ExitUsage {
		t.Errorf("--analysis and --media together: %d %s", code, stderr)
	}
}

// srtTime is ms as SRT writes it: 00:00:01,500.
func srtTime(ms int64) string { return string(caption.AppendClock(nil, ms, 2, ',')) }
