package video

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/google/uuid"

	"github.com/captionqa/captionqa/backend/analysis"
	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/media"
	"github.com/captionqa/captionqa/backend/project"
)

// AnalyzeInput is what [Service.Analyze] is asked (see the OpenAPI
// operation createAnalyzeJob).
type AnalyzeInput struct {
	ProjectID string
	MediaKey  string
}

// StoredAnalysis is an analyze job's result as the store keeps it: the
// newest analysis of one uploaded media.
type StoredAnalysis struct {
	UploadID  string
	AccountID string
	ProjectID string
	JobID     string
	// JSON is the [analysis.Analysis] in its JSON form.
	JSON string
}

// Analyze accepts an analyze job: the media's shot changes, speech and
// waveform, kept with the media and used by every later check of the
// project's captions (docs/media.md, Analysis). It takes one run of the
// daily pool and queues the job, in one transaction. It returns the
// queued job, or:
//   - [apperr.BadRequest] naming the field: "projectId",
//     "mediaObjectKey" (missing, or reason "other_project");
//   - [apperr.NotFound] for an unknown project or media;
//   - [apperr.Conflict] ("upload_pending", "media_expired") for the media;
//   - [apperr.ProcessingFailed] with details.reason "nothing_to_analyze"
//     for media with neither picture nor sound;
//   - [apperr.RateLimited], [apperr.QuotaExceeded] as [Service.Render].
func (s *Service) Analyze(ctx context.Context, who project.Account, in AnalyzeInput) (*Job, error) {
	d, m, err := s.acceptMedia(ctx, who, in.ProjectID, in.MediaKey)
	if err != nil {
		return nil, err
	}
	if m.Probe == nil || (m.Probe.Video() == nil && !hasAudio(m.Probe.Streams)) {
		return nil, apperr.New(apperr.ProcessingFailed, "the media has neither a video nor an audio stream to analyse").
			WithDetail("reason", "nothing_to_analyze")
	}
	now := s.now()
	j := &Job{ID: uuid.NewString(), AccountID: who.ID, ProjectID: d.ID, Kind: KindAnalyze, Mode: ModeAnalyze,
		OutputDelivery: DeliveryInline, MediaKey: in.MediaKey, MediaSeconds: m.Probe.DurationSeconds, PixelRate: pixelRate(m.Probe),
		IRRevision: d.IRRevision, TrackIndex: -1, Status: Queued, Run: 1, CreatedAt: now, Pool: who.Pool, PoolDay: dayOf(now)}
	return s.queue(ctx, who, j)
}

// produceAnalysis analyses the job's media.
func (s *Service) produceAnalysis(ctx context.Context, j *Job, progress func(float64)) (*produced, error) {
	m, err := s.o.Media.Media(ctx, j.AccountID, j.MediaKey)
	if err != nil {
		return nil, jobErr(err, ErrCodeMediaExpired, "")
	}
	a, err := s.o.Runner.Analyze(ctx, AnalyzeSpecOf(j.MediaKey, m.Probe), progress)
	if err != nil {
		return nil, err
	}
	return &produced{name: m.ID, analysis: a}, nil
}

// storeAnalysis keeps the analysis with its media and ends the job, in
// one transaction: out.name is the media's upload id.
func (s *Service) storeAnalysis(ctx context.Context, j *Job, out *produced) error {
	body, err := json.Marshal(out.analysis)
	if err != nil {
		return fmt.Errorf("video: job %s: encode the analysis: %w", j.ID, err)
	}
	j.FinishedAt = s.now()
	_, err = s.o.Store.SucceedAnalysis(ctx, j, &StoredAnalysis{UploadID: out.name, AccountID: j.AccountID, ProjectID: j.ProjectID,
		JobID: j.ID, JSON: string(body)})
	return err
}

// hasAudio reports whether streams hold an audio stream.
func hasAudio(streams []media.Stream) bool {
	for _, st := range streams {
		if st.Type == "audio" {
			return true
		}
	}
	return false
}

// AnalyzeSpecOf is the analysis of the media at key, which p describes:
// the stages its streams call for.
func AnalyzeSpecOf(key string, p *media.Probe) AnalyzeSpec {
	spec := AnalyzeSpec{MediaKey: key, Container: p.Container, Audio: hasAudio(p.Streams), DurationSeconds: p.DurationSeconds}
	if v := p.Video(); v != nil {
		r := analysis.RationalOf(v.FrameRate)
		spec.Video, spec.FrameRateNum, spec.FrameRateDen = true, r.Num, r.Den
	}
	return spec
}
