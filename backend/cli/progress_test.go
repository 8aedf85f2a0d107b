package cli

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

var longNames = []string{
	"short.srt",
	"とても長い日本語のファイル名_第一話_字幕ファイル_最終版_確認済み.srt",
	"字幕_最終版_確認済み_第12話_長いファイル名の例.vtt", // its last 39 bytes start mid-character
	"Émission spéciale — déjà vu à Montréal, épisode très très long numéro deux.srt",
	"saison-1/Ça été une journée façon Noël à Zürich – Größe des Dorfes.srt",
	"bad\nname\x1b[2J.srt",
}

// TestProgressLine: every redraw fits in the terminal, left of its last
// column, shows the count, and cuts the name whole characters at a time.
func TestProgressLine(t *testing.T) {
	t.Parallel()
	for _, cols := range []int{120, 80, 60, 40, 20, 12, 8, 3} {
		for _, name := range longNames {
			t.Run(fmt.Sprintf("%d cols %q", cols, name), func(t *testing.T) {
				t.Parallel()
				got := progressLine(7, 12, name, cols)
				if w := columns(got); w >= cols {
					t.Errorf("line %q is %d columns; want fewer than %d", got, w, cols)
				}
				if !utf8.ValidString(got) || strings.ContainsAny(got, "\n\r\x1b") {
					t.Errorf("line %q is not one clean line of valid UTF-8", got)
				}
				if cols >= 12 && !strings.Contains(got, "7/12") {
					t.Errorf("line %q lacks the count", got)
				}
				if ext := name[len(name)-4:]; cols >= 40 && !strings.HasSuffix(got, ext) {
					t.Errorf("line %q lacks the end of the name", got)
				}
			})
		}
	}
	if got, want := progressLine(7, 12, "short.srt", 80), "[#################.............] 7/12 short.srt"; got != want {
		t.Errorf("80 columns: %q; want %q", got, want)
	}
}

// TestProgressRedraws drives the bar as processDir does, in a 60-column
// terminal: each redraw clears the line and stays within it.
func TestProgressRedraws(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	p := &progress{w: &buf, on: true, total: len(longNames), cols: func() int { return 60 }}
	for _, name := range longNames {
		p.done(name)
	}
	p.finish()
	draws := strings.Split(buf.String(), "\r\033[K")
	if len(draws) != len(longNames)+2 || draws[0] != "" || draws[len(draws)-1] != "" {
		t.Fatalf("output %q is not one cleared redraw per file and a final clear", buf.String())
	}
	for _, d := range draws[1 : len(draws)-1] {
		if !utf8.ValidString(d) || columns(d) >= 60 {
			t.Errorf("redraw %q: %d columns, valid UTF-8 %v", d, columns(d), utf8.ValidString(d))
		}
	}
}
