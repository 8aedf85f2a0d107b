package standard

// Clause kinds: the value of [ClauseSpec.Kind], naming how a clause is
// graded.
const (
	// KindChecks runs [ClauseSpec.Checks]: fail on any finding, else pass
	// when PassWhenHeld, else not_evaluated with Reason.
	KindChecks = "checks"
	// KindSpeechChecks runs [ClauseSpec.Checks], media rules among them,
	// against the programme's speech: without a media analysis with
	// audio ([Input.Media]) not_evaluated with Reason, else fail on any
	// finding and pass when they hold (FCC synchronicity, DCMP sync).
	KindSpeechChecks = "speech-checks"
	// KindManual is never settled from a file: not_evaluated with Reason.
	KindManual = "manual"
	// KindStructure: the file was read without losing content, has a cue
	// with text, every time range is valid and the written output reads
	// back (WCAG 1.2.2 structure).
	KindStructure = "structure"
	// KindEquivalence: whether captions carry all speech and meaningful
	// sound needs the audio; never passes, and notes a long file with no
	// sound or speaker markers.
	KindEquivalence = "equivalence"
	// KindColour: colour is not the only carrier of meaning (WCAG 1.4.1).
	KindColour = "colour"
	// KindContrast: declared text and background colours reach Limit
	// (a contrast ratio, 4.5 for WCAG 1.4.3).
	KindContrast = "contrast"
	// KindLanguage: the output declares its language (WCAG 3.1.1).
	KindLanguage = "language"
	// KindSync: cue times survive conversion within Limit ms (EN 301 549
	// 7.1.2).
	KindSync = "sync"
	// KindPreservation: conversion keeps the text; presentational data
	// lost is reported (EN 301 549 7.1.3).
	KindPreservation = "preservation"
	// KindAccuracy: FCC accuracy; needs the audio, never passes, notes
	// empty cues, doubled spaces and placeholders.
	KindAccuracy = "accuracy"
	// KindCompleteness: captions run until Limit ms before the end of the
	// media; needs the media duration (FCC (j)(2)(iii)).
	KindCompleteness = "completeness"
	// KindConsistency: one convention per feature (brackets, music
	// symbol, dialogue dash) across the file (DCMP consistent).
	KindConsistency = "consistency"
	// KindSoundLabels: sound labels are in brackets and lower case, told
	// from speaker IDs in parentheses (DCMP).
	KindSoundLabels = "sound-labels"
	// KindMusic: lyric captions open and close with a music note (DCMP).
	KindMusic = "music"
	// KindCase: mixed case; fail when more than Limit (a share, 0 to 1)
	// of cues with text are all capitals (DCMP).
	KindCase = "case"
	// KindLineDivision: no line ends on an article or conjunction when
	// the cue goes on (DCMP line division; English only).
	KindLineDivision = "line-division"
)

// kindSpec says what a kind needs from its clause.
type kindSpec struct {
	grade       grader
	needsLimit  bool
	needsReason bool
	// readsOutput: the grader looks at Input.Reparse (directly or as the
	// output track), so the caller must read the delivery back for it.
	readsOutput bool
}

// grader grades one clause from a prepared input. It returns a pass
// outcome only when every part it checks held; [ClauseSpec.Checks] and
// NeverPass are applied around it by [Grade].
type grader func(cl *ClauseSpec, in *input) outcome

// kindOf returns the spec of a kind name. A switch rather than a map keeps
// the table free of package-level state.
func kindOf(name string) (kindSpec, bool) {
	switch name {
	case KindChecks:
		return kindSpec{grade: gradeChecksOnly}, true
	case KindSpeechChecks:
		return kindSpec{grade: gradeSpeechChecks, needsReason: true}, true
	case KindManual:
		return kindSpec{grade: gradeManual, needsReason: true}, true
	case KindStructure:
		return kindSpec{grade: gradeStructure, readsOutput: true}, true
	case KindEquivalence:
		return kindSpec{grade: gradeEquivalence, needsReason: true}, true
	case KindColour:
		return kindSpec{grade: gradeColour, readsOutput: true}, true
	case KindContrast:
		return kindSpec{grade: gradeContrast, needsLimit: true, readsOutput: true}, true
	case KindLanguage:
		return kindSpec{grade: gradeLanguage, readsOutput: true}, true
	case KindSync:
		return kindSpec{grade: gradeSync, needsLimit: true, readsOutput: true}, true
	case KindPreservation:
		return kindSpec{grade: gradePreservation, readsOutput: true}, true
	case KindAccuracy:
		return kindSpec{grade: gradeAccuracy, needsReason: true}, true
	case KindCompleteness:
		return kindSpec{grade: gradeCompleteness, needsLimit: true}, true
	case KindConsistency:
		return kindSpec{grade: gradeConsistency}, true
	case KindSoundLabels:
		return kindSpec{grade: gradeSoundLabels}, true
	case KindMusic:
		return kindSpec{grade: gradeMusic}, true
	case KindCase:
		return kindSpec{grade: gradeCase, needsLimit: true}, true
	case KindLineDivision:
		return kindSpec{grade: gradeLineDivision}, true
	}
	return kindSpec{}, false
}

// kindNames lists every kind, for error messages.
func kindNames() []string {
	return []string{
		KindChecks, KindSpeechChecks, KindManual, KindStructure, KindEquivalence, KindColour,
		KindContrast, KindLanguage, KindSync, KindPreservation, KindAccuracy,
		KindCompleteness, KindConsistency, KindSoundLabels, KindMusic,
		KindCase, KindLineDivision,
	}
}

func gradeChecksOnly(cl *ClauseSpec, _ *input) outcome {
	if cl.PassWhenHeld {
		return passed()
	}
	return notEvaluated(cl.Reason)
}

func gradeManual(cl *ClauseSpec, _ *input) outcome { return notEvaluated(cl.Reason) }

// gradeSpeechChecks passes when the media has a speech analysis for the
// clause's checks to run against; [gradeClause] fails it on their
// findings.
func gradeSpeechChecks(cl *ClauseSpec, p *input) outcome {
	if p.Media == nil || p.Media.Audio == nil {
		return notEvaluated(cl.Reason)
	}
	return passed()
}
