package exporttpl

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/name"
	"github.com/captionqa/captionqa/backend/parallel"
	"github.com/captionqa/captionqa/backend/project"
	"github.com/captionqa/captionqa/backend/quota"
)

// Projects finds a project's current timeline (*project.Service).
type Projects interface {
	// Get returns [apperr.BadRequest] for an id that is not a UUID and
	// [apperr.NotFound] for an unknown project or another account's.
	Get(ctx context.Context, accountID, id string) (*project.Detail, error)
}

// Pool is the daily run pool a test draws from (*quota.Service).
type Pool interface {
	Check(ctx context.Context, pool string, cap int) error
	Take(ctx context.Context, pool string, cap int) (remaining int, err error)
	Usage(ctx context.Context, pool string, cap int) (quota.Usage, error)
}

// Limiter is the export-operation burst limit (*quota.Service), which
// template tests share with exports.
type Limiter interface {
	Allow(ctx context.Context, key string) error
}

// Options configure a [Service]. All but Now are required.
type Options struct {
	Runner   Runner
	Projects Projects
	Pool     Pool
	Limiter  Limiter
	// RunTimeout bounds one run (default [RunTimeout]); tests shorten it.
	RunTimeout time.Duration
	// RunsPerAccount bounds the VMs one account has at once, compiling
	// or running (default [DefaultRunsPerAccount]), and QueueWait how
	// long a call waits for one (default [DefaultQueueWait]).
	RunsPerAccount int
	QueueWait      time.Duration
	// CPUBudget is the VM time the failed calls of one account may take
	// in a rolling CPUWindow (defaults [DefaultCPUBudget],
	// [DefaultCPUWindow]); a negative budget is none.
	CPUBudget, CPUWindow time.Duration
	Now                  func() time.Time
}

// Service manages export templates and runs them. It is safe for
// concurrent use.
type Service struct {
	store Store
	o     Options
	// accounts counts the VMs of each account, budget what their
	// failures took: both in this process only (docs/templates.md).
	accounts *parallel.InFlight
	budget   *budget
}

// NewService returns a [Service] over store; it panics when a required
// option is missing (a wiring defect of the composition root).
func NewService(store Store, o Options) *Service {
	if store == nil || o.Runner == nil || o.Projects == nil || o.Pool == nil || o.Limiter == nil {
		panic("exporttpl: NewService needs a Store, Runner, Projects, Pool and Limiter")
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.RunTimeout <= 0 {
		o.RunTimeout = RunTimeout
	}
	if o.RunsPerAccount <= 0 {
		o.RunsPerAccount = DefaultRunsPerAccount
	}
	if o.QueueWait <= 0 {
		o.QueueWait = DefaultQueueWait
	}
	if o.CPUBudget == 0 {
		o.CPUBudget = DefaultCPUBudget
	}
	if o.CPUWindow <= 0 {
		o.CPUWindow = DefaultCPUWindow
	}
	return &Service{store: store, o: o, accounts: parallel.NewInFlight(o.RunsPerAccount),
		budget: newBudget(o.CPUBudget, o.CPUWindow)}
}

func (s *Service) clock() time.Time { return s.o.Now().UTC().Truncate(time.Second) }

// Draft is a new template.
type Draft struct {
	Name            string
	Source          string
	FilenamePattern string // "" is [DefaultFilenamePattern]
	ContentType     string // "" is [DefaultContentType]
}

// Create validates d's script and stores it as a new template, revision
// 1. It returns [apperr.BadRequest] for a bad name (details.field
// "name"), pattern or content type, a script too large
// ([apperr.RequestTooLarge], details.field "scriptSource") or one that
// does not compile ([scriptRefused]: details.field "scriptSource",
// "reason", "kind", "message", "line", "column"); [apperr.Conflict]
// (details.reason "template_limit") past [MaxTemplates]; and the
// refusals of the runtime's fair share, [apperr.RateLimited]
// (details.limit "template_runs_per_account" or "template_cpu_budget")
// and [apperr.Unavailable] (details.limit "template_vms"), both with
// details.retryAfterSeconds (docs/templates.md, Limits).
func (s *Service) Create(ctx context.Context, accountID string, d Draft) (*Template, error) {
	n, err := name.Check("name", d.Name, MaxNameLen)
	if err != nil {
		return nil, err
	}
	t := &Template{ID: uuid.NewString(), AccountID: accountID, Name: n, Revision: 1,
		FilenamePattern: d.FilenamePattern, ContentType: d.ContentType}
	if err := s.fill(ctx, t, d.Source); err != nil {
		return nil, err
	}
	t.CreatedAt = s.clock()
	t.UpdatedAt = t.CreatedAt
	err = s.store.CreateTemplate(ctx, t, MaxTemplates)
	if errors.Is(err, ErrTooManyTemplates) {
		return nil, apperr.New(apperr.Conflict, "the account already holds %d templates, the most it may", MaxTemplates).
			WithDetail("reason", "template_limit").WithDetail("limit", MaxTemplates).Wrap(err)
	}
	if err != nil {
		return nil, err
	}
	return t, nil
}

// fill checks t's pattern and content type, defaulting them, and
// compiles source into t.
func (s *Service) fill(ctx context.Context, t *Template, source string) error {
	if t.FilenamePattern == "" {
		t.FilenamePattern = DefaultFilenamePattern
	}
	if t.ContentType == "" {
		t.ContentType = DefaultContentType
	}
	if err := checkPattern(t.FilenamePattern); err != nil {
		return err
	}
	if err := checkContentType(t.ContentType); err != nil {
		return err
	}
	c, err := s.compile(ctx, t.AccountID, source)
	if err != nil {
		return err
	}
	t.Source, t.JS = source, c.JS
	return nil
}

// compile checks source's size and compiles it in one of the account's
// VMs ([Service.inVM]).
func (s *Service) compile(ctx context.Context, accountID, source string) (*Compiled, error) {
	if len(source) > MaxScriptBytes {
		return nil, apperr.New(apperr.RequestTooLarge, "scriptSource: at most %d bytes", MaxScriptBytes).
			WithDetail("field", "scriptSource").WithDetail("limitBytes", MaxScriptBytes)
	}
	var c *Compiled
	err := s.inVM(ctx, accountID, func(ctx context.Context) (err error) {
		c, err = s.o.Runner.Compile(ctx, source)
		return err
	})
	if err != nil {
		return nil, scriptRefused(err)
	}
	return c, nil
}

// List returns the account's templates, newest first, without their
// scripts.
func (s *Service) List(ctx context.Context, accountID string) ([]Template, error) {
	return s.store.ListTemplates(ctx, accountID)
}

// Get returns the account's template, or [apperr.NotFound] (also for an
// id that is not a UUID).
func (s *Service) Get(ctx context.Context, accountID, id string) (*Template, error) {
	if _, err := uuid.Parse(id); err != nil || len(id) != 36 {
		return nil, apperr.New(apperr.NotFound, "export template not found")
	}
	t, err := s.store.Template(ctx, accountID, id)
	if apperr.KindOf(err) == apperr.NotFound {
		return nil, apperr.New(apperr.NotFound, "export template not found").Wrap(err)
	}
	return t, err
}

// Change is an update of a template: nil fields keep their value.
// Revision, when set, is the revision the caller changes: a template
// saved since is a conflict.
type Change struct {
	Name            *string
	Source          *string
	FilenamePattern *string
	ContentType     *string
	Revision        *int
}

// Update changes the account's template and counts a new revision. It
// returns the errors of [Service.Get] and [Service.Create], and
// [apperr.Conflict] with details.reason "stale_revision" and
// "currentRevision" when the template was saved since c.Revision.
func (s *Service) Update(ctx context.Context, accountID, id string, c Change) (*Template, error) {
	t, err := s.Get(ctx, accountID, id)
	if err != nil {
		return nil, err
	}
	base := t.Revision
	if c.Revision != nil && *c.Revision != base {
		return nil, stale(base)
	}
	if c.Name != nil {
		if t.Name, err = name.Check("name", *c.Name, MaxNameLen); err != nil {
			return nil, err
		}
	}
	if c.FilenamePattern != nil {
		t.FilenamePattern = *c.FilenamePattern
	}
	if c.ContentType != nil {
		t.ContentType = *c.ContentType
	}
	source := t.Source
	if c.Source != nil {
		source = *c.Source
	}
	if err := s.fill(ctx, t, source); err != nil {
		return nil, err
	}
	t.Revision, t.UpdatedAt = base+1, s.clock()
	var se *StaleRevisionError
	switch err := s.store.UpdateTemplate(ctx, t, base); {
	case errors.As(err, &se):
		return nil, stale(se.Current).Wrap(err)
	case err != nil:
		return nil, err
	}
	return t, nil
}

func stale(current int) *apperr.Error {
	return apperr.New(apperr.Conflict, "the template was saved since (revision %d): reload it and apply the change again", current).
		WithDetail("reason", "stale_revision").WithDetail("currentRevision", current)
}

// Delete deletes the account's template; errors are those of
// [Service.Get].
func (s *Service) Delete(ctx context.Context, accountID, id string) error {
	if _, err := s.Get(ctx, accountID, id); err != nil {
		return err
	}
	err := s.store.DeleteTemplate(ctx, accountID, id)
	if apperr.KindOf(err) == apperr.NotFound {
		return apperr.New(apperr.NotFound, "export template not found").Wrap(err)
	}
	if err != nil {
		return fmt.Errorf("exporttpl: delete %s: %w", id, err)
	}
	return nil
}
