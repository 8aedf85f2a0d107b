package srt

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/captionqa/captionqa/backend/internal/golden"
	"github.com/captionqa/captionqa/backend/internal/scaling"
)

// TestLinear feeds long lines and long runs of what could start markup or
// blocks, checks what is read, and checks that reading time grows in
// proportion to the input: any quadratic step would show.
func TestLinear(t *testing.T) {
	// Not parallel: the package's other tests would collect and
	// allocate through the timed runs (see package scaling).
	const cue = "1\n00:00:01,000 --> 00:00:02,000\n"
	tests := []struct {
		name  string
		build func(n int) string // about n bytes
	}{
		{"ampersands", func(n int) string { return cue + strings.Repeat("&", n) }},
		{"override opens", func(n int) string { return cue + strings.Repeat("{\\", n/2) }},
		{"override closed", func(n int) string { return cue + strings.Repeat("{\\", n/2) + "}" }},
		{"tag opens", func(n int) string { return cue + strings.Repeat("<a ", n/3) }},
		{"font opens", func(n int) string { return cue + strings.Repeat(`<font color="red">`, n/18) }},
		{"continuations", func(n int) string { return cue + strings.Repeat("x\n\n", n/3) }},
		{"malformed blocks", func(n int) string { return strings.Repeat("x\n\n", n/3) }},
		{"counters", func(n int) string { return strings.Repeat("1\n", n/2) }},
		{"timing lines", func(n int) string { return strings.Repeat("00:00:01,000 --> 00:00:00,000\n", n/30) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			const n = 1 << 13
			tr, diags := golden.MustParse(t, Parse, []byte(tt.build(scaling.Factor*n)))
			checkInvariants(t, tr, diags)
			if err := Write(&bytes.Buffer{}, tr); err != nil {
				t.Fatal(err)
			}
			scaling.Linear(t, n, tt.build, func(in string) { golden.MustParse(t, Parse, []byte(in)) })
		})
	}
}

// TestBlankLinesInsideCue checks that the blank lines inside one cue's
// text, which the "continuations" input of TestLinear repeats on every
// other line, give one warning with their number and the first of them:
// a warning per line made reading it allocate 300 bytes per byte.
func TestBlankLinesInsideCue(t *testing.T) {
	t.Parallel()
	in := "1\n00:00:01,000 --> 00:00:02,000\n" + strings.Repeat("x\n\n", 10_000)
	tr, diags := golden.MustParse(t, Parse, []byte(in))
	if len(tr.Cues) != 1 || strings.Count(tr.Cues[0].Text, "x") != 10_000 {
		t.Errorf("got %d cues; want one cue holding every line", len(tr.Cues))
	}
	want := "5 warning non_standard_syntax: 9999 blank lines inside the text of cue \"1\", the first before line 5; " +
		"the lines after them were kept in the cue\n"
	if got := string(golden.DiagLines(diags)); got != want {
		t.Errorf("got %d diagnostics:\n%.500s\nwant:\n%s", len(diags), got, want)
	}
}

// TestHasMarkup checks the word-at-a-time search against a byte search.
func TestHasMarkup(t *testing.T) {
	t.Parallel()
	for n := 0; n < 24; n++ {
		for _, c := range []byte{'<', '&', '{', 'a', 0x80 | '<', '<' ^ 1, '&' + 0x80, 0} {
			for at := 0; at < n; at++ {
				b := []byte(strings.Repeat("x", n))
				b[at] = c
				s := string(b)
				want := strings.ContainsAny(s, "<&{")
				if got := hasMarkup(s); got != want {
					t.Fatalf("hasMarkup(%q) = %v; want %v", s, got, want)
				}
			}
		}
	}
}

// TestWrappedText checks the fast path for cues whose lines are each one
// <i>, <b> or <u> element against the markup reader.
func TestWrappedText(t *testing.T) {
	t.Parallel()
	variants := []string{
		"<i>abc</i>", "<i> abc</i>", "<i>abc </i>", "<i>a&amp;b</i>", "<i>a<b>c</b></i>", "<b>abc</b>",
		"<I>abc</I>", "<i>é</i>", "<i>\t</i>", "<i>a{b}</i>", "<i>ab</b>", "<u>x y</u>", "<i>x</i>  ",
		"<i></i>", "<i>x</i>y", "<i>x>y</i>", "<b>{\\an8}x</b>", "<i>a\u00a0</i>", "plain", "<i>ab</i>",
	}
	hits := 0
	for _, a := range variants {
		for _, b := range append([]string{""}, variants...) {
			for _, c := range []string{"", "<i>z</i>", "<b>z</b>"} {
				src := a
				for _, l := range []string{b, c} {
					if l != "" {
						src += "\n" + l
					}
				}
				var p parser
				p.src = src
				p.notes.d = &p.d
				off := 0
				for i, l := range strings.Split(src, "\n") {
					p.text = append(p.text, lineRef{start: off, end: off + len(trimRightSpace(l)), no: i + 1})
					off += len(l) + 1
				}
				text, spans, ok := p.wrappedText(p.text)
				if !ok {
					continue
				}
				hits++
				wantText, wantSpans, wantPl := p.mk.build(p.src, p.text, &p.notes)
				if text != wantText || !slices.Equal(spans, wantSpans) || wantPl != nil || len(p.d) > 0 {
					t.Errorf("%q: fast path gives %q %v; markup reader %q %v %v %v", src, text, spans, wantText, wantSpans, wantPl, p.d)
				}
			}
		}
	}
	if hits < 100 {
		t.Errorf("the fast path took %d cues; want at least 100", hits)
	}
}

// TestHasArrow checks the shortcuts of hasArrow against a substring search.
func TestHasArrow(t *testing.T) {
	t.Parallel()
	for _, s := range []string{
		"", "1", "12", "-->", "123", "12345678901234567890", "123456789012345678901", "1-->",
		"00:00:01,000 --> 00:00:02,000", "00:00:01,000 -> 00:00:02,000", "00:00:01.000-->00:00:02.000",
		"abc", "a --> b", "00:00:01,000 --> ", "00:00:01,000 --x 00:00:02,000", "--",
	} {
		if got, want := hasArrow(s), strings.Contains(s, "-->"); got != want {
			t.Errorf("hasArrow(%q) = %v; want %v", s, got, want)
		}
	}
}
