package explain

import (
	"os"
	"strings"
	"testing"

	"github.com/captionqa/captionqa/backend/preset"
)

// TestPlatformNotesFrameLimit: a limit a preset counts in frames is told
// in milliseconds at the preset's frame rate, with its frames
// (docs/presets.md, Frame-based limits).
func TestPlatformNotesFrameLimit(t *testing.T) {
	t.Parallel()
	s, err := preset.Load(os.DirFS("../../assets/presets"))
	if err != nil {
		t.Fatal(err)
	}
	for id, want := range map[string]string{
		"netflix":       "at least 83 ms between cues, 2 frames (required)",
		"broadcast-scc": "at least 66 ms between cues, 2 frames (suggested)",
		"youtube":       "at least 84 ms between cues (suggested)",
	} {
		p, err := s.Lookup(id)
		if err != nil {
			t.Fatal(err)
		}
		w := &writer{in: &Input{}, p: p, x: &Explanation{Actions: []Action{{Codes: []string{"gap_too_small"}}}}}
		if got := w.platformNotes(); !strings.Contains(got, want) {
			t.Errorf("%s: platform notes %q; want them to say %q", id, got, want)
		}
	}
}
