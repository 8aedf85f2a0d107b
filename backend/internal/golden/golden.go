// Package golden is test support for the caption codecs' golden-file and
// corpus tests, and for the engine's: the -update flag, the cases under
// testdata, comparing output with a golden file, and the text form of
// diagnostics the golden files hold. Only tests import it.
//
// A golden case is an input testdata/<case>.in.<ext> with its expected
// outputs next to it, testdata/<case>.want.json and the like. Running the
// tests with -update rewrites the expected outputs from what the code
// produces; do that only after checking that the change is intended.
package golden

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/captionqa/captionqa/backend/caption"
)

// update is the -update flag. It is registered once, when a test binary
// that links this package starts.
var update = flag.Bool("update", false, "rewrite the golden files in testdata from the code's output")

// Update reports whether the tests run with -update.
func Update() bool { return *update }

// ParseFunc is a codec's reader, such as srt.Parse.
type ParseFunc func(io.Reader) (*caption.Track, []caption.Diagnostic, error)

// WriteFunc is a codec's writer, such as srt.Write.
type WriteFunc func(io.Writer, *caption.Track) error

// Case is one golden input file.
type Case struct {
	// Name is the file name up to ".in.": "basic" for
	// testdata/basic.in.srt. For a corpus file it is the file's
	// slash-separated path inside the corpus.
	Name string
	// Path is the input file's path.
	Path string
	// Input is the file's content.
	Input []byte
}

// File returns the path of the case's golden file with the given suffix,
// next to the input: File(".want.json") of testdata/basic.in.srt is
// testdata/basic.want.json.
func (c Case) File(suffix string) string {
	return filepath.Join(filepath.Dir(c.Path), c.Name+suffix)
}

// Cases reads the inputs matching the glob patterns, the matches of each
// pattern in order, and fails the test when there is none.
func Cases(tb testing.TB, patterns ...string) []Case {
	tb.Helper()
	var cases []Case
	for _, pat := range patterns {
		files, err := filepath.Glob(pat)
		if err != nil {
			tb.Fatalf("golden: %v", err)
		}
		for _, path := range files {
			cases = append(cases, Case{Name: caseName(path), Path: path, Input: mustRead(tb, path)})
		}
	}
	if len(cases) == 0 {
		tb.Fatalf("golden: no golden inputs match %s", strings.Join(patterns, " "))
	}
	return cases
}

// caseName is the base name of path up to its last ".in.", or without its
// extension when it has none.
func caseName(path string) string {
	base := filepath.Base(path)
	if i := strings.LastIndex(base, ".in."); i >= 0 {
		return base[:i]
	}
	return strings.TrimSuffix(base, filepath.Ext(base))
}

// Run runs body for each case of Cases(patterns), each in a parallel
// subtest named after the case.
func Run(t *testing.T, body func(t *testing.T, c Case), patterns ...string) {
	t.Helper()
	run(t, Cases(t, patterns...), func(c Case) string { return c.Name }, body)
}

func run(t *testing.T, cases []Case, name func(Case) string, body func(t *testing.T, c Case)) {
	t.Helper()
	for _, c := range cases {
		t.Run(name(c), func(t *testing.T) {
			t.Parallel()
			body(t, c)
		})
	}
}

// Suite is a codec's golden test. Each case's IR is compared with
// <case>.want.json, its diagnostics with <case>+Diags and, when the suite
// has a writer, the writer's output with <case>+Out.
type Suite struct {
	// Inputs are the glob patterns of the inputs: "testdata/*.in.srt".
	Inputs []string
	Parse  ParseFunc
	// Check, if set, asserts what every parse result must satisfy.
	Check func(t *testing.T, tr *caption.Track, diags []caption.Diagnostic)
	// Diags is the suffix of the diagnostics' golden file, which holds
	// DiagLines, or Describe when SourceLines is set.
	Diags       string
	SourceLines bool
	// Write and Out, if set, are the writer and the suffix of the golden
	// file of its output.
	Write WriteFunc
	Out   string
}

// Cases returns the suite's inputs.
func (s Suite) Cases(tb testing.TB) []Case {
	tb.Helper()
	return Cases(tb, s.Inputs...)
}

// RunFiles runs body for each case in a parallel subtest named after the
// input's file name ("basic.in.srt").
func (s Suite) RunFiles(t *testing.T, body func(t *testing.T, c Case)) {
	t.Helper()
	run(t, s.Cases(t), func(c Case) string { return filepath.Base(c.Path) }, body)
}

// Fuzz seeds f with the suite's inputs and fuzzes the reader: it must not
// fail on in-memory input, and check runs on what it gives.
func (s Suite) Fuzz(f *testing.F, check func(t *testing.T, tr *caption.Track, diags []caption.Diagnostic)) {
	f.Helper()
	for _, c := range s.Cases(f) {
		f.Add(c.Input)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		tr, diags, err := s.Parse(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("Parse returned an error for in-memory input: %v", err)
		}
		check(t, tr, diags)
	})
}

// Run parses each case in a parallel subtest named after it, checks the
// result and compares it with the golden files.
func (s Suite) Run(t *testing.T) {
	t.Helper()
	Run(t, func(t *testing.T, c Case) {
		tr, diags := MustParse(t, s.Parse, c.Input)
		if s.Check != nil {
			s.Check(t, tr, diags)
		}
		var out []byte
		if s.Write != nil {
			out = MustWrite(t, s.Write, tr)
		}
		CompareJSON(t, c.File(".want.json"), tr)
		if s.SourceLines {
			Compare(t, c.File(s.Diags), Describe(tr, diags))
		} else {
			Compare(t, c.File(s.Diags), DiagLines(diags))
		}
		if s.Write != nil {
			Compare(t, c.File(s.Out), out)
		}
	}, s.Inputs...)
}

// Trip is the result of RoundTrip.
type Trip struct {
	// First is what src reads to, Second what the writer's output of
	// First reads to.
	First, Second *caption.Track
	// Written is the writer's output.
	Written []byte
	// Diags are the diagnostics of reading Written.
	Diags []caption.Diagnostic
}

// RoundTrip reads src, writes the track and reads the output again,
// failing the test on an error.
func RoundTrip(tb testing.TB, parse ParseFunc, write WriteFunc, src []byte) Trip {
	tb.Helper()
	var r Trip
	r.First, _ = MustParse(tb, parse, src)
	r.Written = MustWrite(tb, write, r.First)
	r.Second, r.Diags = MustParse(tb, parse, r.Written)
	return r
}

// Compare compares got with the golden file at path, reporting the first
// line where they differ, or rewrites the file with got under -update.
func Compare(tb testing.TB, path string, got []byte) {
	tb.Helper()
	if Update() {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			tb.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		tb.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		tb.Errorf("%s differs (check the change, then run go test -update to accept it)\n%s", path, Diff(got, want))
	}
}

// CompareJSON compares the track's IR JSON with the golden file at path.
func CompareJSON(tb testing.TB, path string, tr *caption.Track) {
	tb.Helper()
	var js bytes.Buffer
	if err := caption.WriteJSON(&js, tr); err != nil {
		tb.Fatal(err)
	}
	Compare(tb, path, js.Bytes())
}

// MustParse reads input with parse, failing the test on an error.
func MustParse(tb testing.TB, parse ParseFunc, input []byte) (*caption.Track, []caption.Diagnostic) {
	tb.Helper()
	tr, diags, err := parse(bytes.NewReader(input))
	if err != nil {
		tb.Fatalf("Parse: %v", err)
	}
	return tr, diags
}

// MustWrite returns what write makes of the track, failing the test on an
// error.
func MustWrite(tb testing.TB, write WriteFunc, tr *caption.Track) []byte {
	tb.Helper()
	var out bytes.Buffer
	if err := write(&out, tr); err != nil {
		tb.Fatal(err)
	}
	return out.Bytes()
}

// CheckDiagnostics asserts what every reader's diagnostic must satisfy: a
// code, a message, a line that is not negative and a known severity.
func CheckDiagnostics(tb testing.TB, diags []caption.Diagnostic) {
	tb.Helper()
	for _, d := range diags {
		if d.Code == "" || d.Message == "" || d.Line < 0 {
			tb.Errorf("bad diagnostic %+v", d)
		}
		switch d.Severity {
		case caption.SeverityError, caption.SeverityWarning, caption.SeverityInfo:
		default:
			tb.Errorf("bad severity in %+v", d)
		}
	}
}

// DiagLines formats diagnostics one a line: line, severity, code, message.
func DiagLines(diags []caption.Diagnostic) []byte {
	var b bytes.Buffer
	for _, d := range diags {
		fmt.Fprintf(&b, "%d %s %s: %s\n", d.Line, d.Severity, d.Code, d.Message)
	}
	return b.Bytes()
}

// Describe lists the cues' source lines on a first line, then the
// diagnostics as DiagLines does.
func Describe(tr *caption.Track, diags []caption.Diagnostic) []byte {
	var b bytes.Buffer
	b.WriteString("source lines:")
	for _, c := range tr.Cues {
		fmt.Fprintf(&b, " %d", c.SourceLine)
	}
	b.WriteString("\n")
	b.Write(DiagLines(diags))
	return b.Bytes()
}

func mustRead(tb testing.TB, path string) []byte {
	tb.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	return b
}
