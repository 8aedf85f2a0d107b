package standard

import (
	"fmt"
	"slices"
	"testing"

	"github.com/captionqa/captionqa/backend/caption"
)

// TestClauseKinds grades one clause per case: pass, fail and not_evaluated
// for each kind, on small tracks built from the clean sample.
func TestClauseKinds(t *testing.T) {
	t.Parallel()
	s := loadReal(t)
	fp := func(v float64) *float64 { return &v }
	tests := []struct {
		name, std, clause string
		edit              func(in *Input)
		want              Status
		wantCode          string // a finding code that must be present
	}{
		// structure
		{"structure clean", "wcag-2.1-aa", "1.2.2-structure", nil, StatusPass, ""},
		{"structure without read-back", "wcag-2.1-aa", "1.2.2-structure", func(in *Input) { in.Reparse = nil }, StatusFail, "output_not_reparsable"},
		{"structure reversed range", "wcag-2.1-aa", "1.2.2-structure", func(in *Input) { in.Delivery.Cues[2].EndMs = 7000 }, StatusFail, caption.CodeInvalidTimestamp},
		{"structure reader dropped a cue", "en-301-549", "9.1.2.2-structure", func(in *Input) {
			in.ReaderDiagnostics = []caption.Diagnostic{{Code: caption.CodeInvalidTimestamp, Severity: caption.SeverityError, Line: 9, Message: "bad time"}}
		}, StatusFail, caption.CodeInvalidTimestamp},
		{"structure no text", "wcag-2.1-aa", "1.2.2-structure", func(in *Input) { in.Delivery = track(cue(0, 1000, " ")) }, StatusFail, caption.CodeNoCues},
		{"structure output lost cues", "wcag-2.1-aa", "1.2.2-structure", func(in *Input) { in.Reparse.Track.Cues = in.Reparse.Track.Cues[:2] }, StatusFail, "output_not_reparsable"},
		// equivalence
		{"equivalence never passes", "wcag-2.1-aa", "1.2.2-equivalence", nil, StatusNotEvaluated, ""},
		{"equivalence long plain file", "dcmp", "dcmp.clear", func(in *Input) { in.Delivery = generated(60, false) }, StatusNotEvaluated, "no_sound_descriptions"},
		// colour
		{"colour one colour", "wcag-2.1-aa", "1.4.1", func(in *Input) { colourAll(in.Reparse.Track, "#FFFF00", "") }, StatusPass, ""},
		{"colour two colours", "wcag-2.1-aa", "1.4.1", func(in *Input) {
			in.Reparse.Track.Cues[3].Spans = []caption.Span{{Start: 0, End: 5, Color: "#00ffff"}}
		}, StatusNotEvaluated, "colour_used"},
		// contrast
		{"contrast undeclared", "wcag-2.1-aa", "1.4.3", nil, StatusNotEvaluated, ""},
		{"contrast white on black", "wcag-2.1-aa", "1.4.3", func(in *Input) { colourAll(in.Reparse.Track, "#ffffff", "#000000ff") }, StatusPass, ""},
		{"contrast yellow on white", "wcag-2.1-aa", "1.4.3", func(in *Input) { colourAll(in.Reparse.Track, "#ffff00", "#ffffff") }, StatusFail, "contrast_too_low"},
		{"contrast translucent box", "wcag-2.1-aa", "1.4.3", func(in *Input) { colourAll(in.Reparse.Track, "#ffffff", "#00000080") }, StatusNotEvaluated, ""},
		// language
		{"language ttml en", "wcag-2.1-aa", "3.1.1", func(in *Input) { in.OutputFormat = "ttml" }, StatusPass, ""},
		{"language ttml und", "wcag-2.1-aa", "3.1.1", func(in *Input) { in.OutputFormat = "ttml"; in.Reparse.Track.Language = "und" }, StatusFail, "missing_language_tag"},
		{"language vtt", "wcag-2.1-aa", "3.1.1", func(in *Input) { in.OutputFormat = "vtt" }, StatusNotEvaluated, ""},
		// sync
		{"sync clean", "en-301-549", "7.1.2-conversion", nil, StatusPass, ""},
		{"sync writer drift", "en-301-549", "7.1.2-conversion", func(in *Input) { in.Reparse.Track.Cues[1].StartMs += 140 }, StatusFail, "timing_drift_on_convert"},
		{"sync rounding within limit", "en-301-549", "7.1.2-conversion", func(in *Input) { in.Reparse.Track.Cues[1].StartMs += 40 }, StatusPass, ""},
		{"sync fix retimed is info", "en-301-549", "7.1.2-conversion", func(in *Input) {
			in.Delivery.Cues[1].EndMs += 500
			in.Reparse.Track.Cues[1].EndMs += 500
		}, StatusPass, "timing_drift_on_convert"},
		{"sync no read-back, same cues", "en-301-549", "7.1.2-conversion", func(in *Input) { in.Reparse = nil; in.Delivery.Cues[0].StartMs += 300 }, StatusFail, "timing_drift_on_convert"},
		{"sync no read-back, split cues", "en-301-549", "7.1.2-conversion", func(in *Input) {
			in.Reparse = nil
			in.Delivery.Cues = append(in.Delivery.Cues, cue(18500, 19000, "more"))
		}, StatusNotEvaluated, ""},
		{"sync nothing to compare", "en-301-549", "7.1.2-conversion", func(in *Input) { in.Reparse, in.Source = nil, nil }, StatusNotEvaluated, ""},
		// preservation
		{"preservation clean", "en-301-549", "7.1.3", nil, StatusPass, ""},
		{"preservation text lost", "en-301-549", "7.1.3", func(in *Input) { in.Reparse.Track.Cues[1].Text = "Tonight we talk" }, StatusFail, "text_lost"},
		{"preservation brackets written as look-alikes", "en-301-549", "7.1.3", func(in *Input) {
			in.Source.Cues[1].Text = "<LAUGHING> " + in.Source.Cues[1].Text
			in.Delivery.Cues[1].Text = in.Source.Cues[1].Text
			in.Reparse.Track.Cues[1].Text = "\u2039LAUGHING\u203a " + in.Reparse.Track.Cues[1].Text
		}, StatusPass, ""},
		{"preservation brackets lost", "en-301-549", "7.1.3", func(in *Input) {
			in.Source.Cues[1].Text = "<LAUGHING> " + in.Source.Cues[1].Text
			in.Delivery.Cues[1].Text = in.Source.Cues[1].Text
		}, StatusFail, "text_lost"},
		{"preservation split keeps text", "en-301-549", "7.1.3", func(in *Input) {
			in.Reparse = nil
			in.Delivery.Cues[1].Text = "Tonight we talk about"
			in.Delivery.Cues = slices.Insert(in.Delivery.Cues, 2, cue(6000, 7500, "the tide tables."))
		}, StatusPass, "cue_count_changed"},
		{"preservation italics and voice dropped", "en-301-549", "7.1.3", func(in *Input) {
			in.Source.Cues[0].Spans = []caption.Span{{Start: 0, End: 7, Italic: true}}
			in.Source.Cues[1].Voice = "Narrator"
		}, StatusPass, "speaker_info_dropped"},
		{"preservation voice kept as label", "en-301-549", "7.1.3", func(in *Input) {
			in.Source.Cues[3].Voice = "Marta"
		}, StatusPass, ""},
		{"preservation voice written as a label", "en-301-549", "7.1.3", func(in *Input) {
			in.Source.Cues[2].Voice = "Bob"
			in.Reparse.Track.Cues[2].Text = "Bob: " + in.Reparse.Track.Cues[2].Text
		}, StatusPass, ""},
		{"preservation two-word voice written as a label", "en-301-549", "7.1.3", func(in *Input) {
			in.Source.Cues[2].Voice = "Roger Bingham"
			in.Reparse.Track.Cues[2].Text = "Roger Bingham: " + in.Reparse.Track.Cues[2].Text
		}, StatusPass, ""},
		{"preservation text lost after a label", "en-301-549", "7.1.3", func(in *Input) {
			in.Source.Cues[2].Voice = "Bob"
			in.Reparse.Track.Cues[2].Text = "Bob: gone"
		}, StatusFail, "text_lost"},
		{"preservation span voices written as labels", "en-301-549", "7.1.3", func(in *Input) {
			spanVoices(in, "Alice: Where were you?\nBob: Out.")
		}, StatusPass, ""},
		{"preservation span voices left out", "en-301-549", "7.1.3", func(in *Input) {
			spanVoices(in, "Where were you?\nOut.")
		}, StatusPass, "speaker_info_dropped"},
		{"preservation a span label where no speaker starts", "en-301-549", "7.1.3", func(in *Input) {
			spanVoices(in, "Alice: Where were you?\nOut. Bob:")
		}, StatusFail, "text_lost"},
		{"preservation touching voices written as labels", "en-301-549", "7.1.3", func(in *Input) {
			touchingVoices(in, "Ann: Wait! Bob: What?")
		}, StatusPass, ""},
		{"preservation touching voices left out", "en-301-549", "7.1.3", func(in *Input) {
			touchingVoices(in, "Wait!What?")
		}, StatusPass, "speaker_info_dropped"},
		{"preservation text lost after a touching voice's label", "en-301-549", "7.1.3", func(in *Input) {
			touchingVoices(in, "Ann: Wait! Bob: Wat?")
		}, StatusFail, "text_lost"},
		{"preservation text lost before a touching voice's label", "en-301-549", "7.1.3", func(in *Input) {
			touchingVoices(in, "Ann: Wai Bob: What?")
		}, StatusFail, "text_lost"},
		{"preservation dialogue split by speaker drops the dashes", "en-301-549", "7.1.3", func(in *Input) {
			splitDialogue(in, "- Marta, are you there?\n- I'm right here.", "Marta, are you there?", "I'm right here.")
		}, StatusPass, "cue_count_changed"},
		{"preservation dashes joined to the words dropped", "en-301-549", "7.1.3", func(in *Input) {
			splitDialogue(in, "-Marta, are you there?\n-I'm right here.", "Marta, are you there?", "I'm right here.")
		}, StatusPass, ""},
		{"preservation en and em dashes dropped", "en-301-549", "7.1.3", func(in *Input) {
			splitDialogue(in, "– Marta, are you there?\n—I'm right here.", "Marta, are you there?", "I'm right here.")
		}, StatusPass, ""},
		{"preservation one dash kept, one dropped", "en-301-549", "7.1.3", func(in *Input) {
			splitDialogue(in, "- Marta, are you there?\n-I'm right here.", "- Marta, are you there?", "I'm right here.")
		}, StatusPass, ""},
		{"preservation word lost next to a dropped dash", "en-301-549", "7.1.3", func(in *Input) {
			splitDialogue(in, "- Marta, are you there?\n- I'm right here.", "Marta, are you there?", "right here.")
		}, StatusFail, "text_lost"},
		{"preservation dash inside a line is text", "en-301-549", "7.1.3", func(in *Input) {
			splitDialogue(in, "Marta - are you there?\nI'm right here.", "Marta are you there?", "I'm right here.")
		}, StatusFail, "text_lost"},
		{"preservation hyphen of a word is text", "en-301-549", "7.1.3", func(in *Input) {
			splitDialogue(in, "Marta, are you there?\n-I'm right-here.", "Marta, are you there?", "I'm right here.")
		}, StatusFail, "text_lost"},
		{"preservation interruption dash on a lone later line is text", "en-301-549", "7.1.3", func(in *Input) {
			splitDialogue(in, "I was going to tell you\n— but never mind.", "I was going to tell you", "but never mind.")
		}, StatusFail, "text_lost"},
		{"preservation hyphen dash on a lone later line is text", "en-301-549", "7.1.3", func(in *Input) {
			splitDialogue(in, "I was going to tell you\n- but never mind.", "I was going to tell you", "but never mind.")
		}, StatusFail, "text_lost"},
		{"preservation interruption dash kept", "en-301-549", "7.1.3", func(in *Input) {
			splitDialogue(in, "I was going to tell you\n— but never mind.", "I was going to tell you", "— but never mind.")
		}, StatusPass, "cue_count_changed"},
		{"preservation minus sign starting a line is text", "en-301-549", "7.1.3", func(in *Input) {
			splitDialogue(in, "Marta, how cold is it?\n-5 degrees.", "Marta, how cold is it?", "5 degrees.")
		}, StatusFail, "text_lost"},
		{"preservation Japanese split at a sentence end", "en-301-549", "7.1.3", func(in *Input) {
			splitDialogue(in, "今日は寒い。駅まで歩いて行くことにした。", "今日は寒い。", "駅まで歩いて\n行くことにした。")
		}, StatusPass, "cue_count_changed"},
		{"preservation Chinese line broken", "en-301-549", "7.1.3", func(in *Input) {
			splitDialogue(in, "我们今天去北京，好吗？", "我们今天去北京，\n好吗？")
		}, StatusPass, ""},
		{"preservation mixed text broken at the space and inside", "en-301-549", "7.1.3", func(in *Input) {
			splitDialogue(in, "東京 Towerに行く", "東京\nTower", "に行く")
		}, StatusPass, "cue_count_changed"},
		{"preservation Japanese lines joined", "en-301-549", "7.1.3", func(in *Input) {
			splitDialogue(in, "今日は寒いので\n駅まで歩いて行く。", "今日は寒いので駅まで", "歩いて行く。")
		}, StatusPass, "cue_count_changed"},
		{"preservation Japanese character lost where lines are joined", "en-301-549", "7.1.3", func(in *Input) {
			splitDialogue(in, "今日は寒いので\n駅まで歩いて行く。", "今日は寒いの駅まで歩いて行く。")
		}, StatusFail, "text_lost"},
		{"preservation Japanese character lost at a break", "en-301-549", "7.1.3", func(in *Input) {
			splitDialogue(in, "今日は寒い。駅まで歩いて行く。", "今日は寒い。", "駅まで歩いて\n行。")
		}, StatusFail, "text_lost"},
		{"preservation space in mixed text lost", "en-301-549", "7.1.3", func(in *Input) {
			splitDialogue(in, "東京 Tower", "東京Tower")
		}, StatusFail, "text_lost"},
		{"preservation Latin word cut", "en-301-549", "7.1.3", func(in *Input) {
			splitDialogue(in, "Marta, are you there?", "Marta, are you th", "ere?")
		}, StatusFail, "text_lost"},
		{"preservation reader dropped a cue", "en-301-549", "7.1.3", func(in *Input) {
			in.ReaderDiagnostics = []caption.Diagnostic{{Code: caption.CodeInvalidTimestamp, Severity: caption.SeverityError, Line: 9, Message: "cue dropped: bad time"}}
		}, StatusFail, "text_lost"},
		{"preservation no source", "en-301-549", "7.1.3", func(in *Input) { in.Source = nil }, StatusNotEvaluated, ""},
		// checks
		{"fcc speed held", "fcc-79.1", "79.1(j)(2)(ii)", nil, StatusNotEvaluated, ""},
		{"fcc speed too fast", "fcc-79.1", "79.1(j)(2)(ii)", func(in *Input) { in.Delivery.Cues[0].EndMs = 1500 }, StatusFail, "reading_speed_high"},
		{"fcc placement off frame", "fcc-79.1", "79.1(j)(2)(iv)", func(in *Input) {
			in.Delivery.Cues[0].Placement = &caption.Placement{Position: fp(140)}
		}, StatusFail, "position_out_of_bounds"},
		{"dcmp lines pass", "dcmp", "dcmp.text.lines", nil, StatusPass, ""},
		{"dcmp line too long", "dcmp", "dcmp.text.lines", func(in *Input) {
			in.Delivery.Cues[0].Text = "Welcome back to the harbour show, everyone."
		}, StatusFail, "line_too_long"},
		{"dcmp three lines", "dcmp", "dcmp.text.lines", func(in *Input) { in.Delivery.Cues[0].Text = "One\ntwo\nthree" }, StatusFail, "too_many_lines"},
		{"dcmp duration short", "dcmp", "dcmp.readable.duration", func(in *Input) { in.Delivery.Cues[2].EndMs = 9500 }, StatusFail, "duration_too_short"},
		{"dcmp rate high", "dcmp", "dcmp.readable.rate", func(in *Input) {
			in.Delivery.Cues[0].Text = "one two three four five six seven eight nine ten"
		}, StatusFail, "presentation_rate_high"},
		// completeness
		{"completeness unknown media", "fcc-79.1", "79.1(j)(2)(iii)", func(in *Input) { in.MediaDurationMs = 0 }, StatusNotEvaluated, ""},
		{"completeness covered", "fcc-79.1", "79.1(j)(2)(iii)", nil, StatusPass, ""},
		{"completeness ends early", "fcc-79.1", "79.1(j)(2)(iii)", func(in *Input) { in.MediaDurationMs = 120_000 }, StatusFail, "captions_end_early"},
		{"completeness cue after end", "fcc-79.1", "79.1(j)(2)(iii)", func(in *Input) { in.MediaDurationMs = 14_000 }, StatusFail, "cue_after_media_end"},
		// consistency
		{"consistency clean", "dcmp", "dcmp.consistent-markers", nil, StatusPass, ""},
		{"consistency music symbols", "dcmp", "dcmp.consistent-markers", func(in *Input) {
			in.Delivery.Cues = append(in.Delivery.Cues, cue(18500, 21500, "♪ Gently down the stream ♪"), cue(22000, 25000, "♫ Merrily, merrily ♫"))
		}, StatusFail, "style_inconsistent"},
		{"consistency dashes", "dcmp", "dcmp.consistent-markers", func(in *Input) {
			in.Delivery.Cues[3].Text = "-Marta, are you there?\n-I'm right here."
		}, StatusPass, ""},
		{"consistency dashes mixed", "dcmp", "dcmp.consistent-markers", func(in *Input) {
			in.Delivery.Cues = append(in.Delivery.Cues, cue(18500, 21500, "- Ready?\n- Yes."), cue(22000, 25000, "-Go.\n-Now."))
		}, StatusFail, "style_inconsistent"},
		{"consistency sound brackets", "dcmp", "dcmp.consistent-markers", func(in *Input) {
			in.Delivery.Cues = append(in.Delivery.Cues, cue(18500, 21500, "(door slams)"))
		}, StatusFail, "style_inconsistent"},
		{"consistency names and sounds differ", "dcmp", "dcmp.consistent-markers", func(in *Input) {
			in.Delivery.Cues = append(in.Delivery.Cues, cue(18500, 21500, "(Jack)\nHello."))
		}, StatusPass, ""},
		{"consistency unknown speaker described", "dcmp", "dcmp.consistent-markers", func(in *Input) {
			in.Delivery.Cues = append(in.Delivery.Cues, cue(18500, 21500, "(female #1)\nI'm happy."), cue(22000, 25000, "(as George Washington)\nIf the freedom of speech"))
		}, StatusPass, ""},
		{"consistency name in capitals is no sound label", "dcmp", "dcmp.consistent-markers", func(in *Input) {
			in.Delivery.Cues = append(in.Delivery.Cues, cue(18500, 21500, "(JACK)\nHello."))
		}, StatusPass, ""},
		{"consistency sound in parentheses above speech", "dcmp", "dcmp.consistent-markers", func(in *Input) {
			in.Delivery.Cues = append(in.Delivery.Cues, cue(18500, 21500, "(door slams)\nWho's there?"))
		}, StatusFail, "style_inconsistent"},
		// sound labels
		{"sound labels lower", "dcmp", "dcmp.soundeffects", nil, StatusPass, ""},
		{"sound labels capitals", "dcmp", "dcmp.soundeffects", func(in *Input) { in.Delivery.Cues[2].Text = "[WAVES CRASHING]" }, StatusFail, "sound_label_case"},
		{"sound labels proper noun?", "dcmp", "dcmp.soundeffects", func(in *Input) { in.Delivery.Cues[2].Text = "[Jack laughs]" }, StatusNotEvaluated, ""},
		{"sound labels none", "dcmp", "dcmp.soundeffects", func(in *Input) { in.Delivery = generated(20, false) }, StatusNotEvaluated, ""},
		{"sound effect in parentheses", "dcmp", "dcmp.soundeffects", func(in *Input) { in.Delivery.Cues[2].Text = "(waves crashing)" }, StatusFail, "sound_label_brackets"},
		{"sound effect in parentheses and capitals", "dcmp", "dcmp.soundeffects", func(in *Input) { in.Delivery.Cues[2].Text = "(THUNDER RUMBLING)" }, StatusFail, "sound_label_case"},
		{"sound effect in parentheses above speech", "dcmp", "dcmp.soundeffects", func(in *Input) {
			in.Delivery.Cues[0].Text = "(door slams)\nWelcome back to the show."
		}, StatusFail, "sound_label_brackets"},
		{"sound effect in parentheses inline", "dcmp", "dcmp.soundeffects", func(in *Input) {
			in.Delivery.Cues[0].Text = "Welcome back (laughs) to the show."
		}, StatusFail, "sound_label_brackets"},
		{"sound labels beside a speaker ID", "dcmp", "dcmp.soundeffects", func(in *Input) {
			in.Delivery.Cues[0].Text = "(Jack)\nI don't see how blasting would work."
			in.Delivery.Cues[1].Text = "(female #1)\nI'm happy."
			in.Delivery.Cues[3].Text = "(male narrator)\nThat is wonderful!"
			in.Delivery.Cues[4].Text = "(as George Washington)\nIf the freedom of speech"
		}, StatusPass, ""},
		{"sound labels beside a speaker ID in capitals", "dcmp", "dcmp.soundeffects", func(in *Input) {
			in.Delivery.Cues[0].Text = "(MALE NARRATOR)\nThat is wonderful!"
		}, StatusPass, ""},
		{"sound labels name or sound in capitals?", "dcmp", "dcmp.soundeffects", func(in *Input) { in.Delivery.Cues[0].Text = "(JACK)\nWelcome back." }, StatusNotEvaluated, ""},
		{"sound labels only a speaker ID", "dcmp", "dcmp.soundeffects", func(in *Input) {
			in.Delivery = generated(20, false)
			in.Delivery.Cues[3].Text = "(Jack)\nHello there."
		}, StatusNotEvaluated, ""},
		{"sound effects not bracketed", "dcmp", "dcmp.soundeffects", func(in *Input) {
			in.Delivery = generated(20, false)
			in.Delivery.Cues[3].Text = "*THUNDER RUMBLES*"
		}, StatusNotEvaluated, ""},
		// music
		{"music balanced", "dcmp", "dcmp.music", nil, StatusPass, ""},
		{"music unbalanced", "dcmp", "dcmp.music", func(in *Input) { in.Delivery.Cues[4].Text = "♪ Row, row, row your boat" }, StatusFail, "music_symbol_unbalanced"},
		{"music description", "dcmp", "dcmp.music", func(in *Input) { in.Delivery.Cues[4].Text = "[♪ soft piano]" }, StatusPass, ""},
		{"music none", "dcmp", "dcmp.music", func(in *Input) { in.Delivery = generated(20, false) }, StatusNotEvaluated, ""},
		{"music marked with #", "dcmp", "dcmp.music", func(in *Input) { in.Delivery.Cues[4].Text = "# Row, row, row your boat #" }, StatusFail, "music_symbol_substitute"},
		{"music marked with # only", "dcmp", "dcmp.music", func(in *Input) {
			in.Delivery = generated(20, false)
			in.Delivery.Cues[3].Text = "# And the night is long\nand the road is longer #"
		}, StatusFail, "music_symbol_substitute"},
		{"music opened with a note, closed with #", "dcmp", "dcmp.music", func(in *Input) { in.Delivery.Cues[4].Text = "♪ Row, row, row your boat #" }, StatusFail, "music_symbol_substitute"},
		{"music # in a speaker description", "dcmp", "dcmp.music", func(in *Input) { in.Delivery.Cues[0].Text = "(female #1)\nWelcome back." }, StatusPass, ""},
		{"music after a speaker ID", "dcmp", "dcmp.music", func(in *Input) { in.Delivery.Cues[4].Text = "(Jack)\n♪ Row, row, row your boat ♪" }, StatusPass, ""},
		{"music after a speaker label", "dcmp", "dcmp.music", func(in *Input) { in.Delivery.Cues[4].Text = "JACK: ♪ Row, row, row your boat ♪" }, StatusPass, ""},
		{"music after dialogue dashes", "dcmp", "dcmp.music", func(in *Input) { in.Delivery.Cues[4].Text = "- ♪ Row, row ♪\n- ♪ Row your boat ♪" }, StatusPass, ""},
		{"music after a speaker change alone on its line", "dcmp", "dcmp.music", func(in *Input) { in.Delivery.Cues[4].Text = ">>\n♪ Row, row, row your boat ♪" }, StatusPass, ""},
		{"music sung by one of two speakers", "dcmp", "dcmp.music", func(in *Input) { in.Delivery.Cues[4].Text = "- ♪ Row, row, row ♪\n- Stop singing!" }, StatusPass, ""},
		{"music unbalanced after a speaker ID", "dcmp", "dcmp.music", func(in *Input) { in.Delivery.Cues[4].Text = "(Jack)\n♪ Row, row, row your boat" }, StatusFail, "music_symbol_unbalanced"},
		// case
		{"case mixed", "dcmp", "dcmp.text.case", nil, StatusPass, ""},
		{"case one shout", "dcmp", "dcmp.text.case", func(in *Input) {
			in.Delivery = generated(10, true)
			in.Delivery.Cues[3].Text = "STOP RIGHT THERE!"
		}, StatusNotEvaluated, "allcaps_text"},
		{"case mostly capitals", "dcmp", "dcmp.text.case", func(in *Input) {
			for i := range in.Delivery.Cues {
				in.Delivery.Cues[i].Text = "JAMES: WELCOME BACK [music]"
			}
		}, StatusFail, "allcaps_text"},
		{"case speaker labels in capitals", "dcmp", "dcmp.text.case", func(in *Input) {
			in.Delivery.Cues[0].Text = "JAMES: Welcome back."
		}, StatusPass, ""},
		// line division
		{"line division clean", "dcmp", "dcmp.text.linedivision", nil, StatusNotEvaluated, ""},
		{"line division article", "dcmp", "dcmp.text.linedivision", func(in *Input) {
			in.Delivery.Cues[1].Text = "Tonight we talk about the\ntide tables."
		}, StatusFail, "line_break_poor"},
		{"line division other language", "dcmp", "dcmp.text.linedivision", func(in *Input) {
			in.Delivery.Language = "fr"
			in.Delivery.Cues[1].Text = "Tonight we talk about the\ntide tables."
		}, StatusNotEvaluated, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			in := cleanInput("srt")
			if tt.edit != nil {
				tt.edit(&in)
			}
			c := clauseOf(t, s, tt.std, tt.clause, in)
			got := codes(c.Findings)
			if c.Status != tt.want || (tt.wantCode != "" && !slices.Contains(got, tt.wantCode)) {
				t.Errorf("%s %s = %s %v (reason %q), want %s with %q", tt.std, tt.clause, c.Status, got, c.Reason, tt.want, tt.wantCode)
			}
		})
	}
}

// spanVoices gives cue 2 of the source two speakers, one a line, marked on
// spans (WebVTT "<v Alice>Where were you?</v>\n<v Bob>Out.</v>"), and
// delivers it as text.
func spanVoices(in *Input, text string) {
	c := &in.Source.Cues[2]
	c.Text, c.Spans = "Where were you?\nOut.", []caption.Span{{Start: 0, End: 15, Voice: "Alice"}, {Start: 16, End: 20, Voice: "Bob"}}
	in.Delivery.Cues[2].Text, in.Reparse.Track.Cues[2].Text = text, text
}

// touchingVoices gives cue 3 of the source two speakers whose words touch
// without a space, "<v Ann>Wait!</v><v Bob>What?</v>", and delivers text.
func touchingVoices(in *Input, text string) {
	c := &in.Source.Cues[2]
	c.Text, c.Spans = "Wait!What?", []caption.Span{{Start: 0, End: 5, Voice: "Ann"}, {Start: 5, End: 10, Voice: "Bob"}}
	in.Delivery.Cues[2].Text, in.Reparse.Track.Cues[2].Text = text, text
}

// splitDialogue gives cue 3 of the source the text src and delivers it
// split into one cue per line of out, as a fix splits a dialogue by
// speaker.
func splitDialogue(in *Input, src string, out ...string) {
	c := in.Source.Cues[3]
	c.Text = src
	in.Source.Cues[3] = c
	pieces := make([]caption.Cue, len(out))
	step := (c.EndMs - c.StartMs) / int64(len(out))
	for k, text := range out {
		pieces[k] = cue(c.StartMs+int64(k)*step, c.StartMs+int64(k+1)*step, text)
	}
	in.Delivery.Cues = slices.Replace(in.Delivery.Cues, 3, 4, pieces...)
	in.Reparse.Track = clone(in.Delivery)
}

// colourAll gives every cue of t one text colour and background.
func colourAll(t *caption.Track, fg, bg string) {
	t.Styles = []caption.Style{{ID: "s", Color: fg, Background: bg}}
	for i := range t.Cues {
		t.Cues[i].Style = "s"
	}
}

// generated returns n clean 3 s cues; with markers, every tenth cue is a
// sound label.
func generated(n int, markers bool) *caption.Track {
	t := track()
	for i := range n {
		start := int64(i) * 3500
		text := "This is line one\nand line two."
		if markers && i%10 == 0 {
			text = "[door slams]"
		}
		t.Cues = append(t.Cues, cue(start, start+3000, text))
	}
	return t
}

// TestSyncPairsOnlySameCues: a fix that splits one cue and removes another
// leaves as many cues as before, but every cue after the split is another
// one; pairing them by position would report moves that never happened.
func TestSyncPairsOnlySameCues(t *testing.T) {
	t.Parallel()
	s := loadReal(t)
	in := cleanInput("srt")
	first := in.Source.Cues[0]
	mid := first.StartMs + (first.EndMs-first.StartMs)/2
	a, b := first, first
	a.EndMs, a.Text = mid, "First half"
	b.StartMs, b.Text = mid, "second half"
	cues := append([]caption.Cue{a, b}, in.Source.Cues[1:len(in.Source.Cues)-1]...)
	in.Delivery = track(cues...)
	in.Reparse = &Reparse{Track: clone(in.Delivery)}
	if len(in.Delivery.Cues) != len(in.Source.Cues) {
		t.Fatalf("the edit should keep the count: %d and %d", len(in.Delivery.Cues), len(in.Source.Cues))
	}
	c := clauseOf(t, s, "en-301-549", "7.1.2-conversion", in)
	if c.Status != StatusPass || len(c.Findings) != 0 {
		t.Errorf("7.1.2 = %s %v; want pass without findings", c.Status, codes(c.Findings))
	}
	in.Reparse = nil
	if c := clauseOf(t, s, "en-301-549", "7.1.2-conversion", in); c.Status != StatusNotEvaluated {
		t.Errorf("without read-back: %s %v; want not_evaluated", c.Status, codes(c.Findings))
	}
}

// TestFormatClausesAgreeWithConsistency grades the audit's file: a sound
// effect in parentheses and capitals, lyrics marked with '#', a bracketed
// sound and noted lyrics. What dcmp.consistent-markers calls the minority
// style the format clauses fail on the same cues.
func TestFormatClausesAgreeWithConsistency(t *testing.T) {
	t.Parallel()
	s := loadReal(t)
	in := Input{Delivery: track(
		cue(1000, 3000, "(THUNDER RUMBLING)"),
		cue(4000, 6000, "# And the night is long #"),
		cue(7000, 9000, "[door slams]"),
		cue(10000, 12000, "♪ Over the hills ♪"),
	), OutputFormat: "srt"}
	in.Reparse = &Reparse{Track: clone(in.Delivery)}
	for _, tt := range []struct {
		clause string
		want   []string // code@cue of every finding
	}{
		{"dcmp.soundeffects", []string{"sound_label_brackets@0", "sound_label_case@0"}},
		{"dcmp.music", []string{"music_symbol_substitute@1"}},
	} {
		c := clauseOf(t, s, "dcmp", tt.clause, in)
		var got []string
		for _, f := range c.Findings {
			at := -1
			if f.CueIndex != nil {
				at = *f.CueIndex
			}
			got = append(got, fmt.Sprintf("%s@%d", f.Code, at))
		}
		if c.Status != StatusFail || !equal(got, tt.want) {
			t.Errorf("%s = %s %v, want fail %v", tt.clause, c.Status, got, tt.want)
		}
	}
	if c := clauseOf(t, s, "dcmp", "dcmp.consistent-markers", in); c.Status != StatusFail {
		t.Errorf("dcmp.consistent-markers = %s, want fail", c.Status)
	}
}

// TestLyricsMarkedWithHashAreCaptionMarkers: a long file whose only
// markers are '#' lyrics is not noted as reading like subtitles, because
// dcmp.consistent-markers counts '#' as a music symbol.
func TestLyricsMarkedWithHashAreCaptionMarkers(t *testing.T) {
	t.Parallel()
	s := loadReal(t)
	in := cleanInput("srt")
	in.Delivery = generated(60, false)
	in.Delivery.Cues[7].Text = "# And the night is long #"
	for _, id := range [][2]string{{"dcmp", "dcmp.clear"}, {"wcag-2.1-aa", "1.2.2-equivalence"}} {
		c := clauseOf(t, s, id[0], id[1], in)
		if c.Status != StatusNotEvaluated || len(c.Findings) != 0 {
			t.Errorf("%s %s = %s %v, want not_evaluated without findings", id[0], id[1], c.Status, codes(c.Findings))
		}
	}
}
