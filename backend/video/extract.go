package video

import (
	"context"
	"slices"
	"strings"

	"github.com/google/uuid"

	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/media"
	"github.com/captionqa/captionqa/backend/project"
)

// ExtractInput is what [Service.Extract] is asked (see the OpenAPI
// operation createExtractJob).
type ExtractInput struct {
	ProjectID string
	Mode      string
	// TrackIndex picks a subtitle stream among the media's subtitle
	// streams (soft_track; broadcast_cc of a file with several c608
	// tracks); nil takes the first.
	TrackIndex *int
	MediaKey   string
}

// Revisions stores a project's next timeline revision (*project.Service).
type Revisions interface {
	// PutIR stores ir as revision base+1; [apperr.Conflict] (reason
	// stale_revision, currentIrRevision) when base is not current.
	PutIR(ctx context.Context, accountID, id, ir string, base int) (*project.Project, error)
}

// Extract accepts an extract job: the captions read from the media become
// the project's next timeline revision. It checks what a run would need,
// takes one run of the daily pool and queues the job, in one transaction.
// It returns the queued job, or:
//   - [apperr.BadRequest] naming the field: "extractMode",
//     "mediaObjectKey" (missing), "trackIndex" (details.reason
//     "out_of_range", details.subtitleTracks), "projectId";
//   - [apperr.NotFound] for an unknown project or media;
//   - [apperr.Conflict] ("upload_pending", "media_expired") for the media;
//   - [apperr.ProcessingFailed] with details.reason "no_subtitle_track",
//     "bitmap_subtitle_unsupported" (soft_track) or "no_video_stream";
//   - [apperr.RateLimited], [apperr.QuotaExceeded] as [Service.Render].
func (s *Service) Extract(ctx context.Context, who project.Account, in ExtractInput) (*Job, error) {
	if !slices.Contains([]string{ModeSoftTrack, ModeBroadcastCC, ModeOCRBurned}, in.Mode) {
		return nil, apperr.New(apperr.BadRequest, "extractMode must be soft_track, broadcast_cc or ocr_burned").
			WithDetail("field", "extractMode")
	}
	if in.TrackIndex != nil && *in.TrackIndex < 0 {
		return nil, apperr.New(apperr.BadRequest, "trackIndex must be 0 or more").
			WithDetail("field", "trackIndex").WithDetail("reason", "out_of_range")
	}
	d, m, err := s.acceptMedia(ctx, who, in.ProjectID, in.MediaKey)
	if err != nil {
		return nil, err
	}
	now := s.now()
	j := &Job{ID: uuid.NewString(), AccountID: who.ID, ProjectID: d.ID, Kind: KindExtract, Mode: in.Mode,
		OutputDelivery: DeliveryURL, MediaKey: in.MediaKey, MediaSeconds: m.Probe.DurationSeconds, PixelRate: pixelRate(m.Probe), IRRevision: d.IRRevision,
		TrackIndex: -1, Status: Queued, Run: 1, CreatedAt: now, Pool: who.Pool, PoolDay: dayOf(now)}
	if err := pickTrack(j, m.Probe, in.TrackIndex); err != nil {
		return nil, err
	}
	return s.queue(ctx, who, j)
}

// acceptMedia is what a job that reads the project's media checks before
// it is queued, in this order: the project id and the media key given,
// the export burst limit and the daily pool (both cheap, before any
// read), then the project and its media. Errors are [Service.Extract]'s.
func (s *Service) acceptMedia(ctx context.Context, who project.Account, projectID, key string) (*project.Detail, *media.Session, error) {
	if err := checkUUID(projectID, "projectId"); err != nil {
		return nil, nil, err
	}
	if key == "" {
		return nil, nil, apperr.New(apperr.BadRequest, "mediaObjectKey is required: upload the video with POST /api/v1/media/upload").
			WithDetail("field", "mediaObjectKey").WithDetail("reason", "missing")
	}
	if err := s.o.Limiter.Allow(ctx, "export:"+who.ID); err != nil {
		return nil, nil, err
	}
	if err := s.o.Pool.Check(ctx, who.Pool, who.Cap); err != nil {
		return nil, nil, err
	}
	d, err := s.o.Timelines.ProjectIR(ctx, who.ID, strings.ToLower(projectID))
	if err != nil {
		return nil, nil, err
	}
	m, err := s.projectMedia(ctx, who.ID, d.ID, key)
	if err != nil {
		return nil, nil, err
	}
	return d, m, nil
}

// pickTrack checks that the media has what j's mode reads and sets
// j.TrackIndex: the subtitle stream of a soft_track (text only), the c608
// track of a broadcast_cc when the file has one (otherwise the captions
// are read from the video's A/53 user data), none for OCR.
func pickTrack(j *Job, p *media.Probe, want *int) error {
	var subs []media.Stream
	var c608 []int
	for _, st := range p.Streams {
		if st.Type == "subtitle" {
			subs = append(subs, st)
			if st.Codec == "eia_608" {
				c608 = append(c608, st.SubtitleIndex)
			}
		}
	}
	fail := func(reason, msg string, args ...any) error {
		return apperr.New(apperr.ProcessingFailed, msg, args...).WithDetail("reason", reason)
	}
	switch j.Mode {
	case ModeSoftTrack:
		i := 0
		if want != nil {
			i = *want
		}
		if len(subs) == 0 {
			return fail("no_subtitle_track", "the media has no subtitle track")
		}
		if i >= len(subs) {
			return apperr.New(apperr.BadRequest, "trackIndex %d: the media has %d subtitle tracks (0 to %d)", i, len(subs), len(subs)-1).
				WithDetail("field", "trackIndex").WithDetail("reason", "out_of_range").WithDetail("subtitleTracks", len(subs))
		}
		if !subs[i].Text {
			return fail("bitmap_subtitle_unsupported", "subtitle track %d is %s, a bitmap format: extract it with ocr_burned after burning it in, or use a text track", i, subs[i].Codec)
		}
		j.TrackIndex = i
	case ModeBroadcastCC:
		if want != nil {
			if !slices.Contains(c608, *want) {
				return apperr.New(apperr.BadRequest, "trackIndex %d is not a CEA-608 (c608) track of the media", *want).
					WithDetail("field", "trackIndex").WithDetail("reason", "out_of_range").WithDetail("subtitleTracks", len(subs))
			}
			j.TrackIndex = *want
		} else if len(c608) > 0 {
			j.TrackIndex = c608[0]
		}
		if j.TrackIndex < 0 && p.Video() == nil {
			return fail(ErrCodeNoVideo, "the media has neither video (with A/53 captions) nor a c608 caption track")
		}
	case ModeOCRBurned:
		if p.Video() == nil {
			return fail(ErrCodeNoVideo, "the media has no video to read burned-in captions from")
		}
	}
	return nil
}
