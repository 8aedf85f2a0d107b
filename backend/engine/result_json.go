package engine

import (
	"github.com/captionqa/captionqa/backend/caption"
	"github.com/captionqa/captionqa/backend/fix"
	"github.com/captionqa/captionqa/backend/jsonw"
)

// EncodeJSON writes r as encoding/json would. A result of a long file is
// tens of megabytes (each of tens of thousands of findings is listed in
// the report, the aided report and the suggestions); this writes it
// several times faster, and streams it.
func (r *Result) EncodeJSON(e *jsonw.Encoder) {
	e.Raw("{")
	r.EncodeJSONFields(e)
	e.Raw("}")
}

// EncodeJSONFields writes r's fields without the braces around them, so a
// caller can add fields of its own (the API adds the caller's quota).
func (r *Result) EncodeJSONFields(e *jsonw.Encoder) {
	e.Key("report", true)
	r.Report.encodeJSON(e)
	e.Key("output", false)
	e.String(r.Output)
	e.Key("aidedOutput", false)
	e.String(r.AidedOutput)
	e.Key("aidedReport", false)
	r.AidedReport.encodeJSON(e)
	e.Key("suggestions", false)
	caption.EncodeDiagnostics(e, r.Suggestions)
	e.Key("aidedSameAsDelivery", false)
	e.Bool(r.AidedSameAsDelivery)
	e.Key("deliveryStatus", false)
	e.String(string(r.DeliveryStatus))
	e.Key("aidedStatus", false)
	e.String(string(r.AidedStatus))
}

func (rep *Report) encodeJSON(e *jsonw.Encoder) {
	if rep == nil {
		e.Raw("null")
		return
	}
	e.Raw("{")
	e.Key("summary", true)
	e.String(rep.Summary)
	e.Key("preset", false)
	e.String(rep.Preset)
	e.Key("fixProfile", false)
	e.String(rep.FixProfile)
	e.Key("inputFormat", false)
	e.String(rep.InputFormat)
	e.Key("outputFormat", false)
	e.String(rep.OutputFormat)
	e.Key("encoding", false)
	e.String(rep.Encoding)
	e.Key("inputCues", false)
	e.Int(int64(rep.InputCues))
	e.Key("outputCues", false)
	e.Int(int64(rep.OutputCues))
	e.Key("diagnostics", false)
	caption.EncodeDiagnostics(e, rep.Diagnostics)
	e.Key("fixes", false)
	fix.EncodeChanges(e, rep.Fixes)
	e.Key("remaining", false)
	caption.EncodeDiagnostics(e, rep.Remaining)
	e.Key("counting", false)
	e.String(rep.Counting)
	if len(rep.PlatformNotes) > 0 {
		e.Key("platformNotes", false)
		e.Strings(rep.PlatformNotes)
	}
	if rep.Standard != nil {
		e.Key("standard", false)
		rep.Standard.EncodeJSON(e)
	}
	e.Raw("}")
}
