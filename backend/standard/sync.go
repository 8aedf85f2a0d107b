package standard

import (
	"fmt"
	"slices"
	"strings"

	"github.com/captionqa/captionqa/backend/caption"
)

// gradeSync grades EN 301 549 7.1.2 for CaptionQA's own conversion step:
// each cue's start and end must survive writing within cl.Limit ms. The
// written output read back is compared with the track given to the writer,
// cue for cue, which measures the conversion alone (frame or centisecond
// rounding) and not the retiming a fix profile did on purpose; that
// retiming is listed as information when source and delivery match cue for
// cue. Without a read-back the source is compared with the delivery when
// their cues match one for one; otherwise cue times cannot be paired and
// the clause is not_evaluated.
func gradeSync(cl *ClauseSpec, p *input) outcome {
	limit := int64(cl.Limit)
	d := p.delivery
	if rt := p.reparsed(); rt != nil {
		if len(rt.Cues) != len(d.Cues) {
			return notEvaluated(fmt.Sprintf("the written delivery reads back as %d cues, not %d, so cue times cannot be paired", len(rt.Cues), len(d.Cues)))
		}
		fs := drift(d, rt, d, limit, caption.SeverityError, "on conversion")
		if s := p.Source; s != nil && sameCues(s, d) {
			fs = append(fs, drift(s, d, d, limit, caption.SeverityInfo, "by fixes (an editorial change, not a conversion error)")...)
		}
		return settle(fs, "")
	}
	s := p.Source
	if s == nil {
		return notEvaluated("neither the source track nor the written delivery read back is available to compare cue times")
	}
	if !sameCues(s, d) {
		o := notEvaluated(fmt.Sprintf("fixes changed the cues (%d before, %d after: split, merged or removed) and the written delivery was not read back, so cue times cannot be paired; only the first start and last end were compared",
			len(s.Cues), len(d.Cues)))
		if len(s.Cues) > 0 && len(d.Cues) > 0 {
			first, last := s.Cues[0].StartMs-d.Cues[0].StartMs, s.Cues[len(s.Cues)-1].EndMs-d.Cues[len(d.Cues)-1].EndMs
			if abs(first) > limit || abs(last) > limit {
				o.findings = []caption.Diagnostic{trackFinding("timing_drift_on_convert", caption.SeverityInfo,
					"the first start moved by %d ms and the last end by %d ms", abs(first), abs(last))}
			}
		}
		return o
	}
	return settle(drift(s, d, d, limit, caption.SeverityError, "between the source and the delivery"), "")
}

// drift returns one finding per cue whose start or end differs between a
// and b (same length) by more than limit ms; findings point at cues of at.
func drift(a, b, at *caption.Track, limit int64, sev caption.Severity, how string) []caption.Diagnostic {
	var fs []caption.Diagnostic
	for i := range a.Cues {
		ds, de := abs(a.Cues[i].StartMs-b.Cues[i].StartMs), abs(a.Cues[i].EndMs-b.Cues[i].EndMs)
		if m := max(ds, de); m > limit {
			f := cueFinding(at, i, "timing_drift_on_convert", sev,
				"cue time changed %s: start by %d ms, end by %d ms", how, ds, de)
			fs = append(fs, measured(f, float64(m), float64(limit), "ms"))
		}
	}
	return fs
}

// sameCues reports whether a and b hold the same cues in the same order,
// times aside: as many, each with the same words. Only then can their
// times be paired by position; a split and a removal elsewhere can leave
// the count unchanged while every later cue is another one.
func sameCues(a, b *caption.Track) bool {
	if len(a.Cues) != len(b.Cues) {
		return false
	}
	for i := range a.Cues {
		if !sameWords(a.Cues[i].Text, b.Cues[i].Text) {
			return false
		}
	}
	return true
}

// sameWords reports whether x and y read the same but for whitespace and
// line breaks, which fixes change without changing the cue.
func sameWords(x, y string) bool {
	if x == y {
		return true
	}
	return slices.Equal(strings.Fields(x), strings.Fields(y))
}

func abs(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}
