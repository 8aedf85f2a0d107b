package format

import (
	"strings"

	"github.com/captionqa/captionqa/backend/caption"
	"github.com/captionqa/captionqa/backend/caption/stl"
)

// sniffLen is how much of a file [Detect] looks at. Every format announces
// itself near the top, except TTML after a long comment or ASS after a large
// [Script Info], which the extension hint then settles.
const sniffLen = 8 << 10

// Detect names the format of a caption file from its first bytes, using the
// file name's extension only to break ties and when the content says
// nothing. It returns "" when neither settles it. EBU STL is binary: it is
// told by the bytes of its GSI block before any text decoding.
func Detect(name string, head []byte) string {
	if len(head) > sniffLen {
		head = head[:sniffLen]
	}
	if stl.Sniff(head) {
		return STL
	}
	text, _, _ := caption.DecodeText(head)
	text = strings.TrimLeft(text, " \t\r\n\uFEFF")
	hint := FromExtension(name)
	switch {
	case strings.HasPrefix(text, "WEBVTT"):
		return VTT
	case strings.HasPrefix(text, "Scenarist_SCC"):
		return SCC
	case strings.HasPrefix(text, "<"):
		if isTTML(text) || hint == TTML {
			return TTML
		}
	case strings.HasPrefix(text, "{"):
		return JSON
	case strings.HasPrefix(text, "["):
		if hint == JSON {
			return JSON
		}
	}
	if isASS(text) {
		return ASS
	}
	if isSCCLine(text) {
		return SCC // without its header
	}
	return detectCueLines(text, hint)
}

// isSCCLine reports whether text opens with an SCC line: a timecode
// ("00:00:01:00", or ";" before the frames), a tab or space, and a byte
// pair in hex.
func isSCCLine(text string) bool {
	if len(text) < 16 {
		return false
	}
	for i := range 11 {
		c := text[i]
		switch i {
		case 2, 5:
			if c != ':' {
				return false
			}
		case 8:
			if c != ':' && c != ';' && c != '.' {
				return false
			}
		default:
			if c < '0' || c > '9' {
				return false
			}
		}
	}
	if text[11] != '\t' && text[11] != ' ' {
		return false
	}
	for _, c := range []byte(text[12:16]) {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}

func isTTML(text string) bool {
	for _, marker := range []string{"<tt", "<tt:tt", "ns/ttml", "ttaf1"} {
		if strings.Contains(text, marker) {
			return true
		}
	}
	return false
}

// isASS reports whether text has the structure of an ASS or SSA script:
// its first line, after blank lines and ";" comments, opens a section
// ("[Script Info]", a styles section or "[Events]"), is an event or an
// events section's Format line. A
// marker further down proves nothing: an SRT cue may say "[Events]" or
// "Dialogue: ..." in its text, and must still be read as the SRT it is.
func isASS(text string) bool {
	for rest := text; rest != ""; {
		var line string
		line, rest = nextLine(rest)
		if line == "" || strings.HasPrefix(line, ";") {
			continue
		}
		switch {
		case strings.HasPrefix(line, "Dialogue:"), strings.HasPrefix(line, "Format:"):
			return true
		case strings.HasPrefix(line, "["):
			section, _, _ := strings.Cut(line, "]")
			switch strings.ToLower(section[1:]) {
			case "script info", "v4+ styles", "v4 styles", "events":
				return true
			}
		}
		return false
	}
	return false
}

// detectCueLines tells SRT, headerless WebVTT and SBV apart by their timing
// lines: SRT has "-->" with a comma before milliseconds, WebVTT "-->" with
// a dot, SBV two times joined by a comma.
func detectCueLines(text, hint string) string {
	var srtVotes, vttVotes, sbvVotes int
	for rest := text; rest != ""; {
		var line string
		line, rest = nextLine(rest)
		if i := strings.Index(line, "-->"); i > 0 {
			if strings.Contains(line[:i], ",") {
				srtVotes++
			} else {
				vttVotes++
			}
		} else if isSBVTiming(line) {
			sbvVotes++
		}
	}
	switch {
	case srtVotes+vttVotes+sbvVotes == 0:
		return hint
	case hint == SRT && srtVotes+vttVotes > 0, hint == VTT && srtVotes+vttVotes > 0, hint == SBV && sbvVotes > 0:
		return hint
	case sbvVotes > srtVotes+vttVotes:
		return SBV
	case vttVotes > srtVotes:
		return VTT
	}
	return SRT
}

// isSBVTiming reports whether line looks like "0:00:01.000,0:00:02.000".
func isSBVTiming(line string) bool {
	a, b, ok := strings.Cut(line, ",")
	return ok && looksLikeClock(a) && looksLikeClock(b)
}

// looksLikeClock reports whether s is digits with two colons and a dot.
func looksLikeClock(s string) bool {
	colons, dots := 0, 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == ':':
			colons++
		case c == '.':
			dots++
		case c < '0' || c > '9':
			return false
		}
	}
	return colons == 2 && dots > 0
}

// nextLine returns the first line of text, trimmed of spaces, and the
// text after it: line by line (LF, CR LF or CR, as caption.SplitLines)
// without a slice of them, since detection runs on every request. (A CR
// LF gives an empty line between, which callers skip as blank.)
func nextLine(text string) (line, rest string) {
	if i := strings.IndexAny(text, "\r\n"); i >= 0 {
		return strings.TrimSpace(text[:i]), text[i+1:]
	}
	return strings.TrimSpace(text), ""
}
