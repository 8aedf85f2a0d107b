package rules

import (
	"math"
	"math/bits"
	"unicode"
	"unicode/utf8"

	"github.com/rivo/uniseg"

	"github.com/captionqa/captionqa/backend/caption"
)

// Characters counts what a viewer reads in cue text, the one way every
// rule and fix counts: Unicode grapheme clusters (so "é" written as e plus
// a combining accent, an emoji with modifiers, or a Hangul syllable is one),
// spaces and punctuation included, line breaks excluded. Markup is already
// gone from IR text. CJK ideographs count one each like any other
// character; per-language limits (for example 16 per line for Chinese) are
// a preset's business, not the counter's.
//
// "\n", "\r" and "\r\n" count zero. Pure ASCII text, nearly every English
// cue, is counted byte by byte without the grapheme segmenter: in ASCII
// every byte is its own cluster except CR LF, and both of those are line
// breaks.
func Characters(text string) int {
	if n, ok := asciiCharacters(text); ok {
		return n
	}
	n := 0
	// prev is where the last character counted byte-wise starts, -1 when
	// there is none or it is a line break, which never joins what follows
	// (UAX #29 GB4, GB5).
	prev := -1
	for i := 0; i < len(text); {
		if b := text[i]; b < utf8.RuneSelf {
			if b == '\n' || b == '\r' {
				prev = -1
			} else {
				n++
				prev = i
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(text[i:])
		if standalone(r) {
			n++
			prev = i
			i += size
			continue
		}
		// r may extend the character before it (a combining mark, a ZWJ,
		// an emoji modifier), so the segmenter starts from there.
		if prev >= 0 {
			i = prev
			n--
		}
		k, clusters := graphemeRun(text[i:])
		i += k
		n += clusters
		prev = -1
	}
	return n
}

// standalone reports whether r is its own grapheme cluster unless a mark
// after it extends it: it is not a mark, joiner, prepended character,
// regional indicator, emoji or Hangul jamo, so it never joins the
// character before it. The ranges cover the non-ASCII text of most cues:
// accented Latin, Greek, Cyrillic, general punctuation, CJK punctuation,
// kana and ideographs, and full-width forms.
func standalone(r rune) bool {
	switch {
	case r >= 0xA0 && r <= 0x2FF, // Latin-1 Supplement, Latin Extended, IPA, modifier letters
		r >= 0x370 && r <= 0x482,   // Greek, Cyrillic letters (0x483-0x489 are marks)
		r >= 0x2010 && r <= 0x2027, // dashes, quotes, ellipsis (0x200B-0x200F are format characters)
		r >= 0x3000 && r <= 0x3029, // CJK punctuation (0x302A-0x302F are marks)
		r >= 0x3041 && r <= 0x3096, // hiragana (0x3099-0x309A are marks)
		r >= 0x30A1 && r <= 0x30FA, // katakana
		r >= 0x4E00 && r <= 0x9FFF, // CJK unified ideographs
		r >= 0xFF01 && r <= 0xFF60: // full-width forms
		return true
	}
	return false
}

// Byte-wise constants for word-at-a-time arithmetic.
const (
	lo8 = 0x0101010101010101
	hi8 = 0x8080808080808080
)

// asciiCharacters is [Characters] of pure ASCII text, where every byte is
// a character but CR and LF: one pass, eight bytes at a time, counting
// the line-break bytes with exact byte-flag arithmetic. ok is false when
// text is not pure ASCII.
func asciiCharacters(text string) (n int, ok bool) {
	breaks := 0
	i := 0
	for ; i+8 <= len(text); i += 8 {
		// The compiler merges these byte loads into one 64-bit load.
		x := uint64(text[i]) | uint64(text[i+1])<<8 | uint64(text[i+2])<<16 | uint64(text[i+3])<<24 |
			uint64(text[i+4])<<32 | uint64(text[i+5])<<40 | uint64(text[i+6])<<48 | uint64(text[i+7])<<56
		if x&hi8 != 0 {
			return 0, false
		}
		// For ASCII bytes b+0x7F carries into bit 7 exactly when b ≠ 0:
		// the complement flags the zero bytes of x^c, the bytes equal to
		// c, with no false positives.
		lf := ^((x ^ '\n'*lo8) + 0x7F*lo8) & hi8
		cr := ^((x ^ '\r'*lo8) + 0x7F*lo8) & hi8
		breaks += bits.OnesCount64(lf | cr)
	}
	for ; i < len(text); i++ {
		switch b := text[i]; {
		case b >= utf8.RuneSelf:
			return 0, false
		case b == '\n' || b == '\r':
			breaks++
		}
	}
	return len(text) - breaks, true
}

// graphemeRun counts the clusters of s that are not line breaks, with
// uniseg's allocation-free segmenter, until a cluster is followed by an
// ASCII byte: from there on the caller's byte loop is exact again, since
// ASCII characters other than CR LF are clusters of their own and no
// segmentation state (emoji, regional indicators) survives one. It returns
// the bytes consumed and the clusters counted.
func graphemeRun(s string) (consumed, clusters int) {
	state := -1
	for consumed < len(s) {
		var cl string
		cl, _, _, state = uniseg.FirstGraphemeClusterInString(s[consumed:], state)
		consumed += len(cl)
		if cl != "\n" && cl != "\r" && cl != "\r\n" {
			clusters++
		}
		if consumed < len(s) && s[consumed] < utf8.RuneSelf {
			break
		}
	}
	return consumed, clusters
}

// CharactersPerSecond is a cue's reading speed: [Characters] of the whole
// text over its duration. A cue of zero duration reads at +Inf unless it
// is empty.
func CharactersPerSecond(c *caption.Cue) float64 {
	chars := Characters(c.Text)
	if chars == 0 {
		return 0
	}
	d := c.EndMs - c.StartMs
	if d <= 0 {
		return math.Inf(1)
	}
	return float64(chars) * 1000 / float64(d)
}

// Words counts words as DCMP does for presentation rate: every
// whitespace-separated token that holds a letter or digit, speaker IDs and
// sound labels included ("JOHN:" and "[laughs]" are words, a lone "-" or
// ">>" is not). Text without spaces between words (Chinese, Japanese)
// counts each ideograph or kana as a word, the usual convention; a token
// mixing both counts its ideographs and kana plus one for the rest.
func Words(text string) int {
	n := 0
	// counted is 1 while the current token's non-CJK word is counted.
	counted := 0
	for i := 0; i < len(text); {
		// ASCII without branches on the text: word starts are where the
		// branch predictor fails most, once every few bytes.
		for ; i < len(text); i++ {
			k := asciiWordClass[text[i]]
			if k == classNonASCII {
				break
			}
			alnum := int(k & classAlnum)
			n += alnum &^ counted
			counted = (counted | alnum) &^ int(k>>1)
		}
		if i >= len(text) {
			break
		}
		r, size := utf8.DecodeRuneInString(text[i:])
		i += size
		switch {
		case unicode.IsSpace(r):
			counted = 0
		case r >= 0x2E80 && unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana):
			// No Han, kana or katakana code point lies below U+2E80.
			n++
		case counted == 0 && (unicode.IsLetter(r) || unicode.IsDigit(r)):
			n++
			counted = 1
		}
	}
	return n
}

// Classes of bytes for [Words]: classAlnum for ASCII letters and digits,
// classSpace (bit 1) for the ASCII bytes unicode.IsSpace accepts,
// classNonASCII for bytes from 0x80 on; other ASCII is 0.
const (
	classAlnum    = 1
	classSpace    = 2
	classNonASCII = 4
)

// asciiWordClass is each byte's class for [Words]: a read-only table,
// built once.
var asciiWordClass = func() (t [256]uint8) {
	for b := range 256 {
		switch {
		case b >= utf8.RuneSelf:
			t[b] = classNonASCII
		case isASCIISpace(byte(b)):
			t[b] = classSpace
		case isASCIIAlnum(byte(b)):
			t[b] = classAlnum
		}
	}
	return t
}()

// Bit sets of ASCII bytes for [Words]: bit b stands for byte b (for
// asciiAlnumHi, byte 64+b). Constants, so the classes cost a shift and
// share no table.
const (
	// asciiSpace holds the bytes unicode.IsSpace accepts: \t \n \v \f \r and space.
	asciiSpace = 1<<'\t' | 1<<'\n' | 1<<'\v' | 1<<'\f' | 1<<'\r' | 1<<' '
	// asciiAlnumLo holds 0-9; asciiAlnumHi holds A-Z and a-z.
	asciiAlnumLo = (1<<10 - 1) << '0'
	asciiAlnumHi = (1<<26-1)<<('A'-64) | (1<<26-1)<<('a'-64)
)

func isASCIISpace(b byte) bool { return b < 64 && asciiSpace>>b&1 != 0 }

func isASCIIAlnum(b byte) bool {
	if b < 64 {
		return asciiAlnumLo>>b&1 != 0
	}
	return b < 128 && uint64(asciiAlnumHi)>>(b-64)&1 != 0
}

// WordsPerMinute is a cue's presentation rate: [Words] over its duration
// in minutes. A cue of zero duration reads at +Inf unless it has no words.
func WordsPerMinute(c *caption.Cue) float64 {
	w := Words(c.Text)
	if w == 0 {
		return 0
	}
	d := c.EndMs - c.StartMs
	if d <= 0 {
		return math.Inf(1)
	}
	return float64(w) * 60_000 / float64(d)
}

// FramesToMs converts a frame count at fps (24 when fps is 0) to whole
// milliseconds, rounding up so that a limit of "2 frames" is never
// undercut by rounding: 2 frames at 24 fps is 84 ms, at 25 fps 80 ms and
// at 29.97 fps 67 ms.
func FramesToMs(frames, fps float64) int64 {
	if fps <= 0 {
		fps = 24
	}
	// The tolerance keeps an exact result that floating point lands a hair
	// above a whole number (3 frames at 30 fps) from rounding up by 1 ms.
	return int64(math.Ceil(frames*1000/fps - 1e-9))
}
