package ass

import (
	"math"
	"strconv"
	"strings"

	"github.com/captionqa/captionqa/backend/caption"
)

// textResult is what the Text field of a Dialogue line yields.
type textResult struct {
	text    string
	spans   []caption.Span
	align   int         // numpad alignment of the first \an or \a; 0 when none
	pos     *[2]float64 // the first \pos
	drawing bool        // \p above 0 was used
}

// textRun walks one Text field, tracking the override state.
type textRun struct {
	p     *parser
	base  textState // the cue's style, which \r returns to
	cur   textState
	span  caption.Span // cur as a span, kept to avoid rebuilding it per run
	draw  bool         // inside a \p drawing
	hardN bool         // \n breaks the line
	res   textResult
}

// cueText turns a Text field into plain text and spans, starting from the
// cue's style base.
func (p *parser) cueText(s string, base textState) textResult {
	r := &textRun{p: p, base: base, hardN: p.info.ssa() || p.info.hasWrap && p.info.wrapStyle == 2}
	r.set(base)
	p.tb.Reset()
	unclosed := false // no "}" is left: every further "{" is text
	lit := 0          // start of the literal text not yet written
	for i := 0; i < len(s); {
		j := strings.IndexAny(s[i:], `{\`)
		if j < 0 {
			break
		}
		i += j
		if s[i] == '{' {
			end := -1
			if !unclosed {
				end = strings.IndexByte(s[i:], '}')
			}
			if end < 0 {
				unclosed = true
				i++
				continue
			}
			r.write(s[lit:i])
			r.block(s[i+1 : i+end])
			i += end + 1
			lit = i
			continue
		}
		var esc string
		if i+1 < len(s) {
			switch s[i+1] {
			case 'N':
				esc = "\n"
			case 'n':
				esc = " "
				if r.hardN {
					esc = "\n"
				}
			case 'h':
				esc = "\u00a0"
			}
		}
		if esc == "" {
			// A backslash that starts no escape is shown as it is.
			i++
			continue
		}
		r.write(s[lit:i])
		r.write(esc)
		i += 2
		lit = i
	}
	r.write(s[lit:])
	r.res.text, r.res.spans = p.tb.Build()
	return r.res
}

func (r *textRun) set(st textState) {
	r.cur = st
	r.span = st.span()
}

func (r *textRun) write(s string) {
	if r.draw {
		return
	}
	r.p.tb.Write(s, r.span)
}

// block applies the tags of one override block (without its braces). A
// block without a backslash is an author's note and changes nothing.
func (r *textRun) block(b string) {
	for {
		i := strings.IndexByte(b, '\\')
		if i < 0 {
			return
		}
		b = b[i+1:]
		end := tagEnd(b)
		r.tag(strings.TrimSpace(b[:end]))
		b = b[end:]
	}
}

// tagEnd returns where the tag at the start of b ends: at the next
// backslash outside parentheses, since \t(...) and \clip(...) hold
// backslashes and commas of their own.
func tagEnd(b string) int {
	depth := 0
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case '(':
			depth++
		case ')':
			if depth > 0 {
				depth--
			}
		case '\\':
			if depth == 0 {
				return i
			}
		}
	}
	return len(b)
}

// tag applies one override tag t (without its backslash). Tags that only
// change rendering are ignored.
func (r *textRun) tag(t string) {
	st := r.cur
	switch {
	case strings.HasPrefix(t, "pos("):
		if r.res.pos == nil {
			r.res.pos = parsePos(t[len("pos"):])
		}
		return
	case strings.HasPrefix(t, "alpha"):
		st.color.alpha = r.alpha(t[len("alpha"):])
	case strings.HasPrefix(t, "1a"):
		st.color.alpha = r.alpha(t[len("1a"):])
	case strings.HasPrefix(t, "an"):
		if v, ok := intArg(t[len("an"):]); ok && v >= 1 && v <= 9 && r.res.align == 0 {
			r.res.align = v
		}
		return
	case strings.HasPrefix(t, "a"):
		if v, ok := intArg(t[len("a"):]); ok && legacyToNumpad(v) != 0 && r.res.align == 0 {
			r.res.align = legacyToNumpad(v)
		}
		return
	case strings.HasPrefix(t, "1c"), strings.HasPrefix(t, "c"):
		arg := t[strings.IndexByte(t, 'c')+1:]
		if strings.TrimSpace(arg) == "" {
			st.color.rgb = r.base.color.rgb
		} else if v, ok := parseColor(arg); ok {
			st.color.rgb = fromABGR(v).rgb
		} else {
			return
		}
	case strings.HasPrefix(t, "b"):
		if v, ok := flagArg(t[1:]); ok {
			st.bold = r.base.bold
			if v >= 0 {
				st.bold = v == 1 || v >= 700
			}
		}
	case strings.HasPrefix(t, "i"):
		if v, ok := flagArg(t[1:]); ok {
			st.italic = r.base.italic
			if v >= 0 {
				st.italic = v != 0
			}
		}
	case strings.HasPrefix(t, "u"):
		if v, ok := flagArg(t[1:]); ok {
			st.underline = r.base.underline
			if v >= 0 {
				st.underline = v != 0
			}
		}
	case strings.HasPrefix(t, "r"):
		st = r.base
		if name := styleName(t[1:]); name != "" {
			if k, ok := r.p.lookupStyle(name); ok {
				st = r.p.styleAttrs[k]
			}
		}
	case strings.HasPrefix(t, "p"):
		if v, ok := intArg(t[1:]); ok {
			r.draw = v > 0
			r.res.drawing = r.res.drawing || r.draw
		}
		return
	default:
		return
	}
	if st != r.cur {
		r.set(st)
	}
}

// alpha reads an alpha value ("&HFF&"); an empty one means the style's.
func (r *textRun) alpha(arg string) uint8 {
	if strings.TrimSpace(arg) == "" {
		return r.base.color.alpha
	}
	if v, ok := parseColor(arg); ok {
		return uint8(v)
	}
	return r.cur.color.alpha
}

// intArg reads the unsigned decimal number a tag's argument starts with.
// Like libass it ignores what follows the digits ("\i1 note" is \i1), but
// it needs at least one digit, which keeps \be and \blur apart from \b.
func intArg(s string) (int, bool) {
	s = strings.TrimLeft(s, " \t")
	n := 0
	for n < len(s) && n < 9 && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	v, ok := digits(s[:n], 1, 9)
	return int(v), ok
}

// flagArg reads the argument of \b, \i or \u: -1 when it is empty (back to
// the style), the number otherwise. It reports false when the tag is
// another one that shares the letter (\be, \blur, \bord, \iclip).
func flagArg(s string) (int, bool) {
	if strings.TrimSpace(s) == "" {
		return -1, true
	}
	return intArg(s)
}

// parsePos reads "(x,y)"; it returns nil unless both are finite numbers.
func parsePos(s string) *[2]float64 {
	s = strings.TrimSpace(s)
	if !strings.HasPrefix(s, "(") {
		return nil
	}
	s = strings.TrimSuffix(s[1:], ")")
	xs, ys, ok := strings.Cut(s, ",")
	if !ok {
		return nil
	}
	x, err1 := strconv.ParseFloat(strings.TrimSpace(xs), 64)
	y, err2 := strconv.ParseFloat(strings.TrimSpace(ys), 64)
	if err1 != nil || err2 != nil || math.IsInf(x, 0) || math.IsNaN(x) || math.IsInf(y, 0) || math.IsNaN(y) {
		return nil
	}
	return &[2]float64{x, y}
}
