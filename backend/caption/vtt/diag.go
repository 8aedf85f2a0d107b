package vtt

import (
	"fmt"
	"slices"
	"sort"

	"github.com/captionqa/captionqa/backend/caption"
)

// maxDiagsPerCode caps how many diagnostics of one code a file gets. A
// broken file can hold a million bad lines; past the cap one summary
// diagnostic gives the count, so nothing goes unreported but the report
// stays readable (and the parse stays fast).
const maxDiagsPerCode = 200

// diagSink collects a parse's diagnostics under the per-code cap.
type diagSink struct {
	list    caption.Diagnostics
	counts  map[string]int
	dropped map[string]dropped
}

type dropped struct{ n, line int }

func (s *diagSink) add(code string, sev caption.Severity, line int, format string, args ...any) {
	if s.counts == nil {
		s.counts = map[string]int{}
	}
	if s.counts[code] >= maxDiagsPerCode {
		if s.dropped == nil {
			s.dropped = map[string]dropped{}
		}
		d := s.dropped[code]
		if d.n == 0 {
			d.line = line
		}
		d.n++
		s.dropped[code] = d
		return
	}
	s.counts[code]++
	s.list.Add(code, sev, line, format, args...)
}

func (s *diagSink) errorf(code string, line int, format string, args ...any) {
	s.add(code, caption.SeverityError, line, format, args...)
}

func (s *diagSink) warnf(code string, line int, format string, args ...any) {
	s.add(code, caption.SeverityWarning, line, format, args...)
}

// done returns the diagnostics in line order (markup and region problems
// are found after the block pass), then one summary per capped code.
func (s *diagSink) done() caption.Diagnostics {
	byLine := func(a, b caption.Diagnostic) int { return a.Line - b.Line }
	if !slices.IsSortedFunc(s.list, byLine) {
		slices.SortStableFunc(s.list, byLine)
	}
	codes := make([]string, 0, len(s.dropped))
	for c := range s.dropped {
		codes = append(codes, c)
	}
	sort.Strings(codes)
	for _, c := range codes {
		d := s.dropped[c]
		sev := caption.SeverityWarning
		for _, x := range s.list {
			if x.Code == c {
				sev = x.Severity
				break
			}
		}
		s.list = append(s.list, caption.Diagnostic{Code: c, Severity: sev, Line: d.line,
			Message: fmt.Sprintf("%d more %s problems from this line on were not listed", d.n, c)})
	}
	return s.list
}
