// Package explain writes ExplainAI v3 (docs/api.md, ExplainAI): from a process
// report, an editorial plan (what to do, in which order, for which cues,
// whether a fix profile does it) and the prose around it, a headline, a
// message, copy a producer pastes into a mail to the client, the
// platform's notes, two scores and what the fixes already did.
//
// The built-in explainer ([Build]) needs no network and gives the same
// explanation for the same report, every time. An [Explainer] can hand the
// prose to a [Writer] (a language model on the local network) which
// rewrites it from the built-in plan; the plan's actions stay the
// engine's, a response naming a cue or an action the plan does not have is
// rejected, and any failure falls back to the built-in text.
package explain

// Format is the constant format of an explanation, exactly as the API
// contract (operation processCaptions, schema Explanation) names it.
const Format = "svc.explain/v3"

// Statuses of an [Explanation].
const (
	// StatusClear: nothing needs doing, Actions is empty.
	StatusClear = "clear"
	// StatusActions: Actions lists what needs doing.
	StatusActions = "actions"
)

// Writers of an explanation's prose, in [Explanation.WrittenBy].
const (
	WrittenByBuiltin = "builtin"
	WrittenByModel   = "model"
)

// Explanation is ExplainAI v3 (the contract's ExplainV3 schema) with
// CaptionQA's additions:
// who wrote the prose, and why the model's text was not used.
type Explanation struct {
	Format  string   `json:"format"`
	Status  string   `json:"status"`
	Actions []Action `json:"actions"`
	// Headline is one line: the delivery's state for the platform.
	Headline string `json:"headline"`
	// Message says, in a few sentences to the person who ran QA, what to
	// do first and why.
	Message string `json:"message"`
	// ClientSummary is plain text for the client: what is delivered, what
	// was adapted and why, what remains and who should act.
	ClientSummary string `json:"clientSummary"`
	// PlatformNotes is what the preset demands that matters for this file.
	PlatformNotes      string     `json:"platformNotes"`
	DeliveryComparison Comparison `json:"deliveryComparison"`
	// AlreadyFixedSummary is what the fix profile and the writing of the
	// output already changed.
	AlreadyFixedSummary string `json:"alreadyFixedSummary"`
	// WrittenBy is who wrote the prose: [WrittenByBuiltin] or
	// [WrittenByModel]. The actions are always the built-in plan's.
	WrittenBy string `json:"writtenBy"`
	// Model names the model that wrote the prose, when one did.
	Model string `json:"model,omitempty"`
	// Fallback says why a configured model's text was not used (one of
	// the Fallback constants); empty when the model wrote it or none is
	// configured.
	Fallback string `json:"fallback,omitempty"`
}

// Comparison scores the upload-ready delivery and the enhanced (aided) one
// from 0 to 100 ([Score] documents how).
type Comparison struct {
	UploadReadyScore float64 `json:"uploadReadyScore"`
	EnhancedScore    float64 `json:"enhancedScore"`
	Summary          string  `json:"summary"`
}

// Action kinds: what an editor does.
const (
	KindRestoreContent = "restore_content"
	KindFixTiming      = "fix_timing"
	KindSplitCues      = "split_cues"
	KindShortenLines   = "shorten_lines"
	KindRemoveEmpty    = "remove_empty_cues"
	KindRepairMarkup   = "repair_markup"
	KindFixPlacement   = "fix_placement"
	KindSetLanguage    = "set_language"
	KindAddSpeakerIDs  = "add_speaker_ids"
	KindRestoreMarkers = "restore_markers"
	KindReviewStyling  = "review_styling"
	KindReviewManually = "review_manually"
)

// Priorities of an [Action], most urgent first.
const (
	// PriorityBlocking: the delivery needs attention until this is done.
	PriorityBlocking = 1
	// PriorityStandard: a clause of the requested standard fails.
	PriorityStandard = 2
	// PrioritySuggested: a suggestion of the preset, for readability.
	PrioritySuggested = 3
	// PriorityReview: something only a person with the video can judge.
	PriorityReview = 4
)

// Action is one editorial step of the plan.
type Action struct {
	// ID is stable for the same report: "a1", "a2", ... in plan order.
	ID string `json:"id"`
	// Priority is one of the Priority constants; actions are ordered by
	// it, so that what blocks delivery comes first.
	Priority int `json:"priority"`
	// Blocking is true when the delivery cannot go out before this is
	// done (Priority is [PriorityBlocking]).
	Blocking bool   `json:"blocking"`
	Kind     string `json:"kind"`
	Title    string `json:"title"`
	Detail   string `json:"detail"`
	// Codes are the rule or finding codes the action settles.
	Codes []string `json:"codes"`
	// CueIndexes are the 0-based cues of the delivery concerned (the
	// report's remaining problems, clause findings and suggestions number
	// the delivery's cues: the uploaded file's unless the fixes split,
	// removed or reordered cues), in order, at most [MaxCueIndexes];
	// Count counts them all (findings without a cue count once).
	CueIndexes []int `json:"cueIndexes"`
	Count      int   `json:"count"`
	// AutoFixable is true when running again with FixProfile does it.
	AutoFixable bool   `json:"autoFixable"`
	FixProfile  string `json:"fixProfile,omitempty"`
	// Clauses are the ids of the standard's clauses the action settles.
	Clauses []string `json:"clauses"`
	// EffortMinutes estimates an editor's time ([Effort] documents how).
	EffortMinutes int `json:"effortMinutes"`
	// Owner says who should act: "caption editor", "caption vendor",
	// "QC reviewer".
	Owner string `json:"owner"`
}

// MaxCueIndexes bounds [Action.CueIndexes]: a plan names the first cues of
// each step, [Action.Count] says how many there are.
const MaxCueIndexes = 200
