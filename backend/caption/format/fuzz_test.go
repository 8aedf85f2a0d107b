package format

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// FuzzRead feeds any bytes, under any of the usual file names, through
// detection and the chosen reader, then writes the result in every
// writable format: nothing may panic, and every track must be well formed.
func FuzzRead(f *testing.F) {
	seeds, _ := filepath.Glob("../*/testdata/*.in.*")
	for _, s := range seeds {
		if data, err := os.ReadFile(s); err == nil {
			f.Add(filepath.Base(s), data)
		}
	}
	f.Add("x.srt", []byte("1\n00:00:01,000 --> 00:00:02,000\nhi\n"))
	f.Fuzz(func(t *testing.T, name string, data []byte) {
		_, tr, diags, err := Read(name, "", data)
		if err != nil {
			t.Fatalf("Read: %v", err)
		}
		checkTrack(t, name, tr, diags)
		for _, w := range Writable() {
			var out bytes.Buffer
			if err := Write(w, &out, tr); err != nil {
				t.Fatalf("Write %s: %v", w, err)
			}
		}
	})
}
