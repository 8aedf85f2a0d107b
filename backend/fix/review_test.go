package fix

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/captionqa/captionqa/backend/internal/race"

	"github.com/captionqa/captionqa/backend/caption"
	"github.com/captionqa/captionqa/backend/rules"
)

// overCPS lists the cues of res reading faster than cps.
func overCPS(cues []caption.Cue, cps float64) []string {
	var out []string
	for _, c := range cues {
		n := rules.Characters(c.Text)
		if d := c.EndMs - c.StartMs; n > 0 && float64(n)*1000 > cps*float64(d) {
			out = append(out, fmt.Sprintf("%q: %d chars in %d ms = %.2f cps", c.Text, n, d, float64(n)*1000/float64(d)))
		}
	}
	return out
}

// Item 1: the pieces of a cue split by auto-split-cps must each meet
// MaxCPS when the time around the cue allows it.
func TestSplitPiecesMeetCPS(t *testing.T) {
	t.Parallel()
	tg := Targets{MaxCharsPerLine: 42, MaxLines: 2, MaxCPS: 20, MinDurationMs: 833, MaxDurationMs: 7000, MinGapMs: 84, Overlaps: true, EmptyCues: true}
	tests := []struct {
		name    string
		text    string
		cps     float64 // the cue's reading speed as given
		freeMs  int64   // the gap after it
		fixable bool
	}{
		{"29 cps, 1.65 s free after (the review's case)", "We walked along the harbour wall for an hour, and then we turned back towards the old town square.", 29, 1650, true},
		{"25 cps, three pieces", "Nobody had seen Marta since the morning, and the tide was turning fast. We told you to wait at the station for us. It is not safe here anymore.", 25, 3000, true},
		{"dialogue", "- Did you see where she went after the market closed?\n- No, I was at the station all afternoon waiting.", 27, 1500, true},
		{"just enough", "Listen, the tide turns in an hour and the harbour lights are already on, so we leave now.", 24, 1000, true},
		{"not enough time anywhere", "Listen, the tide turns in an hour and the harbour lights are already on, so we leave now.", 40, 200, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			n := rules.Characters(tt.text)
			d := int64(float64(n) * 1000 / tt.cps)
			in := &caption.Track{Cues: []caption.Cue{
				cue("1", 10000, 10000+d, tt.text),
				cue("2", 10000+d+tt.freeMs, 10000+d+tt.freeMs+2000, "Fine."),
			}}
			res := Apply(in, AutoSplitCPS, tg)
			if len(res.Track.Cues) < 3 {
				t.Fatalf("the cue was not split: %+v", res.Track.Cues)
			}
			over := overCPS(res.Track.Cues, tg.MaxCPS)
			if tt.fixable && len(over) > 0 {
				t.Errorf("pieces over %g cps although %d ms were free after the cue:\n%s\nchanges: %+v", tg.MaxCPS, tt.freeMs, strings.Join(over, "\n"), res.Changes)
			}
			if !tt.fixable && len(over) == 0 {
				t.Errorf("expected a piece over the limit")
			}
			var unfixed int
			for _, u := range res.Unfixed {
				if u.Code == codeReadingSpeed {
					unfixed++
				}
			}
			if unfixed != len(over) {
				t.Errorf("%d reading-speed findings for %d fast pieces", unfixed, len(over))
			}
			for k := 1; k < len(res.Track.Cues); k++ {
				if g := res.Track.Cues[k].StartMs - res.Track.Cues[k-1].EndMs; g < tg.MinGapMs {
					t.Errorf("gap %d ms before cue %d", g, k)
				}
			}
			if change := textChange(in, res.Track); change != "" {
				t.Errorf("text changed: %s", change)
			}
		})
	}
}

// Item 2: ClampPlacement brings placements into the frame under L, S and
// C and records it; warn-only and an unset target edit nothing.
func TestClampPlacement(t *testing.T) {
	t.Parallel()
	f := func(v float64) *float64 { return &v }
	tests := []struct {
		name string
		in   caption.Placement
		want caption.Placement
		msg  string
	}{
		{"line percent over 100", caption.Placement{Line: f(120), LineUnit: caption.LineUnitPercent},
			caption.Placement{Line: f(100), LineUnit: caption.LineUnitPercent}, "line 120% clamped to 100%"},
		{"line number is not a percent", caption.Placement{Line: f(-3), LineUnit: caption.LineUnitLines},
			caption.Placement{Line: f(-3), LineUnit: caption.LineUnitLines}, ""},
		{"negative position", caption.Placement{Position: f(-5)}, caption.Placement{Position: f(0)}, "position -5% clamped to 0%"},
		{"size over 100", caption.Placement{Size: f(150)}, caption.Placement{Size: f(100)}, "size 150% clamped to 100%"},
		{"line-left box past the right edge", caption.Placement{Position: f(80), Size: f(40), PositionAlign: "line-left"},
			caption.Placement{Position: f(80), Size: f(20), PositionAlign: "line-left"}, "size 40% reduced to 20% so the cue box fits the frame"},
		{"start-aligned text is line-left", caption.Placement{Position: f(70), Size: f(50), Align: "start"},
			caption.Placement{Position: f(70), Size: f(30), Align: "start"}, "size 50% reduced to 30% so the cue box fits the frame"},
		{"centred box past the left edge", caption.Placement{Position: f(10), Size: f(50)},
			caption.Placement{Position: f(10), Size: f(20)}, "size 50% reduced to 20% so the cue box fits the frame"},
		{"line-right box past the left edge", caption.Placement{Position: f(30), Size: f(50), PositionAlign: "line-right"},
			caption.Placement{Position: f(30), Size: f(30), PositionAlign: "line-right"}, "size 50% reduced to 30% so the cue box fits the frame"},
		{"both", caption.Placement{Position: f(130), Size: f(50)},
			caption.Placement{Position: f(100), Size: f(0)}, "position 130% clamped to 100%; size 50% reduced to 0% so the cue box fits the frame"},
		{"within tolerance", caption.Placement{Position: f(100.0005)}, caption.Placement{Position: f(100.0005)}, ""},
		{"in frame", caption.Placement{Position: f(50), Size: f(80)}, caption.Placement{Position: f(50), Size: f(80)}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			pl := tt.in
			in := &caption.Track{Cues: []caption.Cue{{StartMs: 0, EndMs: 2000, Text: "Hello.", Placement: clonePlacement(&pl)}}}
			before := cloneTrack(in)
			for _, p := range Profiles() {
				for _, on := range []bool{false, true} {
					res := Apply(in, p, Targets{ClampPlacement: on})
					if !reflect.DeepEqual(in, before) {
						t.Fatal("input modified")
					}
					want, changes := &tt.in, []Change(nil)
					if on && p != WarnOnly {
						want = &tt.want
						if tt.msg != "" {
							changes = []Change{{Code: "position_out_of_bounds", CueIndex: 0, Action: "clamp", Message: tt.msg}}
						}
					}
					if got := res.Track.Cues[0].Placement; !reflect.DeepEqual(got, want) {
						t.Errorf("%s clamp=%v: placement %s, want %s", p, on, show(got), show(want))
					}
					if !reflect.DeepEqual(res.Changes, changes) {
						t.Errorf("%s clamp=%v: changes %+v, want %+v", p, on, res.Changes, changes)
					}
					// Unfixed agrees with the rule on the result.
					var ruled []caption.Diagnostic
					if on {
						ruled = rules.PositionOutOfBounds{}.Check(res.Track, rules.Params{})
					}
					if !reflect.DeepEqual(res.Unfixed, ruled) {
						t.Errorf("%s clamp=%v: unfixed %+v, the rule finds %+v", p, on, res.Unfixed, ruled)
					}
				}
			}
		})
	}
}

func show(p *caption.Placement) string {
	v := func(f *float64) string {
		if f == nil {
			return "nil"
		}
		return fmt.Sprint(*f)
	}
	return fmt.Sprintf("{line %s %s, position %s, size %s}", v(p.Line), p.LineUnit, v(p.Position), v(p.Size))
}

// Item 3: BalanceLines re-breaks two-line cues the line_unbalanced rule
// flags, under S and C only.
func TestBalanceLines(t *testing.T) {
	t.Parallel()
	tg := Targets{MaxCharsPerLine: 42, MaxLines: 2, BalanceLines: true}
	tests := []struct {
		name, in, want string
		message        string
	}{
		{"ends on an article", "We finally reached the\nlighthouse at dawn.", "We finally reached\nthe lighthouse at dawn.", `moved the line break to after "reached"`},
		{"ends on a preposition", "I told you to wait for\nme at the station.", "I told you to wait\nfor me at the station.", `moved the line break to after "wait"`},
		{"ends on an auxiliary", "Nobody knows where she has\nbeen since the morning.", "Nobody knows where she\nhas been since the morning.", `moved the line break to after "she"`},
		{"top much longer", "The harbour lights were already on when we\nleft.", "The harbour lights\nwere already on when we left.", `moved the line break to after "lights"`},
		{"fine as it is", "The harbour lights were already\nlit when we reached the quay.", "The harbour lights were already\nlit when we reached the quay.", ""},
		{"dialogue passes", "- Where were you all this time, the\n- At the station.", "- Where were you all this time, the\n- At the station.", ""},
		{"no better break within the width", "Go to the\nxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", "Go to the\nxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			in := &caption.Track{Cues: []caption.Cue{cue("1", 0, 5000, tt.in)}}
			for _, p := range Profiles() {
				res := Apply(in, p, tg)
				want, changes := tt.in, []Change(nil)
				if p == AutoSplitSentences || p == AutoSplitCPS {
					want = tt.want
					if tt.message != "" {
						changes = []Change{{Code: "line_unbalanced", CueIndex: 0, Action: "rewrap", Message: tt.message}}
					}
				}
				if got := res.Track.Cues[0].Text; got != want {
					t.Errorf("%s: %q, want %q", p, got, want)
				}
				if !reflect.DeepEqual(res.Changes, changes) {
					t.Errorf("%s: changes %+v, want %+v", p, res.Changes, changes)
				}
				flagged := len(rules.LineUnbalanced{}.Check(res.Track, rules.Params{})) > 0
				reported := len(res.Unfixed) > 0 && res.Unfixed[0].Code == "line_unbalanced"
				if flagged != reported {
					t.Errorf("%s: rule flags %v, Unfixed reports %v", p, flagged, reported)
				}
			}
		})
	}
}

// wrapAt wraps s in k lines at width, up to kmax when fewer need a bad
// break.
func wrapAt(s string, width, kmax int) string {
	ws := tokenize(s, nil)
	if hasLabelChars(s) {
		markLabels(s, ws)
	}
	f := &fixer{}
	f.wrapBest(s, ws, width, minLines(ws, width), kmax)
	return render(s, ws)
}

// Item 4: the wrapper never ends a line on a function word nor splits an
// adjective from its noun while another layout exists, and prefers
// punctuation.
func TestWrapBreakQuality(t *testing.T) {
	t.Parallel()
	tests := []struct {
		s           string
		width, kmax int
		want        string
	}{
		// The review's three examples.
		{"This is the view from the top of the lighthouse.", 25, 3, "This is the view\nfrom the top\nof the lighthouse."},
		{"They waited so the last ferry could leave.", 25, 3, "They waited\nso the last ferry\ncould leave."},
		{"We will meet at the old harbour at noon.", 25, 3, "We will meet\nat the old harbour\nat noon."},
		{"They waited so the last ferry could leave.", 30, 2, "They waited\nso the last ferry could leave."},
		{"We will meet at the old harbour at noon.", 30, 2, "We will meet\nat the old harbour at noon."},
		// Punctuation first, then before a conjunction or preposition.
		{"We stayed until dawn, and the boats came back.", 30, 2, "We stayed until dawn,\nand the boats came back."},
		{"She finally opened the door of the old house", 30, 2, "She finally opened\nthe door of the old house"},
		// No line ends on a lone "I" while a break of about the same shape
		// exists; with none, it takes no extra line to avoid one.
		{"You know what I think, that if I were you I would go home now and rest.", 42, 2, "You know what I think, that if I were you\nI would go home now and rest."},
		{"Then I went home", 10, 3, "Then I\nwent home"},
	}
	for _, tt := range tests {
		got := wrapAt(tt.s, tt.width, tt.kmax)
		if got != tt.want {
			t.Errorf("wrap(%q, %d) = %q, want %q", tt.s, tt.width, got, tt.want)
		}
		if strings.Count(got, "\n") == 1 && rules.PoorLineBreak(got) {
			t.Errorf("wrap(%q) = %q: the line_unbalanced rule flags it", tt.s, got)
		}
	}
}

// Item 4 through Apply: a cue whose only two-line layout needs a bad break
// is split instead (S, C) when its time allows.
func TestLayoutAvoidsBadBreaks(t *testing.T) {
	t.Parallel()
	tg := Targets{MaxCharsPerLine: 25, MaxLines: 2, MinDurationMs: 833, MinGapMs: 84}
	in := &caption.Track{Cues: []caption.Cue{cue("", 0, 4000, "This is the view from the top of the lighthouse.")}}
	res := Apply(in, AutoSplitSentences, tg)
	for _, c := range res.Track.Cues {
		if rules.PoorLineBreak(c.Text) {
			t.Errorf("cue %q is flagged by line_unbalanced", c.Text)
		}
	}
	if got := len(res.Track.Cues); got != 2 {
		t.Errorf("got %d cues: %+v", got, res.Track.Cues)
	}
}

// Item 5: no break and no cut inside a sound label or a lyric span while
// another place exists.
func TestLabelsStayWhole(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		s     string
		width int
		want  string
	}{
		{"She heard it. [foghorn sounding in the distance]", 36, "She heard it.\n[foghorn sounding in the distance]"},
		{"[foghorn sounding in the distance] Did you hear that?", 36, "[foghorn sounding in the distance]\nDid you hear that?"},
		{"(waves crashing against the rocks) Hold on!", 36, "(waves crashing against the rocks)\nHold on!"},
		{"♪ the tide turns in an hour ♪ Come on.", 30, "♪ the tide turns in an hour ♪\nCome on."},
		// Nothing else: the label is broken at its best point.
		{"[foghorn sounding in the distance]", 20, "[foghorn sounding\nin the distance]"},
	} {
		if got := wrapAt(tt.s, tt.width, 2); got != tt.want {
			t.Errorf("wrap(%q, %d) = %q, want %q", tt.s, tt.width, got, tt.want)
		}
	}
	// A split keeps the label in one cue.
	tg := Targets{MaxCharsPerLine: 42, MaxLines: 1, MinDurationMs: 500, MinGapMs: 84}
	in := &caption.Track{Cues: []caption.Cue{cue("", 0, 6000, "We heard it [foghorn sounding in the distance] again")}}
	res := Apply(in, AutoSplitSentences, tg)
	for _, c := range res.Track.Cues {
		if strings.Count(c.Text, "[") != strings.Count(c.Text, "]") {
			t.Errorf("label cut: %q", c.Text)
		}
	}
	if len(res.Track.Cues) != 2 || res.Track.Cues[1].Text != "[foghorn sounding in the distance] again" {
		t.Errorf("cues %+v", res.Track.Cues)
	}
}

// Item 6: sentences start their own lines, or their own cues, rather than
// share a line.
func TestSentencesOwnLines(t *testing.T) {
	t.Parallel()
	tg := Targets{MaxCharsPerLine: 42, MaxLines: 2, MinDurationMs: 833, MinGapMs: 84}
	tests := []struct {
		name string
		in   caption.Cue
		want []string
	}{
		{"two sentences, one per line", cue("", 0, 4000, "The wind is up. We wait inside until the storm has passed."),
			[]string{"The wind is up.\nWe wait inside until the storm has passed."}},
		{"three sentences over three lines: split at a sentence end", cue("", 0, 6000, "The wind is up.\nWe wait inside.\nThe boats are tied up at the quay."),
			[]string{"The wind is up.\nWe wait inside.", "The boats are tied up at the quay."}},
		{"too short to split: sentences may share a line", cue("", 0, 1500, "The wind is up.\nWe wait inside.\nThe boats are tied up."),
			[]string{"The wind is up. We wait inside.\nThe boats are tied up."}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			in := &caption.Track{Cues: []caption.Cue{tt.in}}
			for _, p := range []Profile{AutoSplitSentences, AutoSplitCPS} {
				res := Apply(in, p, tg)
				var got []string
				for _, c := range res.Track.Cues {
					got = append(got, c.Text)
				}
				if !reflect.DeepEqual(got, tt.want) {
					t.Errorf("%s: %q, want %q", p, got, tt.want)
				}
			}
		})
	}
}

// scan must agree with the exact measures on every text.
func TestScanMatches(t *testing.T) {
	t.Parallel()
	texts := []string{"", " ", "\n", "a", "ab  c", "a \nb", "a\n b", "a\n\nb", "a\tb", "a\r\nb", "line one\nline two", "x\x01y",
		"café au lait\nno", "  lead", "trail ", "\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f", "0123456789abcdef\n0123456789abcdefg", "🙂 ok"}
	rng := rand.New(rand.NewPCG(5, 6))
	alphabet := []byte("ab .,\n\n  \t\r\x00\x1f~")
	for range 20000 {
		b := make([]byte, rng.IntN(40))
		for k := range b {
			b[k] = alphabet[rng.IntN(len(alphabet))]
		}
		texts = append(texts, string(b))
	}
	for _, s := range texts {
		lines, longest := measureLines(s)
		want := metric{chars: int32(chars(s)), longest: int32(longest), lines: int32(lines), untidy: untidy(s), blank: blank(s)}
		if got := scan(s); got != want {
			t.Fatalf("scan(%q) = %+v, want %+v", s, got, want)
		}
	}
}

// Cues that need no fix cost no allocation beyond the track copy.
func TestCleanCuesAllocateNothing(t *testing.T) {
	race.Skip(t, "allocation counts differ under the race detector")
	cues := make([]caption.Cue, 1000)
	for i := range cues {
		cues[i] = cue("", int64(i)*4000, int64(i)*4000+3000, "The harbour lights were already\nlit when we reached the quay.")
	}
	in := &caption.Track{Cues: cues}
	for _, p := range Profiles() {
		// The copy of the cues and the metrics: two allocations, whatever
		// the number of cues.
		if n := testing.AllocsPerRun(10, func() { Apply(in, p, realistic) }); n > 4 {
			t.Errorf("%s: %v allocations for 1000 clean cues", p, n)
		}
	}
}

// Item 1, swept: random cues of 22 to 32 cps with time to spare after
// them; every piece must meet MaxCPS.
func TestSplitPiecesMeetCPSSweep(t *testing.T) {
	t.Parallel()
	tg := Targets{MaxCharsPerLine: 42, MaxLines: 2, MaxCPS: 20, MinDurationMs: 833, MaxDurationMs: 7000, MinGapMs: 84, Overlaps: true, EmptyCues: true}
	vocab := strings.Fields("the harbour lights were already on when we reached north quay and nobody had seen Marta since morning. I told you to wait for me at station, it's not safe here anymore listen tide turns in an hour what about")
	rng := rand.New(rand.NewPCG(11, 12))
	bad := 0
	for run := range 400 {
		var sb strings.Builder
		for sb.Len() < 60+rng.IntN(90) {
			if sb.Len() > 0 {
				sb.WriteByte(' ')
			}
			sb.WriteString(vocab[rng.IntN(len(vocab))])
		}
		text := sb.String()
		cps := 22 + rng.Float64()*10
		d := int64(float64(len(text)) * 1000 / cps)
		in := &caption.Track{Cues: []caption.Cue{cue("", 5000, 5000+d, text), cue("", 5000+d+4000, 5000+d+6000, "Fine.")}}
		res := Apply(in, AutoSplitCPS, tg)
		if over := overCPS(res.Track.Cues, tg.MaxCPS); len(over) > 0 {
			bad++
			if bad <= 3 {
				t.Errorf("run %d: %s", run, strings.Join(over, "; "))
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d of 400 cues left a piece over the limit", bad)
	}
}
