package engine

import (
	"slices"

	"github.com/captionqa/captionqa/backend/caption"
	"github.com/captionqa/captionqa/backend/fix"
	"github.com/captionqa/captionqa/backend/preset"
	"github.com/captionqa/captionqa/backend/rules"
)

// checkRules runs every rule of the preset on t. Findings of enforced
// rules get severity error, suggestions warning. On an output (after is
// true) strip_styling is not run: the output is already stripped.
func checkRules(t *caption.Track, p *preset.Preset, after bool) []caption.Diagnostic {
	var out []caption.Diagnostic
	for _, code := range p.RuleCodes() {
		if after && code == "strip_styling" {
			continue
		}
		r, ok := rules.Lookup(code)
		if !ok {
			continue // preset.Load has refused unknown codes
		}
		s, _ := p.Setting(code)
		sev := caption.SeverityWarning
		if s.Level == rules.Enforced {
			sev = caption.SeverityError
		}
		for _, d := range r.Check(t, rules.Params{Limit: s.Limit, FrameRate: t.FrameRate}) {
			d.Severity = sev
			out = append(out, d)
		}
	}
	sortByCue(out)
	return out
}

// targets turns the preset's rules into fix targets: enforced rules for
// the delivery, enforced and suggested rules for the aided output.
func targets(p *preset.Preset, aided bool) fix.Targets {
	var tg fix.Targets
	for _, code := range p.RuleCodes() {
		s, _ := p.Setting(code)
		if s.Level != rules.Enforced && !aided {
			continue
		}
		switch code {
		case "line_too_long":
			tg.MaxCharsPerLine = int(s.Limit)
		case "too_many_lines":
			tg.MaxLines = int(s.Limit)
		case "reading_speed_high":
			tg.MaxCPS = s.Limit
		case "duration_too_short":
			tg.MinDurationMs = int64(s.Limit)
		case "duration_too_long":
			tg.MaxDurationMs = int64(s.Limit)
		case "gap_too_small":
			tg.MinGapMs = int64(s.Limit)
		case "overlapping_cues":
			tg.Overlaps = true
		case "empty_cue":
			tg.EmptyCues = true
		case "position_out_of_bounds":
			tg.ClampPlacement = true
		case "line_unbalanced":
			tg.BalanceLines = true
		}
	}
	return tg
}

// split separates findings on an output into what blocks delivery and
// what is only suggested. For the aided output suggestions are targets
// too, so every finding blocks it.
func split(findings []caption.Diagnostic, aided bool) (remaining, suggestions []caption.Diagnostic) {
	remaining, suggestions = []caption.Diagnostic{}, []caption.Diagnostic{}
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
// missing_webvtt_header, encoding_not_utf8): rules-reference 7.2 enforces
// them on every preset. Normalisation for the output format repairs them,
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
// (severity error: a cue with a broken timing line, a block it could not
// read, a TTML paragraph no player shows).
func droppedContent(readerDiags []caption.Diagnostic) []caption.Diagnostic {
	var out []caption.Diagnostic
	for _, d := range readerDiags {
		if d.Severity == caption.SeverityError {
			out = append(out, d)
		}
	}
	return out
}

// status applies spec part 3.4: ready when nothing enforced was broken,
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

func sortByCue(ds []caption.Diagnostic) {
	key := func(d caption.Diagnostic) int {
		if d.CueIndex == nil {
			return -1
		}
		return *d.CueIndex
	}
	// Stable, so findings of one cue keep the catalogue's rule order.
	slices.SortStableFunc(ds, func(a, b caption.Diagnostic) int { return key(a) - key(b) })
}
