package engine

import (
	"github.com/captionqa/captionqa/backend/caption"
	"github.com/captionqa/captionqa/backend/fix"
	"github.com/captionqa/captionqa/backend/preset"
	"github.com/captionqa/captionqa/backend/standard"
)

// Status is a delivery status (docs/cli.md, How the status is decided).
type Status string

// Delivery statuses.
const (
	// Ready: no enforced rule is broken.
	Ready Status = "ready"
	// WillAdapt: enforced rules are broken, and every one of them is
	// repaired by the fix profile or by normalisation for the output format.
	WillAdapt Status = "will_adapt"
	// NeedsAttention: enforced problems remain in the delivery.
	NeedsAttention Status = "needs_attention"
)

// Result is the outcome of [Engine.Process]; its JSON is the process
// result (the OpenAPI operation processCaptions) without the account
// fields the API adds.
type Result struct {
	Report      *Report              `json:"report"`
	Output      string               `json:"output"`
	AidedOutput string               `json:"aidedOutput"`
	AidedReport *Report              `json:"aidedReport"`
	Suggestions []caption.Diagnostic `json:"suggestions"`
	// Omitted counts, by code, the suggestions left out of Suggestions
	// after the first [MaxPerCode] of each (list "suggestions"); absent
	// when none was.
	Omitted             []Omission `json:"omitted,omitempty"`
	AidedSameAsDelivery bool       `json:"aidedSameAsDelivery"`
	DeliveryStatus      Status     `json:"deliveryStatus"`
	AidedStatus         Status     `json:"aidedStatus"`
	// Applied is the preset the run applied (Report.Preset names it): an
	// account's own preset is known by no lookup, so what reads the
	// result further (ExplainAI) takes it from here. Not written out.
	Applied *preset.Preset `json:"-"`
}

// Report is the diagnostic report of one delivery.
type Report struct {
	// Summary is one or two plain sentences for a producer.
	Summary      string `json:"summary"`
	Preset       string `json:"preset"`
	FixProfile   string `json:"fixProfile"`
	InputFormat  string `json:"inputFormat"`
	OutputFormat string `json:"outputFormat"`
	Encoding     string `json:"encoding"`
	InputCues    int    `json:"inputCues"`
	// OutputCues counts the cues the delivered file gives a reader: a
	// cue its format cannot show is left out of it and reported among
	// Fixes, not counted.
	OutputCues int `json:"outputCues"`
	// Diagnostics are the problems of the input: what the reader met, with
	// the reader's severity (error: content left out; warning: the file
	// breaks its format's rules but was read; info), then what every rule
	// of the preset found, enforced rules with severity "error",
	// suggestions with "warning".
	Diagnostics []caption.Diagnostic `json:"diagnostics"`
	// Fixes lists every change: those of the fix profile, then those of
	// normalisation for the platform: what writing repairs of the problems
	// the reader read past, and strip_styling, styling removed or left out
	// because the output format cannot carry it. cueIndex always points at
	// the cue of the uploaded file (for the pieces of a split cue, the cue
	// they came from), and is absent for the file as a whole.
	Fixes []fix.Change `json:"fixes"`
	// Remaining lists the enforced problems still in the output; they are
	// why a status is needs_attention.
	Remaining []caption.Diagnostic `json:"remaining"`
	// Omitted counts, by list and code, the entries Diagnostics, Fixes,
	// Remaining and the standard's clause findings leave out after the
	// first [MaxPerCode] of each code; absent when none was. The summary
	// and the status count every entry.
	Omitted []Omission `json:"omitted,omitempty"`
	// Counting says how characters and words were counted.
	Counting string `json:"counting"`
	// PlatformNotes are facts about the preset's platform.
	PlatformNotes []string         `json:"platformNotes,omitempty"`
	Standard      *standard.Report `json:"standard,omitempty"`

	status Status
}

// counting documents the one way CaptionQA counts, for every report.
const counting = "Characters are Unicode grapheme clusters of the text a viewer reads: markup and line breaks excluded, spaces and punctuation included, each CJK character one. Reading speed is characters over the cue's duration in seconds; words are whitespace-separated tokens (each CJK character one word)."
