package vtt

import "strings"

// tokenKind is the kind of a cue text token.
type tokenKind uint8

const (
	tokEOF tokenKind = iota
	tokText
	tokStart
	tokEnd
	tokTimestamp
)

// token is one token of the WebVTT cue text tokenizer. value is the text,
// the tag name or the timestamp.
type token struct {
	kind       tokenKind
	value      string
	classes    []string
	annotation string
	// unknownRef is the first unknown "&name;" in the token, if any.
	unknownRef string
}

// tokenizer is the spec's "WebVTT cue text tokenizer". Text and names are
// substrings of s where no reference needs decoding, so plain text costs
// no allocation.
type tokenizer struct {
	s       string
	pos     int
	classes []string
	sb      strings.Builder
}

func (z *tokenizer) next() token {
	s := z.s
	if z.pos >= len(s) {
		return token{kind: tokEOF}
	}
	if s[z.pos] != '<' {
		return z.text()
	}
	z.pos++ // the tag state
	if z.pos >= len(s) {
		return token{kind: tokStart}
	}
	switch c := s[z.pos]; {
	case c == '\t' || c == '\n' || c == '\f' || c == ' ':
		z.pos++
		return z.annotation("", nil)
	case c == '.':
		z.pos++
		return z.class("")
	case c == '/':
		z.pos++
		return token{kind: tokEnd, value: z.untilGT()}
	case isDigit(c):
		return token{kind: tokTimestamp, value: z.untilGT()}
	case c == '>':
		z.pos++
		return token{kind: tokStart}
	}
	// The start tag state: the first character is part of the name
	// whatever it is.
	start := z.pos
	for z.pos++; z.pos < len(s); z.pos++ {
		switch s[z.pos] {
		case '\t', '\f', ' ', '\n':
			name := s[start:z.pos]
			z.pos++
			return z.annotation(name, nil)
		case '.':
			name := s[start:z.pos]
			z.pos++
			return z.class(name)
		case '>':
			name := s[start:z.pos]
			z.pos++
			return token{kind: tokStart, value: name}
		}
	}
	return token{kind: tokStart, value: s[start:]}
}

// text is the data state: text up to the next "<", references decoded.
func (z *tokenizer) text() token {
	s := z.s
	end := strings.IndexByte(s[z.pos:], '<')
	if end < 0 {
		end = len(s)
	} else {
		end += z.pos
	}
	raw := s[z.pos:end]
	z.pos = end
	if strings.IndexByte(raw, '&') < 0 {
		return token{kind: tokText, value: raw}
	}
	z.sb.Reset()
	unknown := decodeRefs(&z.sb, raw)
	return token{kind: tokText, value: z.sb.String(), unknownRef: unknown}
}

// class is the start tag class state.
func (z *tokenizer) class(name string) token {
	s := z.s
	z.classes = z.classes[:0]
	start := z.pos
	for ; z.pos < len(s); z.pos++ {
		switch s[z.pos] {
		case '\t', '\f', ' ', '\n':
			z.classes = append(z.classes, s[start:z.pos])
			z.pos++
			return z.annotation(name, z.classes)
		case '.':
			z.classes = append(z.classes, s[start:z.pos])
			start = z.pos + 1
		case '>':
			z.classes = append(z.classes, s[start:z.pos])
			z.pos++
			return token{kind: tokStart, value: name, classes: z.classes}
		}
	}
	z.classes = append(z.classes, s[start:])
	return token{kind: tokStart, value: name, classes: z.classes}
}

// annotation is the start tag annotation state. A reference never
// consumes the closing ">", so the annotation ends at the first one.
func (z *tokenizer) annotation(name string, classes []string) token {
	raw := z.untilGT()
	tok := token{kind: tokStart, value: name, classes: classes}
	if strings.IndexByte(raw, '&') >= 0 {
		z.sb.Reset()
		tok.unknownRef = decodeRefs(&z.sb, raw)
		raw = z.sb.String()
	}
	tok.annotation = collapseSpace(raw)
	return tok
}

// untilGT returns the text up to the next ">" and moves past it.
func (z *tokenizer) untilGT() string {
	s := z.s
	end := strings.IndexByte(s[z.pos:], '>')
	if end < 0 {
		v := s[z.pos:]
		z.pos = len(s)
		return v
	}
	v := s[z.pos : z.pos+end]
	z.pos += end + 1
	return v
}

// collapseSpace trims ASCII whitespace and turns every run of it into one
// space, as the spec does with annotations.
func collapseSpace(s string) string {
	clean := true
	for i := 0; i < len(s); i++ {
		if isSpace(s[i]) && (s[i] != ' ' || i == 0 || i == len(s)-1 || s[i+1] == ' ') {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	return strings.Join(strings.FieldsFunc(s, func(r rune) bool { return r < 0x80 && isSpace(byte(r)) }), " ")
}
