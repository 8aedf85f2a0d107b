package engine

import (
	"context"
	"strings"
	"testing"

	"github.com/captionqa/captionqa/backend/fix"
)

// TestRequestLanguage: a language given with the request is declared by
// deliveries whose format has a place for it, and reported there only; a
// language the file declares is kept.
func TestRequestLanguage(t *testing.T) {
	t.Parallel()
	eng := newTestEngine(t)
	const srtFile = "1\n00:00:01,000 --> 00:00:03,000\nBom dia.\n"
	const vttWithLang = "WEBVTT\nLanguage: es\n\n00:00:01.000 --> 00:00:03.000\nBuenos días.\n"
	const ttmlUnd = `<tt xmlns="http://www.w3.org/ns/ttml" xml:lang="und"><body><div><p begin="00:00:01.000" end="00:00:03.000">Bom dia.</p></div></body></tt>`
	tests := []struct {
		name, file, preset string
		wantInOutput       string // "" when the output must declare nothing
		wantChange         bool
	}{
		{"TTML declares it", srtFile, "lms", `xml:lang="pt-BR"`, true},
		{"WebVTT declares it", srtFile, "html5", "Language: pt-BR", true},
		{"SRT has no place for it", srtFile, "youtube", "", false},
		{"the file's own language is kept", vttWithLang, "html5", "Language: es", false},
		{"undetermined counts as none", ttmlUnd, "lms", `xml:lang="pt-BR"`, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			res, err := eng.Process(context.Background(), Request{Filename: "in", Data: []byte(tt.file), Preset: tt.preset, Language: "pt-BR"})
			if err != nil {
				t.Fatal(err)
			}
			if tt.wantInOutput != "" && !strings.Contains(res.Output, tt.wantInOutput) {
				t.Errorf("output lacks %q:\n%s", tt.wantInOutput, res.Output)
			}
			if tt.wantInOutput == "" && strings.Contains(res.Output, "pt-BR") {
				t.Errorf("output names the language it cannot carry:\n%s", res.Output)
			}
			got := false
			for _, c := range res.Report.Fixes {
				if c.Action == actionSetLanguage {
					got = true
					if c.CueIndex != fix.FileLevel {
						t.Errorf("set_language on cue %d; want the whole file", c.CueIndex)
					}
				}
			}
			if got != tt.wantChange {
				t.Errorf("set_language reported: %v; want %v (fixes %+v)", got, tt.wantChange, res.Report.Fixes)
			}
		})
	}
}
