package golden

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/captionqa/captionqa/backend/caption"
)

func TestCaseName(t *testing.T) {
	t.Parallel()
	for path, want := range map[string]string{
		"testdata/basic.in.srt":    "basic",
		"testdata/v4_ssa.in.ssa":   "v4_ssa",
		"testdata/a.in.b.in.vtt":   "a.in.b",
		"testdata/plain.vtt":       "plain",
		"corpus/dir/x.in.ttml":     "x",
		"testdata/no_extension":    "no_extension",
		"testdata/crlf_bom.in.ass": "crlf_bom",
	} {
		if got := caseName(path); got != want {
			t.Errorf("caseName(%q) = %q, want %q", path, got, want)
		}
	}
	c := Case{Name: "basic", Path: filepath.Join("testdata", "basic.in.srt")}
	if got, want := c.File(".want.json"), filepath.Join("testdata", "basic.want.json"); got != want {
		t.Errorf("File = %q, want %q", got, want)
	}
}

func TestDiff(t *testing.T) {
	t.Parallel()
	tests := []struct {
		got, want string
		has       []string
	}{
		{"a\nb\nc\n", "a\nb\nc\n", []string{"no difference"}},
		{"1\n2\n3\n4\nX\n6\n", "1\n2\n3\n4\n5\n6\n", []string{"line 5", "          2 | 2\n", "got:      5 | X\n", "want:     5 | 5\n", "          6 | 6\n"}},
		{"a\nb\n", "a\nb\nc\n", []string{"line 3", "got:      3 | (end of file)", "want:     3 | c"}},
		{"a\nb", "a\nb\n", []string{"line 2", `got:      2 | "b"`, "want:     2 | b\n"}},
		{"a \n", "a\n", []string{"line 1", `got:      1 | "a \n"`}},
		{"a\r\n", "a\n", []string{`"a\r\n"`}},
	}
	for _, tt := range tests {
		d := Diff([]byte(tt.got), []byte(tt.want))
		for _, h := range tt.has {
			if !strings.Contains(d, h) {
				t.Errorf("Diff(%q, %q) =\n%s\nwant it to contain %q", tt.got, tt.want, d, h)
			}
		}
	}
}

// recorder is a testing.TB that records what Compare reports.
type recorder struct {
	testing.TB
	errors, fatals []string
}

func (r *recorder) Helper() {}

func (r *recorder) Errorf(format string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}

func (r *recorder) Fatalf(format string, args ...any) {
	r.fatals = append(r.fatals, fmt.Sprintf(format, args...))
}

func TestCompare(t *testing.T) {
	t.Parallel()
	if Update() {
		t.Skip("-update rewrites instead of comparing")
	}
	path := filepath.Join(t.TempDir(), "x.want.txt")
	if err := os.WriteFile(path, []byte("one\ntwo\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := &recorder{TB: t}
	Compare(r, path, []byte("one\ntwo\n"))
	if len(r.errors)+len(r.fatals) != 0 {
		t.Errorf("equal content reported: %v %v", r.errors, r.fatals)
	}
	Compare(r, path, []byte("one\nthree\n"))
	if len(r.errors) != 1 || !strings.Contains(r.errors[0], path+" differs") || !strings.Contains(r.errors[0], "got:      2 | three") {
		t.Errorf("difference reported as %q", r.errors)
	}
	Compare(r, filepath.Join(t.TempDir(), "missing"), nil)
	if len(r.fatals) != 1 || !strings.Contains(r.fatals[0], "run go test -update to create it") {
		t.Errorf("missing file reported as %q", r.fatals)
	}
}

func TestDiagLinesAndDescribe(t *testing.T) {
	t.Parallel()
	diags := []caption.Diagnostic{
		{Line: 3, Severity: caption.SeverityWarning, Code: caption.CodeInvalidTimestamp, Message: "bad time"},
		{Line: 0, Severity: caption.SeverityError, Code: caption.CodeNoCues, Message: "no cues"},
	}
	lines := "3 warning invalid_timestamp: bad time\n0 error no_cues: no cues\n"
	if got := string(DiagLines(diags)); got != lines {
		t.Errorf("DiagLines = %q, want %q", got, lines)
	}
	if got := DiagLines(nil); len(got) != 0 {
		t.Errorf("DiagLines(nil) = %q", got)
	}
	tr := &caption.Track{Cues: []caption.Cue{{SourceLine: 1}, {SourceLine: 5}}}
	if got, want := string(Describe(tr, diags)), "source lines: 1 5\n"+lines; got != want {
		t.Errorf("Describe = %q, want %q", got, want)
	}
}

func TestCases(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, name := range []string{"b.in.srt", "a.in.srt", "c.in.ssa", "d.want.json"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(name), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cases := Cases(t, filepath.Join(dir, "*.in.srt"), filepath.Join(dir, "*.in.ssa"))
	var got []string
	for _, c := range cases {
		if string(c.Input) != filepath.Base(c.Path) {
			t.Errorf("%s: input %q", c.Path, c.Input)
		}
		got = append(got, c.Name)
	}
	if strings.Join(got, " ") != "a b c" {
		t.Errorf("case names %q, want a b c", got)
	}
}
