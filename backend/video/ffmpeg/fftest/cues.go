package fftest

import (
	"bytes"
	"fmt"
	"regexp"
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
// subtitle stream) back as cues, converted to SRT by ffmpeg, with markup
// (<i>, <font …>, {\an8}) stripped and line ends normalised. It fails t
// when ffmpeg cannot read the track.
func Cues(t testing.TB, file string, subtitleIndex int) []Cue {
	t.Helper()
	Need(t)
	out, err := ffmpeg("", "-i", file, "-map", "0:s:"+strconv.Itoa(subtitleIndex), "-c:s", "srt", "-f", "srt", "-")
	if err != nil {
		t.Fatalf("fftest: read cues: %v", err)
	}
	cues, err := parseSRT(string(out))
	if err != nil {
		t.Fatalf("fftest: read cues of %s: %v", file, err)
	}
	return cues
}

// markup matches SRT tags and ASS override blocks. Read-only.
var markup = regexp.MustCompile(`<[^>]+>|\{[^}]*\}`)

func parseSRT(s string) ([]Cue, error) {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	var cues []Cue
	for block := range strings.SplitSeq(strings.TrimSpace(s), "\n\n") {
		lines := strings.Split(strings.TrimSpace(block), "\n")
		if len(lines) == 0 || lines[0] == "" {
			continue
		}
		if !strings.Contains(lines[0], "-->") {
			lines = lines[1:] // the cue number
		}
		if len(lines) == 0 {
			return nil, fmt.Errorf("cue without a time line: %q", block)
		}
		from, to, ok := strings.Cut(lines[0], "-->")
		start, err1 := parseSRTTime(from)
		end, err2 := parseSRTTime(to)
		if !ok || err1 != nil || err2 != nil {
			return nil, fmt.Errorf("bad time line %q", lines[0])
		}
		text := markup.ReplaceAllString(strings.Join(lines[1:], "\n"), "")
		cues = append(cues, Cue{Start: start, End: end, Text: strings.TrimSpace(text)})
	}
	return cues, nil
}

func parseSRTTime(s string) (time.Duration, error) {
	var h, m, sec, ms int
	if _, err := fmt.Sscanf(strings.TrimSpace(s), "%d:%d:%d,%d", &h, &m, &sec, &ms); err != nil {
		return 0, err
	}
	return time.Duration(((h*60+m)*60+sec)*1000+ms) * time.Millisecond, nil
}
