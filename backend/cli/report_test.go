package cli

import (
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/captionqa/captionqa/backend/analysis"
)

// TestProcessReport: process FILE --report writes the QC report in the
// format its extension names, with the media findings of --analysis and
// timecodes at the programme's rate; a report of another extension, or
// for a folder, is a usage error.
func TestProcessReport(t *testing.T) {
	t.Parallel()
	rate := analysis.Rational{Num: 25, Den: 1}
	a := analysis.Analysis{Version: analysis.Version, DurationMs: 20000,
		Video: &analysis.Video{FrameRate: rate, FrameCount: 500, ShotChanges: []analysis.ShotChange{{TimeMs: 3040, Frame: 76, Score: 80}}},
		Audio: &analysis.Audio{Speech: []analysis.Segment{{StartMs: 1000, EndMs: 2500, Confidence: 0.9}, {StartMs: 3000, EndMs: 4000, Confidence: 0.9},
			{StartMs: 10000, EndMs: 14000, Confidence: 0.9}}}}
	b, err := json.Marshal(a)
	if err != nil {
		t.Fatal(err)
	}
	saved := writeFile(t, "programme.json", string(b))
	captions := writeFile(t, "news.srt", sampleSRT)
	dir := t.TempDir()

	csvPath := filepath.Join(dir, "news.csv")
	if code, out, stderr := run(t, "", "process", captions, "--analysis", saved, "--report", csvPath); code != ExitOK || !strings.Contains(out, `"deliveryStatus"`) {
		t.Fatalf("process --report csv: %d %s %s", code, out, stderr)
	}
	f, err := os.Open(csvPath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	codes := map[string]string{}
	for _, r := range rows[1:] {
		codes[r[5]] = r[2]
	}
	if _, ok := codes["uncaptioned_speech"]; !ok {
		t.Errorf("the CSV lacks the media's uncaptioned_speech: %v", rows)
	}
	if start, ok := codes["shot_change_near"]; !ok || start != "00:00:03:00" {
		t.Errorf("shot_change_near starts at %q (%v); want 00:00:03:00, 25 fps timecode", start, ok)
	}

	htmlPath := filepath.Join(dir, "news.html")
	if code, _, stderr := run(t, "", "process", captions, "--report", htmlPath); code != ExitOK {
		t.Fatalf("process --report html: %d %s", code, stderr)
	}
	page, err := os.ReadFile(htmlPath)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"<!DOCTYPE html>", "news.srt", "No media analysis", "HH:MM:SS.mmm"} {
		if !strings.Contains(string(page), want) {
			t.Errorf("the page lacks %q", want)
		}
	}

	pdfPath := filepath.Join(dir, "news.pdf")
	if code, _, stderr := run(t, "", "process", captions, "--report", pdfPath); code != ExitOK {
		t.Fatalf("process --report pdf: %d %s", code, stderr)
	}
	if b, err := os.ReadFile(pdfPath); err != nil || !strings.HasPrefix(string(b), "%PDF-") {
		t.Errorf("news.pdf: %v, starts %.8q", err, b)
	}

	for _, args := range [][]string{
		{"process", captions, "--report", filepath.Join(dir, "news.docx")},
		{"process", dir, "--report", filepath.Join(dir, "all.html")},
	} {
		if code, _, stderr := run(t, "", args...); code != ExitUsage || !strings.Contains(stderr, "--report") {
			t.Errorf("%v: %d %s; want a usage error naming --report", args, code, stderr)
		}
	}
}
