package ffmpeg

import (
	"bytes"
	"fmt"
	"strings"
	"unicode"
)

// The text side of ocr_burned: tesseract's output split into pages,
// cleaned, segments merged into cues, and the cues written as SRT.

// splitPages splits tesseract's output for n images into n texts.
// Tesseract 5 puts a form feed between pages (a blank image gives an
// empty page); older versions put one after each page, which leaves an
// empty tail that is dropped. Any other count is an error: the texts
// would not line up with the images.
func splitPages(out []byte, n int) ([]string, error) {
	parts := strings.Split(string(out), "\f")
	if len(parts) == n+1 && strings.TrimSpace(parts[n]) == "" {
		parts = parts[:n]
	}
	if len(parts) != n {
		return nil, fmt.Errorf("ffmpeg: tesseract returned %d pages for %d images", len(parts), n)
	}
	return parts, nil
}

// ocrReplacer maps what tesseract reads in a clean sans-serif caption
// font to the characters a caption file holds: a vertical bar is the
// capital I of DejaVu Sans (captions hardly ever hold a bar), typographic
// quotes and dashes are the ASCII ones captions are typed with,
// ligatures are their letters. Read-only.
var ocrReplacer = strings.NewReplacer(
	"|", "I",
	"\u2018", "'", "\u2019", "'", "\u201a", "'", "\u201b", "'", "\u2032", "'",
	"\u201c", `"`, "\u201d", `"`, "\u201e", `"`, "\u2033", `"`,
	"\u2013", "-", "\u2014", "-", "\u2026", "...",
	"\ufb00", "ff", "\ufb01", "fi", "\ufb02", "fl", "\ufb03", "ffi", "\ufb04", "ffl",
)

// cleanText turns one page of tesseract output into a cue's text: lines
// trimmed, inner spaces collapsed, lines that are mostly not letters or
// digits dropped (specks of background read as punctuation), line
// breaks kept. It returns "" when nothing is left.
func cleanText(page string) string {
	page = ocrReplacer.Replace(strings.ToValidUTF8(page, ""))
	var lines []string
	for line := range strings.Lines(page) {
		line = strings.Join(strings.Fields(line), " ")
		alnum, other := 0, 0
		for _, r := range line {
			switch {
			case unicode.IsLetter(r) || unicode.IsDigit(r):
				alnum++
			case !unicode.IsSpace(r):
				other++
			}
		}
		if alnum == 0 || alnum < other {
			continue
		}
		lines = append(lines, line)
	}
	return strings.Join(lines, "\n")
}

// ocrCue is a caption read from a run of frames [start, end).
type ocrCue struct {
	start, end int
	text       string
}

// mergeCues joins neighbouring cues that are the same caption read
// twice: their texts are within a quarter of the longer one in edit
// distance (ignoring case, spaces and line breaks) and at most maxGap
// frames lie between them. A caption is split when the background makes
// its mask change (a bright object passing behind the text) or flicker;
// a misread part of at most maxGap frames between two reads of one
// caption joins them too. The joined cue keeps the text of its longest
// part. Cues must be in order and not overlap.
func mergeCues(cues []ocrCue, maxGap int) []ocrCue {
	type merged struct {
		ocrCue
		longest int // frames of the part whose text it has
	}
	var out []merged
	for _, c := range cues {
		n, absorb := len(out), false
		if n >= 2 {
			short := out[n-1]
			if short.end-short.start <= maxGap && short.start-out[n-2].end <= maxGap &&
				c.start-short.end <= maxGap && similar(out[n-2].text, c.text) {
				out, n, absorb = out[:n-1], n-1, true
			}
		}
		if n > 0 && (absorb || c.start-out[n-1].end <= maxGap && similar(out[n-1].text, c.text)) {
			last := &out[n-1]
			if c.end-c.start > last.longest {
				last.text, last.longest = c.text, c.end-c.start
			}
			last.end = c.end
			continue
		}
		out = append(out, merged{c, c.end - c.start})
	}
	result := make([]ocrCue, len(out))
	for i, m := range out {
		result[i] = m.ocrCue
	}
	return result
}

// similar reports whether a and b are the same caption read twice.
func similar(a, b string) bool {
	ka, kb := textKey(a), textKey(b)
	if len(ka) == 0 || len(kb) == 0 {
		return len(ka) == len(kb)
	}
	return 4*editDistance(ka, kb) <= max(len(ka), len(kb))
}

// textKey is s lowercased, without spaces and line breaks.
func textKey(s string) []rune {
	var k []rune
	for _, r := range s {
		if !unicode.IsSpace(r) {
			k = append(k, unicode.ToLower(r))
		}
	}
	return k
}

// editDistance is the Levenshtein distance between a and b.
func editDistance(a, b []rune) int {
	if len(a) < len(b) {
		a, b = b, a
	}
	row := make([]int, len(b)+1)
	for j := range row {
		row[j] = j
	}
	for i := 1; i <= len(a); i++ {
		diag := row[0]
		row[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			next := min(row[j]+1, row[j-1]+1, diag+cost)
			diag, row[j] = row[j], next
		}
	}
	return row[len(b)]
}

// ocrRate is a frame rate num/den (frames per second).
type ocrRate struct{ num, den int }

// ocrFrameRate turns the probe's frame rate into a rational: the NTSC rates
// (N×1000/1001) exactly, a whole or a decimal rate as it is; a rate
// outside 1–240 fps (unknown, or junk) gives 25.
func ocrFrameRate(fps float64) ocrRate {
	if !(fps >= 1 && fps <= 240) {
		return ocrRate{25, 1}
	}
	for _, den := range []int{1, 1001, 100, 1000} {
		num := int(fps*float64(den) + 0.5)
		if d := float64(num)/float64(den) - fps; d > -1e-6 && d < 1e-6 {
			return ocrRate{num, den}
		}
	}
	return ocrRate{int(fps*1000 + 0.5), 1000}
}

func (r ocrRate) String() string { return fmt.Sprintf("%d/%d", r.num, r.den) }

// ms is the time of frame n in milliseconds, rounded.
func (r ocrRate) ms(n int) int64 {
	return (int64(n)*int64(r.den)*1000*2 + int64(r.num)) / (2 * int64(r.num))
}

// writeSRT writes cues, timed at fps, as SubRip.
func writeSRT(cues []ocrCue, fps ocrRate) []byte {
	var b bytes.Buffer
	for i, c := range cues {
		fmt.Fprintf(&b, "%d\n%s --> %s\n%s\n\n", i+1, srtClock(fps.ms(c.start)), srtClock(fps.ms(c.end)), c.text)
	}
	return b.Bytes()
}

func srtClock(ms int64) string {
	return fmt.Sprintf("%02d:%02d:%02d,%03d", ms/3600000, ms/60000%60, ms/1000%60, ms%1000)
}
