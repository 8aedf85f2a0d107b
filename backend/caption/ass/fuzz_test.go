package ass

import (
	"bytes"
	"os"
	"testing"
)

// FuzzParse checks that no input makes the reader panic, fail or break the
// IR's invariants. It is seeded with the golden inputs.
func FuzzParse(f *testing.F) {
	for _, in := range goldenInputs(f) {
		b, err := os.ReadFile(in)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte("[Events]\nDialogue: 0,0:00:00.00,0:00:01.00,,,0,0,0,,{\\p1}{\\t(\\i1}{{}}\\N\\n\\h{\\c&HFFFFFFFF&\\alpha&H}x"))
	f.Add([]byte("[Fonts]\n[X]\n[events]\r\nDialogue:0:0:0.0,0:0:1.0,,,,,,,,,,"))
	f.Fuzz(func(t *testing.T, data []byte) {
		track, diags, err := Parse(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("Parse returned an error for in-memory input: %v", err)
		}
		checkInvariants(t, track, diags)
	})
}
