package engine

import (
	"fmt"
	"strings"

	"github.com/captionqa/captionqa/backend/caption"
	"github.com/captionqa/captionqa/backend/fix"
	"github.com/captionqa/captionqa/backend/preset"
)

// normalise applies what the preset's platform demands of every file,
// whatever the fix profile: for platforms that show plain text, styling
// and placement are removed (strip_styling), and a speaker carried only as
// a voice becomes a "NAME: " label so the viewer still learns who speaks
// (EN 301 549 7.1.3). Each stripped cue is reported as a change.
// Renumbering, sorting, headers and encoding are the writers' job. t is
// not modified.
func normalise(t *caption.Track, p *preset.Preset) (*caption.Track, []fix.Change) {
	if !p.StripStyling {
		return t, nil
	}
	out := *t
	out.Styles, out.Regions, out.Ext = nil, nil, nil
	out.Cues = make([]caption.Cue, len(t.Cues))
	var changes []fix.Change
	for i, c := range t.Cues {
		var removed []string
		if len(c.Spans) > 0 {
			removed = append(removed, "styling")
		}
		if !c.Placement.IsZero() {
			removed = append(removed, "position")
		}
		if c.Voice != "" && !strings.HasPrefix(c.Text, c.Voice+":") {
			c.Text = c.Voice + ": " + c.Text
			removed = append(removed, fmt.Sprintf("voice (now the label %q)", c.Voice+":"))
		}
		if len(removed) > 0 {
			changes = append(changes, fix.Change{
				Code: "strip_styling", CueIndex: i, Action: "strip",
				Message: "removed for this platform: " + strings.Join(removed, ", "),
			})
		}
		c.Spans, c.Voice, c.Style, c.Placement, c.Ext = nil, "", "", nil, nil
		out.Cues[i] = c
	}
	return &out, changes
}
