package ttml

import (
	"math"
	"strings"

	"github.com/captionqa/captionqa/backend/caption"
)

// inf is an indefinite time in seconds (read-only; math.Inf is not a
// constant).
var inf = math.Inf(1)

// reader holds what one parse gathers; it lives for one document only.
type reader struct {
	d           caption.Diagnostics
	tp          timeParams
	frame       frame
	styles      styleSheet
	initial     props
	regions     map[string]*region
	regionOrder []string
	agents      map[string]string
	lang        string
	// latest is the latest finite time of the document in ms, from which
	// content whose end is indefinite gets its end ([reader.suppliedEnd]);
	// hasTime says whether the document has any time expression at all.
	latest  int64
	hasTime bool
	// openCues counts the cues given that end; openLine is the source
	// line of the first.
	openCues   int
	openLine   int
	imageNoted bool
	cues       []caption.Cue
}

func parseText(text string) (*caption.Track, caption.Diagnostics) {
	r := &reader{regions: map[string]*region{}, agents: map[string]string{}}
	t := &caption.Track{Version: caption.Version, Cues: []caption.Cue{}}
	root := buildTree(text, &r.d)
	var tt *node
	for _, c := range root.children {
		if !c.isText() {
			tt = c
			break
		}
	}
	switch {
	case tt == nil:
		if len(r.d) == 0 {
			r.d.Error(caption.CodeInvalidDocument, 1, "the document has no root element")
		}
		return t, r.d
	case !tt.is("tt"):
		r.d.Error(caption.CodeInvalidDocument, tt.line, "the root element is <%s>, not a TTML <tt>", tt.local)
		return t, r.d
	case tt.space == "":
		r.d.Warn(caption.CodeNonStandardSyntax, tt.line, "<tt> has no TTML namespace; it was read as TTML")
	}
	r.readHeader(tt, t)
	var head, body *node
	for _, c := range tt.children {
		switch {
		case c.is("head") && head == nil:
			head = c
		case c.is("body") && body == nil:
			body = c
		}
	}
	r.readHead(head)
	t.Styles = r.styles.trackStyles()
	for _, id := range r.regionOrder {
		t.Regions = append(t.Regions, r.regions[id].ir)
	}
	if body != nil {
		r.readBody(body)
	}
	t.Cues = r.cues
	if t.Cues == nil {
		t.Cues = []caption.Cue{}
	}
	return t, r.d
}

// readHeader reads the tt element's parameters and language.
func (r *reader) readHeader(tt *node, t *caption.Track) {
	bad := func(attr, v string) {
		r.d.Warn(caption.CodeInvalidSetting, tt.line, "%s=%q is not valid; the default was used", attr, v)
	}
	r.tp = readTimeParams(tt, bad)
	if r.tp.declared {
		t.FrameRate = math.Round(r.tp.frameRate*1000) / 1000
	}
	if v, ok := tt.attr(nsParameter, "timeBase"); ok && strings.TrimSpace(v) != "media" {
		r.d.Warn(caption.CodeUnsupportedFeature, tt.line, "ttp:timeBase=%q is not supported; times were read as media time", v)
	}
	r.frame = readFrame(tt)
	r.lang, _ = tt.attr(nsXML, "lang")
	r.lang = strings.TrimSpace(r.lang)
	t.Language = r.lang
}

// readHead reads styling, layout and agent metadata.
func (r *reader) readHead(head *node) {
	if head == nil {
		return
	}
	var styling, layout *node
	for _, c := range head.children {
		switch {
		case c.is("styling") && styling == nil:
			styling = c
		case c.is("layout") && layout == nil:
			layout = c
		}
	}
	r.styles, r.initial = readStyling(styling, &r.d)
	r.readRegions(layout)
	r.readAgents(head, 0)
}

// readAgents collects ttm:agent declarations so that a content element's
// ttm:agent can name its speaker.
func (r *reader) readAgents(n *node, depth int) {
	for _, c := range n.children {
		if c.isText() {
			continue
		}
		fam := elemFamily(c.space)
		if fam == nsMetadata && c.local == "agent" {
			id := c.id()
			name := id
			for _, nm := range c.children {
				if !nm.isText() && elemFamily(nm.space) == nsMetadata && nm.local == "name" {
					if s := strings.TrimSpace(textOf(nm)); s != "" {
						name = s
						break
					}
				}
			}
			if id != "" {
				r.agents[id] = name
			}
			continue
		}
		if fam == nsSMPTE && c.local == "image" {
			r.unsupportedImage(c.line)
		}
		r.readAgents(c, depth+1)
	}
}

func textOf(n *node) string {
	var sb strings.Builder
	for _, c := range n.children {
		if c.isText() {
			sb.WriteString(c.text)
		}
	}
	return sb.String()
}

// unsupportedImage reports image content once per document: CaptionQA
// reads text, and images carry none it can check.
func (r *reader) unsupportedImage(line int) {
	if r.imageNoted {
		return
	}
	r.imageNoted = true
	r.d.Warn(caption.CodeUnsupportedFeature, line, "the document contains images (IMSC image profile); they were skipped")
}
