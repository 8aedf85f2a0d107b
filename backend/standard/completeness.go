package standard

import (
	"github.com/captionqa/captionqa/backend/caption"
)

// gradeCompleteness grades FCC 79.1(j)(2)(iii), captions from the start to
// the end of the programme, as far as timing shows it. It needs the media
// duration. Captions that stop more than cl.Limit ms before the media ends,
// or cues that start after it ends, fail; a late first caption and silent
// stretches longer than cl.Limit are listed as information, since opening
// titles and music may carry no speech.
func gradeCompleteness(cl *ClauseSpec, p *input) outcome {
	media := p.MediaDurationMs
	if media <= 0 {
		return notEvaluated("the media duration is not known, so coverage from the start to the end of the programme cannot be checked")
	}
	t := p.delivery
	limit := int64(cl.Limit)
	var fs []caption.Diagnostic
	var lastEnd int64 = -1
	for i := range t.Cues {
		c := &t.Cues[i]
		if c.StartMs >= media {
			fs = append(fs, cueFinding(t, i, "cue_after_media_end", caption.SeverityError,
				"the cue starts at %s, after the media ends at %s", caption.FormatClock(c.StartMs), caption.FormatClock(media)))
		}
		if lastEnd < 0 && c.StartMs > limit {
			fs = append(fs, cueFinding(t, i, "caption_gap", caption.SeverityInfo,
				"the first caption starts at %s", caption.FormatClock(c.StartMs)))
		}
		if lastEnd >= 0 && c.StartMs-lastEnd > limit {
			fs = append(fs, cueFinding(t, i, "caption_gap", caption.SeverityInfo,
				"no caption from %s to %s", caption.FormatClock(lastEnd), caption.FormatClock(c.StartMs)))
		}
		lastEnd = max(lastEnd, c.EndMs)
	}
	if lastEnd < media-limit {
		end := max(lastEnd, 0)
		f := trackFinding("captions_end_early", caption.SeverityError,
			"captions stop at %s, %d s before the media ends at %s", caption.FormatClock(end), (media-end)/1000, caption.FormatClock(media))
		fs = append(fs, measured(f, float64(media-end), float64(limit), "ms"))
	}
	return settle(fs, "")
}
