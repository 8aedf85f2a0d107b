package ttml

import (
	"encoding/xml"
	"errors"
	"io"
	"strings"

	"github.com/captionqa/captionqa/backend/caption"
)

// maxDepth bounds element nesting: deeper documents are refused, which keeps
// the recursive passes over the tree safe on hostile input.
const maxDepth = 1000

// node is one element or text node of the parsed document. The reader keeps
// its own small tree because TTML timing needs the whole document (seq
// containers, implicit durations) before any cue can be made.
type node struct {
	space, local string // element name; space is the namespace URI
	attrs        []xml.Attr
	children     []*node
	text         string // for text nodes (local == "")
	line         int
}

func (n *node) isText() bool { return n.local == "" }

// attr returns the value of the attribute with namespace family fam and
// local name local.
func (n *node) attr(fam nsFamily, local string) (string, bool) {
	for _, a := range n.attrs {
		if a.Name.Local == local && attrFamily(a.Name.Space) == fam {
			return a.Value, true
		}
	}
	return "", false
}

// is reports whether n is the TTML element local.
func (n *node) is(local string) bool {
	return n != nil && n.local == local && elemFamily(n.space) == nsTT
}

// buildTree parses text into a tree. On malformed XML it reports
// invalid_document with the line of the error and returns what was read
// before it, so the cues found so far are kept.
func buildTree(text string, d *caption.Diagnostics) *node {
	dec := xml.NewDecoder(strings.NewReader(text))
	// caption.DecodeText has already turned the bytes into UTF-8, so any
	// encoding="..." in the XML declaration must not re-decode them.
	dec.CharsetReader = func(_ string, in io.Reader) (io.Reader, error) { return in, nil }
	root := &node{local: "#document"}
	stack := []*node{root}
	lc := lineCounter{text: text, line: 1}
	// Adjacent character data (text, CDATA) is gathered in a builder, so a
	// long alternation of the two costs linear, not quadratic, time.
	var pending *node
	var sb strings.Builder
	flush := func() {
		if pending != nil {
			pending.text = sb.String()
			pending, sb = nil, strings.Builder{}
		}
	}
	defer flush()
	for {
		off := dec.InputOffset()
		tok, err := dec.Token()
		if err != nil {
			if errors.Is(err, io.EOF) {
				if len(stack) > 1 {
					d.Error(caption.CodeInvalidDocument, lc.at(len(text)), "the XML ends before element <%s> is closed", stack[len(stack)-1].local)
				}
				return root
			}
			line := lc.at(int(dec.InputOffset()))
			var se *xml.SyntaxError
			if errors.As(err, &se) && se.Line > 0 {
				line = se.Line
			}
			d.Error(caption.CodeInvalidDocument, line, "the XML could not be read: %v", err)
			return root
		}
		top := stack[len(stack)-1]
		if _, ok := tok.(xml.CharData); !ok {
			flush()
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if len(stack) > maxDepth {
				d.Error(caption.CodeInvalidDocument, lc.at(int(off)), "elements are nested more than %d deep; the rest of the document was ignored", maxDepth)
				return root
			}
			n := &node{space: t.Name.Space, local: t.Name.Local, attrs: t.Attr, line: lc.at(int(off))}
			if n.local == "" {
				n.local = "_"
			}
			top.children = append(top.children, n)
			stack = append(stack, n)
		case xml.EndElement:
			if len(stack) > 1 {
				stack = stack[:len(stack)-1]
			}
		case xml.CharData:
			if len(stack) == 1 {
				continue // text outside the root element carries nothing
			}
			if pending == nil {
				pending = &node{line: lc.at(int(off))}
				top.children = append(top.children, pending)
			}
			sb.Write(t)
		}
	}
}

// lineCounter turns byte offsets, which only grow, into 1-based lines in
// linear total time.
type lineCounter struct {
	text string
	off  int
	line int
}

func (c *lineCounter) at(off int) int {
	off = min(max(off, 0), len(c.text))
	if off > c.off {
		c.line += strings.Count(c.text[c.off:off], "\n")
		c.off = off
	}
	return c.line
}

// id returns xml:id, or the plain id attribute some early DFXP files use.
func (n *node) id() string {
	if v, ok := n.attr(nsXML, "id"); ok {
		return strings.TrimSpace(v)
	}
	v, _ := n.attr(nsTT, "id")
	return strings.TrimSpace(v)
}
