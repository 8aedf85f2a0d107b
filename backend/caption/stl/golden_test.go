package stl

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/captionqa/captionqa/backend/caption"
	"github.com/captionqa/captionqa/backend/internal/golden"
)

// suite is the golden test: <case>.want.json and <case>.want.diag.txt
// (the diagnostics after the cues' source lines, which are TTI block
// numbers).
func suite() golden.Suite {
	return golden.Suite{Inputs: []string{"testdata/*.in.stl"}, Parse: Parse, Check: checkInvariants,
		Diags: ".want.diag.txt", SourceLines: true}
}

// TestGoldenInputs checks that each testdata/<case>.in.stl holds what
// goldenFiles builds for it, and rewrites them under -update. It is not
// parallel, so it runs before TestGolden reads them.
func TestGoldenInputs(t *testing.T) {
	files := goldenFiles()
	for name, want := range files {
		golden.Compare(t, filepath.Join("testdata", name+".in.stl"), want)
	}
	on, _ := filepath.Glob("testdata/*.in.stl")
	if len(on) != len(files) {
		t.Errorf("testdata has %d inputs, goldenFiles builds %d", len(on), len(files))
	}
}

// TestGolden parses each testdata/<case>.in.stl and compares the IR with
// <case>.want.json and the diagnostics with <case>.want.diag.txt.
func TestGolden(t *testing.T) {
	t.Parallel()
	suite().Run(t)
}

// TestEmpty: an empty file is empty_input, with no cues.
func TestEmpty(t *testing.T) {
	t.Parallel()
	tr, diags := golden.MustParse(t, Parse, nil)
	if len(tr.Cues) != 0 || len(diags) != 2 || diags[0].Code != caption.CodeEmptyInput || diags[1].Code != caption.CodeNoCues {
		t.Errorf("cues %+v, diagnostics %+v", tr.Cues, diags)
	}
}

// TestSniff tells EBU STL from other files by its first bytes.
func TestSniff(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"latin", "programme", "table01"} {
		if !Sniff(goldenFiles()[name]) {
			t.Errorf("%s is not sniffed as EBU STL", name)
		}
	}
	for _, head := range []string{"", "850STL25.0", "850STL25.02", "85xSTL25.01", "WEBVTT\n\n", "850stl25.01"} {
		if Sniff([]byte(head)) {
			t.Errorf("%q is sniffed as EBU STL", head)
		}
	}
}

// TestTruncatedEverywhere cuts a file at every length: no panic, the
// invariants hold.
func TestTruncatedEverywhere(t *testing.T) {
	t.Parallel()
	data := goldenFiles()["blocks"]
	for n := range len(data) {
		tr, diags := golden.MustParse(t, Parse, data[:n])
		checkInvariants(t, tr, diags)
	}
}

// checkInvariants asserts what every parse result must satisfy.
func checkInvariants(t *testing.T, tr *caption.Track, diags []caption.Diagnostic) {
	t.Helper()
	if tr == nil || tr.Cues == nil {
		t.Fatal("nil track or cues")
	}
	for i, c := range tr.Cues {
		if c.StartMs < 0 || c.EndMs < c.StartMs {
			t.Errorf("cue %d: times %d-%d", i, c.StartMs, c.EndMs)
		}
		if i > 0 && c.StartMs < tr.Cues[i-1].StartMs {
			t.Errorf("cue %d starts before cue %d", i, i-1)
		}
		if !utf8.ValidString(c.Text) || strings.HasSuffix(c.Text, "\n") || strings.ContainsRune(c.Text, '\r') {
			t.Errorf("cue %d: bad text %q", i, c.Text)
		}
		n := utf8.RuneCountInString(c.Text)
		for _, s := range c.Spans {
			if s.Start < 0 || s.Start >= s.End || s.End > n {
				t.Errorf("cue %d: span [%d,%d) outside %d code points", i, s.Start, s.End, n)
			}
		}
		if c.Placement != nil && c.Placement.IsZero() {
			t.Errorf("cue %d: empty placement", i)
		}
		if c.SourceLine < 1 {
			t.Errorf("cue %d: source line %d", i, c.SourceLine)
		}
	}
	if tr.Language != "" && !caption.IsLanguageTag(tr.Language) {
		t.Errorf("language %q is not a BCP 47 tag", tr.Language)
	}
	golden.CheckDiagnostics(t, diags)
	// The IR of every track round-trips through its JSON form.
	var js bytes.Buffer
	if err := caption.WriteJSON(&js, tr); err != nil {
		t.Fatal(err)
	}
	back, _, err := caption.ParseJSON(bytes.NewReader(js.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	back.Source = tr.Source // the JSON reader records its own
	var again bytes.Buffer
	if err := caption.WriteJSON(&again, back); err != nil || !bytes.Equal(js.Bytes(), again.Bytes()) {
		t.Errorf("the IR does not round-trip through JSON: %v", err)
	}
}
