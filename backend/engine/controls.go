package engine

import (
	"fmt"
	"runtime"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/captionqa/captionqa/backend/caption"
	"github.com/captionqa/captionqa/backend/parallel"
)

// CodeControlCharacter is the code of a cue whose text holds control
// characters: C0 (U+0000 to U+001F) other than the tab, line feed and
// carriage return the formats use, DEL (U+007F) and C1 (U+0080 to
// U+009F). No caption format gives them a meaning; a player shows them as
// boxes or passes them on (an ESC starts a terminal escape sequence, a
// NUL ends a C string, and XML cannot carry them at all), so the delivery
// leaves them out. The diagnostic is the input's, with the reader's
// problems; the change that strips them (action strip_control) is among
// the fixes, so such a file is never ready, only will_adapt.
const CodeControlCharacter = "control_character"

// actionStripControl removes a cue's control characters.
const actionStripControl = "strip_control"

// controlsIn opens the message of a [CodeControlCharacter] diagnostic,
// which goes on to say where in the cue they were and which they were;
// the change that strips them says it again.
const controlsIn = "control characters, which a player shows as boxes or acts on, in the cue's "

// isControl reports whether r is a control character a delivery leaves
// out: every C0 and C1 control and DEL but tab, line feed and carriage
// return.
func isControl(r rune) bool {
	return r < 0x20 && r != '\t' && r != '\n' && r != '\r' || r >= 0x7F && r <= 0x9F
}

// controlLead marks the bytes that may start a control character in
// UTF-8: the C0 controls but tab, LF and CR, DEL, and 0xC2, the lead byte
// of U+0080 to U+00BF (of which U+0080 to U+009F are C1 controls). A
// read-only table, built once.
var controlLead = func() (t [256]bool) {
	for c := range 0x20 {
		t[c] = c != '\t' && c != '\n' && c != '\r'
	}
	t[0x7F], t[0xC2] = true, true
	return t
}()

// hasControl reports whether s holds a control character ([isControl]).
// Every process looks through all the text, which has none: one table
// look-up a byte. (Reading eight bytes at a time measured slower on
// caption text, whose line feeds make one word in seven need a closer
// look.)
func hasControl(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; controlLead[c] && (c != 0xC2 || i+1 < len(s) && s[i+1] <= 0x9F) {
			return true
		}
	}
	return false
}

// stripControls returns t with the control characters ([isControl])
// left out of what writers write of every cue (its text, id, speaker
// names, and its spans' classes and languages), and a diagnostic for each
// cue that had some. Spans keep covering
// the same characters. t is never modified: when no cue has a control
// character it is returned itself, otherwise the cues are copied (fields
// are replaced, never edited through, so the copy shares the rest).
func stripControls(t *caption.Track) (*caption.Track, []caption.Diagnostic) {
	first := firstControl(t.Cues)
	if first < 0 {
		return t, nil
	}
	out := *t
	out.Cues = slices.Clone(t.Cues)
	var diags []caption.Diagnostic
	// Cue indices of the diagnostics, in one allocation.
	var at []int
	for i := first; i < len(out.Cues); i++ {
		c := &out.Cues[i]
		if !cueHasControl(c) {
			continue
		}
		var f controlsFound
		ownSpans := false // c.Spans is still t's
		if hasControl(c.Text) {
			c.Text, c.Spans = f.text(c.Text, c.Spans)
			f.where, ownSpans = append(f.where, "text"), true
		}
		if hasControl(c.ID) {
			c.ID = f.strip(c.ID)
			f.where = append(f.where, "id")
		}
		voice, markup := hasControl(c.Voice), false
		c.Voice = f.strip(c.Voice)
		for k := range c.Spans {
			sp := &c.Spans[k]
			v, m := hasControl(sp.Voice), hasControl(sp.Class) || hasControl(sp.Lang)
			if !v && !m {
				continue
			}
			if !ownSpans {
				c.Spans, ownSpans = slices.Clone(c.Spans), true
				sp = &c.Spans[k]
			}
			sp.Voice, sp.Class, sp.Lang = f.strip(sp.Voice), f.strip(sp.Class), f.strip(sp.Lang)
			voice, markup = voice || v, markup || m
		}
		if voice {
			f.where = append(f.where, "speaker name")
		}
		if markup {
			f.where = append(f.where, "markup")
		}
		if len(at) == cap(at) {
			at = make([]int, 0, 16)
		}
		at = append(at, i)
		diags = append(diags, caption.Diagnostic{
			Code: CodeControlCharacter, Severity: caption.SeverityWarning, Line: c.SourceLine, CueIndex: &at[len(at)-1],
			Message: controlsIn + f.String(),
		})
	}
	return &out, diags
}

// firstControl returns the index of the first cue [cueHasControl] finds
// a control character in, -1 when none has one. The look comes before
// everything else a process does, so a long track is cut into as many
// runs as there are processors, looked through side by side.
func firstControl(cues []caption.Cue) int {
	workers := 1
	if len(cues) >= parallelCheck {
		workers = runtime.GOMAXPROCS(0)
	}
	found := make([]int, workers)
	tasks := make([]func(), workers)
	for k := range workers {
		lo, hi := k*len(cues)/workers, (k+1)*len(cues)/workers
		tasks[k] = func() {
			found[k] = -1
			for i := lo; i < hi; i++ {
				if cueHasControl(&cues[i]) {
					found[k] = i
					return
				}
			}
		}
	}
	parallel.Run(tasks, workers)
	for _, i := range found {
		if i >= 0 {
			return i
		}
	}
	return -1
}

// cueHasControl reports whether a field of c that [stripControls] cleans
// holds a control character.
func cueHasControl(c *caption.Cue) bool {
	if hasControl(c.Text) || hasControl(c.ID) || hasControl(c.Voice) {
		return true
	}
	for i := range c.Spans {
		if s := &c.Spans[i]; hasControl(s.Voice) || hasControl(s.Class) || hasControl(s.Lang) {
			return true
		}
	}
	return false
}

// controlsFound collects the control characters left out of one cue.
type controlsFound struct {
	where []string // the fields they were in
	chars []rune   // each character, in the order first found
	count map[rune]int
}

func (f *controlsFound) add(r rune) {
	if f.count == nil {
		f.count = map[rune]int{}
	}
	if f.count[r] == 0 {
		f.chars = append(f.chars, r)
	}
	f.count[r]++
}

// strip returns s without its control characters.
func (f *controlsFound) strip(s string) string {
	if !hasControl(s) {
		return s
	}
	return strings.Map(func(r rune) rune {
		if isControl(r) {
			f.add(r)
			return -1
		}
		return r
	}, s)
}

// String says where the characters were and which: "text and speaker
// name: U+001B ×2, U+0007".
func (f *controlsFound) String() string {
	names := make([]string, len(f.chars))
	for i, r := range f.chars {
		names[i] = fmt.Sprintf("U+%04X", r)
		if f.count[r] > 1 {
			names[i] += fmt.Sprintf(" ×%d", f.count[r])
		}
	}
	where := strings.Join(f.where, ", ")
	if n := len(f.where); n > 1 {
		where = strings.Join(f.where[:n-1], ", ") + " and " + f.where[n-1]
	}
	return where + ": " + strings.Join(names, ", ")
}

// text returns text without its control characters, and spans moved to
// cover the same characters (a span left with none is dropped).
func (f *controlsFound) text(text string, spans []caption.Span) (string, []caption.Span) {
	var b strings.Builder
	b.Grow(len(text))
	var removed []int // code point offsets of the removed characters
	// n counts code points as span offsets do, an invalid byte as one;
	// what is kept is copied byte for byte.
	for i, n := 0, 0; i < len(text); n++ {
		r, size := utf8.DecodeRuneInString(text[i:])
		if isControl(r) {
			removed = append(removed, n)
			f.add(r)
		} else {
			b.WriteString(text[i : i+size])
		}
		i += size
	}
	// moved is an offset less the removed characters before it.
	moved := func(off int) int {
		k, _ := slices.BinarySearch(removed, off)
		return off - k
	}
	var kept []caption.Span
	if spans != nil {
		kept = make([]caption.Span, 0, len(spans))
		for _, s := range spans {
			start, end := moved(s.Start), moved(s.End)
			if start >= end && s.Start < s.End {
				continue
			}
			s.Start, s.End = start, end
			kept = append(kept, s)
		}
	}
	return b.String(), kept
}
