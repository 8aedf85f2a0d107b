package explain

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/captionqa/captionqa/backend/engine"
)

// TestPlanCountsEveryEntry: past the engine's 100 entries a code, a
// plan's steps count every cue of their kind, not the entries listed.
func TestPlanCountsEveryEntry(t *testing.T) {
	t.Parallel()
	set := loadPresets(t)
	e := engine.New(engine.Options{Presets: set})
	var srt strings.Builder
	n := 0
	cue := func(text string, ms int) {
		n++
		start := n * 5000
		fmt.Fprintf(&srt, "%d\n%s --> %s\n%s\n\n", n, srtTime(start), srtTime(start+ms), text)
	}
	// 104 cues with a line too long (read slowly), then 117 that read
	// too fast (short lines).
	for range 104 {
		cue("This line of caption text runs on far beyond the limit of characters", 4000)
	}
	for range 117 {
		cue("Quick words here", 200)
	}
	res, err := e.Process(context.Background(), engine.Request{Filename: "counts.srt", Data: []byte(srt.String()), Preset: "generic"})
	if err != nil {
		t.Fatal(err)
	}
	in := FromResult(res)
	p, err := set.Lookup("generic")
	if err != nil {
		t.Fatal(err)
	}
	x := Build(&in, p)
	want := map[string]string{"line_too_long": "104 cues", "reading_speed_high": "117 cues"}
	for _, a := range x.Actions {
		for _, code := range a.Codes {
			if w, ok := want[code]; ok {
				if !strings.Contains(a.Title, w) {
					t.Errorf("step %q for %s; want it to count %s", a.Title, code, w)
				}
				delete(want, code)
			}
		}
	}
	if len(want) > 0 {
		t.Errorf("no step for %v in %+v", want, x.Actions)
	}
}

func srtTime(ms int) string {
	return fmt.Sprintf("%02d:%02d:%02d,%03d", ms/3600000, ms/60000%60, ms/1000%60, ms%1000)
}
