package video

import (
	"context"
	"errors"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/caption/format"
	"github.com/captionqa/captionqa/backend/engine"
	"github.com/captionqa/captionqa/backend/media"
	"github.com/captionqa/captionqa/backend/project"
)

// RenderInput is what [Service.Render] is asked, with the optional
// fields (see the OpenAPI operation createRenderJob).
type RenderInput struct {
	ProjectID      string
	Mode           string
	Preset         string
	FixProfile     string
	OutputDelivery string
	MediaKey       string
	Container      string
	SubtitleCodec  string
	Language       string
}

// Render accepts a render job of the project's current timeline: it
// checks everything a run would need, takes one run of the account's
// daily pool and queues the job, in one transaction. A preview (mode
// preview) is a render too, counted and stored as one, but of the media
// alone: it needs no preset and runs no engine (the export it is stored
// as still names the revision current then, so the project needs one).
// It returns the queued job (with its wait estimate and the pool's
// remaining runs), or:
//   - [apperr.BadRequest] naming the field: "mode", "outputDelivery"
//     (inline is for sidecars), "preset", "fixProfile", "container",
//     "subtitleCodec", "language", "mediaObjectKey" (missing for a video
//     mode), "projectId" (not a uuid);
//   - [apperr.NotFound] for an unknown project or media (details.field);
//   - [apperr.Conflict] with details.reason "project_empty" (no timeline
//     yet), "upload_pending" or "media_expired" (the media);
//   - [apperr.ProcessingFailed] (details.reason "no_video_stream") for
//     media without video;
//   - [apperr.RateLimited] past the export-operation burst limit;
//   - [apperr.QuotaExceeded] when the daily pool is full.
func (s *Service) Render(ctx context.Context, who project.Account, in RenderInput) (*Job, error) {
	if err := s.checkRender(ctx, who.ID, &in); err != nil {
		return nil, err
	}
	if err := checkUUID(in.ProjectID, "projectId"); err != nil {
		return nil, err
	}
	if err := s.o.Limiter.Allow(ctx, "export:"+who.ID); err != nil {
		return nil, err
	}
	if err := s.o.Pool.Check(ctx, who.Pool, who.Cap); err != nil {
		return nil, err
	}
	d, err := s.o.Timelines.ProjectIR(ctx, who.ID, strings.ToLower(in.ProjectID))
	if err != nil {
		return nil, err
	}
	if d.IRRevision == 0 {
		return nil, apperr.New(apperr.Conflict, "the project has no timeline yet to render; store one with PUT .../ir first").
			WithDetail("reason", "project_empty").WithDetail("currentIrRevision", 0)
	}
	now := s.now()
	j := &Job{ID: uuid.NewString(), AccountID: who.ID, ProjectID: d.ID, Kind: KindRender, Mode: in.Mode,
		Preset: in.Preset, FixProfile: in.FixProfile, OutputDelivery: in.OutputDelivery, Container: in.Container,
		SubtitleCodec: in.SubtitleCodec, Language: in.Language, IRRevision: d.IRRevision, TrackIndex: -1, Status: Queued, Run: 1,
		CreatedAt: now, Pool: who.Pool, PoolDay: dayOf(now)}
	if j.Language == "" && in.Mode != ModePreview {
		j.Language = iso6392(timelineLanguage(d.IR))
	}
	if in.Mode != ModeSidecar {
		if err := s.attachMedia(ctx, j, in.MediaKey); err != nil {
			return nil, err
		}
	}
	return s.queue(ctx, who, j)
}

// queue takes one run of who's daily pool and queues j, in one
// transaction, then estimates its wait. It returns [apperr.QuotaExceeded]
// when the pool is full.
func (s *Service) queue(ctx context.Context, who project.Account, j *Job) (*Job, error) {
	used, err := s.o.Store.CreateJob(ctx, j, project.RunCount{Pool: who.Pool, Day: j.PoolDay, Cap: who.Cap}, workArgs(j))
	if errors.Is(err, ErrPoolFull) {
		if cerr := s.o.Pool.Check(ctx, who.Pool, who.Cap); cerr != nil {
			return nil, cerr
		}
		return nil, apperr.New(apperr.QuotaExceeded, "the daily limit of %d successful runs is reached", who.Cap).Wrap(err)
	}
	if err != nil {
		return nil, err
	}
	j.RemainingRuns = max(who.Cap-used, 0)
	if err := s.estimate(ctx, j); err != nil {
		return nil, err
	}
	return j, nil
}

// projectMedia returns the account's media with this key, uploaded to the
// project: [apperr.BadRequest] (details.field "mediaObjectKey", reason
// "other_project") when it belongs to another project, and the errors of
// the media store's Media.
func (s *Service) projectMedia(ctx context.Context, accountID, projectID, key string) (*media.Session, error) {
	m, err := s.o.Media.Media(ctx, accountID, key)
	if err != nil {
		return nil, err
	}
	if m.ProjectID != projectID {
		return nil, apperr.New(apperr.BadRequest, "the media %q was uploaded to another project", key).
			WithDetail("field", "mediaObjectKey").WithDetail("reason", "other_project")
	}
	return m, nil
}

// attachMedia checks the job's media and fills its defaults from the
// probe: the container follows the source's (MP4 stays MP4, the rest
// becomes MKV), and the subtitle codec the container's.
func (s *Service) attachMedia(ctx context.Context, j *Job, key string) error {
	if key == "" {
		return apperr.New(apperr.BadRequest, "mediaObjectKey is required for %s: upload the video with POST /api/v1/media/upload", j.Mode).
			WithDetail("field", "mediaObjectKey").WithDetail("reason", "missing")
	}
	m, err := s.projectMedia(ctx, j.AccountID, j.ProjectID, key)
	if err != nil {
		return err
	}
	if m.Probe == nil || m.Probe.Video() == nil {
		return apperr.New(apperr.ProcessingFailed, "the media has no video stream to put captions on; a sidecar needs no media").
			WithDetail("reason", ErrCodeNoVideo)
	}
	j.MediaKey, j.MediaSeconds, j.PixelRate = key, m.Probe.DurationSeconds, pixelRate(m.Probe)
	switch {
	case j.Mode == ModePreview:
		j.Container = PreviewContainer
	case j.Container == "":
		j.Container = "mkv"
		if m.Probe.Container == "mp4" {
			j.Container = "mp4"
		}
	}
	if j.Mode == ModeMuxSoft && j.SubtitleCodec == "" {
		j.SubtitleCodec = "srt"
		if j.Container == "mp4" {
			j.SubtitleCodec = "mov_text"
		}
	}
	if j.Mode == ModeMuxSoft && j.Container == "mp4" && j.SubtitleCodec != "mov_text" {
		return apperr.New(apperr.BadRequest, "an MP4 carries captions as mov_text only; choose container mkv for %s", j.SubtitleCodec).
			WithDetail("field", "subtitleCodec").WithDetail("reason", "not_in_container")
	}
	return nil
}

// checkRender checks the names before any work, so a bad request costs
// nothing; the preset may be one of the account's own.
func (s *Service) checkRender(ctx context.Context, accountID string, in *RenderInput) error {
	bad := func(field, msg string, args ...any) *apperr.Error {
		return apperr.New(apperr.BadRequest, msg, args...).WithDetail("field", field)
	}
	if in.OutputDelivery == "" {
		in.OutputDelivery = DeliveryURL
	}
	switch {
	case !slices.Contains([]string{ModeSidecar, ModeMuxSoft, ModeBurnIn, ModePreview}, in.Mode):
		return bad("mode", "mode must be sidecar, mux_soft, burn_in or preview")
	case in.OutputDelivery != DeliveryInline && in.OutputDelivery != DeliveryURL:
		return bad("outputDelivery", "outputDelivery must be inline or url")
	case in.OutputDelivery == DeliveryInline && in.Mode != ModeSidecar:
		return bad("outputDelivery", "only a sidecar can be delivered inline; a video is delivered as a url").
			WithDetail("reason", "inline_only_for_sidecar")
	case in.Container != "" && (in.Mode == ModeSidecar || in.Mode == ModePreview || !slices.Contains([]string{"mp4", "mkv"}, in.Container)):
		return bad("container", "container must be mp4 or mkv, for mux_soft and burn_in")
	case in.SubtitleCodec != "" && (in.Mode != ModeMuxSoft || !slices.Contains([]string{"mov_text", "srt", "webvtt", "ass"}, in.SubtitleCodec)):
		return bad("subtitleCodec", "subtitleCodec must be mov_text, srt, webvtt or ass, for mux_soft")
	case in.Language != "" && !isISO6392(in.Language):
		return bad("language", "language must be a three-letter ISO 639-2 code such as eng")
	case in.Mode == ModePreview:
		// The media alone: no captions, so no preset, fix profile or
		// track language.
		in.Preset, in.FixProfile, in.Language = "", "", ""
		return nil
	case in.Preset == "":
		return bad("preset", "preset is required, such as youtube")
	case in.Mode == ModeSidecar:
		in.MediaKey = "" // not needed: a sidecar is the caption file alone
	}
	req := engine.Request{Preset: in.Preset, FixProfile: in.FixProfile}
	if err := s.resolvePreset(ctx, accountID, &req); err != nil {
		return err
	}
	if err := s.o.Engine.Validate(req); err != nil {
		return err
	}
	// An inline sidecar is a JSON string, which carries text only.
	p := req.Resolved
	if p == nil {
		p, _ = s.o.Engine.Presets().Lookup(req.Preset) // Validate found it
	}
	if in.OutputDelivery == DeliveryInline && p != nil && format.Binary(p.Output) {
		return bad("outputDelivery", "%s delivers %s, a binary format: take it as a url", p.ID, format.Title(p.Output)).
			WithDetail("reason", "binary_format")
	}
	return nil
}

// resolvePreset resolves req's preset for the account through
// [Options.Presets], when there is one.
func (s *Service) resolvePreset(ctx context.Context, accountID string, req *engine.Request) error {
	if s.o.Presets == nil {
		return nil
	}
	return s.o.Presets.Resolve(ctx, accountID, req)
}

// Timeout bounds one run of j: two minutes, plus time per media second
// well above the slowest this machine kind was measured at (burn-in at
// 1080p about 2x real time under load, a preview of 720p MPEG-2 3 to 8x;
// stream copies over 100x).
func Timeout(j *Job) time.Duration {
	per := 0.5
	if j.Mode == ModeBurnIn || j.Mode == ModePreview {
		per = 3
	}
	return 2*time.Minute + time.Duration(j.MediaSeconds*per*workScale(j)*float64(time.Second))
}

func workArgs(j *Job) WorkArgs {
	return WorkArgs{JobID: j.ID, Run: j.Run, TimeoutSeconds: int(Timeout(j) / time.Second)}
}

func dayOf(t time.Time) time.Time {
	y, m, d := t.UTC().Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

func checkUUID(id, field string) error {
	if _, err := uuid.Parse(id); err != nil || len(id) != 36 {
		return apperr.New(apperr.BadRequest, "%s must be a UUID such as 7d444840-9dc0-11d1-b245-5ffdce74fad2", field).
			WithDetail("field", field).WithDetail("reason", "invalid_uuid")
	}
	return nil
}

func checkJobID(id string) error {
	if _, err := uuid.Parse(id); err != nil || len(id) != 36 {
		return apperr.New(apperr.NotFound, "no job %q", id)
	}
	return nil
}
