package standard

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/captionqa/captionqa/backend/caption"
	"github.com/captionqa/captionqa/backend/rules"
)

// gradePreservation grades EN 301 549 7.1.3 for CaptionQA's conversion:
// the viewer must get all the caption text, in order. Content the reader
// had to leave out of the source (an error diagnostic) fails it. The words of the
// source and of what was delivered (the written output read back, else the
// delivery track) are compared with white space collapsed; any difference
// fails, but for a line break or a cue split where Chinese or Japanese
// text, written without spaces, may break a line: that is layout, as a
// break at a space is. Presentational data (italics, colour, placement, speaker voices)
// should be kept where it carries meaning; losing it is a "should", so it
// gives warnings and the clause still passes. A voice that survives as a
// text label ("MARTA:") where [caption.Cue.VoiceLabels] puts it, on the
// cue or on a span, counts as kept. The look-alikes an SRT delivery
// writes for text that would read as markup count as what they stand for
// ([lookalikes]). A dialogue dash opening a line is
// presentational too: a delivery that splits the dialogue into a cue per
// speaker, as the fixes do, may leave it out. Only a dialogue cue's dashes
// are ([rules.DashDialogue]); a dash opening a lone later line is
// punctuation and must be delivered.
func gradePreservation(cl *ClauseSpec, p *input) outcome {
	src := p.Source
	if src == nil {
		return notEvaluated("the source track is not available to compare with the delivery")
	}
	out := p.reparsed()
	if out == nil {
		out = p.delivery
	}
	var fs []caption.Diagnostic
	// What the reader had to leave out never reaches the delivery: the
	// viewer does not get all the caption text.
	for _, d := range p.ReaderDiagnostics {
		if d.Severity == caption.SeverityError {
			f := d
			f.Code, f.Message = "text_lost", "the reader left content out of the source, so the delivery lacks it: "+d.Message
			fs = append(fs, f)
		}
	}
	if f, ok := firstTextDifference(src, out, p.delivery); !ok {
		fs = append(fs, f)
	}
	if len(src.Cues) != len(out.Cues) {
		fs = append(fs, trackFinding("cue_count_changed", caption.SeverityInfo,
			"the source has %d cues and the delivery %d (cues were split, merged or emptied ones removed; text order is kept)", len(src.Cues), len(out.Cues)))
	}
	fs = append(fs, presentationLost(src, out)...)
	return settle(fs, "")
}

// firstTextDifference compares the words of a (the source) and b; on a
// difference it returns a finding on the cue of at (the delivery) holding
// the first differing word of b, and false. A speaker voice of a, of a
// cue or of a span, counts as a label "NAME:" that b may carry as text or
// leave out (losing a voice is presentationLost's business, a warning),
// and so does a dialogue dash opening a line of a (see [words]).
func firstTextDifference(a, b, at *caption.Track) (caption.Diagnostic, bool) {
	wa, _, optional, joins := words(a, true)
	wb, cue, _, _ := words(b, false)
	i, j := 0, 0
	for i < len(wa) && j < len(wb) {
		switch {
		case wa[i] == wb[j]:
			i, j = i+1, j+1
			continue
		case optional[i]:
			i++
			continue
		}
		// A line break or a cue split inside writing without spaces
		// (Chinese, Japanese) is layout: it may part a word of a where a
		// line may break, and lines of a broken between two unspaced
		// characters may be joined.
		if k, ok := unspacedPrefix(wa[i], wb[j]); ok {
			wa[i] = wa[i][k:]
			j++
			continue
		}
		if joins[i] && len(wb[j]) > len(wa[i]) && strings.HasPrefix(wb[j], wa[i]) {
			wb[j] = wb[j][len(wa[i]):]
			i++
			continue
		}
		break
	}
	for i < len(wa) && optional[i] {
		i++
	}
	if i == len(wa) && j == len(wb) {
		return caption.Diagnostic{}, true
	}
	want, got := "(end of text)", "(end of text)"
	if i < len(wa) {
		want = excerpt(wa[i:])
	}
	if j < len(wb) {
		got = excerpt(wb[j:])
	}
	msg := fmt.Sprintf("caption text was lost or changed in conversion: the source continues %q, the delivery %q", want, got)
	if cj := min(j, len(cue)-1); cj >= 0 && cue[cj] < len(at.Cues) {
		return cueFinding(at, cue[cj], "text_lost", caption.SeverityError, "%s", msg), false
	}
	return trackFinding("text_lost", caption.SeverityError, "%s", msg), false
}

// words returns the words of every cue of t in order and the cue each
// word belongs to, and marks as optional the words a delivery may carry or
// leave out. A dialogue dash ([rules.DialogueDash]) is a word of its own,
// "-Hi" read as "- Hi" on both sides, and optional where it opens a line
// of a dialogue cue ([rules.DashDialogue]): it only marks a speaker change
// inside one cue, and the fixes drop it once each speaker has a cue of
// their own. A dash opening a later line of any other cue is punctuation. A dash inside a line, a minus
// sign or a hyphen within a word stays text. With voices, each speaker
// label a plain-text delivery gets ([caption.Cue.VoiceLabels]: the cue's
// voice, and a span's voice where another speaker starts) comes where it
// is written, and is optional too: a delivery without voices (SRT, plain
// text) carries the voices that way, or not at all. A label written with a
// space before it ([caption.VoiceLabel.Space]) parts a word of t; the
// part before it joins the part after, as below. joins marks a word that ends a line whose break parts two characters of
// writing without spaces ([rules.Unspaced]): the line break reads as no
// space, and a delivery may join the lines.
func words(t *caption.Track, voices bool) (ws []string, cue []int, optional, joins []bool) {
	push := func(w string, i int, opt bool) {
		if strings.ContainsAny(w, lookalikes) {
			w = unlook.Replace(w)
		}
		ws, cue, optional, joins = append(ws, w), append(cue, i), append(optional, opt), append(joins, false)
	}
	// add pushes the words of text[lo:hi], of cue i; dialogue says
	// whether the cue is a dialogue written with dashes.
	add := func(text string, lo, hi, i int, dialogue bool) {
		// After a label, lo may fall inside a line: the dash opens it only
		// when nothing but white space comes before it there.
		nl := strings.LastIndexByte(text[:lo], '\n') + 1
		lineStart := dialogue && strings.TrimSpace(text[nl:lo]) == ""
		last := -1 // the word ending the line before, if it had one
		for line := range strings.SplitSeq(text[lo:hi], "\n") {
			if last >= 0 {
				l, _ := utf8.DecodeLastRuneInString(ws[last])
				r, _ := utf8.DecodeRuneInString(strings.TrimLeftFunc(line, unicode.IsSpace))
				joins[last] = rules.Unspaced(l) && rules.Unspaced(r)
			}
			last = -1
			before := len(ws)
			for w := range strings.FieldsSeq(line) {
				if d := rules.DialogueDash(w); d > 0 {
					push(w[:d], i, lineStart)
					w = w[d:]
				}
				if w != "" {
					push(w, i, false)
				}
				lineStart = false
			}
			if n := len(ws); n > before {
				last = n - 1
			}
			lineStart = dialogue
		}
	}
	var labels []caption.VoiceLabel
	for i := range t.Cues {
		c := &t.Cues[i]
		from := 0
		dialogue := rules.DashDialogue(c.Text)
		if voices {
			// A label goes before a word (or the first one), so the text
			// around it splits into the same words as the whole.
			labels = c.VoiceLabels(labels[:0])
			for _, l := range labels {
				add(c.Text, from, l.At, i, dialogue)
				// A label with a space before it parts a run without
				// white space ("Wait!What?" as "Wait! Bob: What?"): the
				// space is optional with the label, so a delivery
				// without the label may keep the run whole.
				if n := len(ws); l.Space && n > 0 {
					joins[n-1] = true
				}
				for w := range strings.FieldsSeq(l.Voice + ":") {
					push(w, i, true)
				}
				from = l.At
			}
		}
		add(c.Text, from, len(c.Text), i, dialogue)
	}
	return ws, cue, optional, joins
}

// lookalikes are what the SRT writer writes for text that would read as
// markup, and for the arrow of a line that would read as a timing line
// (docs/cli.md, What a delivery keeps): "‹" (U+2039) for "<", "›"
// (U+203A) for ">", "(" and ")" for "{" and "}", "∖" (U+2216) for "\".
// The viewer reads the same text, so [words] reads each pair as one
// character, on both sides: braces as parentheses.
const lookalikes = "\u2039\u203a{}\u2216"

// unlook replaces [lookalikes] with what they stand for. A read-only
// table.
var unlook = strings.NewReplacer("\u2039", "<", "\u203a", ">", "{", "(", "}", ")", "\u2216", `\`)

// unspacedPrefix reports whether p is a part of w up to a place where
// writing without spaces may break a line ([rules.UnspacedBreaks]), and
// returns its length.
func unspacedPrefix(w, p string) (int, bool) {
	if len(p) >= len(w) || !strings.HasPrefix(w, p) {
		return 0, false
	}
	var buf [16]int
	return len(p), slices.Contains(rules.UnspacedBreaks(w, buf[:0]), len(p))
}

func excerpt(ws []string) string {
	return strings.Join(ws[:min(len(ws), 6)], " ")
}

// presentation counts the cues of a track that use each kind of
// presentational data, and collects speaker names.
type presentation struct {
	italic, bold, underline, colour, placement int
	voices                                     []string
}

func presentationOf(t *caption.Track) presentation {
	var p presentation
	seen := map[string]bool{}
	addVoice := func(v string) {
		if v != "" && !seen[v] {
			seen[v] = true
			p.voices = append(p.voices, v)
		}
	}
	for i := range t.Cues {
		c := &t.Cues[i]
		var it, bo, un, co bool
		for _, s := range c.Spans {
			it, bo, un = it || s.Italic, bo || s.Bold, un || s.Underline
			co = co || s.Color != ""
			addVoice(s.Voice)
		}
		addVoice(c.Voice)
		p.italic += b2i(it)
		p.bold += b2i(bo)
		p.underline += b2i(un)
		p.colour += b2i(co)
		p.placement += b2i(!c.Placement.IsZero())
	}
	return p
}

// presentationLost warns about each kind of presentational data the
// source used and the delivery has none of, and about each speaker voice
// that is neither a voice nor a word of the delivered text.
func presentationLost(src, out *caption.Track) []caption.Diagnostic {
	a, b := presentationOf(src), presentationOf(out)
	var fs []caption.Diagnostic
	lost := func(what string, n, m int) {
		if n > 0 && m == 0 {
			users := fmt.Sprintf("%d source cues use", n)
			if n == 1 {
				users = "1 source cue uses"
			}
			fs = append(fs, trackFinding("presentation_dropped", caption.SeverityWarning,
				"%s %s and the delivery keeps none; check that no meaning depended on it", users, what))
		}
	}
	lost("italics", a.italic, b.italic)
	lost("bold", a.bold, b.bold)
	lost("underline", a.underline, b.underline)
	lost("colour", a.colour, b.colour)
	lost("placement", a.placement, b.placement)
	if len(a.voices) == 0 {
		return fs
	}
	kept := map[string]bool{}
	for _, v := range b.voices {
		kept[v] = true
	}
	var text strings.Builder
	for i := range out.Cues {
		text.WriteString(strings.ToLower(out.Cues[i].Text))
		text.WriteByte('\n')
	}
	all := text.String()
	for _, v := range a.voices {
		if !kept[v] && !strings.Contains(all, strings.ToLower(v)) {
			fs = append(fs, trackFinding("speaker_info_dropped", caption.SeverityWarning,
				"speaker %q is marked in the source but neither as a voice nor as a text label in the delivery", v))
		}
	}
	return fs
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
