package engine

import (
	"bytes"
	"context"
	"fmt"

	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/caption"
	"github.com/captionqa/captionqa/backend/caption/format"
	"github.com/captionqa/captionqa/backend/fix"
	"github.com/captionqa/captionqa/backend/standard"
)

// Process runs the whole QA pass over one file.
//
// It returns [apperr.BadRequest] (details.field names preset, fixProfile,
// standard or format) for an unknown name, [apperr.InputTooLarge] when the
// file exceeds the configured size, and [apperr.ProcessingFailed] (with
// details.diagnostics) when the file yields no cues. A cancelled ctx
// returns its error.
func (e *Engine) Process(ctx context.Context, req Request) (*Result, error) {
	o, err := e.resolve(req)
	if err != nil {
		return nil, err
	}
	if len(req.Data) > e.maxInput {
		return nil, apperr.New(apperr.InputTooLarge, "the caption file is %d bytes; the limit is %d", len(req.Data), e.maxInput).
			WithDetail("limitBytes", e.maxInput)
	}
	inFmt, src, readerDiags, err := format.Read(req.Filename, req.From, req.Data)
	if err != nil {
		return nil, fmt.Errorf("engine: read: %w", err)
	}
	if len(src.Cues) == 0 {
		return nil, apperr.New(apperr.ProcessingFailed, "the file yielded no caption cues").
			WithDetail("diagnostics", readerDiags)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	in := input{opts: o, format: inFmt, source: src, readerDiags: readerDiags, size: len(req.Data)}
	in.findings = checkRules(src, o.preset, false)
	in.structural = structural(readerDiags)
	in.dropped = droppedContent(readerDiags)

	delivery, err := e.deliver(ctx, &in, false)
	if err != nil {
		return nil, err
	}
	aided, err := e.deliver(ctx, &in, true)
	if err != nil {
		return nil, err
	}
	return &Result{
		Report:              delivery.report,
		Output:              delivery.output,
		AidedOutput:         aided.output,
		AidedReport:         aided.report,
		Suggestions:         delivery.suggestions,
		AidedSameAsDelivery: aided.output == delivery.output,
		DeliveryStatus:      delivery.report.status,
		AidedStatus:         aided.report.status,
	}, nil
}

// input is what both deliveries share.
type input struct {
	opts        options
	format      string
	source      *caption.Track
	readerDiags []caption.Diagnostic
	// findings are the preset's rule findings on the source, severity set.
	findings []caption.Diagnostic
	// structural are the reader diagnostics that break a structural rule
	// (enforced on every preset), with the reader's severity.
	structural []caption.Diagnostic
	// dropped are the reader diagnostics for content it had to leave out.
	dropped []caption.Diagnostic
	// size is the input's length in bytes.
	size int
}

// delivery is one output and its report.
type delivery struct {
	output      string
	report      *Report
	suggestions []caption.Diagnostic
}

// deliver fixes, normalises, writes and reports one output: the delivery
// (targets from enforced rules) or the aided output (targets from
// enforced and suggested rules, the same fix profile).
func (e *Engine) deliver(ctx context.Context, in *input, aided bool) (*delivery, error) {
	p := in.opts.preset
	fixed := fix.Apply(in.source, in.opts.profile, targets(p, aided))
	out, stripped := normalise(fixed.Track, p)
	changes := append(nonNil(fixed.Changes), stripped...)
	var buf bytes.Buffer
	// The output is about the size of the input; growing by doubling
	// would copy a 4 MiB delivery several times.
	buf.Grow(in.size + in.size/8)
	if err := format.Write(p.Output, &buf, out); err != nil {
		return nil, fmt.Errorf("engine: write %s: %w", p.Output, err)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	after := checkRules(out, p, true)
	remaining, suggestions := split(after, aided)
	// No profile brings back what the reader had to leave out: an editor
	// must repair the source, so it always blocks delivery.
	remaining = append(remaining, in.dropped...)
	broken := len(in.structural) + len(in.dropped) + countHeld(in.findings, aided)
	r := &Report{
		Preset:        p.ID,
		FixProfile:    string(in.opts.profile),
		InputFormat:   in.format,
		OutputFormat:  p.Output,
		InputCues:     len(in.source.Cues),
		OutputCues:    len(out.Cues),
		Diagnostics:   append(append([]caption.Diagnostic{}, in.readerDiags...), in.findings...),
		Fixes:         changes,
		Remaining:     remaining,
		Counting:      counting,
		PlatformNotes: p.Notes,
		status:        status(broken, len(remaining)),
	}
	if in.source.Source != nil {
		r.Encoding = in.source.Source.Encoding
	}
	// The standard grades the delivery, the file that is handed over; the
	// aided output is a proposal an editor reviews.
	if c := in.opts.standard; c != nil && !aided {
		rep := standard.Grade(c, standard.Input{
			Source: in.source, Delivery: out, OutputFormat: p.Output,
			ReaderDiagnostics: in.readerDiags, Reparse: readBack(p.Output, buf.Bytes()),
		})
		r.Standard = &rep
	}
	r.Summary = summarise(r, p, in.structural, len(suggestions), aided)
	return &delivery{output: buf.String(), report: r, suggestions: suggestions}, nil
}

// readBack reads the written output with its own reader, so grading can
// tell whether a player will read what was delivered.
func readBack(f string, out []byte) *standard.Reparse {
	t, diags, err := format.Parse(f, bytes.NewReader(out))
	if err != nil {
		return &standard.Reparse{Diagnostics: diags}
	}
	return &standard.Reparse{Track: t, Diagnostics: diags}
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
