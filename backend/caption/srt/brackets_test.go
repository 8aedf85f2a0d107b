package srt

import (
	"bytes"
	"strings"
	"testing"

	"github.com/captionqa/captionqa/backend/caption"
)

// TestMarkupLookalikes writes text that other SRT readers take for
// markup, or do not, and checks which of its bytes Write writes as
// look-alikes. What each reader does is what ffmpeg 5.1 (with libass,
// which shows the ASS ffmpeg makes of SRT) and Python's html.parser
// (ttconv's SRT reader) do with the text as it stands, checked by hand;
// the read-back test (TestReadBackFFmpeg in caption/format) reads the
// writer's output with ffmpeg itself.
func TestMarkupLookalikes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, text, want string
	}{
		{"sound in angle brackets (both drop it)", "<LAUGHING & WHOOPS!>", "‹LAUGHING & WHOOPS!›"},
		{"ffmpeg reads < b as bold", "a < b & c > d", "a ‹ b & c › d"},
		{"ffmpeg reads <font after spaces", "<  font x>", "‹  font x›"},
		{"words around angle brackets (neither reads a tag)", "3 < 4 and 5 > 2", "3 < 4 and 5 > 2"},
		{"a space and no tag name (ffmpeg shows it)", "< LAUGHING >", "< LAUGHING >"},
		{"no closing bracket", "I <3 you, <LAUGHING", "I <3 you, <LAUGHING"},
		{"empty tag (ffmpeg drops it)", "x <> y", "x ‹› y"},
		{"digits and underscore (ffmpeg drops them)", "<3> <_x> <3 x>", "‹3› ‹_x› ‹3 x›"},
		{"end tags (both drop them)", "</> </ x> </3>", "‹/› ‹/ x› ‹/3›"},
		{"comment and declaration (html.parser drops them)", "<!-- x --> <?x>", "‹!-- x --› ‹?x›"},
		{"a tag across lines (both read one)", "<a\nb>", "‹a\nb›"},
		{"one tag inside another", "<a <b> c>", "‹a ‹b› c›"},
		{"a rewrite that would open a tag before it", "<3 <b> >", "‹3 ‹b› ›"},
		{"a quoted bracket (html.parser reads one tag)", `<font color="<">`, `‹font color="<"›`},
		{"doubled brackets", "<<b>>", "<‹b›>"},
		{"what is left has no closer", "<font A=<font>", "<font A=‹font›"},
		{"arrow as the closer", "<b --> x", "‹b --› x"},
		{"text in braces (libass hides it)", "{laughs} a {\\i1} {y:i} {b}", "(laughs) a (\\i1) (y:i) (b)"},
		{"braces inside braces", "{a{b}c}", "(a(b)c)"},
		{"a brace without a closer", "} a { b", "} a { b"},
		{"ASS escapes (libass reads them)", `C:\new \h x \N y`, "C:\u2216new \u2216h x \u2216N y"},
		{"other backslashes", `a \ b \x \`, `a \ b \x \`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var out bytes.Buffer
			if err := Write(&out, &caption.Track{Cues: []caption.Cue{{Text: tt.text}}}); err != nil {
				t.Fatal(err)
			}
			_, body, _ := strings.Cut(out.String(), "00:00:00,000 --> 00:00:00,000\n")
			if got := strings.TrimSuffix(body, "\n\n"); got != tt.want {
				t.Errorf("%q written %q, want %q", tt.text, got, tt.want)
			}
			if r := RewritesMarkup(tt.text); r != (tt.text != tt.want) {
				t.Errorf("RewritesMarkup(%q) = %v", tt.text, r)
			}
		})
	}
}
