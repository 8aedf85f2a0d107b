package engine

import (
	"cmp"
	"maps"
	"runtime"
	"slices"

	"github.com/captionqa/captionqa/backend/analysis"
	"github.com/captionqa/captionqa/backend/caption"
	"github.com/captionqa/captionqa/backend/fix"
	"github.com/captionqa/captionqa/backend/parallel"
	"github.com/captionqa/captionqa/backend/preset"
	"github.com/captionqa/captionqa/backend/rules"
)

// checkRules runs every rule of the preset on t. Findings of enforced
// rules get severity error, suggestions warning. On an output (after is
// true) strip_styling is not run: the output is already stripped.
// Findings are in cue order, those of one cue in the catalogue's rule
// order, track-wide findings (no cue) first. media, when not nil, is the
// programme's analysis the media rules check against (sync, speech, shot
// changes); without it they find nothing.
//
// prev, when not nil, is the check of the track t was made from (the
// source): per-cue-text rules ([rules.PerCueText]) then keep prev's
// findings for the cues whose text and source line are unchanged and
// check only the others, which gives the same findings as checking all.
//
// On a long track the rules run side by side, one per processor at a
// time; each rule's findings land in its own slot, so the result does not
// depend on the order they finish.
func checkRules(t *caption.Track, p *preset.Preset, after bool, prev *checked, media *analysis.Analysis) *checked {
	if prev != nil && prev.track == t && after {
		// The output is the source itself (warn-only, nothing to strip):
		// the findings are the source's, less strip_styling's.
		return prev.without("strip_styling")
	}
	var reuse *reuse
	if prev != nil {
		reuse = unchanged(prev.track, t)
	}
	var codes []string
	for _, code := range p.RuleCodes() {
		if after && code == "strip_styling" {
			continue
		}
		if _, ok := rules.Lookup(code); ok { // preset.Load has refused unknown codes
			codes = append(codes, code)
		}
	}
	found := make([][]caption.Diagnostic, len(codes))
	tasks := make([]func(), len(codes))
	fps := rateOf(p, t, media)
	for i, code := range codes {
		tasks[i] = func() { found[i] = checkRule(t, p, code, prev, reuse, media, fps) }
	}
	workers := 1
	if len(t.Cues) >= parallelCheck {
		workers = runtime.GOMAXPROCS(0)
	}
	parallel.Run(tasks, workers)
	c := &checked{track: t, byRule: make(map[string][]caption.Diagnostic, len(codes))}
	var per [][]caption.Diagnostic
	n := 0
	for i, code := range codes {
		c.byRule[code] = found[i]
		if len(found[i]) > 0 {
			per = append(per, found[i])
			n += len(found[i])
		}
	}
	if n > 0 {
		c.all = byCue(per, n, len(t.Cues))
	}
	return c
}

// parallelCheck is the track length from which [checkRules] runs rules
// side by side: below it a goroutine costs more than it saves.
const parallelCheck = 4096

// rateOf is the frame rate p's frame-based limits are counted at for t
// checked against media ([preset.Preset.Rate]): the video's, else the
// track's, else the preset's.
func rateOf(p *preset.Preset, t *caption.Track, media *analysis.Analysis) float64 {
	var video float64
	if media != nil && media.Video != nil {
		video = media.Video.FrameRate.FPS()
	}
	return p.Rate(video, t.FrameRate)
}

// checkRule runs the rule with the given code on t, from prev's findings
// on the cues reuse marks unchanged when the rule looks only at each cue's
// text. fps is the rate the setting's frame limit is counted at.
func checkRule(t *caption.Track, p *preset.Preset, code string, prev *checked, reuse *reuse, media *analysis.Analysis, fps float64) []caption.Diagnostic {
	r, _ := rules.Lookup(code)
	s, _ := p.Setting(code)
	sev := caption.SeverityWarning
	if s.Level == rules.Enforced {
		sev = caption.SeverityError
	}
	params := rules.Params{Limit: s.LimitAt(fps), FrameRate: t.FrameRate, Media: media}
	if old, ok := prev.find(code); ok && reuse != nil {
		var m *match
		switch {
		case rules.PerCueText(code):
			m = &reuse.text
		case rules.PerCue(code):
			m = &reuse.timed
		}
		if m != nil {
			ds := r.Check(m.sub, params)
			for i := range ds {
				ds[i].Severity = sev
			}
			return m.merge(old, ds)
		}
	}
	ds := r.Check(t, params)
	for i := range ds {
		ds[i].Severity = sev
	}
	return ds
}

// checked is the outcome of [checkRules].
type checked struct {
	track *caption.Track
	// byRule holds each rule's findings, in cue order, severity set.
	byRule map[string][]caption.Diagnostic
	// all holds every finding in cue order.
	all []caption.Diagnostic
}

// without returns c less the findings of the rule code, sharing c's
// slices when that rule found nothing.
func (c *checked) without(code string) *checked {
	if len(c.byRule[code]) == 0 {
		return c
	}
	out := &checked{track: c.track, byRule: maps.Clone(c.byRule)}
	delete(out.byRule, code)
	out.all = slices.DeleteFunc(slices.Clone(c.all), func(d caption.Diagnostic) bool { return d.Code == code })
	return out
}

// find returns the findings of the rule with the given code, false when
// c is nil or the rule was not run.
func (c *checked) find(code string) ([]caption.Diagnostic, bool) {
	if c == nil {
		return nil, false
	}
	ds, ok := c.byRule[code]
	return ds, ok
}

// reuse says which cues of an output track are a source cue unchanged:
// in text (for [rules.PerCueText] rules), and in text and times (for
// [rules.PerCue] rules).
type reuse struct {
	text, timed match
}

// match pairs the cues of an output track with source cues.
type match struct {
	// outOf[j] is the index in the output of source cue j when the output
	// has it unchanged, else -1.
	outOf []int
	// sub holds copies of the other output cues, at[k] being the index of
	// sub.Cues[k] in the output.
	sub *caption.Track
	at  []int
}

// unchanged matches an output track with the track it was made from: an
// output cue is a source cue unchanged in text when it has the source
// cue's text and source line, and unchanged in text and times when it also
// has its start and end. The tracks are walked side by side in
// source-line order, which fixes keep (a split cue's pieces keep their
// cue's line), so cues after a split or a removed cue still match. It
// returns nil, and the output is checked whole, when the lines are not in
// order (a track without source lines), when the frame rates differ, or
// when more than half the cues changed text.
func unchanged(from, t *caption.Track) *reuse {
	if len(t.Cues) == 0 || len(from.Cues) == 0 || from.FrameRate != t.FrameRate {
		return nil
	}
	for j := 1; j < len(from.Cues); j++ {
		if from.Cues[j].SourceLine <= from.Cues[j-1].SourceLine {
			return nil // lines that do not name one cue each cannot match cues
		}
	}
	r := &reuse{text: match{outOf: make([]int, len(from.Cues))}, timed: match{outOf: make([]int, len(from.Cues))}}
	for j := range r.text.outOf {
		r.text.outOf[j], r.timed.outOf[j] = -1, -1
	}
	j, last := 0, -1
	for k := range t.Cues {
		c := &t.Cues[k]
		if c.SourceLine < last {
			return nil
		}
		last = c.SourceLine
		for j < len(from.Cues) && from.Cues[j].SourceLine < c.SourceLine {
			j++
		}
		if j < len(from.Cues) && from.Cues[j].SourceLine == c.SourceLine && from.Cues[j].Text == c.Text && r.text.outOf[j] < 0 {
			r.text.outOf[j] = k
			if s := &from.Cues[j]; s.StartMs == c.StartMs && s.EndMs == c.EndMs {
				r.timed.outOf[j] = k
				continue
			}
			r.timed.at = append(r.timed.at, k)
			continue
		}
		r.text.at = append(r.text.at, k)
		r.timed.at = append(r.timed.at, k)
	}
	if len(r.text.at) > len(t.Cues)/2 {
		return nil
	}
	r.text.fill(t)
	r.timed.fill(t)
	return r
}

// fill copies the output cues m.at names into m.sub.
func (m *match) fill(t *caption.Track) {
	m.sub = &caption.Track{Version: t.Version, Language: t.Language, FrameRate: t.FrameRate, Cues: make([]caption.Cue, len(m.at))}
	for k, i := range m.at {
		m.sub.Cues[k] = t.Cues[i]
	}
}

// merge merges a rule's findings on the unchanged cues (old, its findings
// on the source, moved to the cues' output indices) with its findings on
// the sub-track of changed cues (fresh, whose indices are turned into the
// output's), in cue order.
func (m *match) merge(old, fresh []caption.Diagnostic) []caption.Diagnostic {
	for i := range fresh {
		*fresh[i].CueIndex = m.at[*fresh[i].CueIndex]
	}
	out := make([]caption.Diagnostic, 0, len(old)+len(fresh))
	var moved []int // output indices of old findings whose cue moved
	j := 0
	for _, d := range old {
		k := m.outOf[*d.CueIndex]
		if k < 0 {
			continue
		}
		for j < len(fresh) && *fresh[j].CueIndex < k {
			out = append(out, fresh[j])
			j++
		}
		if k != *d.CueIndex {
			if len(moved) == cap(moved) {
				// Findings share their index slots in batches, as the
				// rules make them.
				moved = make([]int, 0, max(len(old)/4, 16))
			}
			moved = append(moved, k)
			d.CueIndex = &moved[len(moved)-1]
		}
		out = append(out, d)
	}
	return append(out, fresh[j:]...)
}

// targets turns the preset's rules into fix targets: enforced rules for
// the delivery, enforced and suggested rules for the aided output. The
// media analysis, the shot-change window (shot_change_near's limit) and
// the gap a snap keeps before a cut (gap_too_small's) go to both whatever
// the rules' levels, for the profiles that retime against the media: they
// say how a snap is made, not a limit to meet. Frame limits are counted
// at fps ([rateOf]).
func targets(p *preset.Preset, aided bool, media *analysis.Analysis, fps float64) fix.Targets {
	tg := fix.Targets{Media: media}
	for _, code := range p.RuleCodes() {
		s, _ := p.Setting(code)
		s = preset.RuleSetting{Level: s.Level, Limit: s.LimitAt(fps)}
		switch code {
		case rules.CodeShotChangeNear:
			tg.ShotWindowMs = s.Limit
		case rules.CodeGapTooSmall:
			tg.ShotGapMs = int64(s.Limit)
		}
		if s.Level != rules.Enforced && !aided {
			continue
		}
		var limit fix.Limit
		switch code {
		case "line_too_long":
			tg.MaxCharsPerLine, limit = int(s.Limit), fix.LimitMaxCharsPerLine
		case "too_many_lines":
			tg.MaxLines, limit = int(s.Limit), fix.LimitMaxLines
		case "reading_speed_high":
			tg.MaxCPS, limit = s.Limit, fix.LimitMaxCPS
		case "duration_too_short":
			tg.MinDurationMs, limit = int64(s.Limit), fix.LimitMinDuration
		case "duration_too_long":
			tg.MaxDurationMs, limit = int64(s.Limit), fix.LimitMaxDuration
		case "gap_too_small":
			tg.MinGapMs, limit = int64(s.Limit), fix.LimitMinGap
		case "overlapping_cues":
			tg.Overlaps = true
		case "empty_cue":
			tg.EmptyCues = true
		case "position_out_of_bounds":
			tg.ClampPlacement = true
		case "line_unbalanced":
			tg.BalanceLines = true
		}
		if s.Level != rules.Enforced {
			// The fixes give a suggestion way where it costs an
			// enforced rule, so the aided output meets every enforced
			// rule the delivery does.
			tg.Suggested |= limit
		}
	}
	return tg
}

// split separates findings on an output into what blocks delivery and
// what is only suggested. For the aided output suggestions are targets
// too, so every finding blocks it.
func split(findings []caption.Diagnostic, aided bool) (remaining, suggestions []caption.Diagnostic) {
	if len(findings) == 0 {
		return []caption.Diagnostic{}, []caption.Diagnostic{}
	}
	nHeld := countHeld(findings, aided)
	// When one side takes every finding it shares the slice rather than
	// copying tens of thousands of findings, clipped so that appending to
	// it copies.
	switch nHeld {
	case len(findings):
		return slices.Clip(findings), []caption.Diagnostic{}
	case 0:
		return []caption.Diagnostic{}, slices.Clip(findings)
	}
	remaining = make([]caption.Diagnostic, 0, nHeld)
	suggestions = make([]caption.Diagnostic, 0, len(findings)-nHeld)
	for _, d := range findings {
		if held(d, aided) {
			remaining = append(remaining, d)
		} else {
			suggestions = append(suggestions, d)
		}
	}
	return remaining, suggestions
}

// structural returns the reader diagnostics that break a structural rule
// (invalid_timestamp, cues_out_of_order, invalid_markup,
// missing_webvtt_header, encoding_not_utf8): every preset enforces
// them. Normalisation for the output format repairs them,
// except content the reader had to drop (see droppedContent).
func structural(readerDiags []caption.Diagnostic) []caption.Diagnostic {
	var out []caption.Diagnostic
	for _, d := range readerDiags {
		if code, ok := rules.ReaderCode(d.Code); ok {
			d.Code = code
			out = append(out, d)
		}
	}
	return out
}

// droppedContent returns the reader diagnostics for content it left out
// or could not read for certain (severity error: a cue with a broken
// timing line, a block it could not read, a TTML paragraph no player
// shows, bytes not valid in the file's encoding, whose characters are a
// guess an editor checks). They block every delivery.
func droppedContent(readerDiags []caption.Diagnostic) []caption.Diagnostic {
	var out []caption.Diagnostic
	for _, d := range readerDiags {
		if d.Severity == caption.SeverityError {
			out = append(out, d)
		}
	}
	return out
}

// status decides the delivery status (docs/cli.md, How the status is
// decided): ready when nothing enforced was broken,
// will_adapt when all of it is repaired in the output, needs_attention
// when problems remain.
func status(broken, remaining int) Status {
	switch {
	case remaining > 0:
		return NeedsAttention
	case broken > 0:
		return WillAdapt
	}
	return Ready
}

// byCue merges the rules' findings (n in all) into one slice ordered by
// cue, stable: findings of one cue keep the order of the rules, and
// findings without a cue come first. A counting sort over the cue
// indices, as a comparison sort of tens of thousands of findings would
// cost more than the rules that made them.
func byCue(per [][]caption.Diagnostic, n, cues int) []caption.Diagnostic {
	key := func(d *caption.Diagnostic) int {
		if d.CueIndex == nil {
			return 0
		}
		return *d.CueIndex + 1
	}
	inOrder := true
	for _, ds := range per {
		prev := 0
		for i := range ds {
			k := key(&ds[i])
			if k < 0 || k > cues {
				// Not an index of t: no rule makes one, but the order
				// must not depend on it.
				return sortedByCue(per, n)
			}
			inOrder = inOrder && k >= prev
			prev = k
		}
	}
	if len(per) == 1 && inOrder {
		// One rule found everything, in cue order: often one rule on
		// every cue of a machine-timed file, where copying tens of
		// thousands of findings would cost more than the rule.
		return per[0]
	}
	next := make([]int, cues+2)
	for _, ds := range per {
		for i := range ds {
			next[key(&ds[i])+1]++
		}
	}
	for k := 1; k < len(next); k++ {
		next[k] += next[k-1]
	}
	out := make([]caption.Diagnostic, n)
	for _, ds := range per {
		for i := range ds {
			k := key(&ds[i])
			out[next[k]] = ds[i]
			next[k]++
		}
	}
	return out
}

// sortedByCue is what [byCue] computes, with a comparison sort.
func sortedByCue(per [][]caption.Diagnostic, n int) []caption.Diagnostic {
	out := make([]caption.Diagnostic, 0, n)
	for _, ds := range per {
		out = append(out, ds...)
	}
	key := func(d caption.Diagnostic) int {
		if d.CueIndex == nil {
			return -1
		}
		return *d.CueIndex
	}
	slices.SortStableFunc(out, func(a, b caption.Diagnostic) int { return cmp.Compare(key(a), key(b)) })
	return out
}
