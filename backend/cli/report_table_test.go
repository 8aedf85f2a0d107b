package cli

import (
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestProcessDirTableAlignment drives process DIR on files named in
// Japanese and with accents: every column starts at the same display
// column on every row, and a failed file says why.
func TestProcessDirTableAlignment(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	files := map[string]string{
		"plain.srt": plainSRT,
		"日本語の字幕ファイル_第一話.srt":           fastSRT,
		"se\u0301rie été à Zürich.srt": plainSRT, // a decomposed accent too
		"壊れた字幕.vtt":                    "WEBVTT\n\nnothing here\n",
	}
	for name, content := range files {
		writeAt(t, filepath.Join(dir, name), content)
	}
	code, out, errOut := run(t, "", "process", dir, "--preset", "generic")
	if code != ExitEmpty {
		t.Fatalf("exit = %d; want %d (a file failed)\n%s%s", code, ExitEmpty, out, errOut)
	}
	lines := strings.Split(out, "\n")
	header := lines[0]
	heads := []string{"FORMAT", "CUES", "STATUS", "REMAINING", "SUGGESTIONS", "REASON"}
	var want []int
	for _, h := range heads {
		i := strings.Index(header, h)
		if i < 0 {
			t.Fatalf("header %q lacks %s", header, h)
		}
		want = append(want, columns(header[:i]))
	}
	rows := 0
	for _, line := range lines[1:] {
		name := ""
		for n := range files {
			if strings.HasPrefix(line, n) {
				name = n
			}
		}
		if name == "" {
			continue
		}
		rows++
		// The cells after the name, each found at or after the previous.
		rest, col := line[len(name):], columns(name)
		for i, h := range heads {
			if h == "REASON" && !strings.Contains(line, "failed") {
				break
			}
			trimmed := strings.TrimLeft(rest, " ")
			col += len(rest) - len(trimmed)
			if col != want[i] {
				t.Errorf("row %q: %s starts at column %d; header at %d\n%s", name, h, col, want[i], out)
			}
			cell, after, _ := strings.Cut(trimmed, "  ")
			if h == "REASON" {
				cell, after = trimmed, ""
			}
			col += columns(cell)
			rest = after
			if after != "" {
				col += 2
			}
		}
	}
	if rows != len(files) {
		t.Errorf("table has %d rows for %d files:\n%s", rows, len(files), out)
	}
	failedRow := ""
	for _, line := range lines {
		if strings.HasPrefix(line, "壊れた字幕.vtt") {
			failedRow = line
		}
	}
	if !strings.HasSuffix(failedRow, "failed           0          0            the file yielded no caption cues") {
		t.Errorf("the failed row does not give its reason:\n%s", out)
	}
}

func TestTableLines(t *testing.T) {
	t.Parallel()
	rows := [][]string{
		{"FILE", "STATUS", "REASON"},
		{"日本語.srt", "failed", "the file yielded no caption cues, which is a long message"},
		{"plain.srt", "ready", ""},
		{"é.srt", "failed", "キューがありません。ファイルを確認してください。"},
	}
	for _, tc := range []struct {
		width int
		want  []string
	}{
		{0, []string{
			"FILE        STATUS  REASON",
			"日本語.srt  failed  the file yielded no caption cues, which is a long message",
			"plain.srt   ready",
			"é.srt       failed  キューがありません。ファイルを確認してください。",
		}},
		{60, []string{
			"FILE        STATUS  REASON",
			"日本語.srt  failed  the file yielded no caption cues, which…",
			"plain.srt   ready",
			"é.srt       failed  キューがありません。ファイルを確認して…",
		}},
		{20, []string{ // the reason keeps its minimum room
			"FILE        STATUS  REASON",
			"日本語.srt  failed  the file yielded no cap…",
			"plain.srt   ready",
			"é.srt       failed  キューがありません。フ…",
		}},
	} {
		got := tableLines(rows, tc.width)
		if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
			t.Errorf("width %d:\n%s\nwant:\n%s", tc.width, strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
		}
		for _, l := range got {
			if !utf8.ValidString(l) || (tc.width >= 60 && columns(l) > tc.width) {
				t.Errorf("width %d: line %q is %d columns", tc.width, l, columns(l))
			}
		}
	}
}
