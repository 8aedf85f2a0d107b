package standard

import (
	"fmt"
	"math"
	"math/bits"
	"unicode"
	"unicode/utf8"

	"github.com/captionqa/captionqa/backend/caption"
)

// gradeCase grades DCMP's mixed case: capitals only for shouting. A cue
// counts as in capitals when its text, without bracketed labels and
// speaker labels, has at least three cased letters and none in lower case.
// More than cl.Limit (a share) of such cues fails; none passes; a few
// leave the clause not_evaluated, because whether they are shouting needs
// the audio.
func gradeCase(cl *ClauseSpec, p *input) outcome {
	t := p.delivery
	var caps []int
	cased := 0
	for i := range t.Cues {
		switch spokenCase(t.Cues[i].Text, 3) {
		case caseUpper:
			caps = append(caps, i)
			cased++
		case caseLower, caseMixed:
			cased++
		}
	}
	if len(caps) == 0 {
		return passed()
	}
	share := float64(len(caps)) / float64(cased)
	sev := caption.SeverityInfo
	if share > cl.Limit {
		sev = caption.SeverityError
	}
	fs := make([]caption.Diagnostic, 0, len(caps))
	for _, i := range caps {
		fs = append(fs, cueFinding(t, i, "allcaps_text", sev, "the cue is in capitals"))
	}
	if sev == caption.SeverityError {
		fs[0] = measured(fs[0], math.Round(share*1000)/1000, cl.Limit, "share")
		fs[0].Message = fmt.Sprintf("the cue is in capitals, as are %d of %d cues (%.0f%%)", len(caps), cased, share*100)
		return settle(fs, "")
	}
	return settle(fs, fmt.Sprintf("%d of %d cues are in capitals; capitals are right only for shouting, which needs the audio", len(caps), cased))
}

// spokenCase is [caseOf] of the text without bracketed labels and leading
// speaker labels, which style guides may write in capitals. It reads the
// text in place rather than building the stripped copy.
func spokenCase(text string, minLetters int) letterCase {
	upper, lower := 0, 0
	for rest, more := text, true; more; {
		var line string
		line, rest, more = nextLine(rest)
		line = line[speakerPrefix(line):]
		var closer byte
		for i := 0; i < len(line); i++ {
			// Eight plain ASCII bytes outside brackets at a time: their
			// letters are counted with byte-flag arithmetic.
			if closer == 0 && i+8 <= len(line) {
				if u, l, ok := asciiLetters(line[i : i+8]); ok {
					upper += u
					lower += l
					if upper > 0 && lower > 0 && upper+lower >= minLetters {
						return caseMixed
					}
					i += 7
					continue
				}
			}
			b := line[i]
			switch {
			case closer != 0:
				if b == closer {
					closer = 0
				}
			case b == '[':
				closer = ']'
			case b == '(':
				closer = ')'
			case 'A' <= b && b <= 'Z':
				upper++
			case 'a' <= b && b <= 'z':
				lower++
				// Most cues are mixed case: settle them at the first
				// capital-and-small pair instead of reading on.
				if upper > 0 && upper+lower >= minLetters {
					return caseMixed
				}
			case b >= 0x80:
				r, n := utf8.DecodeRuneInString(line[i:])
				if unicode.IsUpper(r) {
					upper++
				} else if unicode.IsLower(r) {
					lower++
				}
				i += n - 1
			}
		}
	}
	return caseFrom(upper, lower, minLetters)
}

// asciiLetters counts the capital and small ASCII letters of the eight
// bytes of w, or reports false when w holds a non-ASCII byte or opens a
// bracket ("[" or "("), which the byte loop handles. With every high bit
// clear, b + (0x80 - c) sets a byte's high bit exactly when b ≥ c, with no
// carry into the next byte.
func asciiLetters(w string) (upper, lower int, ok bool) {
	const (
		lo = 0x0101010101010101
		hi = 0x8080808080808080
	)
	x := uint64(w[0]) | uint64(w[1])<<8 | uint64(w[2])<<16 | uint64(w[3])<<24 |
		uint64(w[4])<<32 | uint64(w[5])<<40 | uint64(w[6])<<48 | uint64(w[7])<<56
	if x&hi != 0 {
		return 0, 0, false
	}
	// Bytes equal to '[' or '(': zero bytes of x^c, flagged exactly.
	open := ^(((x ^ '['*lo) + 0x7F*lo) & ((x ^ '('*lo) + 0x7F*lo)) & hi
	if open != 0 {
		return 0, 0, false
	}
	ge := func(c uint64) uint64 { return (x + (0x80-c)*lo) & hi }
	u := ge('A') &^ ge('Z'+1)
	l := ge('a') &^ ge('z'+1)
	return bits.OnesCount64(u), bits.OnesCount64(l), true
}
