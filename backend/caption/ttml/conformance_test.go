package ttml

import (
	"bufio"
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/captionqa/captionqa/backend/caption"
	"github.com/captionqa/captionqa/backend/internal/corpus"
	"github.com/captionqa/captionqa/backend/internal/golden"
)

// isdTime is one line of an .isd-times.txt file, which ttconv made from
// the document beside it: from ms on, the document's intermediate
// synchronic document holds something (shown) or nothing, until the next
// line's time; the last line holds indefinitely. A file with no line
// belongs to a document with no significant time, which never shows
// anything.
type isdTime struct {
	ms    int64
	shown bool
}

func readISDTimes(path string) ([]isdTime, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []isdTime
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		fields := strings.Fields(sc.Text())
		if len(fields) == 0 {
			continue
		}
		s, err := strconv.ParseFloat(fields[0], 64)
		if len(fields) != 2 || err != nil || fields[1] != "+" && fields[1] != "-" {
			return nil, fmt.Errorf("%s:%d: %q is not \"<seconds> +\" or \"<seconds> -\"", path, n, sc.Text())
		}
		ms := int64(math.Round(s * 1000))
		if k := len(out) - 1; k >= 0 && ms <= out[k].ms {
			return nil, fmt.Errorf("%s:%d: the times do not increase", path, n)
		}
		out = append(out, isdTime{ms: ms, shown: fields[1] == "+"})
	}
	return out, sc.Err()
}

// isdMismatch says how the cues of tr depart from the reference times
// refs, or "" when they agree: every cue starts on a reference time
// (within 1 ms, as both sides round to it) and ends on one, or, when the
// document presents it indefinitely (ext.ttml.openEnd), at the end the
// reader supplies for it, [openHoldMs] after the document's last time
// (docs/cli.md, TTML timing); and text is shown exactly in the intervals
// marked "+", the last of which, open in TTML, runs to that supplied end.
// With every boundary on a reference time, what the cues show is the same
// throughout an interval, so its midpoint stands for it.
func isdMismatch(tr *caption.Track, refs []isdTime) string {
	if len(refs) == 0 {
		if len(tr.Cues) > 0 {
			c := &tr.Cues[0]
			return fmt.Sprintf("the ISD never shows anything, but cue 1 %q is shown from %s", c.Text, caption.FormatClock(c.StartMs))
		}
		return ""
	}
	last := refs[len(refs)-1]
	supplied := last.ms + openHoldMs
	onRef := func(ms int64) bool {
		for _, r := range refs {
			if r.ms-1 <= ms && ms <= r.ms+1 {
				return true
			}
		}
		return false
	}
	for i := range tr.Cues {
		c := &tr.Cues[i]
		_, open := c.Ext[Format]
		switch {
		case !onRef(c.StartMs):
			return fmt.Sprintf("cue %d %q starts at %s, not an ISD time", i+1, c.Text, caption.FormatClock(c.StartMs))
		case open && !last.shown:
			return fmt.Sprintf("cue %d %q is shown indefinitely, but the ISD shows nothing from %s on", i+1, c.Text, caption.FormatClock(last.ms))
		case open && (c.EndMs < supplied-1 || c.EndMs > supplied+1):
			return fmt.Sprintf("cue %d %q is shown indefinitely and ends at %s, not at the supplied end, %s",
				i+1, c.Text, caption.FormatClock(c.EndMs), caption.FormatClock(supplied))
		case !open && !onRef(c.EndMs):
			return fmt.Sprintf("cue %d %q ends at %s, not an ISD time", i+1, c.Text, caption.FormatClock(c.EndMs))
		}
	}
	// shown reports whether a cue with text covers the time twice/2 ms.
	shown := func(twice int64) bool {
		for i := range tr.Cues {
			c := &tr.Cues[i]
			if strings.TrimSpace(c.Text) != "" && 2*c.StartMs <= twice && twice < 2*c.EndMs {
				return true
			}
		}
		return false
	}
	if shown(2*refs[0].ms - 1) {
		return "text is shown before the first ISD time, " + caption.FormatClock(refs[0].ms)
	}
	for i, r := range refs {
		next := supplied
		if i+1 < len(refs) {
			next = refs[i+1].ms
		}
		if got := shown(r.ms + next); got != r.shown {
			return fmt.Sprintf("from %s to %s the ISD shows %s, the cues %s",
				caption.FormatClock(r.ms), caption.FormatClock(next), something(r.shown), something(got))
		}
	}
	return ""
}

func something(shown bool) string {
	if shown {
		return "something"
	}
	return "nothing"
}

// TestIMSCISDTimes reads every IMSC test document of the corpus and checks
// its cues against the times ttconv gives for it ([isdMismatch]). The
// tally, a count and then one line per document, is the golden file
// testdata/imsc-isd.tally.txt, so that a document that stops agreeing
// fails the test.
//
// noText lists the "+" intervals, by their start in ms, in which ttconv's
// ISD holds an element but no text: a <p> whose only active content is a
// <br/> and white space. Nothing is displayed there (the document styles
// no background, so an empty line draws nothing), a cue is text, so none
// shows, and the check reads those intervals as "-". An entry the
// document does not need fails the test.
func TestIMSCISDTimes(t *testing.T) {
	t.Parallel()
	noText := map[string][]int64{
		// <p begin="10s" dur="30s">: a span to 24.4 s, a <br/>, a span
		// from 25 s to 35 s.
		"imsc1/ttml/timing/BasicTiming010.ttml": {24400, 35000},
	}
	docs := corpus.Glob(t, "imsc-tests", ".ttml")
	if len(docs) == 0 {
		corpus.Missing(t, "no .ttml files in imsc-tests")
	}
	root := corpus.Path(t, "imsc-tests")
	var lines []string
	var agree, agreeNoText, differ int
	for _, doc := range docs {
		rel, _ := filepath.Rel(root, doc)
		rel = filepath.ToSlash(rel)
		refs, err := readISDTimes(strings.TrimSuffix(doc, ".ttml") + ".isd-times.txt")
		if err != nil {
			t.Errorf("%s: %v", rel, err)
			continue
		}
		src, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		tr, _, err := Parse(bytes.NewReader(src))
		if err != nil {
			t.Fatalf("%s: %v", rel, err)
		}
		why := isdMismatch(tr, refs)
		if blank, ok := noText[rel]; ok {
			if why == "" {
				t.Errorf("%s agrees with its ISD times as they are; remove it from noText", rel)
			}
			var at []string
			for i := range refs {
				if slices.Contains(blank, refs[i].ms) && refs[i].shown {
					refs[i].shown = false
					at = append(at, caption.FormatClock(refs[i].ms))
				}
			}
			if len(at) != len(blank) {
				t.Errorf("%s: noText lists %v, but only %v start intervals the ISD marks \"+\"", rel, blank, at)
			}
			if why = isdMismatch(tr, refs); why == "" {
				agreeNoText++
				lines = append(lines, rel+": agrees, where the ISD holds a paragraph with no text (from "+
					strings.Join(at, " and from ")+") reading as nothing shown")
				continue
			}
		}
		if why == "" {
			agree++
			lines = append(lines, rel+": agrees")
			continue
		}
		differ++
		lines = append(lines, rel+": differs: "+why)
	}
	head := fmt.Sprintf("%d IMSC documents: %d agree with their ISD times, %d agree once the intervals in which the ISD holds no text read as empty, %d differ",
		len(docs), agree, agreeNoText, differ)
	t.Log(head)
	golden.Compare(t, "testdata/imsc-isd.tally.txt", []byte(head+"\n"+strings.Join(lines, "\n")+"\n"))
}

// TestCorpusParses checks that every TTML file of the other corpus folders
// parses without panicking or failing.
func TestCorpusParses(t *testing.T) {
	t.Parallel()
	var files []string
	for _, dir := range []string{"ttconv/ttml", "pysubs2", "go-astisub", "pycaption"} {
		files = append(files, corpus.Glob(t, dir, ".ttml", ".xml", ".dfxp")...)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := Parse(strings.NewReader(string(b))); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
	t.Logf("%d corpus TTML files parsed", len(files))
}
