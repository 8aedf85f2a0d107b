package exporttpl

import (
	"context"
	"strings"
	"time"

	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/caption"
	"github.com/captionqa/captionqa/backend/project"
)

// Modes of a validate or test call.
const (
	ModeValidate = "validate"
	ModeTest     = "test"
	ModeBoth     = "both"
	// MaxPreviewBytes bounds the output a test shows.
	MaxPreviewBytes = 64 << 10
)

// Check is a validate or test call: the script (for validate), the mode
// and the project to test against.
type Check struct {
	Source    string
	Mode      string
	ProjectID string
}

// RunResult is what a validate or test call did, per phase: nil phases
// were not asked.
type RunResult struct {
	Mode     string
	Validate *Phase
	Test     *TestResult
	// RemainingRuns is the account's daily pool after the call.
	RemainingRuns int
}

// Phase is a phase that passed and how long it took.
type Phase struct {
	Duration time.Duration
}

// TestResult is a test run's output: its first [MaxPreviewBytes]
// (Truncated when there is more; cut at a character boundary), its size,
// file name and content type.
type TestResult struct {
	Phase
	Preview     string
	OutputBytes int
	Truncated   bool
	Filename    string
	ContentType string
}

// Validate checks a script that is not saved, and with mode test or
// both also runs it against a project. It returns [apperr.BadRequest]
// for an unknown mode (details.field "mode"), a missing projectId, or a
// script that does not compile (as [Service.Create]), the fair-share
// refusals of [Service.Create], and the errors of a test ([Service.Test]).
func (s *Service) Validate(ctx context.Context, who project.Account, in Check) (*RunResult, error) {
	mode, err := checkMode(in.Mode, ModeValidate, in.ProjectID)
	if err != nil {
		return nil, err
	}
	res := &RunResult{Mode: mode}
	var c *Compiled
	// A test alone still compiles the script: a draft has nothing else
	// to run.
	start := time.Now()
	if c, err = s.compile(ctx, who.ID, in.Source); err != nil {
		return nil, err
	}
	if mode != ModeTest {
		res.Validate = &Phase{Duration: time.Since(start)}
	}
	draft := &Template{Name: "draft", FilenamePattern: DefaultFilenamePattern, ContentType: DefaultContentType}
	return s.finish(ctx, who, res, draft, c, in.ProjectID)
}

// Test runs the account's saved template against a project (mode test,
// the default) and, with mode both, compiles its source again first. A
// test that succeeds counts one run of the daily pool (docs/templates.md).
// It returns the errors of [Service.Get], [apperr.BadRequest] for a bad
// mode or a missing or malformed projectId, [apperr.NotFound] for an
// unknown project, [apperr.ProcessingFailed] for a project without a
// timeline (details.reason "project_empty") or a script that fails
// (details "phase", "kind", "message", "line", "column", "stack"),
// [apperr.RateLimited] past the export-operation burst limit,
// [apperr.QuotaExceeded] when the pool is full, and the fair-share
// refusals of [Service.Create].
func (s *Service) Test(ctx context.Context, who project.Account, id string, in Check) (*RunResult, error) {
	mode, err := checkMode(in.Mode, ModeTest, in.ProjectID)
	if err != nil {
		return nil, err
	}
	if mode == ModeValidate {
		return nil, apperr.New(apperr.BadRequest, "mode: a saved template was validated when it was saved; use test or both").
			WithDetail("field", "mode")
	}
	t, err := s.Get(ctx, who.ID, id)
	if err != nil {
		return nil, err
	}
	res := &RunResult{Mode: mode}
	c := &Compiled{JS: t.JS}
	if mode == ModeBoth {
		start := time.Now()
		if c, err = s.compile(ctx, who.ID, t.Source); err != nil {
			return nil, err
		}
		res.Validate = &Phase{Duration: time.Since(start)}
	}
	return s.finish(ctx, who, res, t, c, in.ProjectID)
}

// finish runs the test phase when res's mode asks for one, and fills the
// pool's remaining runs.
func (s *Service) finish(ctx context.Context, who project.Account, res *RunResult, t *Template, c *Compiled, projectID string) (*RunResult, error) {
	if res.Mode == ModeValidate {
		u, err := s.o.Pool.Usage(ctx, who.Pool, who.Cap)
		if err != nil {
			return nil, err
		}
		res.RemainingRuns = u.Remaining
		return res, nil
	}
	if err := s.o.Limiter.Allow(ctx, "export:"+who.ID); err != nil {
		return nil, err
	}
	if err := s.o.Pool.Check(ctx, who.Pool, who.Cap); err != nil {
		return nil, err
	}
	d, err := s.o.Projects.Get(ctx, who.ID, projectID)
	if err != nil {
		if ae, ok := apperr.As(err); ok && ae.Details["field"] == "id" {
			return nil, apperr.New(apperr.BadRequest, "projectId must be a UUID").WithDetail("field", "projectId").Wrap(err)
		}
		return nil, err
	}
	start := time.Now()
	out, err := s.run(ctx, who.ID, t, c, d, "")
	if err != nil {
		return nil, err
	}
	test := &TestResult{Phase: Phase{Duration: time.Since(start)}, OutputBytes: len(out.Body),
		Filename: out.Filename, ContentType: out.ContentType}
	test.Preview, test.Truncated = preview(out.Body)
	remaining, err := s.o.Pool.Take(ctx, who.Pool, who.Cap)
	if err != nil {
		return nil, err
	}
	res.Test, res.RemainingRuns = test, remaining
	return res, nil
}

// Render runs the account's template on d's timeline during an export
// whose first preset is preset (ctx.preset; "" when it has none). It
// returns the template's name with the output, the errors of
// [Service.Get], those of a failed run ([Service.Test]) and the
// fair-share refusals of [Service.Create].
func (s *Service) Render(ctx context.Context, accountID, templateID string, d *project.Detail, preset string) (*project.Rendered, error) {
	t, err := s.Get(ctx, accountID, templateID)
	if err != nil {
		return nil, err
	}
	out, err := s.run(ctx, accountID, t, &Compiled{JS: t.JS}, d, preset)
	if err != nil {
		return nil, err
	}
	return &project.Rendered{TemplateID: t.ID, TemplateName: t.Name, Body: out.Body, Filename: out.Filename,
		ContentType: out.ContentType}, nil
}

// run runs c (t's script) on d's timeline in one of the account's VMs
// ([Service.inVM]) and fills in the file name and content type.
func (s *Service) run(ctx context.Context, accountID string, t *Template, c *Compiled, d *project.Detail, preset string) (*Output, error) {
	if d.IRRevision == 0 || d.IR == "" {
		return nil, apperr.New(apperr.ProcessingFailed, "the project has no timeline yet to run the template on").
			WithDetail("reason", "project_empty")
	}
	in, err := input(t, d, preset)
	if err != nil {
		return nil, err
	}
	var out *Output
	err = s.inVM(ctx, accountID, func(ctx context.Context) (err error) {
		out, err = s.o.Runner.Run(ctx, c, in, s.o.RunTimeout)
		return err
	})
	if err != nil {
		return nil, scriptFailed(err)
	}
	out.Filename = fileName(t, out.Filename, d.Name, d.IRRevision)
	if out.ContentType == "" || checkContentType(out.ContentType) != nil {
		out.ContentType = t.ContentType
	}
	return out, nil
}

// input is what a script sees of d's timeline.
func input(t *Template, d *project.Detail, preset string) (*Input, error) {
	track, _, err := caption.ParseJSON(strings.NewReader(d.IR))
	if err != nil {
		return nil, err // a stored timeline always reads: an internal failure
	}
	cues := make([]Cue, len(track.Cues))
	for i := range track.Cues {
		c := &track.Cues[i]
		spans := c.Spans
		if spans == nil {
			spans = []caption.Span{}
		}
		cues[i] = Cue{Index: i, ID: c.ID, StartMs: c.StartMs, EndMs: c.EndMs, Text: c.Text, Lines: c.Lines(),
			Spans: spans, Placement: c.Placement}
		if c.Voice != "" {
			cues[i].Speaker = &c.Voice
		}
	}
	return &Input{Cues: cues, Ctx: Context{ProjectID: d.ID, ProjectName: d.Name, IRRevision: d.IRRevision,
		Language: track.Language, FrameRate: track.FrameRate, Preset: preset, TemplateName: t.Name}}, nil
}

// checkMode returns mode or def when empty, and refuses an unknown one
// or a test without a project.
func checkMode(mode, def, projectID string) (string, error) {
	if mode == "" {
		mode = def
	}
	switch mode {
	case ModeValidate:
		return mode, nil
	case ModeTest, ModeBoth:
		if projectID == "" {
			return "", apperr.New(apperr.BadRequest, "projectId is required for mode %s: the project to test against", mode).
				WithDetail("field", "projectId").WithDetail("reason", "required")
		}
		return mode, nil
	}
	return "", apperr.New(apperr.BadRequest, "mode: one of validate, test, both").WithDetail("field", "mode")
}

// preview returns s's first MaxPreviewBytes, cut at a character
// boundary, and whether it was cut.
func preview(s string) (string, bool) {
	if len(s) <= MaxPreviewBytes {
		return s, false
	}
	cut := MaxPreviewBytes
	for cut > 0 && !utf8RuneStart(s[cut]) {
		cut--
	}
	return s[:cut], true
}

func utf8RuneStart(b byte) bool { return b&0xC0 != 0x80 }
