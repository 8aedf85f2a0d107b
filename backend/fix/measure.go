package fix

import (
	"math"
	"math/bits"
	"strings"

	"github.com/captionqa/captionqa/backend/caption"
)

// metric is what the fixes and the final check need to know about a
// cue's text, measured once per text by [scan] rather than by every phase.
type metric struct {
	// chars is the text's [chars] count; longest that of its longest line.
	// Both saturate at math.MaxInt32 (a 2 GiB cue).
	chars, longest int32
	// lines is the number of lines ("" has none).
	lines int32
	// untidy: the text has whitespace to clean (see [untidy]); blank: it
	// shows nothing (see [blank]).
	untidy, blank bool
}

const (
	lo8 = 0x0101010101010101
	hi8 = 0x8080808080808080
)

// scan measures s. Pure ASCII text with no control character but "\n",
// nearly every cue, is measured eight bytes at a time with exact
// byte-flag arithmetic; anything else takes the exact slow path.
// TestScanMatches keeps both in step with [chars], [untidy], [blank] and
// [measureLines].
func scan(s string) metric {
	n := len(s)
	if n == 0 {
		return metric{blank: true}
	}
	// Flags (the high bit of each byte) of the previous word's last byte,
	// moved to bit 7 of the next word's first byte.
	var prevSp, prevNl uint64
	var newlines, longest, lineStart int
	dirty := false
	for i := 0; i < n; i += 8 {
		var x uint64
		if i+8 <= n {
			x = uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
				uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
		} else {
			// The tail, padded with 'x', which is neither space nor control.
			x = tailWord(s[i:])
		}
		if x&hi8 != 0 {
			return scanSlow(s)
		}
		// For ASCII bytes b+0x7F carries into bit 7 exactly when b ≠ 0:
		// the complement flags zero bytes with no false positives.
		nl := ^((x ^ '\n'*lo8) + 0x7F*lo8) & hi8
		sp := ^((x ^ ' '*lo8) + 0x7F*lo8) & hi8
		ctl := ^(x + 0x60*lo8) & hi8 // bytes below 0x20
		if ctl&^nl != 0 {
			return scanSlow(s)
		}
		// "  ", " \n", "\n " and "\n\n", within the word and across the
		// boundary with the one before.
		spAt := sp<<8 | prevSp
		nlAt := nl<<8 | prevNl
		if spAt&sp != 0 || spAt&nl != 0 || nlAt&(sp|nl) != 0 {
			dirty = true
		}
		prevSp, prevNl = sp>>56, nl>>56
		for m := nl; m != 0; m &= m - 1 {
			at := i + bits.TrailingZeros64(m)/8
			longest = max(longest, at-lineStart)
			lineStart = at + 1
			newlines++
		}
	}
	longest = max(longest, n-lineStart)
	m := metric{chars: sat(n - newlines), longest: sat(longest), lines: sat(newlines + 1)}
	m.untidy = dirty || s[0] == ' ' || s[0] == '\n' || s[n-1] == ' ' || s[n-1] == '\n'
	if s[0] == ' ' || s[0] == '\n' {
		m.blank = blank(s)
	}
	return m
}

// tailWord loads the last 1 to 7 bytes of a text as a little-endian word,
// padded with 'x'.
func tailWord(t string) uint64 {
	x := uint64('x') * lo8
	for k := len(t) - 1; k >= 0; k-- {
		x = x<<8 | uint64(t[k])
	}
	return x
}

// scanSlow is [scan] for any text.
func scanSlow(s string) metric {
	lines, longest := measureLines(s)
	return metric{chars: sat(chars(s)), longest: sat(longest), lines: sat(lines), untidy: untidy(s), blank: blank(s)}
}

func sat(n int) int32 { return int32(min(n, math.MaxInt32)) }

// measureLines returns the number of lines of s and the [chars] of its
// longest line.
func measureLines(s string) (lines, longest int) {
	if s == "" {
		return 0, 0
	}
	for {
		lines++
		i := strings.IndexByte(s, '\n')
		line := s
		if i >= 0 {
			line = s[:i]
		}
		longest = max(longest, chars(line))
		if i < 0 {
			return lines, longest
		}
		s = s[i+1:]
	}
}

// measureAll scans every cue.
func measureAll(cues []caption.Cue) []metric {
	m := make([]metric, len(cues), len(cues)+headroom(len(cues)))
	for i := range cues {
		m[i] = scan(cues[i].Text)
	}
	return m
}
