package fix

import (
	"unicode"
	"unicode/utf8"
)

// Break costs between tight words, the parts of a run of Chinese or
// Japanese text (see [word]), where no space marks the end of a word. A
// change of script stands in for one, as Japanese line breakers without a
// dictionary guess phrase (bunsetsu) ends: a kana ending or a particle
// closes a phrase, so a break after hiragana and before kanji, katakana or
// Latin is preferred, while one inside a run of kanji or of katakana,
// between a stem and the kana that ends it or the particle after it, or
// between a number and its counter ("2020年") likely cuts a word. Chinese
// text, all ideographs, gets the same cost at every break and is laid out
// by punctuation and line lengths. These stay far below costBad: they
// choose among breaks and never cost a line or a cue; only a break inside
// a katakana run (a loanword) is a bad one.
const (
	bonusPhrase = -80
	costInWord  = 300
	// costInKatakana is costBad: the wrapper takes another line, and the
	// splitter another cue, rather than part a loanword.
	costInKatakana = costBad
)

// Scripts of the characters on either side of a tight break.
const (
	scriptOther = iota
	scriptHan
	scriptHiragana
	scriptKatakana
	scriptAlnum // letters and digits of other scripts: Latin, full-width Latin, numbers
)

// unspacedCost scores a line break between the tight words left and
// right.
func unspacedCost(left, right string) float64 {
	l, _ := utf8.DecodeLastRuneInString(left)
	r, _ := utf8.DecodeRuneInString(right)
	ls, rs := scriptOf(l), scriptOf(r)
	switch {
	case ls == scriptHiragana && (rs == scriptHan || rs == scriptKatakana || rs == scriptAlnum):
		return bonusPhrase
	case ls == scriptKatakana && rs == scriptKatakana:
		// A katakana run is one loanword ("チャンピオンシップトーナメント")
		// far more often than two: a bad break (see costBad).
		return costInKatakana
	case ls == rs && ls == scriptHan,
		rs == scriptHiragana && (ls == scriptHan || ls == scriptKatakana || ls == scriptAlnum),
		ls == scriptAlnum && rs == scriptHan:
		return costInWord
	}
	return 0
}

func scriptOf(r rune) int {
	switch {
	case unicode.Is(unicode.Han, r):
		return scriptHan
	case unicode.Is(unicode.Hiragana, r):
		return scriptHiragana
	case unicode.Is(unicode.Katakana, r) || r == 'ー' || r == 'ｰ':
		// The prolonged sound mark is in no script of its own.
		return scriptKatakana
	case unicode.IsLetter(r) || unicode.IsDigit(r):
		return scriptAlnum
	}
	return scriptOther
}
