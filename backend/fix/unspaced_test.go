package fix

import (
	"reflect"
	"strings"
	"testing"

	"github.com/captionqa/captionqa/backend/caption"
	"github.com/captionqa/captionqa/backend/rules"
)

// kinsokuBroken returns the first line of text that starts with a
// character no line may start with, or ends with one no line may end
// with, in Japanese line breaking (kinsoku shori); "" when there is none.
func kinsokuBroken(text string) string {
	for _, line := range strings.Split(text, "\n") {
		if strings.ContainsRune("。、」』）？！ーぁぃぅぇぉっゃゅょァィゥェォッャュョ", firstRune(line)) || strings.HasSuffix(line, "「") {
			return line
		}
	}
	return ""
}

func firstRune(s string) rune {
	for _, r := range s {
		return r
	}
	return 0
}

// Chinese and Japanese text, written without spaces, breaks where Unicode
// line breaking allows, never against the kinsoku rules, and Latin words
// inside it stay whole.
func TestWrapUnspaced(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		s     string
		width int
		want  string
	}{
		{"Japanese: after a particle, before kanji", "今日は朝から雨が降っていて外はとても寒い。", 16, "今日は朝から雨が\n降っていて外はとても寒い。"},
		{"Japanese: at the comma", "雨が降っていたので、駅まで歩いて行った。", 16, "雨が降っていたので、\n駅まで歩いて行った。"},
		{"Japanese: a small kana starts no line", "「ちょっと待って」と彼は言った。", 9, "「ちょっと待っ\nて」と彼は言った。"},
		{"Japanese: the closing bracket and full stop stay up", "彼は「わかった。」と言った。", 9, "彼は「わかった。」\nと言った。"},
		{"Japanese: the long vowel mark stays with its kana", "コーヒーとケーキをください", 8, "コーヒーと\nケーキをください"},
		{"Japanese: a number keeps its counter", "2020年に東京タワーへ行った", 10, "2020年に\n東京タワーへ行った"},
		{"Chinese: at the comma", "我们今天去北京，好吗？明天再说吧。", 10, "我们今天去北京，\n好吗？明天再说吧。"},
		{"Chinese: at the question mark", "我们今天去北京，好吗？明天再说吧。", 12, "我们今天去北京，好吗？\n明天再说吧。"},
		{"mixed: a Latin word stays whole", "東京 Towerに行きましょう、今すぐ。", 14, "東京 Towerに\n行きましょう、今すぐ。"},
		{"mixed: at a space", "来週 New York に行きます", 12, "来週 New York\nに行きます"},
	}
	for _, tt := range tests {
		got := wrapAt(tt.s, tt.width, 2)
		if got != tt.want {
			t.Errorf("%s: wrap(%q, %d) = %q, want %q", tt.name, tt.s, tt.width, got, tt.want)
		}
		if line := kinsokuBroken(got); line != "" {
			t.Errorf("%s: line %q breaks a kinsoku rule", tt.name, line)
		}
		if !strings.Contains(tt.s, " ") && strings.ReplaceAll(got, "\n", "") != tt.s {
			t.Errorf("%s: %q is not %q with line breaks", tt.name, got, tt.s)
		}
	}
}

// The audit's cue: 61 Japanese characters, three sentences, a 42-character
// line. Every profile that edits text makes it fit, breaking lines (L) or
// splitting the cue at a full stop (S, C), and lines of unspaced text
// joined by a re-wrap take no space.
func TestLayoutUnspaced(t *testing.T) {
	t.Parallel()
	tg := Targets{MaxCharsPerLine: 42, MaxLines: 2, MaxCPS: 20, MinDurationMs: 833, MaxDurationMs: 7000, MinGapMs: 84, Suggested: LimitMinDuration | LimitMaxDuration | LimitMinGap}
	ja := "今日は朝から雨が降っていて外はとても寒い。それでも私たちは駅まで歩いて行くことにした。電車は予定より十五分遅れて到着した。"
	tests := []struct {
		name string
		p    Profile
		text string
		want []string
	}{
		{"three sentences, lines added", LayoutPreserveBreaks, ja,
			[]string{"今日は朝から雨が降っていて外はとても寒い。\nそれでも私たちは駅まで歩いて行くことにした。電車は予定より十五分遅れて到着した。"}},
		{"three sentences, split at a full stop", AutoSplitSentences, ja,
			[]string{"今日は朝から雨が降っていて外はとても寒い。", "それでも私たちは駅まで歩いて行くことにした。\n電車は予定より十五分遅れて到着した。"}},
		{"three sentences, split at a full stop (C)", AutoSplitCPS, ja,
			[]string{"今日は朝から雨が降っていて外はとても寒い。", "それでも私たちは駅まで歩いて行くことにした。\n電車は予定より十五分遅れて到着した。"}},
		{"question and exclamation marks end sentences", AutoSplitSentences, "本当にそれでいいと思っているのですか？私はまったくそうは思いません！もう一度だけよく考えてください。",
			[]string{"本当にそれでいいと思っているのですか？", "私はまったくそうは思いません！\nもう一度だけよく考えてください。"}},
		{"Chinese", AutoSplitSentences, "我们今天下午去北京看看那座有名的古老城墙吧。如果天气好的话，我们还可以去公园走一走。晚上再一起回来吃饭。",
			[]string{"我们今天下午去北京看看那座有名的古老城墙吧。", "如果天气好的话，我们还可以去公园走一走。\n晚上再一起回来吃饭。"}},
		{"an author's line breaks inside unspaced text re-wrapped without a space", AutoSplitSentences, "今日は朝から雨が\n降っていて外は\nとても寒い",
			[]string{"今日は朝から雨が降っていて外はとても寒い"}},
		{"mixed text keeps its spaces", AutoSplitSentences, "明日は朝早く起きて New York 行きの飛行機に乗るので、今夜は早めに寝ることにします。",
			[]string{"明日は朝早く起きて New York 行きの\n飛行機に乗るので、今夜は早めに寝ることにします。"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			in := &caption.Track{Cues: []caption.Cue{cue("", 1000, 6000, tt.text)}}
			res := Apply(in, tt.p, tg)
			var got []string
			for _, c := range res.Track.Cues {
				got = append(got, c.Text)
				if line := kinsokuBroken(c.Text); line != "" {
					t.Errorf("line %q breaks a kinsoku rule", line)
				}
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("%s: %q, want %q", tt.p, got, tt.want)
			}
			for _, u := range res.Unfixed {
				if u.Code == codeLineTooLong || u.Code == codeTooManyLines {
					t.Errorf("unfixed: %s", u.Message)
				}
			}
			if change := textChange(in, res.Track); change != "" {
				t.Errorf("text changed: %s", change)
			}
		})
	}
}

// Full stops, question and exclamation marks of CJK writing end
// sentences, its commas clauses, also before a closing bracket.
func TestGapClassUnspaced(t *testing.T) {
	t.Parallel()
	tests := []struct {
		left, right string
		want        int
	}{
		{"寒い。", "それ", gapSentence},
		{"ですか？", "私", gapSentence},
		{"ません！", "も", gapSentence},
		{"た．", "次", gapSentence},
		{"そうか…", "な", gapSentence},
		{"よ。」", "と", gapSentence},
		{"ので、", "駅", gapClause},
		{"北京，", "好", gapClause},
		{"東", "京", gapWord},
	}
	for _, tt := range tests {
		if got := gapClass(tt.left, tt.right); got != tt.want {
			t.Errorf("gapClass(%q, %q) = %d, want %d", tt.left, tt.right, got, tt.want)
		}
	}
}

// The parts of unspaced text are tight words: rendered back without a
// space, and with a line break only where one is set.
func TestTokenizeUnspaced(t *testing.T) {
	t.Parallel()
	tests := []struct {
		s     string
		parts []string
		tight []bool
		out   string // rendered with no breaks
	}{
		{"東京タワー", []string{"東", "京", "タ", "ワー"}, []bool{false, true, true, true}, "東京タワー"},
		{"東京 Tower", []string{"東", "京", "Tower"}, []bool{false, true, false}, "東京 Tower"},
		{"東京\nタワー", []string{"東", "京", "タ", "ワー"}, []bool{false, true, true, true}, "東京タワー"},
		{"東京\nTower", []string{"東", "京", "Tower"}, []bool{false, true, false}, "東京 Tower"},
		{"well-known café", []string{"well-known", "café"}, []bool{false, false}, "well-known café"},
	}
	for _, tt := range tests {
		ws := tokenize(tt.s, nil)
		var parts []string
		var tight []bool
		for k := range ws {
			parts = append(parts, tt.s[ws[k].b0:ws[k].b1])
			tight = append(tight, ws[k].tight)
			ws[k].brk = false
		}
		if !reflect.DeepEqual(parts, tt.parts) || !reflect.DeepEqual(tight, tt.tight) {
			t.Errorf("tokenize(%q) = %q tight %v, want %q tight %v", tt.s, parts, tight, tt.parts, tt.tight)
		}
		if got := render(tt.s, ws); got != tt.out {
			t.Errorf("render(%q) = %q, want %q", tt.s, got, tt.out)
		}
		if got, want := rules.Characters(render(tt.s, ws)), minLineChars(ws); got != want {
			t.Errorf("%q: %d characters on one line, lengths count %d", tt.s, got, want)
		}
	}
}

// minLineChars is the length of ws on one line, as the wrapper counts it.
func minLineChars(ws []word) int {
	n := ws[0].chars
	for _, w := range ws[1:] {
		n += w.sep() + w.chars
	}
	return n
}
