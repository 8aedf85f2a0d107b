package explain

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// FuzzExplain: any JSON a caller sends as a process result is explained
// or refused with an error, never a panic, and an explanation always
// names cues of the file only.
func FuzzExplain(f *testing.F) {
	files, _ := filepath.Glob("../engine/testdata/*/want.report.json")
	for _, p := range files[:min(len(files), 20)] {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte(`{"report":{"summary":"s","preset":"youtube","diagnostics":[],"remaining":[{"code":"x","severity":"error","cueIndex":5}],"omitted":[{"list":"remaining","code":"x","count":3}]}}`))
	x := New(Options{Presets: loadPresets(f)})
	f.Fuzz(func(t *testing.T, b []byte) {
		var r result
		if json.Unmarshal(b, &r) != nil {
			return
		}
		in := r.input()
		e, err := x.Explain(context.Background(), &in)
		if err != nil {
			return
		}
		for _, a := range e.Actions {
			for _, c := range a.CueIndexes {
				if c < 0 {
					t.Fatalf("action %s names cue %d", a.ID, c)
				}
			}
		}
	})
}
