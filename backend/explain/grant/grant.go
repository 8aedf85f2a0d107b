// Package grant decides who gets an ExplainAI explanation and counts it
// (docs/api.md, ExplainAI): the Pro workspace and the explain
// entitlement, the explainer turned on by configuration, and a daily
// explain cap per account, apart from the account's daily runs. It knows
// nothing of HTTP or SQL.
package grant

import (
	"context"

	"github.com/captionqa/captionqa/backend/account"
	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/engine"
	"github.com/captionqa/captionqa/backend/explain"
	"github.com/captionqa/captionqa/backend/quota"
)

// DefaultDailyCap is the explanations an account may have per UTC day when
// [Options.DailyCap] is 0: far above an editor's day, low enough that a
// runaway script cannot keep a local model busy all day.
const DefaultDailyCap = 500

// Reasons an explanation is absent: a process result's
// explainSkippedReason.
const (
	SkipNotEntitled   = "not_entitled"
	SkipNotConfigured = "not_configured"
	SkipQuotaExceeded = "quota_exceeded"
)

// Options configure a [Service].
type Options struct {
	// Explainer writes the explanations; nil is ExplainAI turned off by
	// configuration (not_configured).
	Explainer *explain.Explainer
	Quota     *quota.Service
	// DailyCap is the explanations per account per UTC day; 0 is
	// [DefaultDailyCap].
	DailyCap int
}

// Service grants and counts explanations.
type Service struct {
	x     *explain.Explainer
	quota *quota.Service
	cap   int
}

// New returns a [Service].
func New(opts Options) *Service {
	s := &Service{x: opts.Explainer, quota: opts.Quota, cap: opts.DailyCap}
	if s.cap <= 0 {
		s.cap = DefaultDailyCap
	}
	return s
}

// Entitled reports whether a holds what ExplainAI needs: the Pro
// workspace and the explain_ai entitlement.
func Entitled(a *account.Account) bool {
	return a.Has(account.FeatureProWorkspace) && a.Has(account.FeatureExplainAI)
}

// Outcome is what a process result says about ExplainAI.
type Outcome struct {
	// Available is explainAvailable: the caller is entitled, ExplainAI is
	// on, and today's explain cap has room after this call.
	Available bool
	// Explanation is set when one was asked for and granted; else Skipped
	// says why (when one was asked for).
	Explanation *explain.Explanation
	Skipped     string
}

// ForProcess is ExplainAI's part of a process result for a. With want, it
// explains res and counts it in a's explain pool, unless a is not
// entitled, ExplainAI is off or the pool is full; the run itself was
// counted by the caller. It returns only a store's failure (503
// unavailable) or ctx's error: an explanation that cannot be granted is
// an Outcome, never an error.
func (s *Service) ForProcess(ctx context.Context, a *account.Account, res *engine.Result, want bool) (Outcome, error) {
	reason := s.refusal(a)
	if reason != "" {
		return Outcome{Skipped: skipIf(want, reason)}, nil
	}
	pool := quota.ExplainPool(a.ID)
	u, err := s.quota.Usage(ctx, pool, s.cap)
	if err != nil {
		return Outcome{}, err
	}
	if !want || u.Remaining < 1 {
		return Outcome{Available: u.Remaining > 0, Skipped: skipIf(want && u.Remaining < 1, SkipQuotaExceeded)}, nil
	}
	in := explain.FromResult(res)
	e, err := s.x.Explain(ctx, &in)
	if err != nil {
		return Outcome{}, err
	}
	left, err := s.quota.Take(ctx, pool, s.cap)
	if apperr.KindOf(err) == apperr.QuotaExceeded {
		// Another request took the last one meanwhile.
		return Outcome{Skipped: SkipQuotaExceeded}, nil
	}
	if err != nil {
		return Outcome{}, err
	}
	return Outcome{Available: left > 0, Explanation: e}, nil
}

// Explain serves POST /api/v1/explain: it explains in for a and counts one
// run in a's daily pool and one in its explain pool, both or neither,
// returning the runs left in the daily pool. It returns
// [apperr.Forbidden] (details.missingFeature) when a is not entitled,
// [apperr.Unavailable] (details.reason "explain_off") when ExplainAI is
// turned off, [apperr.QuotaExceeded] (details.pool) when either pool is
// full, before or after the work, and [apperr.BadRequest] (details.field)
// when in is not a process report.
func (s *Service) Explain(ctx context.Context, a *account.Account, in *explain.Input) (*explain.Explanation, int, error) {
	switch s.refusal(a) {
	case SkipNotEntitled:
		return nil, 0, notEntitled(a)
	case SkipNotConfigured:
		return nil, 0, off()
	}
	draws := []quota.Draw{
		{Pool: quota.AccountPool(a.ID), Cap: a.DailyCap, Label: "runs"},
		{Pool: quota.ExplainPool(a.ID), Cap: s.cap, What: "explanations", Label: "explain"},
	}
	for _, d := range draws {
		if err := s.quota.CheckDraw(ctx, d); err != nil {
			return nil, 0, err
		}
	}
	e, err := s.x.Explain(ctx, in)
	if err != nil {
		return nil, 0, err
	}
	left, err := s.quota.TakeAll(ctx, draws...)
	if err != nil {
		return nil, 0, err
	}
	return e, left[0], nil
}

// refusal is why a may not have an explanation at all, or "".
func (s *Service) refusal(a *account.Account) string {
	switch {
	case !Entitled(a):
		return SkipNotEntitled
	case s.x == nil:
		return SkipNotConfigured
	}
	return ""
}

func skipIf(want bool, reason string) string {
	if want {
		return reason
	}
	return ""
}

// Anonymous is ExplainAI's part of a result for a caller without an
// account (the homepage converter): never entitled.
func Anonymous(want bool) Outcome { return Outcome{Skipped: skipIf(want, SkipNotEntitled)} }
