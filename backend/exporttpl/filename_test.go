package exporttpl

import (
	"strings"
	"testing"
)

func TestFileName(t *testing.T) {
	tpl := &Template{Name: "CSV for translators", FilenamePattern: "{project}-{template}-r{revision}.csv"}
	for _, tc := range []struct {
		script, project, want string
	}{
		{"", "Lecture 1", "Lecture-1-CSV-for-translators-r7.csv"},
		{"mine.txt", "Lecture 1", "mine.txt"},
		{"../../etc/passwd", "x", "etc-passwd"},
		{"..", "x", "export.txt"},
		{"a\x00b\nc.srt", "x", "a-b-c.srt"},
		{strings.Repeat("é", 200), "x", "export.txt"},
		{strings.Repeat("a", 300) + ".txt", "x", strings.Repeat("a", 120)},
	} {
		if got := fileName(tpl, tc.script, tc.project, 7); got != tc.want {
			t.Errorf("fileName(%q, %q) = %q, want %q", tc.script, tc.project, got, tc.want)
		}
	}
}

func TestPreview(t *testing.T) {
	short := "hello"
	if p, cut := preview(short); p != short || cut {
		t.Errorf("preview(short) = %q, %v", p, cut)
	}
	// A two-byte character across the limit is left out whole.
	long := strings.Repeat("a", MaxPreviewBytes-1) + "é" + "tail"
	p, cut := preview(long)
	if !cut || len(p) != MaxPreviewBytes-1 || !strings.HasSuffix(p, "a") {
		t.Errorf("preview(long) = %d bytes, cut %v", len(p), cut)
	}
}

func TestCheckPattern(t *testing.T) {
	for _, tc := range []struct {
		p  string
		ok bool
	}{
		{"{project}.csv", true}, {"", false}, {"a/b", false}, {`a\b`, false}, {"a\tb", false},
		{strings.Repeat("x", maxPatternLen+1), false},
	} {
		if err := checkPattern(tc.p); (err == nil) != tc.ok {
			t.Errorf("checkPattern(%q) = %v, want ok %v", tc.p, err, tc.ok)
		}
	}
}
