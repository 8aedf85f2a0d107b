package scc

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/captionqa/captionqa/backend/internal/corpus"
	"github.com/captionqa/captionqa/backend/internal/golden"
)

// TestCorpusWords tallies, for every .scc file of the corpus, how many of
// its words the reader puts in the right cue at the right frames, against
// a reading that does not come from this package:
//
//   - ffmpeg's (5.1, Debian 12's) SCC reader and CEA-608 decoder gives
//     the words and the frames. ffmpeg times every pair of an SCC line at
//     the line's timecode, so the test first rewrites the file with each
//     pair on a line of its own frame (padding where frames carry none,
//     as a decoder sees them): ffmpeg then times each change on the frame
//     of the code that makes it. Its words are compared without its
//     markup, with ’ read as the ' 608 sends, and without █, the mark it
//     draws for a character lost to a parity error, which this reader
//     leaves out (parity_error).
//   - ffmpeg shows a roll-up window; an editor, and this reader, a cue per
//     line. The last line of each window ffmpeg shows is the line that
//     scrolled in, from its first character (ffmpeg times the carriage
//     return before it) until the next line's first character.
//   - An end is checked where the file has a code at that frame that
//     changes the display (an erase or end-of-caption code, or the next
//     roll-up line): a caption never erased ends where ffmpeg stops
//     reading, which says nothing about the file.
//   - Where ffmpeg misreads a file (handReferences says how), the cues are
//     read off the hex by hand instead.
//
// A word of a reference cue is right when cues of the reader that hold it
// (as often) follow each other from the reference cue's first frame to its
// last. The tally per file is testdata/corpus_words.txt (go test -update
// rewrites it); every file must reach 95%. Files that are not SCC at all
// are listed with the reader's diagnostic.
func TestCorpusWords(t *testing.T) {
	t.Parallel()
	root := corpus.Dir(t)
	if _, err := exec.LookPath("ffmpeg"); err != nil {
		t.Fatalf("ffmpeg is the reference reader: %v", err)
	}
	files := corpus.Glob(t, ".", ".scc")
	rows := make([]golden.WordRow, len(files))
	golden.CompareWordTally(t, "testdata/corpus_words.txt", rows)
	for i, path := range files {
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		t.Run(rel, func(t *testing.T) {
			t.Parallel()
			rows[i] = tally(t, rel, path)
		})
	}
}

// notSCC lists the corpus files that are not SCC: pycaption's
// "translated" fixtures spell the codes out as words.
var notSCC = map[string]bool{
	"pycaption/fixtures/translated_scc/sample_translated_scc_no_brackets.scc":                     true,
	"pycaption/fixtures/translated_scc/sample_translated_scc_special_and_extended_characters.scc": true,
}

// tally reads one corpus file and counts its words against the
// reference.
func tally(t *testing.T, rel, path string) golden.WordRow {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	tr, diags := golden.MustParse(t, Parse, data)
	row := golden.WordRow{File: rel}
	if notSCC[rel] {
		if len(tr.Cues) > 0 || len(diags) == 0 {
			t.Errorf("%d cues, diagnostics %+v: a file that is not SCC reads as none, with a diagnostic", len(tr.Cues), diags)
		} else {
			row.Note = "not SCC: " + diags[0].Code + ": " + diags[0].Message
		}
		return row
	}
	ref, ok := handReferences[rel]
	if !ok {
		ref = ffmpegReference(t, data)
	}
	var missed []string
	row.Words, row.Right, missed = onScreen(ref, tr.Cues, refWords, 0)
	switch {
	case row.Words == 0 && len(tr.Cues) > 0:
		t.Errorf("the reference has no words; the reader %d cues", len(tr.Cues))
	case row.Words == 0:
		row.Note = "no captions"
		for _, d := range diags {
			row.Note += " (" + d.Code + ")"
		}
	case row.Right*100 < 95*row.Words:
		t.Errorf("%d of %d words in the right cue at the right frames, under 95%%; missed: %s", row.Right, row.Words, strings.Join(missed, ", "))
	case len(missed) > 0:
		t.Logf("missed: %s", strings.Join(missed, ", "))
	}
	return row
}

// refWords splits text into words as the tally compares them: ’ is the
// ' 608 sends, and █ ffmpeg's mark for a character lost to a parity
// error.
func refWords(text string) []string {
	return strings.Fields(strings.NewReplacer("’", "'", "█", "").Replace(text))
}

// framePair is a byte pair and the frame it is sent on.
type framePair struct {
	frame  int64
	b1, b2 byte
}

// framePairs reads an SCC file as pairs on their frames, simply: each
// line a timecode (drop-frame with ";" or "."), then pairs one a frame; a
// line stamped before the pairs above are sent follows them; a word that
// is not 4 hex digits takes its frame and is skipped.
func framePairs(data []byte) []framePair {
	var out []framePair
	cursor := int64(0)
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) == 0 {
			continue
		}
		frame, ok := simpleTimecode(f[0])
		if !ok {
			continue
		}
		frame = max(frame, cursor)
		for k, w := range f[1:] {
			if v, err := strconv.ParseUint(w, 16, 16); err == nil && len(w) == 4 {
				out = append(out, framePair{frame + int64(k), byte(v >> 8), byte(v)})
			}
		}
		cursor = frame + int64(len(f)-1)
	}
	return out
}

// simpleTimecode returns the frame "HH:MM:SS:FF" names, drop-frame when
// the last separator is ";" or ".".
func simpleTimecode(s string) (int64, bool) {
	if len(s) < 11 {
		return 0, false
	}
	sep := s[len(s)-3]
	parts := strings.FieldsFunc(s, func(r rune) bool { return r == ':' || r == ';' || r == '.' })
	if len(parts) != 4 {
		return 0, false
	}
	var v [4]int64
	for i, p := range parts {
		n, err := strconv.ParseInt(p, 10, 64)
		if err != nil {
			return 0, false
		}
		v[i] = n
	}
	n := ((v[0]*60+v[1])*60+v[2])*30 + v[3]
	if sep != ':' {
		minutes := v[0]*60 + v[1]
		n -= 2 * (minutes - minutes/10)
	}
	return n, true
}

// CEA-608 codes the reference looks for, parity removed, on channel 1.
func isCC1Misc(p framePair) (byte, bool) {
	c1 := p.b1 & 0x7F
	return p.b2 & 0x7F, c1 == 0x14 || c1 == 0x15
}

// shows reports whether pair p puts a character on the screen: a
// standard character, or a special or extended one.
func shows(p framePair) bool {
	c1, c2 := p.b1&0x7F, p.b2&0x7F
	return c1 >= 0x20 || c1 == 0x11 && c2 >= 0x30 && c2 <= 0x3F || (c1 == 0x12 || c1 == 0x13) && c2 >= 0x20 && c2 <= 0x3F
}

// Caption modes, by their last mode code.
const (
	refPopOn = iota
	refPaintOn
	refRollUp
)

// sccTrack is the pairs of a file, with what the reference asks of them.
type sccTrack []framePair

// modeAt returns the caption mode at frame f: that of the last mode code
// sent on or before it (pop-on before any).
func (s sccTrack) modeAt(f int64) int {
	mode := refPopOn
	for _, p := range s {
		if p.frame > f {
			break
		}
		switch c, ok := isCC1Misc(p); {
		case !ok:
		case c == 0x20:
			mode = refPopOn
		case c == 0x29:
			mode = refPaintOn
		case c >= 0x25 && c <= 0x27:
			mode = refRollUp
		}
	}
	return mode
}

// changesAt reports whether a code on frame f changes the display: an
// erase or end-of-caption code.
func (s sccTrack) changesAt(f int64) bool {
	return slices.ContainsFunc(s, func(p framePair) bool {
		c, ok := isCC1Misc(p)
		return p.frame == f && ok && (c == 0x2C || c == 0x2F)
	})
}

// firstChar returns the frame of the first character sent on or after f.
func (s sccTrack) firstChar(f int64) int64 {
	for _, p := range s {
		if p.frame >= f && shows(p) {
			return p.frame
		}
	}
	return f
}

// ffmpegReference reads data with ffmpeg, one pair a line, and returns
// its cues as the reference (see TestCorpusWords).
func ffmpegReference(t *testing.T, data []byte) []refCue {
	t.Helper()
	pairs := sccTrack(framePairs(data))
	var b strings.Builder
	b.WriteString("Scenarist_SCC V1.0\n")
	next := int64(-1)
	label := func(f int64) string {
		return fmt.Sprintf("%02d:%02d:%02d:%02d", f/108000, f/1800%60, f/30%60, f%30)
	}
	for _, p := range pairs {
		if next >= 0 && p.frame > next {
			fmt.Fprintf(&b, "\n%s\t8080\n", label(next))
		}
		fmt.Fprintf(&b, "\n%s\t%02x%02x\n", label(p.frame), p.b1, p.b2)
		next = p.frame + 1
	}
	path := filepath.Join(t.TempDir(), "pairs.scc")
	if err := os.WriteFile(path, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("ffmpeg", "-nostdin", "-v", "error", "-i", path, "-f", "srt", "-").Output()
	if err != nil {
		t.Fatalf("ffmpeg: %v", err)
	}
	events := parseFFmpegSRT(t, out, false)
	var ref []refCue
	for k, e := range events {
		switch pairs.modeAt(e.start) {
		case refPaintOn:
			t.Fatalf("ffmpeg misreads paint-on captions: list the file's cues in handReferences")
		case refRollUp:
			lines := strings.Split(e.text, "\n")
			r := refCue{start: pairs.firstChar(e.start), end: e.end, text: lines[len(lines)-1]}
			if k+1 < len(events) && events[k+1].start == e.end {
				r.end = pairs.firstChar(e.end)
			} else {
				r.open = e.open || !pairs.changesAt(e.end)
			}
			ref = append(ref, r)
		default:
			e.open = e.open || !pairs.changesAt(e.end)
			ref = append(ref, e)
		}
	}
	return ref
}

// parseFFmpegSRT reads the SRT ffmpeg writes, times as frames: ffmpeg
// reads a timecode HH:MM:SS:FF (or ;FF) as HH:MM:SS plus FF×33 ms, so the
// labels of the file map back to their frames, drop-frame ones when drop
// is set. A time that is no label's is ffmpeg's own (where it stops
// reading): an end so is open.
func parseFFmpegSRT(t *testing.T, out []byte, drop bool) []refCue {
	t.Helper()
	var cues []refCue
	blocks := strings.Split(strings.ReplaceAll(string(out), "\r\n", "\n"), "\n\n")
	markup := strings.NewReplacer(`<font face="Monospace">`, "", "</font>", "", "<i>", "", "</i>", "", "<u>", "", "</u>", "", `\h`, " ")
	for _, blk := range blocks {
		lines := strings.Split(strings.TrimSpace(blk), "\n")
		if len(lines) < 3 {
			continue
		}
		from, to, ok := strings.Cut(lines[1], " --> ")
		if !ok {
			t.Fatalf("ffmpeg wrote %q", blk)
		}
		text := markup.Replace(strings.Join(lines[2:], "\n"))
		for {
			i := strings.Index(text, "{")
			j := strings.Index(text, "}")
			if i < 0 || j < i {
				break
			}
			text = text[:i] + text[j+1:]
		}
		for strings.Contains(text, "<font") {
			i := strings.Index(text, "<font")
			j := strings.Index(text[i:], ">")
			text = text[:i] + text[i+j+1:]
		}
		start, ok := labelFrame(from, drop)
		if !ok {
			t.Fatalf("ffmpeg time %q is not a label the test wrote", from)
		}
		end, ok := labelFrame(to, drop)
		// An end off the labels is ffmpeg's own, where it stops reading.
		cues = append(cues, refCue{start: start, end: end, open: !ok, text: text})
	}
	return cues
}

// labelFrame returns the frame whose label ffmpeg read as SRT time s,
// false when s is no label's.
func labelFrame(s string, drop bool) (int64, bool) {
	var h, m, sec, ms int64
	if _, err := fmt.Sscanf(s, "%d:%d:%d,%d", &h, &m, &sec, &ms); err != nil || ms%33 != 0 {
		return 0, false
	}
	sep := ":"
	if drop {
		sep = ";"
	}
	return simpleTimecode(fmt.Sprintf("%02d:%02d:%02d%s%02d", h, m, sec, sep, ms/33))
}

// at returns the frame of pair k (0-based) of the line stamped label.
func at(label string, k int64) int64 {
	f, ok := simpleTimecode(label)
	if !ok {
		panic("bad label " + label)
	}
	return f + k
}

// handReferences are the files ffmpeg misreads, read off the hex by hand;
// a frame is at(the line's timecode, the pair's place on it).
var handReferences = map[string][]refCue{
	// Paint-on: ffmpeg shows nothing of a caption never erased, and does
	// not erase the first caption of this file with EDM. Text shows from
	// its first character (mid-row codes before it show nothing).
	"pycaption/fixtures/scc/sample_scc_paint_on_edm.scc": {
		{start: at("00:00:00;00", 1), end: at("00:00:01;00", 0), text: "I think"},
		{start: at("00:00:02;00", 1), end: at("00:00:04;00", 0), text: "Hello"},
	},
	"pycaption/fixtures/scc/sample_scc_mid_row_before_text_paint.scc": {
		{start: at("00:00:01:24", 3), open: true, text: "AB AB"},
	},
	"pycaption/fixtures/scc/sample_scc_mid_row_following_text_no_text_before_italics_off_paint.scc": {
		{start: at("00:00:01:24", 4), open: true, text: "AB AB"},
	},
	"pycaption/fixtures/scc/sample_scc_mid_row_with_space_before_paint.scc": {
		{start: at("00:00:01:24", 2), open: true, text: "AB  AB"},
	},
	"pycaption/fixtures/scc/sample_scc_with_spaces_at_eol_paint.scc": {
		{start: at("00:00:01:24", 2), open: true, text: "AB\nAB\nAB"},
	},
	// Roll-up never erased, which ffmpeg never shows; the preamble before
	// the text moves an empty window.
	"pycaption/fixtures/scc/sample_scc_mid_row_following_text_no_text_before_italics_on_roll.scc": {
		{start: at("00:00:01:24", 2), open: true, text: "AB AB"},
	},
	// Each preamble moves the window, so the three rows are one line,
	// rewritten.
	"pycaption/fixtures/scc/sample_scc_with_spaces_at_eol_roll.scc": {
		{start: at("00:00:01:24", 2), open: true, text: "AB"},
	},
	// A row written past column 32 shows the last character sent there
	// (CEA-608: the cursor stays in the last column); ffmpeg keeps the
	// first.
	"ttconv/scc/pop-on.scc": {
		{start: at("01:02:53:14", 20), end: at("01:02:55:14", 0), text: "( horn ho)"},
		{start: at("01:03:27:29", 16), end: at("01:11:31:01", 33), text: "HEY, THE®E."},
		{start: at("01:11:31:01", 35), end: at("01:11:33:14", 0), text: "Test ½ Caption\nTest  test  Captions"},
	},
	"pycaption/fixtures/scc/sample_scc_with_line_too_long.scc": {
		{start: at("00:00:01;45", 22), end: at("00:00:02;55", 59), text: "KELLY JAMES: How\nthe show started"},
		{start: at("00:00:02;55", 62), end: at("00:00:06;57", 18), text: "was Cal l l l l l l l l l l d\nof ours, was doing my CDs."},
		{start: at("00:00:06;57", 21), end: at("00:00:08;58", 27), text: "And he said, I can do a TV show."},
		{start: at("00:00:08;58", 30), open: true, text: "I just wanted one show,\njust to have as a little"},
	},
	// Before any mode code a decoder is in pop-on mode (ffmpeg's too), so
	// "sic)" is loaded and displayed by the EOC after it; its line is
	// stamped before the line above's pair is sent, so it follows it.
	// ffmpeg keeps "sic)" past the ENM that erases it, into the next
	// caption.
	"pycaption/fixtures/scc/sample_scc_eoc_first_command.scc": {
		{start: at("00:00:00;84", 3), end: at("00:00:06;01", 0), text: "sic)"},
		{start: at("00:24:55;14", 14), end: at("00:25:00;02", 0), text: "(upbeat rock music)"},
	},
	// ffmpeg drops what a row shows before a second preamble code moves
	// the cursor along it, and what is written without a preamble at
	// the cursor the caption before left. An EOC with nothing loaded
	// shows the caption before again (the memories swap).
	"pycaption/fixtures/scc/sample_scc_created_dfxp_with_wrongly_closing_spans.scc": {
		{start: at("00:01:28;09", 12), end: at("00:01:31;10", 1), text: "cccccc\nc!c!"},
		{start: at("00:01:31;18", 13), end: at("00:01:35;18", 1), text: "bbbb     cccc\nbbaa"},
		{start: at("00:01:51;18", 11), end: at("00:01:55;22", 7), text: "aa               bb\ncc"},
		{start: at("00:01:55;22", 7), end: at("00:01:59;14", 1), text: "abcd  abcd"},
		{start: at("00:01:59;14", 1), open: true, text: "aa               bb\ncc"},
	},
	"pycaption/fixtures/scc/sample_scc_not_explicitly_switching_italics_off.scc": {
		{start: at("00:01:31;10", 1), end: at("00:01:35;18", 1), text: "01aa\n01bb"},
		{start: at("00:01:35;18", 1), end: at("00:01:40;25", 0), text: "02cc      02dd\n02ee"},
		{start: at("00:01:55;22", 1), end: at("00:01:59;14", 1), text: "03aa              03bb\n03cc"},
		{start: at("00:01:59;14", 1), end: at("00:02:02;01", 1), text: "04aa  04bb"},
		{start: at("00:02:02;01", 1), end: at("00:02:04;05", 1), text: "041cc"},
		{start: at("00:02:04;05", 1), end: at("00:09:53;06", 0), text: "05aa\n05bb"},
		{start: at("00:09:56;09", 1), end: at("00:09:58;18", 1), text: "06cc\n06dd\n06ee"},
		{start: at("00:09:58;18", 1), end: at("00:09:59;28", 1), text: "07aa"},
		{start: at("00:09:59;28", 1), end: at("00:10:02;22", 1), text: "08 08cc\n08abdd"},
		{start: at("00:10:02;22", 1), end: at("00:10:04;10", 1), text: "ee\n09aa"},
		{start: at("00:10:04;10", 1), end: at("00:52:22;22", 1), text: "10ee\n10bb"},
		{start: at("00:52:22;22", 2), end: at("00:52:25;04", 1), text: "12dd           12ee 12aa\n12bb\n11cc"},
		{start: at("00:52:25;04", 2), end: at("00:52:26;28", 1), text: "13cc"},
		{start: at("00:52:26;28", 2), end: at("00:52:31;22", 1), text: "14dd\nee"},
		{start: at("00:52:31;22", 2), end: at("00:52:34;14", 0), text: "15aa 15bb\n15cc"},
	},
}
