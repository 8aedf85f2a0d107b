package exporttpl_test

import (
	"context"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/exporttpl"
	"github.com/captionqa/captionqa/backend/internal/testkit"
	"github.com/captionqa/captionqa/backend/project"
	"github.com/captionqa/captionqa/backend/quota"
)

// fakeRunner compiles every script and runs it by its source: "ok"
// succeeds, "timeout" fails as a script out of time, "block" waits for
// release; each run moves the clock on by took first.
type fakeRunner struct {
	clock   *testkit.Clock
	took    time.Duration
	started chan struct{}
	release chan struct{}
}

func (f *fakeRunner) Compile(_ context.Context, src string) (*exporttpl.Compiled, error) {
	return &exporttpl.Compiled{JS: src}, nil
}

func (f *fakeRunner) Run(ctx context.Context, c *exporttpl.Compiled, _ *exporttpl.Input, _ time.Duration) (*exporttpl.Output, error) {
	f.clock.Advance(f.took)
	switch c.JS {
	case "timeout":
		return nil, &exporttpl.ScriptError{Phase: exporttpl.PhaseRun, Kind: exporttpl.KindTimeout, Message: "out of time"}
	case "block":
		f.started <- struct{}{}
		<-f.release
	}
	return &exporttpl.Output{Body: "done"}, nil
}

type fakeProjects struct{}

func (fakeProjects) Get(_ context.Context, _, id string) (*project.Detail, error) {
	return &project.Detail{Project: project.Project{ID: id, Name: "Lecture", IRRevision: 1},
		IR: `{"version":1,"cues":[{"id":"1","startMs":1000,"endMs":2000,"text":"Hi."}]}`}, nil
}

type fakePool struct{}

func (fakePool) Check(context.Context, string, int) error               { return nil }
func (fakePool) Take(_ context.Context, _ string, cap int) (int, error) { return cap, nil }
func (fakePool) Usage(_ context.Context, _ string, cap int) (quota.Usage, error) {
	return quota.Usage{Cap: cap, Remaining: cap}, nil
}

type fakeLimiter struct{}

func (fakeLimiter) Allow(context.Context, string) error { return nil }

// noStore is never reached: Validate runs drafts.
type noStore struct{ exporttpl.Store }

func newService(r *fakeRunner, o exporttpl.Options) *exporttpl.Service {
	o.Runner, o.Projects, o.Pool, o.Limiter, o.Now = r, fakeProjects{}, fakePool{}, fakeLimiter{}, r.clock.Now
	return exporttpl.NewService(noStore{}, o)
}

func test(s *exporttpl.Service, account, script string) error {
	_, err := s.Validate(context.Background(), project.Account{ID: account, Pool: account, Cap: 100},
		exporttpl.Check{Source: script, Mode: exporttpl.ModeTest, ProjectID: "p1"})
	return err
}

// wantRefused checks err is a 429 rate_limited of limit, and returns its
// retryAfterSeconds.
func wantRefused(t *testing.T, err error, limit string) int {
	t.Helper()
	e, ok := apperr.As(err)
	if !ok || e.Kind != apperr.RateLimited || e.Details["limit"] != limit {
		t.Fatalf("err = %v; want rate_limited, limit %s", err, limit)
	}
	s, _ := e.Details["retryAfterSeconds"].(int)
	return s
}

// TestCPUBudget: the time of failed runs counts against the account
// until its budget is spent; then every call is refused, with the time
// until the oldest failures are forgotten, and runs again once they are.
// Successful runs and other accounts are not charged.
func TestCPUBudget(t *testing.T) {
	t0 := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC) // a minute's start: the budget's slices are of a minute
	r := &fakeRunner{clock: testkit.NewClock(t0), took: 10 * time.Second}
	s := newService(r, exporttpl.Options{CPUBudget: time.Minute, CPUWindow: 10 * time.Minute})

	r.took = 100 * time.Second
	if err := test(s, "a", "ok"); err != nil {
		t.Fatalf("a run that succeeds: %v", err)
	}
	r.took = 10 * time.Second
	// Six failures of 10 s end at 1:50 to 2:40: 10 s in the slice from
	// 1:00, 50 s in the one from 2:00.
	for i := range 6 {
		if err := test(s, "a", "timeout"); apperr.KindOf(err) != apperr.ProcessingFailed {
			t.Fatalf("failure %d: %v; want processing_failed (the budget holds a minute)", i+1, err)
		}
	}
	if got := wantRefused(t, test(s, "a", "ok"), "template_cpu_budget"); got != 500 {
		t.Errorf("retryAfterSeconds = %d; want 500, until 11:00 forgets the slice from 1:00", got)
	}
	if err := test(s, "b", "timeout"); apperr.KindOf(err) != apperr.ProcessingFailed {
		t.Errorf("another account: %v; want its own budget", err)
	}

	r.clock.Set(t0.Add(11*time.Minute - time.Second))
	if got := wantRefused(t, test(s, "a", "ok"), "template_cpu_budget"); got != 1 {
		t.Errorf("a second before: retryAfterSeconds = %d; want 1", got)
	}
	r.clock.Set(t0.Add(11 * time.Minute))
	if err := test(s, "a", "ok"); err != nil {
		t.Fatalf("once the slice from 1:00 is forgotten (50 s left): %v", err)
	}
	if err := test(s, "a", "timeout"); apperr.KindOf(err) != apperr.ProcessingFailed {
		t.Fatalf("a failure under the budget: %v", err)
	}
	if wantRefused(t, test(s, "a", "ok"), "template_cpu_budget") == 0 {
		t.Error("no retryAfterSeconds")
	}
}

// TestRunsPerAccount: while one of an account's runs holds its VM, its
// next call is refused after the queue wait and another account's runs.
func TestRunsPerAccount(t *testing.T) {
	r := &fakeRunner{clock: testkit.NewClock(time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)),
		started: make(chan struct{}), release: make(chan struct{})}
	s := newService(r, exporttpl.Options{QueueWait: 50 * time.Millisecond, RunTimeout: 3 * time.Second})
	held := make(chan error, 1)
	go func() { held <- test(s, "a", "block") }()
	<-r.started

	if got := wantRefused(t, test(s, "a", "ok"), "template_runs_per_account"); got != 3 {
		t.Errorf("retryAfterSeconds = %d; want 3, the run timeout", got)
	}
	if err := test(s, "b", "ok"); err != nil {
		t.Errorf("another account while a's VM is held: %v", err)
	}
	close(r.release)
	if err := <-held; err != nil {
		t.Fatalf("the held run: %v", err)
	}
	if err := test(s, "a", "ok"); err != nil {
		t.Errorf("a's next run once its VM is free: %v", err)
	}
}
