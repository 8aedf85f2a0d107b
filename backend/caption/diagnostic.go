package caption

import "fmt"

// Severity grades a [Diagnostic].
type Severity string

// Severities, from most to least serious.
const (
	// SeverityError marks content that was dropped or could not be read.
	SeverityError Severity = "error"
	// SeverityWarning marks content that was read but breaks the format's
	// rules or a delivery rule.
	SeverityWarning Severity = "warning"
	// SeverityInfo marks something worth knowing that needs no action.
	SeverityInfo Severity = "info"
)

// Diagnostic is one problem found in a caption file, by a reader or a rule.
type Diagnostic struct {
	Code     string   `json:"code"`
	Severity Severity `json:"severity"`
	// Line is the 1-based line of the source file, 0 when the problem is
	// not tied to one line (for example an empty file).
	Line int `json:"line"`
	// CueIndex is the 0-based index of the cue in [Track.Cues], when the
	// problem belongs to a cue.
	CueIndex *int   `json:"cueIndex,omitempty"`
	Message  string `json:"message"`
	// Value and Limit are the measured figure and the threshold it broke,
	// in Unit (for example 23.4 against 20 "cps").
	Value *float64 `json:"value,omitempty"`
	Limit *float64 `json:"limit,omitempty"`
	Unit  string   `json:"unit,omitempty"`
}

// Equal reports whether d and o say the same: every field equal, the
// optional figures compared by value.
func (d *Diagnostic) Equal(o *Diagnostic) bool {
	return d.Code == o.Code && d.Severity == o.Severity && d.Line == o.Line && d.Message == o.Message &&
		d.Unit == o.Unit && eqPtr(d.CueIndex, o.CueIndex) && eqPtr(d.Value, o.Value) && eqPtr(d.Limit, o.Limit)
}

func eqPtr[T comparable](a, b *T) bool {
	return a == b || (a != nil && b != nil && *a == *b)
}

// Reader diagnostic codes (docs/cli.md, Diagnostics). All are stable.
const (
	CodeEmptyInput          = "empty_input"
	CodeNoCues              = "no_cues"
	CodeInvalidTimestamp    = "invalid_timestamp"
	CodeMissingWebVTTHeader = "missing_webvtt_header"
	// CodeEncodingNotUTF8: the file was read as Windows-1252 or as UTF-16
	// without a byte order mark (a warning), or a line holds bytes its
	// encoding cannot read, read as a guess (an error; see [DecodeText]).
	CodeEncodingNotUTF8 = "encoding_not_utf8"
	CodeCuesOutOfOrder  = "cues_out_of_order"
	// CodeInvalidCounter: an SRT counter is missing, not a number or not
	// the next one.
	CodeInvalidCounter = "invalid_counter"
	// CodeMalformedBlock: a block that is neither a cue nor a known header
	// block was skipped.
	CodeMalformedBlock = "malformed_block"
	// CodeInvalidSetting: a cue setting, style property or attribute value
	// was ignored because it breaks the format's syntax.
	CodeInvalidSetting = "invalid_setting"
	// CodeInvalidMarkup: a tag or entity in cue text was malformed or
	// unknown and was read as text or dropped.
	CodeInvalidMarkup = "invalid_markup"
	// CodeEndBeforeStart: a cue ends before it starts.
	CodeEndBeforeStart = "end_before_start"
	// CodeNonStandardSyntax: the file departs from the format's syntax in
	// a way readers commonly accept (a "." before SRT milliseconds, extra
	// blank lines, hours over 99).
	CodeNonStandardSyntax = "non_standard_syntax"
	// CodeInvalidDocument: the document's structure (XML, JSON, sections)
	// could not be read.
	CodeInvalidDocument = "invalid_document"
	// CodeUnsupportedFeature: the file uses a feature CaptionQA reads but
	// does not keep (an ASS drawing, a TTML image).
	CodeUnsupportedFeature = "unsupported_feature"
	// CodeContentNotDisplayed: the format's own rules hide this text (a
	// TTML paragraph outside every region, or timed outside its parent),
	// so it was left out (an error); as a warning, they hide part of its
	// time (a TTML element that ends after its parent), so it was cut short.
	CodeContentNotDisplayed = "content_not_displayed"
	// CodeEndSupplied: the source presents a cue indefinitely (a TTML
	// element with no end anywhere above it), so the reader gave the cue
	// an end of its own, which the formats that need one write
	// (docs/cli.md, TTML timing). A warning: the end is the reader's, not
	// the author's.
	CodeEndSupplied = "end_supplied"
)

// Diagnostics collects diagnostics while a reader runs.
type Diagnostics []Diagnostic

// Add appends a diagnostic with a formatted message.
func (d *Diagnostics) Add(code string, sev Severity, line int, format string, args ...any) {
	*d = append(*d, Diagnostic{Code: code, Severity: sev, Line: line, Message: fmt.Sprintf(format, args...)})
}

// Error appends an error-level diagnostic.
func (d *Diagnostics) Error(code string, line int, format string, args ...any) {
	d.Add(code, SeverityError, line, format, args...)
}

// Warn appends a warning-level diagnostic.
func (d *Diagnostics) Warn(code string, line int, format string, args ...any) {
	d.Add(code, SeverityWarning, line, format, args...)
}

// Info appends an info-level diagnostic.
func (d *Diagnostics) Info(code string, line int, format string, args ...any) {
	d.Add(code, SeverityInfo, line, format, args...)
}
