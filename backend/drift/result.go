package drift

// DefaultPreviewCap is how many items [Result.Preview] holds when
// [Options.PreviewCap] is 0: enough for an editor to review a typical
// revision, small enough that the response of a rewritten 40,000-cue
// timeline stays a few tens of kilobytes.
const DefaultPreviewCap = 200

// Options tunes [Diff].
type Options struct {
	// PreviewCap is the most items [Result.Preview] holds. 0 means
	// [DefaultPreviewCap]; a negative value means no cap, for callers that
	// want every item (tests, a CLI writing to a file).
	PreviewCap int
}

// previewCap resolves the zero value and the "no cap" value.
func (o Options) previewCap(items int) int {
	switch {
	case o.PreviewCap == 0:
		return min(items, DefaultPreviewCap)
	case o.PreviewCap < 0:
		return items
	}
	return min(items, o.PreviewCap)
}

// Result is the drift diff (the OpenAPI operation diffProject) without
// currentIrRevision,
// which the project service adds because only it knows the revision.
// Encoded as JSON it is
//
//	{"summary": {"added": 1, "removed": 0, "changed": 2},
//	 "preview": [ ... ], "truncated": false, "offsetMs": 0}
type Result struct {
	// Summary counts every item, including those beyond the preview cap.
	Summary Summary `json:"summary"`
	// Preview holds the first items in timeline order, at most
	// [Options.PreviewCap] of them; it is never null.
	Preview []Item `json:"preview"`
	// Truncated reports that Preview holds fewer items than Summary
	// counts.
	Truncated bool `json:"truncated"`
	// OffsetMs is the constant shift, in milliseconds, of the candidate
	// timeline against the current one (positive: the candidate is later),
	// or 0 when there is none. Item fields compare times net of it.
	OffsetMs int64 `json:"offsetMs"`
}

// Summary counts the items of a diff by kind.
type Summary struct {
	// Added counts cues only the candidate has.
	Added int `json:"added"`
	// Removed counts cues only the current timeline has.
	Removed int `json:"removed"`
	// Changed counts cues both have with at least one field changed.
	Changed int `json:"changed"`
}

// Kind says what happened to a cue.
type Kind string

// Kinds of [Item].
const (
	Added   Kind = "added"
	Removed Kind = "removed"
	Changed Kind = "changed"
)

// Item is what happened to one cue.
type Item struct {
	Kind Kind `json:"kind"`
	// CurrentIndex is the cue's 0-based index in the current timeline's
	// cues; absent for an added cue.
	CurrentIndex *int `json:"currentIndex,omitempty"`
	// CandidateIndex is the cue's 0-based index in the candidate's cues;
	// absent for a removed cue.
	CandidateIndex *int `json:"candidateIndex,omitempty"`
	// Before is the cue in the current timeline; absent for an added cue.
	Before *Cue `json:"before,omitempty"`
	// After is the cue in the candidate; absent for a removed cue.
	After *Cue `json:"after,omitempty"`
	// Fields names what changed, in the order of [FieldStart] and the
	// constants after it; only a changed item has them.
	Fields []string `json:"fields,omitempty"`
}

// Cue is the part of a caption cue an [Item] shows: its identity, times
// and text, as the timeline holds them (times are not corrected for
// [Result.OffsetMs]).
type Cue struct {
	// ID is the source's cue identifier, "" when none. It is shown, never
	// compared: SRT renumbers every cue after an insertion.
	ID      string `json:"id"`
	StartMs int64  `json:"startMs"`
	EndMs   int64  `json:"endMs"`
	Text    string `json:"text"`
	// Voice is the cue's speaker, when it names one.
	Voice string `json:"voice,omitempty"`
}

// Names of the cue fields a changed [Item] lists in [Item.Fields].
const (
	// FieldStart: StartMs differs (net of the shift).
	FieldStart = "start"
	// FieldEnd: EndMs differs (net of the shift).
	FieldEnd = "end"
	// FieldText: the text a viewer reads differs.
	FieldText = "text"
	// FieldVoice: the cue's speaker, or a span's, differs.
	FieldVoice = "voice"
	// FieldStyle: the cue's named style, or the styling of a span
	// (italic, bold, underline, colours, class, language), differs.
	FieldStyle = "style"
	// FieldPlacement: where the cue appears differs.
	FieldPlacement = "placement"
	// FieldExt: format-only details kept for a round trip differ.
	FieldExt = "ext"
)
