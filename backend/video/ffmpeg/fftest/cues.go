package fftest

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Cue is one caption: shown from Start to End.
type Cue struct {
	Start, End time.Duration
	Text       string // lines separated by "\n"
}

// SRT writes cues as a SubRip file.
func SRT(cues []Cue) []byte {
	var b bytes.Buffer
	for i, c := range cues {
		fmt.Fprintf(&b, "%d\n%s --> %s\n%s\n\n", i+1, srtTime(c.Start), srtTime(c.End), c.Text)
	}
	return b.Bytes()
}

func srtTime(d time.Duration) string {
	ms := d.Milliseconds()
	return fmt.Sprintf("%02d:%02d:%02d,%03d", ms/3600000, ms/60000%60, ms/1000%60, ms%1000)
}

// Cues reads the subtitle track at subtitleIndex (0 for the file's first
// subtitle stream) back as cues, as ffmpeg decodes it ([ReadSubtitles]).
// It fails t when ffmpeg cannot read the track.
func Cues(t testing.TB, file string, subtitleIndex int) []Cue {
	t.Helper()
	return decode(t, file, "-i", file, "-map", "0:s:"+strconv.Itoa(subtitleIndex))
}

// ReadSubtitles reads the subtitle file at path with ffmpeg's demuxer
// format ("srt", "webvtt", "scc", "ass") and returns its cues as ffmpeg
// decodes them, in the order it gives them (by start time). The text is
// what ffmpeg hands a player: converted to ASS, which carries text as it
// is, then read back with the ASS override blocks ({\i1}, {\an8}) left
// out, \N as a line break, \h as a no-break space and \{ \} \\ as the
// characters. (ffmpeg's SubRip encoder would write "<" and "&" of the text
// as they are, so an SRT of ffmpeg's could not tell text from tags.) It
// fails t when ffmpeg cannot read the file.
func ReadSubtitles(t testing.TB, path, format string) []Cue {
	t.Helper()
	return decode(t, path, "-f", format, "-i", path)
}

func decode(t testing.TB, file string, input ...string) []Cue {
	t.Helper()
	Need(t)
	out, err := ffmpeg("", append(input, "-c:s", "ass", "-f", "ass", "-")...)
	if err != nil {
		t.Fatalf("fftest: read cues: %v", err)
	}
	cues, err := parseASS(string(out))
	if err != nil {
		t.Fatalf("fftest: read cues of %s: %v", file, err)
	}
	return cues
}

// parseASS reads the Dialogue lines of an ASS script ffmpeg wrote.
func parseASS(s string) ([]Cue, error) {
	var cues []Cue
	for line := range strings.SplitSeq(strings.ReplaceAll(s, "\r\n", "\n"), "\n") {
		rest, ok := strings.CutPrefix(line, "Dialogue: ")
		if !ok {
			continue
		}
		f := strings.SplitN(rest, ",", 10)
		if len(f) != 10 {
			return nil, fmt.Errorf("bad event %q", line)
		}
		start, err1 := parseASSTime(f[1])
		end, err2 := parseASSTime(f[2])
		if err1 != nil || err2 != nil {
			return nil, fmt.Errorf("bad times in %q", line)
		}
		cues = append(cues, Cue{Start: start, End: end, Text: assText(f[9])})
	}
	return cues, nil
}

// assText returns the text of an ASS event: override blocks removed,
// escapes undone.
func assText(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\\' && i+1 < len(s):
			i++
			switch s[i] {
			case 'N', 'n':
				b.WriteByte('\n')
			case 'h':
				b.WriteString("\u00a0")
			default:
				b.WriteByte(s[i]) // \{ \} \\
			}
		case c == '{':
			if end := strings.IndexByte(s[i:], '}'); end >= 0 {
				i += end
				continue
			}
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

func parseASSTime(s string) (time.Duration, error) {
	var h, m, sec, cs int
	if _, err := fmt.Sscanf(strings.TrimSpace(s), "%d:%d:%d.%d", &h, &m, &sec, &cs); err != nil {
		return 0, err
	}
	return time.Duration(((h*60+m)*60+sec)*1000+cs*10) * time.Millisecond, nil
}
