package engine

import (
	"context"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/captionqa/captionqa/backend/caption"
	"github.com/captionqa/captionqa/backend/caption/format"
	"github.com/captionqa/captionqa/backend/caption/synth"
	"github.com/captionqa/captionqa/backend/rules"
	"github.com/captionqa/captionqa/backend/standard"
)

// TestSpanVoiceLabels: on a preset that strips styling, a speaker marked
// on part of a cue (a WebVTT <v> span) becomes a "NAME: " label where
// that speaker starts, as a cue's own voice does; the change names the
// labels, and EN 301 549 7.1.3 counts them as kept text. A preset that
// keeps styling writes the voices as they were.
func TestSpanVoiceLabels(t *testing.T) {
	t.Parallel()
	eng := newTestEngine(t)
	const head = "WEBVTT\n\n00:00:01.000 --> 00:00:04.000\n"
	tests := []struct {
		name, cue, preset string
		want              string // the delivery's cue text, or a fragment of the WebVTT output
		wantLabels        []string
	}{
		{"a speaker per line", "<v Alice>Where were you?</v>\n<v Bob>Out.</v>", "youtube",
			"Alice: Where were you?\nBob: Out.", []string{`"Alice:"`, `"Bob:"`}},
		{"a speaker mid-line is labelled where it starts", "<v Alice>Where were you?</v> <v Bob>Out.</v>", "youtube",
			"Alice: Where were you? Bob: Out.", []string{`"Alice:"`, `"Bob:"`}},
		{"a text already opening with the label keeps it", "<v Alice>Alice: Where were you?</v>\n<v Bob>Out.</v>", "youtube",
			"Alice: Where were you?\nBob: Out.", []string{`"Bob:"`}},
		{"a label in another case counts", "<v Alice>ALICE: Where were you?</v>\n<v Bob>Out.</v>", "youtube",
			"ALICE: Where were you?\nBob: Out.", []string{`"Bob:"`}},
		{"a speaker who goes on is labelled once", "<v Alice>Where</v> <i>were</i>\n<v Alice>you?</v>", "youtube",
			"Alice: Where were\nyou?", []string{`"Alice:"`}},
		{"voices touching after a '!' are both labelled, apart", "<v Ann>Wait!</v><v Bob>What?</v>", "youtube",
			"Ann: Wait! Bob: What?", []string{`"Ann:"`, `"Bob:"`}},
		{"unlabelled text before the first speaker", "So.\n<v Alice>Where</v> <v Bob>Out.</v>", "youtube",
			"So.\nAlice: Where Bob: Out.", []string{`"Alice:"`, `"Bob:"`}},
		{"zoom writes the labels in WebVTT", "<v Alice>Where were you?</v>\n<v Bob>Out.</v>", "zoom",
			"\nAlice: Where were you?\nBob: Out.\n", []string{`"Alice:"`, `"Bob:"`}},
		{"a preset keeping styling keeps the voices", "<v Alice>Where were you?</v>\n<v Bob>Out.</v>", "html5",
			"\n<v Alice>Where were you?</v>\n<v Bob>Out.</v>\n", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			res, err := eng.Process(context.Background(), Request{Filename: "in.vtt", Data: []byte(head + tt.cue + "\n"),
				Preset: tt.preset, Standard: "en-301-549"})
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(res.Output, tt.want) {
				t.Errorf("output lacks %q:\n%s", tt.want, res.Output)
			}
			var msgs []string
			for _, c := range res.Report.Fixes {
				if c.Code == rules.CodeStripStyling {
					msgs = append(msgs, c.Message)
				}
			}
			all := strings.Join(msgs, "\n")
			for _, l := range tt.wantLabels {
				if !strings.Contains(all, l) {
					t.Errorf("no change names the label %s: %q", l, msgs)
				}
			}
			if tt.wantLabels == nil && strings.Contains(all, "label") {
				t.Errorf("a change names a label on a preset that keeps voices: %q", msgs)
			}
			cl := clause(t, res.Report.Standard, "7.1.3")
			if cl.Status != standard.StatusPass {
				t.Errorf("7.1.3 is %s; want pass: %+v", cl.Status, cl.Findings)
			}
			for _, f := range cl.Findings {
				if f.Code == "text_lost" || f.Code == "speaker_info_dropped" {
					t.Errorf("7.1.3 finds %s: %s", f.Code, f.Message)
				}
			}
		})
	}
}

// clause returns the clause id of r.
func clause(t *testing.T, r *standard.Report, id string) standard.Clause {
	t.Helper()
	if r == nil {
		t.Fatal("no standard report")
	}
	for _, c := range r.Clauses {
		if c.ID == id {
			return c
		}
	}
	t.Fatalf("no clause %s in %+v", id, r.Clauses)
	return standard.Clause{}
}

// cueTexts returns the texts of the cues of an SRT output.
func cueTexts(t *testing.T, out string) []string {
	t.Helper()
	var texts []string
	for _, block := range strings.Split(strings.TrimSpace(out), "\n\n") {
		lines := strings.SplitN(block, "\n", 3)
		if len(lines) < 3 {
			t.Fatalf("SRT block without text: %q", block)
		}
		texts = append(texts, lines[2])
	}
	return texts
}

// TestLabelsBeforeFixes: on a preset that strips styling the speakers'
// labels are in the text the fix profile lays out, so a label pushes no
// line over the enforced limit and a split cue opens only its first
// piece with its label; warn-only adds the labels and edits nothing else.
func TestLabelsBeforeFixes(t *testing.T) {
	t.Parallel()
	eng := newTestEngine(t)
	const (
		fits  = "WEBVTT\n\n00:00:01.000 --> 00:00:05.000\n<v Bartholomew>We should leave before the tide turns.</v>\n"
		long  = "WEBVTT\n\n00:00:01.000 --> 00:00:09.000\n<v Marta>We should leave before the tide turns. The boat is ready at the pier. Bring the lamp and the rope.</v>\n"
		split = "WEBVTT\n\n00:00:01.000 --> 00:00:09.000\n<v Alice>Where were you all night long, and why did nobody answer?</v>\n<v Bob>Out on the pier, where the phones never find anyone at all.</v>\n"
		mid   = "WEBVTT\n\n00:00:01.000 --> 00:00:05.000\n<v Alice>If you had only said where you were going</v> <v Bob>I did, twice.</v>\n"
		wrap  = "WEBVTT\n\n00:00:01.000 --> 00:00:04.500\n<v Alice>You never told me where you went</v> <v Bob>Out. At the harbour.</v>\n"
	)
	tests := []struct {
		name, file, profile string
		want                []string // the delivery's cue texts
	}{
		{"a label counts in the layout", fits, "layout-preserve-breaks",
			[]string{"Bartholomew: We should leave\nbefore the tide turns."}},
		{"a label counts when re-wrapping", fits, "auto-split-sentences",
			[]string{"Bartholomew: We should leave\nbefore the tide turns."}},
		{"only the first piece of a split cue is labelled", long, "auto-split-sentences",
			[]string{"Marta: We should leave\nbefore the tide turns.", "The boat is ready at the pier.\nBring the lamp and the rope."}},
		{"each speaker labelled once over split pieces", split, "auto-split-sentences",
			[]string{"Alice: Where were you all night long,\nand why did nobody answer?", "Bob: Out on the pier,\nwhere the phones never find anyone at all."}},
		{"a speaker change mid-line is where the cue is split", mid, "auto-split-sentences",
			[]string{"Alice: If you had only said\nwhere you were going", "Bob: I did, twice."}},
		{"a speaker change mid-line starts a line when re-wrapping", wrap, "auto-split-sentences",
			[]string{"Alice: You never told me where you went\nBob: Out. At the harbour."}},
		{"a speaker change mid-line starts the line a break is added before", wrap, "layout-preserve-breaks",
			[]string{"Alice: You never told me where you went\nBob: Out. At the harbour."}},
		{"warn-only adds the label and nothing else", fits, "warn-only",
			[]string{"Bartholomew: We should leave before the tide turns."}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			res, err := eng.Process(context.Background(), Request{Filename: "in.vtt", Data: []byte(tt.file),
				Preset: "generic", FixProfile: tt.profile, Standard: "en-301-549"})
			if err != nil {
				t.Fatal(err)
			}
			got := cueTexts(t, res.Output)
			if tt.want != nil && !slices.Equal(got, tt.want) {
				t.Errorf("cues %q; want %q", got, tt.want)
			}
			labels := 0
			for _, text := range got {
				for line := range strings.SplitSeq(text, "\n") {
					if n := utf8.RuneCountInString(line); n > 42 && tt.profile != "warn-only" {
						t.Errorf("line of %d characters over the limit of 42: %q", n, line)
					}
					for _, name := range []string{"Bartholomew:", "Marta:", "Alice:", "Bob:"} {
						if strings.Contains(line, name) {
							labels++
						}
					}
				}
			}
			if want := strings.Count(tt.file, "<v "); labels != want {
				t.Errorf("%d labels in the delivery; want %d, one per speaker turn: %q", labels, want, got)
			}
			notes := 0
			for _, c := range res.Report.Fixes {
				if c.CueIndex != 0 {
					t.Errorf("a change of cue %d; the file has one cue: %+v", c.CueIndex, c)
				}
				if tt.profile == "warn-only" && c.Code != rules.CodeStripStyling {
					t.Errorf("warn-only made a change other than the labels: %+v", c)
				}
				if strings.Contains(c.Message, "label") {
					notes++
				}
			}
			if notes != 1 {
				t.Errorf("%d changes name the labels; want 1: %+v", notes, res.Report.Fixes)
			}
			for _, d := range res.Report.Remaining {
				if d.Code == "line_too_long" && tt.profile != "warn-only" {
					t.Errorf("line_too_long remains: %s", d.Message)
				}
			}
			if cl := clause(t, res.Report.Standard, "7.1.3"); cl.Status != standard.StatusPass {
				t.Errorf("7.1.3 is %s; want pass: %+v", cl.Status, cl.Findings)
			}
		})
	}
}

// TestLabelSpeakersLeavesSource: labelling reads the source, which the
// delivery and the aided output share, and never writes it; a track
// without voices (the 40,000-cue benchmark file) is not copied at all.
func TestLabelSpeakersLeavesSource(t *testing.T) {
	// Not parallel: testing.AllocsPerRun refuses it.
	eng := newTestEngine(t)
	p, err := eng.presets.Lookup("generic")
	if err != nil {
		t.Fatal(err)
	}
	_, plain, _, err := format.Read("big.srt", "", synth.SRT(2000))
	if err != nil {
		t.Fatal(err)
	}
	if allocs := testing.AllocsPerRun(10, func() {
		if got, notes := labelSpeakers(plain, p); got != plain || notes != nil {
			t.Fatal("a track without voices was copied")
		}
	}); allocs != 0 {
		t.Errorf("labelling a track without voices allocates %v times", allocs)
	}
	_, src, _, err := format.Read("in.vtt", "", []byte("WEBVTT\n\n00:00:01.000 --> 00:00:04.000\n<v Alice>Where were you?</v>\n<v Bob><i>Out.</i></v>\n"))
	if err != nil {
		t.Fatal(err)
	}
	before := caption.Cue{Text: src.Cues[0].Text, Voice: src.Cues[0].Voice, Spans: slices.Clone(src.Cues[0].Spans)}
	got, notes := labelSpeakers(src, p)
	// Each label is marked for the fixes ("Alice:" and "Bob:"), and the
	// italics move past the labels.
	wantSpans := []caption.Span{{Start: 0, End: 6, Label: true}, {Start: 23, End: 27, Label: true}, {Start: 28, End: 32, Italic: true}}
	if c := got.Cues[0]; c.Text != "Alice: Where were you?\nBob: Out." || c.HasVoice() || !slices.Equal(c.Spans, wantSpans) {
		t.Errorf("labelled cue %+v", c)
	}
	if want := `voices (now the labels "Alice:", "Bob:")`; notes[0] != want {
		t.Errorf("note %q; want %q", notes[0], want)
	}
	if c := src.Cues[0]; c.Text != before.Text || c.Voice != before.Voice || !slices.Equal(c.Spans, before.Spans) {
		t.Errorf("the source cue changed: %+v; was %+v", c, before)
	}
}

// TestWithLabels: the labels written into a cue's text, each marked by a
// span of "NAME:", and the spans of the text moved past them; a label
// parting words that touch brings its own space, in no span.
func TestWithLabels(t *testing.T) {
	t.Parallel()
	it := func(start, end int, voice string) caption.Span {
		return caption.Span{Start: start, End: end, Italic: true, Voice: voice}
	}
	label := func(start, end int) caption.Span { return caption.Span{Start: start, End: end, Label: true} }
	tests := []struct {
		name      string
		text      string
		spans     []caption.Span
		labels    []caption.VoiceLabel
		wantText  string
		wantSpans []caption.Span
	}{
		{"apart", "Where? Out.", []caption.Span{it(0, 6, "Ann"), it(7, 11, "Bo")},
			[]caption.VoiceLabel{{At: 0, Voice: "Ann"}, {At: 7, Voice: "Bo"}},
			"Ann: Where? Bo: Out.", []caption.Span{label(0, 4), label(12, 15), it(5, 11, ""), it(16, 20, "")}},
		{"touching", "Wait!What?", []caption.Span{it(0, 5, "Ann"), it(5, 10, "Bob")},
			[]caption.VoiceLabel{{At: 0, Voice: "Ann"}, {At: 5, Voice: "Bob", Space: true}},
			"Ann: Wait! Bob: What?", []caption.Span{label(0, 4), label(11, 15), it(5, 10, ""), it(16, 21, "")}},
		{"touching, past a wide character", "好。走", []caption.Span{it(0, 2, "Ann"), it(2, 3, "Bo")},
			[]caption.VoiceLabel{{At: 0, Voice: "Ann"}, {At: 6, Voice: "Bo", Space: true}},
			"Ann: 好。 Bo: 走", []caption.Span{label(0, 4), label(8, 11), it(5, 7, ""), it(12, 13, "")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			text, spans := withLabels(tt.text, tt.spans, tt.labels)
			if text != tt.wantText || !slices.Equal(spans, tt.wantSpans) {
				t.Errorf("withLabels = %q %+v; want %q %+v", text, spans, tt.wantText, tt.wantSpans)
			}
		})
	}
}
