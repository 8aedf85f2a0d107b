package engine

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/captionqa/captionqa/backend/caption"
	"github.com/captionqa/captionqa/backend/fix"
)

func TestHasControl(t *testing.T) {
	t.Parallel()
	tests := []struct {
		s    string
		want bool
	}{
		{"", false},
		{"plain text, long enough to fill a few words", false},
		{"tab\tline\nreturn\r", false},
		{"é, ß, \u00a0 (no-break space), \u00bf and 日本語", false},
		{"ends on a lone lead byte \xc2", false},
		{"an ESC \x1b[31m", true},
		{"\x00", true},
		{"a bell\a", true},
		{"DEL \x7f", true},
		{"NEL \u0085 (C1)", true},
		{"APC \u009f (C1)", true},
	}
	for _, tt := range tests {
		if got := hasControl(tt.s); got != tt.want {
			t.Errorf("hasControl(%q) = %v; want %v", tt.s, got, tt.want)
		}
	}
}

func TestStripControls(t *testing.T) {
	t.Parallel()
	clean := caption.Cue{ID: "c", Text: "clean", SourceLine: 1, Spans: []caption.Span{{Start: 0, End: 5, Italic: true}}}
	src := &caption.Track{Cues: []caption.Cue{
		clean,
		{
			// "ab" ESC "cd" BEL "e": the italic span covers ESC "cd",
			// the bold one the BEL alone, the class span everything.
			ID: "i\x1bd", Text: "ab\x1bcd\ae", SourceLine: 5, Voice: "Ann\u0085",
			Spans: []caption.Span{{Start: 2, End: 5, Italic: true}, {Start: 5, End: 6, Bold: true}, {Start: 0, End: 7, Class: "x\x01", Voice: "B\x7f"}},
		},
		{Text: "no spans\x1b", SourceLine: 9},
	}}
	before := *src
	before.Cues = append([]caption.Cue(nil), src.Cues...)
	got, diags := stripControls(src)
	if !reflect.DeepEqual(src, &before) {
		t.Fatal("stripControls modified its track")
	}
	want := []caption.Cue{
		clean,
		{ID: "id", Text: "abcde", SourceLine: 5, Voice: "Ann",
			Spans: []caption.Span{{Start: 2, End: 4, Italic: true}, {Start: 0, End: 5, Class: "x", Voice: "B"}}},
		{Text: "no spans", SourceLine: 9},
	}
	if !reflect.DeepEqual(got.Cues, want) {
		t.Errorf("cues\n%+v\nwant\n%+v", got.Cues, want)
	}
	if len(diags) != 2 {
		t.Fatalf("%d diagnostics; want one for each of the two cues: %+v", len(diags), diags)
	}
	for i, d := range diags {
		if d.Code != CodeControlCharacter || d.Severity != caption.SeverityWarning || d.CueIndex == nil || *d.CueIndex != i+1 || d.Line != src.Cues[i+1].SourceLine {
			t.Errorf("diagnostic %d = %+v", i, d)
		}
	}
	if m := diags[0].Message; !strings.HasSuffix(m, "text, id, speaker name and markup: U+001B ×2, U+0007, U+0085, U+007F, U+0001") {
		t.Errorf("message %q does not say where and which", m)
	}
	cleanTrack := &caption.Track{Cues: []caption.Cue{clean}}
	if same, diags := stripControls(cleanTrack); same != cleanTrack || diags != nil {
		t.Error("a clean track was copied or diagnosed")
	}
}

// TestControlCharactersNotReady: a file whose only problem is a control
// character in its text is will_adapt, with the character left out of
// every output and a strip_control fix for its cue, on every fix profile
// and output format; a cue the fixes remove gets no fix.
func TestControlCharactersNotReady(t *testing.T) {
	t.Parallel()
	eng := newTestEngine(t)
	const srt = "1\n00:00:01,000 --> 00:00:03,000\nHello \x1b[31mthere\n\n2\n00:00:04,000 --> 00:00:06,000\nA clean cue.\n"
	for _, preset := range []string{"youtube", "html5", "lms", "developer-json"} {
		for _, profile := range []string{string(fix.WarnOnly), "auto-split-sentences"} {
			res, err := eng.Process(context.Background(), Request{Filename: "esc.srt", Data: []byte(srt), Preset: preset, FixProfile: profile, Language: "en"})
			if err != nil {
				t.Fatal(err)
			}
			if res.DeliveryStatus != WillAdapt || res.AidedStatus != WillAdapt {
				t.Errorf("%s %s: status %s/%s; want will_adapt: %s", preset, profile, res.DeliveryStatus, res.AidedStatus, res.Report.Summary)
			}
			for _, out := range []string{res.Output, res.AidedOutput} {
				if strings.Contains(out, "\x1b") || strings.Contains(out, `\u001b`) {
					t.Errorf("%s %s: the ESC reached the output:\n%q", preset, profile, out)
				}
			}
			n := 0
			for _, c := range res.Report.Fixes {
				if c.Code == CodeControlCharacter {
					n++
					if c.CueIndex != 0 || c.Action != actionStripControl {
						t.Errorf("%s %s: fix %+v; want strip_control on cue 0", preset, profile, c)
					}
				}
			}
			if n != 1 {
				t.Errorf("%s %s: %d control character fixes; want 1: %+v", preset, profile, n, res.Report.Fixes)
			}
		}
	}
	// A cue of nothing but an ESC is empty once stripped: layout fixes
	// remove it, and the removal, not a repair, is reported.
	const only = "1\n00:00:01,000 --> 00:00:03,000\n\x1b\n\n2\n00:00:04,000 --> 00:00:06,000\nA clean cue.\n"
	res, err := eng.Process(context.Background(), Request{Filename: "esc.srt", Data: []byte(only), Preset: "youtube", FixProfile: "layout-preserve-breaks"})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range res.Report.Fixes {
		if c.Code == CodeControlCharacter {
			t.Errorf("a repair reported on a removed cue: %+v", res.Report.Fixes)
		}
	}
	if res.DeliveryStatus == Ready || strings.Contains(res.Output, "\x1b") {
		t.Errorf("status %s, output %q", res.DeliveryStatus, res.Output)
	}
}
