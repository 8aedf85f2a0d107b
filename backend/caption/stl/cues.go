package stl

import (
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/captionqa/captionqa/backend/caption"
)

// cues turns the subtitles into cues on the programme's clock: a cue per
// subtitle, and for a cumulative set a cue per state of the screen.
func (p *parser) cues() []caption.Cue {
	offset := p.programmeStart()
	out := make([]caption.Cue, 0, len(p.subs))
	var live []*subtitle
	for i := 0; i < len(p.subs); {
		j := i + 1
		if cs := p.subs[i].first.cs; cs >= csFirst && cs <= csLast {
			for j < len(p.subs) && p.subs[j-1].first.cs != csLast && (p.subs[j].first.cs == csLast || p.subs[j].first.cs == csFirst+1) {
				j++
			}
			if p.subs[j-1].first.cs != csLast {
				p.d.Warn(caption.CodeNonStandardSyntax, p.subs[i].block,
					"the cumulative set that starts with subtitle %d has no last subtitle (cumulative status 3); it ends with subtitle %d",
					p.subs[i].first.sn, p.subs[j-1].first.sn)
			}
		}
		live = live[:0]
		for k := i; k < j; k++ {
			if p.onProgramme(&p.subs[k], offset) {
				live = append(live, &p.subs[k])
			}
		}
		out = p.states(out, live)
		i = j
	}
	return out
}

// programmeStart returns the programme start (TCP) in milliseconds, which
// is media time 0: EBU Tech 3264 times subtitles on the programme's time
// code, and TCP is the time code of its first frame. When every subtitle
// ends at or before it, the file evidently does not time its subtitles on
// that clock; they are then read from 00:00:00:00, with a warning.
func (p *parser) programmeStart() int64 {
	tcp, ok := p.tcpFrames()
	if !ok || tcp == 0 {
		return 0
	}
	ms := p.rate.ms(tcp)
	if len(p.subs) > 0 && !slices.ContainsFunc(p.subs, func(s subtitle) bool { return s.end > ms }) {
		p.d.Warn(caption.CodeNonStandardSyntax, 0,
			"every subtitle ends before the programme start time code (TCP %s), so the file does not time them on the programme's clock; they were read from 00:00:00:00",
			caption.FormatClock(ms))
		return 0
	}
	return ms
}

// onProgramme moves s to the programme's clock, and reports whether it
// is shown: a subtitle that ends before it starts, or before the
// programme starts, is left out; one that starts before the programme is
// shown from its start.
func (p *parser) onProgramme(s *subtitle, offset int64) bool {
	if s.end < s.start {
		p.d.Error(caption.CodeEndBeforeStart, s.block, "subtitle %d was left out: it ends (%s) before it starts (%s)",
			s.first.sn, caption.FormatClock(s.end), caption.FormatClock(s.start))
		return false
	}
	if s.start < offset && s.end <= offset {
		p.d.Error(caption.CodeContentNotDisplayed, s.block, "subtitle %d (%s to %s) ends before the programme starts (TCP %s); it was left out",
			s.first.sn, caption.FormatClock(s.start), caption.FormatClock(s.end), caption.FormatClock(offset))
		return false
	}
	if s.start < offset {
		p.d.Warn(caption.CodeContentNotDisplayed, s.block, "subtitle %d starts (%s) before the programme (TCP %s); it is shown from the programme's start",
			s.first.sn, caption.FormatClock(s.start), caption.FormatClock(offset))
		s.start = offset
	}
	s.start -= offset
	s.end -= offset
	return true
}

// states appends the cues of a set of subtitles shown together: one cue
// for a lone subtitle; for a cumulative set, where each subtitle adds to
// the screen and each stays until its own end, a cue for each state of
// the screen, with the text of the subtitles it shows in set order.
func (p *parser) states(out []caption.Cue, set []*subtitle) []caption.Cue {
	if len(set) == 1 {
		s := set[0]
		return append(out, caption.Cue{ID: strconv.Itoa(s.first.sn), StartMs: s.start, EndMs: s.end,
			Text: s.text.text, Spans: s.text.spans, Placement: p.placement(s, s), SourceLine: s.block})
	}
	var times []int64
	for _, s := range set {
		times = append(times, s.start, s.end)
	}
	slices.Sort(times)
	times = slices.Compact(times)
	var shown []*subtitle
	for k := 0; k+1 < len(times); k++ {
		from, to := times[k], times[k+1]
		shown = shown[:0]
		for _, s := range set {
			if s.start <= from && from < s.end {
				shown = append(shown, s)
			}
		}
		if len(shown) == 0 {
			continue
		}
		last := shown[len(shown)-1]
		c := caption.Cue{ID: strconv.Itoa(last.first.sn), StartMs: from, EndMs: to, SourceLine: last.block,
			Placement: p.placement(shown[0], last)}
		var texts []string
		at := 0
		for _, s := range shown {
			if s.text.text == "" {
				continue
			}
			if len(texts) > 0 {
				at++ // the line break
			}
			texts = append(texts, s.text.text)
			for _, sp := range s.text.spans {
				sp.Start += at
				sp.End += at
				c.Spans = append(c.Spans, sp)
			}
			at += utf8.RuneCountInString(s.text.text)
		}
		c.Text = strings.Join(texts, "\n")
		out = append(out, c)
	}
	return out
}

// placement is where subtitles top to bottom are shown: the area from
// their rows (a third of the screen each; a double-height line takes two
// rows), the alignment from top's justification code.
func (p *parser) placement(top, bottom *subtitle) *caption.Placement {
	var pl caption.Placement
	switch top.first.jc {
	case 1:
		pl.Align = "left"
	case 2:
		pl.Align = "center"
	case 3:
		pl.Align = "right"
	}
	maxRows, first := p.g.mnr, 0
	if p.g.teletext() || maxRows <= 0 {
		maxRows, first = 23, 1
	}
	rows := bottom.text.lines
	if bottom.text.double && p.g.teletext() {
		rows *= 2
	}
	if from, to := top.first.vp, bottom.first.vp+max(rows, 1)-1; from >= first && to <= maxRows+first && from <= to {
		switch mid2 := from + to; {
		case 3*mid2 <= 2*maxRows:
			pl.Area = caption.AreaTop
		case 3*mid2 <= 4*maxRows:
			pl.Area = caption.AreaMiddle
		}
	}
	if pl.IsZero() {
		return nil
	}
	return &pl
}
