package drift

import (
	"bytes"
	"encoding/json"

	"github.com/captionqa/captionqa/backend/caption"
)

// fieldSet is a set of changed fields, one bit per Field constant.
type fieldSet uint8

const (
	changedStart fieldSet = 1 << iota
	changedEnd
	changedText
	changedVoice
	changedStyle
	changedPlacement
	changedExt
)

// names returns the names of the fields in f, in the order of the Field
// constants, so that clients and golden files see a stable order.
func (f fieldSet) names() []string {
	names := make([]string, 0, 2)
	for _, n := range [...]struct {
		bit  fieldSet
		name string
	}{
		{changedStart, FieldStart}, {changedEnd, FieldEnd}, {changedText, FieldText},
		{changedVoice, FieldVoice}, {changedStyle, FieldStyle},
		{changedPlacement, FieldPlacement}, {changedExt, FieldExt},
	} {
		if f&n.bit != 0 {
			names = append(names, n.name)
		}
	}
	return names
}

// compare returns the fields in which y, moved back by offset, differs
// from x. The cue ID is left out on purpose: see [Cue.ID].
func compare(x, y *caption.Cue, offset int64) fieldSet {
	var f fieldSet
	if x.StartMs != y.StartMs-offset {
		f |= changedStart
	}
	if x.EndMs != y.EndMs-offset {
		f |= changedEnd
	}
	if x.Text != y.Text {
		f |= changedText
	}
	spans := len(x.Spans) > 0 || len(y.Spans) > 0
	if x.Voice != y.Voice || spans && !sameSpanVoices(x.Spans, y.Spans) {
		f |= changedVoice
	}
	if x.Style != y.Style || spans && !sameSpanStyles(x.Spans, y.Spans) {
		f |= changedStyle
	}
	if !samePlacement(x.Placement, y.Placement) {
		f |= changedPlacement
	}
	if (len(x.Ext) > 0 || len(y.Ext) > 0) && !sameExt(x.Ext, y.Ext) {
		f |= changedExt
	}
	return f
}

// styleOf is a span with only its styling kept, and whether it has any:
// a span that only names a speaker styles nothing.
func styleOf(s caption.Span) (caption.Span, bool) {
	s.Voice, s.Label = "", false
	return s, s != caption.Span{Start: s.Start, End: s.End}
}

// sameSpanStyles reports whether the styled spans of a and b, speakers
// aside, are the same in the same order.
func sameSpanStyles(a, b []caption.Span) bool {
	i, j := 0, 0
	for {
		var sa, sb caption.Span
		okA, okB := false, false
		for ; i < len(a) && !okA; i++ {
			sa, okA = styleOf(a[i])
		}
		for ; j < len(b) && !okB; j++ {
			sb, okB = styleOf(b[j])
		}
		if !okA || !okB {
			return okA == okB
		}
		if sa != sb {
			return false
		}
	}
}

// sameSpanVoices reports whether the spans of a and b that name a speaker
// name the same speakers over the same ranges.
func sameSpanVoices(a, b []caption.Span) bool {
	i, j := 0, 0
	for {
		for i < len(a) && a[i].Voice == "" {
			i++
		}
		for j < len(b) && b[j].Voice == "" {
			j++
		}
		if i == len(a) || j == len(b) {
			return i == len(a) && j == len(b)
		}
		if a[i].Start != b[j].Start || a[i].End != b[j].End || a[i].Voice != b[j].Voice {
			return false
		}
		i, j = i+1, j+1
	}
}

// samePlacement compares placements by value; nil and an all-default
// placement are the same, as writers treat them alike.
func samePlacement(a, b *caption.Placement) bool {
	if a.IsZero() || b.IsZero() {
		return a.IsZero() && b.IsZero()
	}
	return a.Area == b.Area && a.Align == b.Align &&
		sameFloat(a.Line, b.Line) && a.LineUnit == b.LineUnit && a.LineAlign == b.LineAlign &&
		sameFloat(a.Position, b.Position) && a.PositionAlign == b.PositionAlign &&
		sameFloat(a.Size, b.Size) && a.Vertical == b.Vertical && a.Region == b.Region
}

func sameFloat(a, b *float64) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

// sameExt compares the format-only bags as JSON values: the same keys
// holding the same JSON, whitespace aside, since the IR reader keeps each
// value's raw bytes as they were written.
func sameExt(a, b map[string]json.RawMessage) bool {
	if len(a) != len(b) {
		return false
	}
	for k, va := range a {
		vb, ok := b[k]
		if !ok {
			return false
		}
		if bytes.Equal(va, vb) {
			continue
		}
		var ca, cb bytes.Buffer
		if json.Compact(&ca, va) != nil || json.Compact(&cb, vb) != nil || !bytes.Equal(ca.Bytes(), cb.Bytes()) {
			return false
		}
	}
	return true
}
