package explain

import (
	"fmt"

	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/caption"
	"github.com/captionqa/captionqa/backend/engine"
	"github.com/captionqa/captionqa/backend/fix"
	"github.com/captionqa/captionqa/backend/standard"
)

// Validate checks that in holds a process report an explanation can be
// written from. It returns [apperr.BadRequest] with details.field naming
// the first field that is missing or not what a process report holds
// ("report", "report.diagnostics", "aidedReport.remaining[2].cueIndex",
// ...). The preset is checked by [Explainer.Explain], which knows them.
func (in *Input) Validate() error {
	if in.Report == nil {
		return bad("report", "report is required: the report of a process result")
	}
	if err := validReport("report", in.Report); err != nil {
		return err
	}
	if in.AidedReport != nil {
		if err := validReport("aidedReport", in.AidedReport); err != nil {
			return err
		}
	}
	if err := validFindings("suggestions", in.Suggestions); err != nil {
		return err
	}
	for i, c := range in.Cues {
		if c.StartMs < 0 || c.EndMs < 0 {
			return bad(fmt.Sprintf("cues[%d]", i), "cue times are milliseconds from 0")
		}
	}
	return nil
}

func validReport(name string, r *engine.Report) error {
	switch {
	case r.Summary == "":
		return bad(name+".summary", "%s.summary is required", name)
	case r.Diagnostics == nil:
		return bad(name+".diagnostics", "%s.diagnostics is required (an array)", name)
	case r.Preset == "":
		return bad(name+".preset", "%s.preset is required", name)
	case r.InputCues < 0 || r.OutputCues < 0:
		return bad(name+".inputCues", "%s's cue counts cannot be negative", name)
	}
	if _, err := fix.ParseProfile(r.FixProfile); err != nil {
		return bad(name+".fixProfile", "%s.fixProfile is not a fix profile", name)
	}
	for _, l := range []struct {
		name string
		ds   []caption.Diagnostic
	}{{"diagnostics", r.Diagnostics}, {"remaining", r.Remaining}} {
		if err := validFindings(name+"."+l.name, l.ds); err != nil {
			return err
		}
	}
	for i, c := range r.Fixes {
		if c.Code == "" || c.Action == "" || c.CueIndex < fix.FileLevel {
			return bad(fmt.Sprintf("%s.fixes[%d]", name, i), "a fix needs code, action and a cue index of 0 or more")
		}
	}
	for i, o := range r.Omitted {
		if o.Count < 0 || o.Code == "" {
			return bad(fmt.Sprintf("%s.omitted[%d]", name, i), "an omission needs a code and a count of 0 or more")
		}
	}
	if st := r.Standard; st != nil {
		for i := range st.Clauses {
			c := &st.Clauses[i]
			switch c.Status {
			case standard.StatusPass, standard.StatusFail, standard.StatusNotEvaluated:
			default:
				return bad(fmt.Sprintf("%s.standard.clauses[%d].status", name, i), "a clause's status is pass, fail or not_evaluated")
			}
			if err := validFindings(fmt.Sprintf("%s.standard.clauses[%d].findings", name, i), c.Findings); err != nil {
				return err
			}
		}
	}
	return nil
}

func validFindings(name string, ds []caption.Diagnostic) error {
	for i := range ds {
		d := &ds[i]
		switch {
		case d.Code == "":
			return bad(fmt.Sprintf("%s[%d].code", name, i), "a finding needs a code")
		case d.CueIndex != nil && *d.CueIndex < 0:
			return bad(fmt.Sprintf("%s[%d].cueIndex", name, i), "a cue index is 0 or more")
		}
		switch d.Severity {
		case caption.SeverityError, caption.SeverityWarning, caption.SeverityInfo:
		default:
			return bad(fmt.Sprintf("%s[%d].severity", name, i), "a finding's severity is error, warning or info")
		}
	}
	return nil
}

func bad(field, format string, args ...any) error {
	return apperr.New(apperr.BadRequest, format, args...).WithDetail("field", field)
}
