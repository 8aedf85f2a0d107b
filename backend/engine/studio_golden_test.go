package engine

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/captionqa/captionqa/backend/analysis"
	"github.com/captionqa/captionqa/backend/caption"
	"github.com/captionqa/captionqa/backend/caption/format"
	"github.com/captionqa/captionqa/backend/internal/golden"
	"github.com/captionqa/captionqa/backend/preset"
)

// checkCase is a check-level case's case.json: the preset, the language
// the request would give (--language), and the programme's video
// analysis, a frame rate and the frames its shots change on.
type checkCase struct {
	Preset   string `json:"preset"`
	Language string `json:"language"`
	Video    *struct {
		FrameRate   analysis.Rational `json:"frameRate"`
		ShotChanges []int64           `json:"shotChanges"`
	} `json:"video"`
	// Note says what the case shows.
	Note string `json:"note"`
}

// TestStudioPresetChecks runs every case in testdata/check/<case>/:
// input.srt and case.json in, want.findings.json (the preset's findings
// on the source, severity set from each rule's level) out. The cases
// stop at the check, before the delivery is written, so they hold for
// every output format a preset names (docs/presets.md). go test -run
// TestStudioPresetChecks -update rewrites the wants.
func TestStudioPresetChecks(t *testing.T) {
	eng := newTestEngine(t)
	dirs, err := filepath.Glob("testdata/check/*")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	for _, dir := range dirs {
		var c checkCase
		b, err := os.ReadFile(filepath.Join(dir, "case.json"))
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, &c); err != nil {
			t.Fatalf("%s: case.json: %v", dir, err)
		}
		seen[c.Preset]++
		t.Run(filepath.Base(dir), func(t *testing.T) {
			t.Parallel()
			runCheckCase(t, eng, dir, c)
		})
	}
	for _, id := range preset.Studio() {
		if seen[id] < 2 {
			t.Errorf("%s has %d check cases; each studio preset keeps a failing and a clean one", id, seen[id])
		}
	}
}

func runCheckCase(t *testing.T, eng *Engine, dir string, c checkCase) {
	data, err := os.ReadFile(filepath.Join(dir, "input.srt"))
	if err != nil {
		t.Fatal(err)
	}
	p, err := eng.presets.Lookup(c.Preset)
	if err != nil {
		t.Fatal(err)
	}
	_, src, _, err := format.Read("input.srt", "", data)
	if err != nil {
		t.Fatal(err)
	}
	if c.Language != "" {
		src.Language = c.Language
	}
	var media *analysis.Analysis
	if v := c.Video; v != nil {
		video := &analysis.Video{FrameRate: v.FrameRate}
		for _, f := range v.ShotChanges {
			video.ShotChanges = append(video.ShotChanges, analysis.ShotChange{Frame: f, TimeMs: v.FrameRate.TimeOf(f), Score: 60})
		}
		video.FrameCount = slices.Max(append([]int64{1}, v.ShotChanges...)) + 1000
		media = &analysis.Analysis{Version: analysis.Version, Video: video}
	}
	found := checkRules(src, p, false, nil, media).all
	if found == nil {
		found = []caption.Diagnostic{}
	}
	got, err := json.MarshalIndent(found, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	golden.Compare(t, filepath.Join(dir, "want.findings.json"), append(got, '\n'))
}
