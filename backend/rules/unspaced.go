package rules

import (
	"unicode"
	"unicode/utf8"

	"github.com/rivo/uniseg"
)

// unspaced holds the characters of writing that puts no space between
// words: Thai, Lao, Myanmar and Khmer; CJK radicals, punctuation,
// ideographs and their compatibility forms; kana, Bopomofo and the
// full-width and half-width forms (half-width Hangul aside). Hangul is left
// out: Korean puts spaces between words. Read-only.
var unspaced = &unicode.RangeTable{
	R16: []unicode.Range16{
		{Lo: 0x0E00, Hi: 0x0EFF, Stride: 1}, // Thai, Lao
		{Lo: 0x1000, Hi: 0x109F, Stride: 1}, // Myanmar
		{Lo: 0x1780, Hi: 0x17FF, Stride: 1}, // Khmer
		{Lo: 0x2E80, Hi: 0x2FDF, Stride: 1}, // CJK radicals, Kangxi radicals
		{Lo: 0x3000, Hi: 0x312F, Stride: 1}, // CJK punctuation, hiragana, katakana, Bopomofo
		{Lo: 0x31A0, Hi: 0x31BF, Stride: 1}, // Bopomofo extended
		{Lo: 0x31F0, Hi: 0x31FF, Stride: 1}, // katakana phonetic extensions
		{Lo: 0x3400, Hi: 0x4DBF, Stride: 1}, // CJK extension A
		{Lo: 0x4E00, Hi: 0x9FFF, Stride: 1}, // CJK unified ideographs
		{Lo: 0xF900, Hi: 0xFAFF, Stride: 1}, // CJK compatibility ideographs
		{Lo: 0xFE30, Hi: 0xFE4F, Stride: 1}, // CJK compatibility forms
		{Lo: 0xFF00, Hi: 0xFF9F, Stride: 1}, // full-width forms, half-width katakana
		{Lo: 0xFFE0, Hi: 0xFFEF, Stride: 1}, // full-width signs
	},
	R32: []unicode.Range32{
		{Lo: 0x20000, Hi: 0x3FFFF, Stride: 1}, // CJK extensions B and later
	},
}

// Unspaced reports whether r belongs to writing that puts no space between
// words (Chinese, Japanese, Thai and their neighbours; see [unspaced]). A
// line break between two such characters stands for no space, whatever
// spaces stand around it: joining the lines joins the text ("東京\nタワー"
// reads "東京タワー"), where next to any other character it reads as a
// space, as in Latin text.
func Unspaced(r rune) bool {
	return r >= 0x0E00 && unicode.Is(unspaced, r)
}

// UnspacedBreaks appends to at the byte offsets inside word, text without
// white space, where a line may break although no space is there: the
// break opportunities of Unicode line breaking (UAX #14) with a character
// of [Unspaced] writing on either side. UAX #14 keeps the Japanese kinsoku
// rules (no line starts with "。", "、", "」", small kana or "ー", none
// ends with "「"); the [Unspaced] neighbour keeps Latin text whole ("well-"
// and "known" stay one word, as they would with a space-only break). Text
// with no [Unspaced] character costs a scan and no segmentation. Thai,
// Lao, Khmer and Myanmar get no breaks here: finding their word ends
// needs a dictionary, which UAX #14 leaves to the implementation and
// uniseg does not have.
func UnspacedBreaks(word string, at []int) []int {
	if !hasUnspaced(word) {
		return at
	}
	state, off := -1, 0
	for rest := word; rest != ""; {
		var seg string
		seg, rest, _, state = uniseg.FirstLineSegmentInString(rest, state)
		off += len(seg)
		if rest == "" {
			break
		}
		before, _ := utf8.DecodeLastRuneInString(seg)
		after, _ := utf8.DecodeRuneInString(rest)
		if Unspaced(before) || Unspaced(after) {
			at = append(at, off)
		}
	}
	return at
}

// hasUnspaced reports whether s holds a character of [Unspaced] writing.
func hasUnspaced(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			for _, r := range s[i:] {
				if Unspaced(r) {
					return true
				}
			}
			return false
		}
	}
	return false
}
