package golden

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// WordRow is one file's line of a corpus word tally: its words and those
// in the right cue at the right frames, or a Note instead of words.
type WordRow struct {
	File         string
	Words, Right int
	Note         string
}

// CompareWordTally compares rows, written as [WordTallyFile] writes them,
// with the golden file path once t ends, unless some row was never filled
// (-run chose some files, or a subtest stopped early).
func CompareWordTally(t *testing.T, path string, rows []WordRow) {
	t.Cleanup(func() {
		if !slices.ContainsFunc(rows, func(r WordRow) bool { return r.File == "" }) {
			Compare(t, path, WordTallyFile(rows))
		}
	})
}

// WordTallyFile returns the tally's text: a line per file, then the totals.
func WordTallyFile(rows []WordRow) []byte {
	var b strings.Builder
	b.WriteString("# file\twords\tright\t%\n")
	words, right := 0, 0
	for _, r := range rows {
		if r.Words == 0 {
			fmt.Fprintf(&b, "%s\t%s\n", r.File, r.Note)
			continue
		}
		words += r.Words
		right += r.Right
		fmt.Fprintf(&b, "%s\t%d\t%d\t%.1f\n", r.File, r.Words, r.Right, float64(r.Right)*100/float64(r.Words))
	}
	if words > 0 {
		fmt.Fprintf(&b, "total\t%d\t%d\t%.1f\n", words, right, float64(right)*100/float64(words))
	}
	return []byte(b.String())
}
