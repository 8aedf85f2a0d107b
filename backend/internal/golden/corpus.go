package golden

import (
	"encoding/json"
	"math"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/captionqa/captionqa/backend/caption"
	"github.com/captionqa/captionqa/backend/internal/corpus"
)

// Corpus runs body for each file of the shared corpus whose name ends in
// one of the suffixes (".srt"), each in a parallel subtest named by the
// file's slash-separated path inside the corpus. It skips the test when
// the corpus is absent and fails it when the corpus has no such file.
func Corpus(t *testing.T, body func(t *testing.T, c Case), suffixes ...string) {
	t.Helper()
	files := corpus.Glob(t, ".", suffixes...)
	if len(files) == 0 {
		t.Fatalf("no %s files in the corpus", strings.Join(suffixes, " or "))
	}
	root := corpus.Dir(t)
	for _, path := range files {
		rel, _ := filepath.Rel(root, path)
		t.Run(filepath.ToSlash(rel), func(t *testing.T) {
			t.Parallel()
			body(t, Case{Name: filepath.ToSlash(rel), Path: path, Input: mustRead(t, path)})
		})
	}
}

// ReadCorpus returns the content of the corpus file rel (slash separated),
// skipping the test when the corpus is absent.
func ReadCorpus(tb testing.TB, rel string) []byte {
	tb.Helper()
	return mustRead(tb, corpus.Path(tb, rel))
}

// ParseCorpus reads the corpus file rel (slash separated) with parse,
// failing the test on an error.
func ParseCorpus(tb testing.TB, parse ParseFunc, rel string) (*caption.Track, []caption.Diagnostic) {
	tb.Helper()
	return MustParse(tb, parse, ReadCorpus(tb, rel))
}

// AstisubCase is what go-astisub's tests assert about reading one of its
// test files, from go-astisub/MANIFEST.json in the corpus.
type AstisubCase struct {
	// Input is the file's name in go-astisub/testdata.
	Input string `json:"input"`
	// Parses reports whether go-astisub reads the file without an error.
	Parses bool `json:"parses"`
	// Cues are the cues go-astisub reads, nil when the manifest asserts
	// none.
	Cues []AstisubCue `json:"cues"`
}

// AstisubCue is one cue go-astisub reads: times in seconds, text lines.
type AstisubCue struct {
	Start float64  `json:"start"`
	End   float64  `json:"end"`
	Lines []string `json:"lines"`
}

// StartMs returns the cue's start in milliseconds.
func (c AstisubCue) StartMs() int64 { return secondsToMs(c.Start) }

// EndMs returns the cue's end in milliseconds.
func (c AstisubCue) EndMs() int64 { return secondsToMs(c.End) }

func secondsToMs(s float64) int64 { return int64(math.Round(s * 1000)) }

// Astisub returns every case of go-astisub/MANIFEST.json, group by group in
// the order of the groups' names, skipping the test when the corpus is
// absent.
func Astisub(tb testing.TB) []AstisubCase {
	tb.Helper()
	var m struct {
		Groups map[string]struct {
			Expect []AstisubCase `json:"expect"`
		} `json:"groups"`
	}
	if err := json.Unmarshal(ReadCorpus(tb, "go-astisub/MANIFEST.json"), &m); err != nil {
		tb.Fatal(err)
	}
	names := make([]string, 0, len(m.Groups))
	for name := range m.Groups {
		names = append(names, name)
	}
	sort.Strings(names)
	var cases []AstisubCase
	for _, name := range names {
		cases = append(cases, m.Groups[name].Expect...)
	}
	return cases
}
