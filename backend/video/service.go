package video

import (
	"context"
	"errors"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/blob"
	"github.com/captionqa/captionqa/backend/engine"
	"github.com/captionqa/captionqa/backend/media"
	"github.com/captionqa/captionqa/backend/parallel"
	"github.com/captionqa/captionqa/backend/project"
)

// MediaSource finds an account's completed media (*media.Service).
type MediaSource interface {
	// Media returns the completed, unexpired media at objectKey;
	// [apperr.NotFound] or [apperr.Conflict] as media.Service.Media.
	Media(ctx context.Context, accountID, objectKey string) (*media.Session, error)
}

// Timelines reads a project's timeline (the project store).
type Timelines interface {
	// ProjectIR returns the project and its current IR, or
	// [apperr.NotFound].
	ProjectIR(ctx context.Context, accountID, id string) (*project.Detail, error)
	// RevisionIR returns the IR of one kept revision, or
	// [apperr.NotFound].
	RevisionIR(ctx context.Context, accountID, id string, number int) (string, error)
}

// Options configure a [Service]. Workers, Now and Logger are optional.
type Options struct {
	Store     Store
	Media     MediaSource
	Timelines Timelines
	// Revisions stores an extract's captions as the project's next
	// revision.
	Revisions Revisions
	Engine    *engine.Engine
	// Presets resolves a job's preset for its account (the account's own
	// presets); nil resolves the built-ins only.
	Presets engine.PresetResolver
	Blobs   blob.Store
	Runner  Runner
	Pool    project.Pool
	// Limiter holds the export-operation burst limit: a job is an export.
	Limiter project.Limiter
	// HeavyWorkers and LightWorkers are how many jobs each lane works at
	// once (for the wait estimate; default 1 each).
	HeavyWorkers, LightWorkers int
	// PerAccount is how many jobs of one account run at once in this
	// process (default [PerAccount]); the account's next job waits
	// without taking a worker.
	PerAccount int
	// StaleAfter is how long a running job's heartbeat may be silent
	// before Rescue takes its process for dead (default [StaleAfter]).
	StaleAfter time.Duration
	Now        func() time.Time
	Logger     *slog.Logger
}

// Service accepts, runs and cancels video jobs. It is safe for
// concurrent use.
type Service struct {
	o Options

	mu      sync.Mutex
	running map[string]context.CancelCauseFunc // job id → its run's cancel, in this process
	// accounts counts the runs of each account in this process, against
	// Options.PerAccount.
	accounts *parallel.InFlight
}

// NewService returns a [Service]; it panics when a required option is
// missing (a wiring defect of the composition root).
func NewService(o Options) *Service {
	if o.Store == nil || o.Media == nil || o.Timelines == nil || o.Revisions == nil || o.Engine == nil || o.Blobs == nil ||
		o.Runner == nil || o.Pool == nil || o.Limiter == nil {
		panic("video: NewService needs Store, Media, Timelines, Revisions, Engine, Blobs, Runner, Pool and Limiter")
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	o.HeavyWorkers, o.LightWorkers = max(o.HeavyWorkers, 1), max(o.LightWorkers, 1)
	if o.StaleAfter <= 0 {
		o.StaleAfter = StaleAfter
	}
	if o.PerAccount <= 0 {
		o.PerAccount = PerAccount
	}
	return &Service{o: o, running: map[string]context.CancelCauseFunc{}, accounts: parallel.NewInFlight(o.PerAccount)}
}

func (s *Service) now() time.Time { return s.o.Now().UTC().Truncate(time.Second) }

// Get returns the account's job (with its wait estimate while queued), or
// [apperr.NotFound].
func (s *Service) Get(ctx context.Context, accountID, id string) (*Job, error) {
	if err := checkJobID(id); err != nil {
		return nil, err
	}
	j, err := s.o.Store.Job(ctx, accountID, id)
	if err != nil {
		return nil, err
	}
	if err := s.estimate(ctx, j); err != nil {
		return nil, err
	}
	return j, nil
}

// List returns the account's latest jobs for a project (at most 50),
// newest first; of one mode alone unless mode is "" (the editor finds a
// media's preview so). It returns [apperr.BadRequest] with
// details.field "projectId" for an id that is not a uuid, "mode" for an
// unknown mode.
func (s *Service) List(ctx context.Context, accountID, projectID, mode string) ([]Job, error) {
	if err := checkUUID(projectID, "projectId"); err != nil {
		return nil, err
	}
	if mode != "" && !slices.Contains(Modes, mode) {
		return nil, apperr.New(apperr.BadRequest, "mode must be one of %s", strings.Join(Modes, ", ")).WithDetail("field", "mode")
	}
	return s.o.Store.ListJobs(ctx, accountID, projectID, mode, 50)
}

// errCanceled is the cause of a run's context when its job was canceled.
var errCanceled = errors.New("video: job canceled")

// Cancel cancels the account's queued or running job and returns it: a
// queued job never starts, a running one has its ffmpeg stopped and its
// partial output removed (at once in this process; another process's
// run notices within a heartbeat). Its run of the daily pool is given
// back. Errors: [apperr.NotFound]; [apperr.Conflict] (details.reason
// "job_finished") when the job already ended.
func (s *Service) Cancel(ctx context.Context, accountID, id string) (*Job, error) {
	if err := checkJobID(id); err != nil {
		return nil, err
	}
	j, err := s.o.Store.Cancel(ctx, accountID, id, s.now())
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	cancel := s.running[id]
	s.mu.Unlock()
	if cancel != nil {
		cancel(errCanceled)
	}
	return j, nil
}
