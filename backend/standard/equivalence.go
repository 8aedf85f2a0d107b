package standard

import "github.com/captionqa/captionqa/backend/caption"

// markerHintMinCues is how many cues a file needs before the absence of
// every caption marker is worth a note; short clips often have no sounds
// to describe.
const markerHintMinCues = 50

// gradeEquivalence grades whether captions carry all dialogue, speakers and
// meaningful sounds. That needs the audio, so the clause is never settled;
// a long file without a single bracketed label, music note or speaker
// label gets an informational finding, because it reads like subtitles
// rather than captions.
func gradeEquivalence(cl *ClauseSpec, p *input) outcome {
	t := p.delivery
	if len(t.Cues) < markerHintMinCues {
		return notEvaluated(cl.Reason)
	}
	for i := range t.Cues {
		if t.Cues[i].Voice != "" || hasCaptionMarkers(t.Cues[i].Text) {
			return notEvaluated(cl.Reason)
		}
	}
	o := notEvaluated(cl.Reason)
	o.findings = []caption.Diagnostic{trackFinding("no_sound_descriptions", caption.SeverityInfo,
		"none of the %d cues has a sound label, music note or speaker label: this reads like subtitles, not captions", len(t.Cues))}
	return o
}
