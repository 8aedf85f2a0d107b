package ttml

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/captionqa/captionqa/backend/caption"
	"github.com/captionqa/captionqa/backend/internal/corpus"
)

// refTime is one line of an .isd-times.txt file: from ms on, something is
// displayed (shown) or nothing is.
type refTime struct {
	ms    int64
	shown bool
}

func readRefTimes(t *testing.T, path string) []refTime {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("open %s: %v", path, err)
	}
	defer f.Close()
	var out []refTime
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) != 2 {
			continue
		}
		s, err := strconv.ParseFloat(fields[0], 64)
		if err != nil {
			t.Fatalf("%s: bad time %q", path, fields[0])
		}
		out = append(out, refTime{ms: int64(math.Round(s * 1000)), shown: fields[1] == "+"})
	}
	return out
}

// agree checks a parsed document against its reference times: every cue
// boundary is a reference time (within 1 ms) and text is shown exactly in
// the intervals the reference marks "+". Cues marked openEnd last forever,
// as the document says.
func agree(tr *caption.Track, refs []refTime) string {
	onRef := func(ms int64) bool {
		for _, r := range refs {
			if r.ms-1 <= ms && ms <= r.ms+1 {
				return true
			}
		}
		return false
	}
	for _, c := range tr.Cues {
		if !onRef(c.StartMs) {
			return fmt.Sprintf("cue %q starts at %d ms, not a reference time", c.ID, c.StartMs)
		}
		if _, open := c.Ext[Format]; !open && !onRef(c.EndMs) {
			return fmt.Sprintf("cue %q ends at %d ms, not a reference time", c.ID, c.EndMs)
		}
	}
	shownAt := func(ms float64) bool {
		for _, c := range tr.Cues {
			_, open := c.Ext[Format]
			if c.Text != "" && float64(c.StartMs) <= ms && (open || ms < float64(c.EndMs)) {
				return true
			}
		}
		return false
	}
	for i, r := range refs {
		mid := float64(r.ms) + 500
		if i+1 < len(refs) {
			mid = float64(r.ms+refs[i+1].ms) / 2
		}
		if got := shownAt(mid); got != r.shown {
			return fmt.Sprintf("at %.1f ms the reference shows %v, the cues %v", mid, r.shown, got)
		}
	}
	return ""
}

func TestIMSCConformance(t *testing.T) {
	t.Parallel()
	refs := corpus.Glob(t, "imsc-tests", ".isd-times.txt")
	if len(refs) == 0 {
		corpus.Missing(t, "no .isd-times.txt files in imsc-tests")
	}
	agreeing := 0
	for _, ref := range refs {
		doc := strings.TrimSuffix(ref, ".isd-times.txt") + ".ttml"
		b, err := os.ReadFile(doc)
		if err != nil {
			t.Errorf("%s: %v", doc, err)
			continue
		}
		tr, _, err := Parse(strings.NewReader(string(b)))
		if err != nil {
			t.Errorf("%s: %v", doc, err)
			continue
		}
		if why := agree(tr, readRefTimes(t, ref)); why != "" {
			t.Logf("disagrees: %s: %s", filepath.Base(doc), why)
			continue
		}
		agreeing++
	}
	pct := 100 * float64(agreeing) / float64(len(refs))
	t.Logf("IMSC: %d/%d documents agree (%.1f%%)", agreeing, len(refs), pct)
	if pct < 95 {
		t.Errorf("only %.1f%% of IMSC documents agree; want at least 95%%", pct)
	}
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
