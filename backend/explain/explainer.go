package explain

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"github.com/captionqa/captionqa/backend/preset"
)

// DefaultTimeout bounds a [Writer]'s answer when [Options.Timeout] is 0: a
// small local model writes the few hundred words asked for in seconds.
const DefaultTimeout = 20 * time.Second

// Options configure an [Explainer].
type Options struct {
	// Presets are the platform presets a report names.
	Presets *preset.Set
	// Writer, when set, rewrites the prose; nil keeps the built-in text.
	Writer Writer
	// Timeout bounds the Writer's answer; 0 is [DefaultTimeout].
	Timeout time.Duration
	// Logger records why a model's text was not used; nil discards.
	Logger *slog.Logger
}

// Explainer writes explanations: the built-in plan and prose, reworded by
// a [Writer] when one is configured.
type Explainer struct {
	presets *preset.Set
	writer  Writer
	timeout time.Duration
	log     *slog.Logger
}

// New returns an [Explainer].
func New(opts Options) *Explainer {
	x := &Explainer{presets: opts.Presets, writer: opts.Writer, timeout: opts.Timeout, log: opts.Logger}
	if x.timeout <= 0 {
		x.timeout = DefaultTimeout
	}
	if x.log == nil {
		x.log = slog.New(slog.DiscardHandler)
	}
	return x
}

// Explain writes the explanation of in. The plan is always the built-in
// one; with a [Writer] the prose is the model's when it answers in time
// with prose that names only the plan's actions and cues that exist, and
// the built-in text otherwise, with [Explanation.Fallback] saying why.
// It returns [apperr.BadRequest] (details.field) when in is not a process
// report ([Input.Validate]) or names a preset that does not exist, and
// ctx's error when ctx ends.
func (x *Explainer) Explain(ctx context.Context, in *Input) (*Explanation, error) {
	if err := in.Validate(); err != nil {
		return nil, err
	}
	p := in.Preset
	if p == nil {
		var err error
		if p, err = x.presets.Lookup(in.Report.Preset); err != nil {
			return nil, bad("report.preset", "report.preset %q is not a preset", in.Report.Preset)
		}
	}
	e := Build(in, p)
	if x.writer == nil {
		return e, nil
	}
	d := Draft{Explanation: e, Platform: p.Title, CueCount: in.cueCount()}
	if st := in.Report.Standard; st != nil {
		d.Standard = st.Title
	}
	wctx, cancel := context.WithTimeout(ctx, x.timeout)
	defer cancel()
	prose, err := x.writer.Write(wctx, d)
	if err == nil {
		err = checkProse(&prose, &d)
	}
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		e.Fallback = fallbackOf(err)
		x.log.WarnContext(ctx, "explain: the model's text was not used", "model", x.writer.Model(), "reason", e.Fallback, "err", err)
		return e, nil
	}
	apply(e, &prose)
	e.WrittenBy, e.Model = WrittenByModel, x.writer.Model()
	return e, nil
}

// fallbackOf names why a writer's answer was not used.
func fallbackOf(err error) string {
	var inv *invented
	switch {
	case errors.As(err, &inv):
		return inv.reason
	case errors.Is(err, context.DeadlineExceeded):
		return FallbackTimeout
	case errors.Is(err, ErrInvalidResponse):
		return FallbackInvalid
	}
	return FallbackUnavailable
}

// apply puts the model's prose into e; an empty field keeps the built-in
// text.
func apply(e *Explanation, p *Prose) {
	set := func(dst *string, v string) {
		if v != "" {
			*dst = v
		}
	}
	set(&e.Headline, p.Headline)
	set(&e.Message, p.Message)
	set(&e.ClientSummary, p.ClientSummary)
	set(&e.PlatformNotes, p.PlatformNotes)
	set(&e.AlreadyFixedSummary, p.AlreadyFixedSummary)
	set(&e.DeliveryComparison.Summary, p.ComparisonSummary)
	for _, ap := range p.Actions {
		for i := range e.Actions {
			if a := &e.Actions[i]; a.ID == ap.ID {
				set(&a.Title, ap.Title)
				set(&a.Detail, ap.Detail)
			}
		}
	}
}
