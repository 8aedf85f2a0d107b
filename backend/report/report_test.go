package report

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/analysis"
	"github.com/captionqa/captionqa/backend/engine"
	"github.com/captionqa/captionqa/backend/internal/golden"
	"github.com/captionqa/captionqa/backend/preset"
	"github.com/captionqa/captionqa/backend/standard"
)

// generated is the time every test report is made at.
var generated = time.Date(2026, 12, 2, 17, 30, 0, 0, time.UTC)

func newEngine(t *testing.T) *engine.Engine {
	t.Helper()
	presets, err := preset.Load(os.DirFS("../../assets/presets"))
	if err != nil {
		t.Fatal(err)
	}
	standards, err := standard.Load(os.DirFS("../../assets/standards"))
	if err != nil {
		t.Fatal(err)
	}
	return engine.New(engine.Options{Presets: presets, Standards: standards})
}

// programme is a 25 fps analysis of testdata/problems.srt's programme:
// speech under each cue but the last, which comes 400 ms early, a
// stretch of speech no cue captions, and a cut one frame after the last
// cue starts.
func programme() *analysis.Analysis {
	rate := analysis.Rational{Num: 25, Den: 1}
	return &analysis.Analysis{Version: analysis.Version, DurationMs: 22000,
		Video: &analysis.Video{FrameRate: rate, FrameCount: 550,
			ShotChanges: []analysis.ShotChange{{TimeMs: 12040, Frame: 301, Score: 70}}},
		Audio: &analysis.Audio{Speech: []analysis.Segment{
			{StartMs: 1000, EndMs: 2000, Confidence: 0.9}, {StartMs: 2050, EndMs: 4000, Confidence: 0.9},
			{StartMs: 6000, EndMs: 9000, Confidence: 0.9}, {StartMs: 12400, EndMs: 14800, Confidence: 0.9},
			{StartMs: 16000, EndMs: 19500, Confidence: 0.9},
		}}}
}

type reportCase struct {
	name                         string
	preset, fixProfile, standard string
	media                        *analysis.Analysis
}

func reportCases() []reportCase {
	return []reportCase{
		{name: "clean", preset: "youtube"},
		{name: "problems", preset: "generic", fixProfile: "auto-split-cps", standard: "fcc-79.1", media: programme()},
	}
}

func build(t *testing.T, e *engine.Engine, c reportCase) *Report {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", c.name+".srt"))
	if err != nil {
		t.Fatal(err)
	}
	file := c.name + ".srt"
	res, err := e.Process(context.Background(), engine.Request{Filename: file, Data: data, Preset: c.preset,
		FixProfile: c.fixProfile, Standard: c.standard, Media: c.media})
	if err != nil {
		t.Fatal(err)
	}
	return Build(Input{Title: file, Facts: []Fact{{"File", file}}, Generated: generated,
		Filename: file, Data: data, Result: res, Media: c.media})
}

// TestGolden renders each case as HTML and CSV and compares them with
// testdata/NAME.html and NAME.csv (go test -update rewrites them).
func TestGolden(t *testing.T) {
	e := newEngine(t)
	for _, c := range reportCases() {
		t.Run(c.name, func(t *testing.T) {
			r := build(t, e, c)
			for _, f := range []struct {
				ext   string
				write func(*bytes.Buffer) error
			}{
				{"html", func(b *bytes.Buffer) error { return WriteHTML(b, r) }},
				{"csv", func(b *bytes.Buffer) error { return WriteCSV(b, r) }},
			} {
				var b bytes.Buffer
				if err := f.write(&b); err != nil {
					t.Fatal(err)
				}
				path := filepath.Join("testdata", c.name+"."+f.ext)
				if golden.Update() {
					if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
						t.Fatal(err)
					}
					continue
				}
				want, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(b.Bytes(), want) {
					t.Errorf("%s differs from the code's output (go test ./backend/report -update rewrites it):\n%s", path, b.String())
				}
			}
		})
	}
}

// TestContent checks what the problems case must hold, whatever the
// golden files say: the sections, the timecodes at the media's rate, the
// media findings apart, and no script in the page.
func TestContent(t *testing.T) {
	e := newEngine(t)
	r := build(t, e, reportCases()[1])
	if r.Status == engine.Ready || len(r.Problems) == 0 || len(r.Changes) == 0 || r.Standard == nil || !r.HasMedia {
		t.Fatalf("report = %+v; want problems, changes, a standard and media", r)
	}
	codes := map[string]bool{}
	for _, f := range r.Media {
		codes[f.Code] = true
	}
	if !codes["uncaptioned_speech"] || !codes["shot_change_near"] {
		t.Errorf("media findings %v; want uncaptioned_speech and shot_change_near", codes)
	}
	for _, f := range r.Problems {
		if mediaCodes[f.Code] {
			t.Errorf("media finding %s among the problems", f.Code)
		}
		if f.Cue != "" && (len(f.Start) != len("00:00:00:00") || strings.Count(f.Start, ":") != 3) {
			t.Errorf("cue %s starts at %q; want HH:MM:SS:FF at 25 fps", f.Cue, f.Start)
		}
	}
	var b bytes.Buffer
	if err := WriteHTML(&b, r); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	for _, bad := range []string{"<script", "src=", "href=", "@import", "url("} {
		if strings.Contains(page, bad) {
			t.Errorf("the page holds %q: a report is self-contained", bad)
		}
	}
	for _, want := range []string{"Problems by cue", "Changes made", "Standard: ", "Sync and shot changes", "Привет"} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
}

func TestClockText(t *testing.T) {
	for _, tt := range []struct {
		ms   int64
		fps  float64
		want string
	}{
		{0, 0, "00:00:00.000"},
		{3_723_045, 0, "01:02:03.045"},
		{3_723_045, 25, "01:02:03:01"},
		{59_999, 25, "00:00:59:24"},
		{1_500, 29.97, "00:00:01:14"},
		{-5, 25, "00:00:00:00"},
	} {
		if got := clockText(tt.ms, tt.fps); got != tt.want {
			t.Errorf("clockText(%d, %v) = %q, want %q", tt.ms, tt.fps, got, tt.want)
		}
	}
}

func TestCSVNeutralisesFormulas(t *testing.T) {
	r := &Report{Problems: []Finding{{Cue: "1", Code: "x", Message: "=HYPERLINK(\"a\")", Text: "+1"},
		{Cue: "2", Code: "y", Message: "-2", Text: "@me"}, {Cue: "3", Code: "z", Message: "fine", Text: "a=b"}}}
	var b bytes.Buffer
	if err := WriteCSV(&b, r); err != nil {
		t.Fatal(err)
	}
	want := "section,cue,start,end,kind,code,message,text\n" +
		"problems,1,,,Suggestion,x,\"'=HYPERLINK(\"\"a\"\")\",'+1\n" +
		"problems,2,,,Suggestion,y,'-2,'@me\n" +
		"problems,3,,,Suggestion,z,fine,a=b\n"
	if b.String() != want {
		t.Errorf("CSV =\n%s\nwant\n%s", b.String(), want)
	}
}

func readFont(t *testing.T) []byte {
	t.Helper()
	b, err := fs.ReadFile(os.DirFS("../../assets/fonts"), "DejaVuSans.ttf")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// pdftotext returns the text of each page of pdf, by poppler's pdftotext;
// it skips the test when the tool is absent, and fails it under CI.
func pdftotext(t *testing.T, pdf []byte) []string {
	t.Helper()
	if _, err := exec.LookPath("pdftotext"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("pdftotext (poppler-utils) is missing: make deps-test installs it")
		}
		t.Skip("pdftotext (poppler-utils) is not installed")
	}
	path := filepath.Join(t.TempDir(), "report.pdf")
	if err := os.WriteFile(path, pdf, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("pdftotext", "-layout", path, "-").Output()
	if err != nil {
		t.Fatalf("pdftotext: %v", err)
	}
	return strings.Split(strings.TrimSuffix(string(out), "\f"), "\f")
}

// TestPDF reads the PDF back: its pages, its sections, text in several
// scripts, and a long table that goes on over pages with its header
// repeated.
func TestPDF(t *testing.T) {
	e := newEngine(t)
	font := readFont(t)

	t.Run("sections and scripts", func(t *testing.T) {
		r := build(t, e, reportCases()[1])
		var b bytes.Buffer
		if err := WritePDF(&b, r, font); err != nil {
			t.Fatal(err)
		}
		if !bytes.HasPrefix(b.Bytes(), []byte("%PDF-")) {
			t.Fatalf("output starts %q, not a PDF", b.Bytes()[:min(8, b.Len())])
		}
		text := strings.Join(pdftotext(t, b.Bytes()), "\n")
		for _, want := range []string{"CAPTION QC REPORT", r.Verdict, "Problems by cue", "Changes made", "Standard: ", "Sync and shot changes",
			"uncaptioned_speech", "Привет", "Ελληνικά", "00:00:12:00"} {
			if !strings.Contains(text, want) {
				t.Errorf("the PDF's text lacks %q:\n%s", want, text)
			}
		}
	})

	t.Run("a long table repeats its header", func(t *testing.T) {
		r := &Report{Title: "long", Verdict: "Needs attention", Status: engine.NeedsAttention, Summary: "Many problems."}
		for i := range 300 {
			r.Problems = append(r.Problems, Finding{Cue: strconv.Itoa(i + 1), Start: clockText(int64(i)*2000, 25),
				End: clockText(int64(i)*2000+1500, 25), Blocking: true, Code: "reading_speed_high", Message: "reads at 25 cps, above 20", Text: "Line " + strconv.Itoa(i+1)})
		}
		var b bytes.Buffer
		if err := WritePDF(&b, r, font); err != nil {
			t.Fatal(err)
		}
		pages := pdftotext(t, b.Bytes())
		if len(pages) < 3 {
			t.Fatalf("%d pages; want the table over several", len(pages))
		}
		n := strconv.Itoa(len(pages))
		for i, p := range pages {
			if !strings.Contains(p, "Cue") || !strings.Contains(p, "Problem") {
				t.Errorf("page %d has no header row:\n%s", i+1, p)
			}
			if !strings.Contains(p, "Page "+strconv.Itoa(i+1)+" of "+n) {
				t.Errorf("page %d lacks its footer \"Page %d of %s\"", i+1, i+1, n)
			}
		}
		if last := pages[len(pages)-1]; !strings.Contains(last, "Line 300") {
			t.Errorf("the last page lacks the last row:\n%s", last)
		}
	})
}
