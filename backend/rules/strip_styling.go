package rules

import (
	"github.com/captionqa/captionqa/backend/caption"
)

// StripStyling reports, for an output that carries plain text only, each
// cue whose styling will be removed: spans (italic, bold, underline,
// colour or background, WebVTT class, span language or span voice), a cue
// voice (WebVTT <v>, TTML ttm:agent, ASS Name) and a placement other than
// the default. One finding per cue; the message lists what goes. A named
// cue style ([caption.Cue.Style]) is not listed: readers already turn what
// it does to the text into spans.
//
// The rule cannot know the output: the engine runs it only when the
// preset strips styling, and Check reports every styled cue.
type StripStyling struct{}

// Code returns "strip_styling".
func (StripStyling) Code() string { return CodeStripStyling }

// Unit returns "": the rule has no threshold.
func (StripStyling) Unit() string { return "" }

// styling is a set of the kinds of styling a cue carries, in the order
// messages list them.
type styling uint16

const (
	styleItalic styling = 1 << iota
	styleBold
	styleUnderline
	styleColour
	styleClass
	styleLang
	styleVoice
	stylePlacement
)

// styleNames are the message words for each styling bit, bit order.
func styleNames() [8]string {
	return [8]string{"italic", "bold", "underline", "colour", "class", "language", "voice", "placement"}
}

// Check reports each cue that carries styling.
func (StripStyling) Check(t *caption.Track, _ Params) []caption.Diagnostic {
	// Styled cues are common: a first pass keeps them, so the findings
	// are made at their final size, each message built in one buffer.
	type styledHit struct {
		i int
		s styling
	}
	var hits []styledHit
	for i := range t.Cues {
		if s := cueStyling(&t.Cues[i]); s != 0 {
			hits = append(hits, styledHit{i, s})
		}
	}
	if len(hits) == 0 {
		return nil
	}
	out := make([]caption.Diagnostic, 0, len(hits))
	var b batch
	var buf [128]byte
	for _, h := range hits {
		i, s := h.i, h.s
		msg := append(buf[:0], "styling will be removed for this output: "...)
		for k, name := range styleNames() {
			if s&(1<<k) != 0 {
				if msg[len(msg)-1] != ' ' {
					msg = append(msg, ", "...)
				}
				msg = append(msg, name...)
			}
		}
		out = append(out, b.finding(CodeStripStyling, t, i, string(msg)))
	}
	return out
}

// cueStyling collects the styling of c.
func cueStyling(c *caption.Cue) styling {
	var s styling
	for k := range c.Spans {
		sp := &c.Spans[k]
		if sp.Italic {
			s |= styleItalic
		}
		if sp.Bold {
			s |= styleBold
		}
		if sp.Underline {
			s |= styleUnderline
		}
		if sp.Color != "" || sp.Background != "" {
			s |= styleColour
		}
		if sp.Class != "" {
			s |= styleClass
		}
		if sp.Lang != "" {
			s |= styleLang
		}
		if sp.Voice != "" {
			s |= styleVoice
		}
	}
	if c.Voice != "" {
		s |= styleVoice
	}
	if !c.Placement.IsZero() {
		s |= stylePlacement
	}
	return s
}
