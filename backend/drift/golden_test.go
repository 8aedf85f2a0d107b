package drift

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/captionqa/captionqa/backend/caption"
	"github.com/captionqa/captionqa/backend/internal/golden"
)

// TestGolden diffs each case in testdata/<case>/, current.json against
// candidate.json, and compares the result's JSON with want.json; go test
// -run TestGolden -update rewrites want.json. The summary and shift are
// also stated here, so that an update cannot quietly accept a wrong
// matching.
func TestGolden(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		want   Summary
		offset int64
	}{
		{name: "identical"},
		{name: "retimed", want: Summary{Changed: 1}},
		{name: "reworded", want: Summary{Changed: 1}},
		{name: "inserted", want: Summary{Added: 1}},
		{name: "deleted", want: Summary{Removed: 1}},
		{name: "shifted", offset: 2000},
		{name: "split", want: Summary{Added: 1, Changed: 1}},
		{name: "merged", want: Summary{Removed: 1, Changed: 1}},
		{name: "shifted-reworded", want: Summary{Changed: 1}, offset: 2000},
		{name: "shifted-retimed", want: Summary{Changed: 1}, offset: 2000},
		{name: "moved", want: Summary{Changed: 1}},
		{name: "repeated-deleted", want: Summary{Removed: 1}},
		{name: "restyled", want: Summary{Changed: 3}},
	}
	dirs, err := filepath.Glob("testdata/*/current.json")
	if err != nil {
		t.Fatal(err)
	}
	if len(dirs) != len(tests) {
		t.Errorf("testdata has %d cases, the table %d: list every case", len(dirs), len(tests))
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := filepath.Join("testdata", tt.name)
			r := Diff(mustParse(t, filepath.Join(dir, "current.json")), mustParse(t, filepath.Join(dir, "candidate.json")), Options{})
			if r.Summary != tt.want || r.OffsetMs != tt.offset {
				t.Errorf("summary %+v offset %d; want %+v offset %d", r.Summary, r.OffsetMs, tt.want, tt.offset)
			}
			golden.Compare(t, filepath.Join(dir, "want.json"), mustJSON(t, r))
		})
	}
}

func mustParse(tb testing.TB, path string) *caption.Track {
	tb.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	return mustParseBytes(tb, data)
}

func mustParseBytes(tb testing.TB, data []byte) *caption.Track {
	tb.Helper()
	tr, diags, err := caption.ParseJSON(bytes.NewReader(data))
	if err != nil {
		tb.Fatal(err)
	}
	for _, d := range diags {
		if d.Severity == caption.SeverityError {
			tb.Fatalf("IR does not parse: %+v", d)
		}
	}
	return tr
}

func mustJSON(tb testing.TB, v any) []byte {
	tb.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		tb.Fatal(err)
	}
	return b.Bytes()
}
