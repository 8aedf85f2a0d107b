package fix

import (
	"reflect"
	"testing"

	"github.com/captionqa/captionqa/backend/caption"
)

func cue(id string, start, end int64, text string, spans ...caption.Span) caption.Cue {
	return caption.Cue{ID: id, StartMs: start, EndMs: end, Text: text, Spans: spans}
}

func italic(a, b int) caption.Span { return caption.Span{Start: a, End: b, Italic: true} }

// unfixed is the comparable part of an Unfixed finding.
type unfixed struct {
	Code  string
	Cue   int
	Value float64
}

func TestApply(t *testing.T) {
	t.Parallel()
	gap := Targets{MinGapMs: 84}
	tests := []struct {
		name    string
		profile Profile
		tg      Targets
		in      []caption.Cue
		want    []caption.Cue
		changes []Change
		unfixed []unfixed
	}{
		{
			name: "warn-only edits nothing and reports", profile: WarnOnly,
			tg:      Targets{MinGapMs: 84, Overlaps: true, EmptyCues: true, MaxCharsPerLine: 10},
			in:      []caption.Cue{cue("1", 1000, 3000, "Hello  there"), cue("2", 2500, 4000, " ")},
			want:    []caption.Cue{cue("1", 1000, 3000, "Hello  there"), cue("2", 2500, 4000, " ")},
			unfixed: []unfixed{{codeLineTooLong, 0, 12}, {codeEmpty, 1, 0}, {codeOverlap, 1, 500}},
		},
		{
			name: "overlap trimmed to next start minus gap", profile: LayoutPreserveBreaks,
			tg:      Targets{MinGapMs: 84, Overlaps: true},
			in:      []caption.Cue{cue("1", 1000, 3000, "Hello."), cue("2", 2500, 4000, "World.")},
			want:    []caption.Cue{cue("1", 1000, 2416, "Hello."), cue("2", 2500, 4000, "World.")},
			changes: []Change{{codeOverlap, 0, ActionTrimEnd, "end moved from 00:00:03.000 to 00:00:02.416 so the cue no longer overlaps the next one"}},
		},
		{
			name: "overlap without gap target trimmed to next start", profile: AutoSplitCPS,
			tg:      Targets{Overlaps: true},
			in:      []caption.Cue{cue("1", 1000, 3000, "Hello."), cue("2", 2500, 4000, "World.")},
			want:    []caption.Cue{cue("1", 1000, 2500, "Hello."), cue("2", 2500, 4000, "World.")},
			changes: []Change{{codeOverlap, 0, ActionTrimEnd, "end moved from 00:00:03.000 to 00:00:02.500 so the cue no longer overlaps the next one"}},
		},
		{
			name: "identical times are not merged", profile: AutoSplitSentences,
			tg:      Targets{MinGapMs: 84, Overlaps: true},
			in:      []caption.Cue{cue("1", 1000, 3000, "Hello."), cue("2", 1000, 3000, "World.")},
			want:    []caption.Cue{cue("1", 1000, 3000, "Hello."), cue("2", 1000, 3000, "World.")},
			unfixed: []unfixed{{codeOverlap, 1, 2000}},
		},
		{
			name: "short cue extends end then start", profile: LayoutPreserveBreaks,
			tg:   Targets{MinDurationMs: 833, MinGapMs: 84},
			in:   []caption.Cue{cue("1", 1000, 1500, "Hi."), cue("2", 1800, 3000, "Yo.")},
			want: []caption.Cue{cue("1", 883, 1716, "Hi."), cue("2", 1800, 3000, "Yo.")},
			changes: []Change{
				{codeTooShort, 0, ActionExtendEnd, "end moved from 00:00:01.500 to 00:00:01.716 to reach the minimum duration"},
				{codeTooShort, 0, ActionMoveStart, "start moved from 00:00:01.000 to 00:00:00.883 to reach the minimum duration"},
			},
		},
		{
			name: "short cue without room is reported", profile: LayoutPreserveBreaks,
			tg:   Targets{MinDurationMs: 833, MinGapMs: 84},
			in:   []caption.Cue{cue("1", 0, 900, "A."), cue("2", 1000, 1200, "Hi."), cue("3", 1300, 3000, "Yo.")},
			want: []caption.Cue{cue("1", 0, 900, "A."), cue("2", 984, 1216, "Hi."), cue("3", 1300, 3000, "Yo.")},
			changes: []Change{
				{codeTooShort, 1, ActionExtendEnd, "end moved from 00:00:01.200 to 00:00:01.216 to reach the minimum duration"},
				{codeTooShort, 1, ActionMoveStart, "start moved from 00:00:01.000 to 00:00:00.984 to reach the minimum duration"},
			},
			unfixed: []unfixed{{codeTooShort, 1, 232}},
		},
		{
			name: "small gap closed by pulling the end back", profile: LayoutPreserveBreaks, tg: gap,
			in:      []caption.Cue{cue("1", 1000, 2950, "A."), cue("2", 3000, 4000, "B.")},
			want:    []caption.Cue{cue("1", 1000, 2916, "A."), cue("2", 3000, 4000, "B.")},
			changes: []Change{{codeGap, 0, ActionTrimEnd, "end moved from 00:00:02.950 to 00:00:02.916 to leave 84 ms before the next cue"}},
		},
		{
			name: "empty cue removed, whitespace tidied, span kept on its word", profile: LayoutPreserveBreaks,
			tg:   Targets{EmptyCues: true},
			in:   []caption.Cue{cue("1", 0, 1000, " Hello   there \n\n world ", italic(9, 14)), cue("2", 2000, 3000, " \n "), cue("3", 4000, 5000, "B")},
			want: []caption.Cue{cue("1", 0, 1000, "Hello there\nworld", italic(6, 11)), cue("3", 4000, 5000, "B")},
			changes: []Change{
				{codeWhitespace, 0, ActionWhitespace, "trimmed line ends, blank lines and repeated spaces"},
				{codeEmpty, 1, ActionRemove, "removed the cue at 00:00:02.000: it has no visible text"},
			},
		},
		{
			name: "layout adds a break inside the long line only", profile: LayoutPreserveBreaks,
			tg:      Targets{MaxCharsPerLine: 30, MaxLines: 2},
			in:      []caption.Cue{cue("1", 0, 3000, "I went to the store and bought some apples today\nOK.", italic(20, 23))},
			want:    []caption.Cue{cue("1", 0, 3000, "I went to the store\nand bought some apples today\nOK.", italic(20, 23))},
			changes: []Change{{codeLineTooLong, 0, ActionAddBreak, "added 1 line break inside over-long lines"}},
			unfixed: []unfixed{{codeTooManyLines, 0, 3}},
		},
		{
			name: "layout never splits a long cue", profile: LayoutPreserveBreaks,
			tg:      Targets{MaxDurationMs: 7000},
			in:      []caption.Cue{cue("1", 0, 10000, "One. Two.")},
			want:    []caption.Cue{cue("1", 0, 10000, "One. Two.")},
			unfixed: []unfixed{{codeTooLong, 0, 10000}},
		},
		{
			name: "sentences re-wraps an over-long cue", profile: AutoSplitSentences,
			tg:      Targets{MaxCharsPerLine: 42, MaxLines: 2},
			in:      []caption.Cue{cue("1", 0, 3000, "This is a fairly long line of text that goes on\nok")},
			want:    []caption.Cue{cue("1", 0, 3000, "This is a fairly long line\nof text that goes on ok")},
			changes: []Change{{codeLineTooLong, 0, ActionRewrap, "re-wrapped its 2 lines"}},
		},
		{
			name: "sentences splits at the sentence end, not after Mr. or in 3.5", profile: AutoSplitSentences,
			tg: Targets{MaxCharsPerLine: 42, MaxLines: 2, MinDurationMs: 833, MinGapMs: 84},
			in: []caption.Cue{cue("1", 0, 6000, "Mr. Smith arrived at 3.5 o'clock. He sat down and waited for the others to come. Nobody came.")},
			want: []caption.Cue{
				cue("1-1", 0, 2122, "Mr. Smith arrived at 3.5 o'clock."),
				cue("1-2", 2206, 6000, "He sat down and waited\nfor the others to come. Nobody came."),
			},
			changes: []Change{{codeLineTooLong, 0, ActionSplit, "split into 2 cues: 00:00:00.000–00:00:02.122, 00:00:02.206–00:00:06.000"}},
		},
		{
			name: "long cue split in proportion to characters, span cut in two", profile: AutoSplitSentences,
			tg: Targets{MaxDurationMs: 7000, MinGapMs: 84, MinDurationMs: 833},
			in: []caption.Cue{cue("7", 0, 10000, "First sentence here. Second sentence here.", italic(6, 28))},
			want: []caption.Cue{
				cue("7-1", 0, 4837, "First sentence here.", italic(6, 20)),
				cue("7-2", 4921, 10000, "Second sentence here.", italic(0, 6)),
			},
			changes: []Change{{codeTooLong, 0, ActionSplit, "split into 2 cues: 00:00:00.000–00:00:04.837, 00:00:04.921–00:00:10.000"}},
		},
		{
			name: "abbreviations, initials and decimals are not sentence ends", profile: AutoSplitSentences,
			tg: Targets{MaxDurationMs: 7000, MinGapMs: 84, MinDurationMs: 833},
			in: []caption.Cue{cue("", 0, 10000, "Dr. Smith met Mr. Jones at 3.5 km. They talked for e.g. hours. J. R. R. Tolkien")},
			want: []caption.Cue{
				cue("", 0, 4322, "Dr. Smith met Mr. Jones at 3.5 km."),
				cue("", 4406, 10000, "They talked for e.g. hours. J. R. R. Tolkien"),
			},
			changes: []Change{{codeTooLong, 0, ActionSplit, "split into 2 cues: 00:00:00.000–00:00:04.322, 00:00:04.406–00:00:10.000"}},
		},
		{
			name: "dialogue split per speaker drops the dashes", profile: AutoSplitSentences,
			tg: Targets{MaxDurationMs: 7000, MinGapMs: 84, MinDurationMs: 833, MaxCharsPerLine: 42, MaxLines: 2},
			in: []caption.Cue{cue("", 0, 10000, "- Are you coming?\n-No, I'm not.", italic(0, 5), italic(18, 21))},
			want: []caption.Cue{
				cue("", 0, 5619, "Are you coming?", italic(0, 3)),
				cue("", 5703, 10000, "No, I'm not.", italic(0, 2)),
			},
			changes: []Change{{codeTooLong, 0, ActionSplit, "split into 2 cues: 00:00:00.000–00:00:05.619, 00:00:05.703–00:00:10.000; dropped the 2 dialogue dashes opening the speakers' lines: each speaker has a cue of their own"}},
		},
		{
			name: "pieces below the minimum duration are not made", profile: AutoSplitSentences,
			tg:      Targets{MaxCharsPerLine: 5, MaxLines: 1, MinDurationMs: 833, MinGapMs: 84},
			in:      []caption.Cue{cue("1", 0, 1500, "One.\nTwo.")},
			want:    []caption.Cue{cue("1", 0, 1500, "One.\nTwo.")},
			unfixed: []unfixed{{codeTooManyLines, 0, 2}},
		},
		{
			name: "cps borrows the following gap", profile: AutoSplitCPS,
			tg:      Targets{MaxCPS: 17, MinGapMs: 84, MaxDurationMs: 7000},
			in:      []caption.Cue{cue("", 1000, 2000, "We need to leave right now, okay?"), cue("", 5000, 6000, "Fine.")},
			want:    []caption.Cue{cue("", 1000, 2942, "We need to leave right now, okay?"), cue("", 5000, 6000, "Fine.")},
			changes: []Change{{codeReadingSpeed, 0, ActionExtendEnd, "end moved from 00:00:02.000 to 00:00:02.942 to bring the reading speed down"}},
		},
		{
			name: "cps that cannot get enough time needs attention", profile: AutoSplitCPS,
			tg:   Targets{MaxCPS: 17, MinGapMs: 84, MaxDurationMs: 7000},
			in:   []caption.Cue{cue("", 0, 500, "x"), cue("", 1000, 2000, "We need to leave right now, okay?"), cue("", 2500, 4000, "Fine.")},
			want: []caption.Cue{cue("", 0, 500, "x"), cue("", 800, 2416, "We need to leave right now, okay?"), cue("", 2500, 4000, "Fine.")},
			changes: []Change{
				{codeReadingSpeed, 1, ActionExtendEnd, "end moved from 00:00:02.000 to 00:00:02.416 to bring the reading speed down"},
				{codeReadingSpeed, 1, ActionMoveStart, "start moved from 00:00:01.000 to 00:00:00.800 to bring the reading speed down"},
			},
			unfixed: []unfixed{{codeReadingSpeed, 1, 20.42}},
		},
		{
			name: "cps borrows past the maximum duration and splits", profile: AutoSplitCPS,
			tg: Targets{MaxCPS: 17, MinGapMs: 84, MaxDurationMs: 7000, MaxCharsPerLine: 42, MaxLines: 2, MinDurationMs: 833},
			in: []caption.Cue{
				cue("", 0, 6000, "We walked for hours through the rain, and nobody said a word. When we reached the house, the lights were off and the door was open wide."),
				cue("", 20000, 22000, "Hello?"),
			},
			want: []caption.Cue{
				cue("", 0, 3615, "We walked for hours through the rain,\nand nobody said a word."),
				cue("", 3699, 8085, "When we reached the house, the lights\nwere off and the door was open wide."),
				cue("", 20000, 22000, "Hello?"),
			},
			changes: []Change{
				{codeReadingSpeed, 0, ActionExtendEnd, "end moved from 00:00:06.000 to 00:00:08.085 to bring the reading speed down"},
				{codeLineTooLong, 0, ActionSplit, "split into 2 cues: 00:00:00.000–00:00:03.615, 00:00:03.699–00:00:08.085"},
			},
		},
		{
			name: "out-of-order and invalid ranges are repaired", profile: LayoutPreserveBreaks, tg: Targets{},
			in:   []caption.Cue{cue("1", 5000, 4000, "B."), cue("2", -100, 1000, "A.")},
			want: []caption.Cue{cue("2", 0, 1000, "A."), cue("1", 5000, 5833, "B.")},
			changes: []Change{
				{codeOutOfOrder, 0, ActionReorder, "moved from position 1 to 2 to keep cues in start order"},
				{codeInvalidTime, 0, ActionRepairRange, "time range 00:00:05.000–00:00:04.000 repaired to 00:00:05.000–00:00:05.000"},
				{codeInvalidTime, 0, ActionExtendEnd, "end moved from 00:00:05.000 to 00:00:05.833 to give the cue, which had no duration, time to be read"},
				{codeOutOfOrder, 1, ActionReorder, "moved from position 2 to 1 to keep cues in start order"},
				{codeInvalidTime, 1, ActionRepairRange, "time range -00:00:00.100–00:00:01.000 repaired to 00:00:00.000–00:00:01.000"},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			in := &caption.Track{Version: 1, Cues: tt.in}
			before := cloneTrack(in)
			res := Apply(in, tt.profile, tt.tg)
			if !reflect.DeepEqual(in, before) {
				t.Fatal("input modified")
			}
			if got := res.Track.Cues; !reflect.DeepEqual(got, tt.want) {
				t.Errorf("cues\n got %+v\nwant %+v", got, tt.want)
			}
			if !reflect.DeepEqual(res.Changes, tt.changes) {
				t.Errorf("changes\n got %+v\nwant %+v", res.Changes, tt.changes)
			}
			var got []unfixed
			for _, d := range res.Unfixed {
				u := unfixed{Code: d.Code, Cue: *d.CueIndex}
				if d.Value != nil {
					u.Value = *d.Value
				}
				got = append(got, u)
			}
			if !reflect.DeepEqual(got, tt.unfixed) {
				t.Errorf("unfixed\n got %+v\nwant %+v", got, tt.unfixed)
			}
		})
	}
}
