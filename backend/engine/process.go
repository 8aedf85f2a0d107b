package engine

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/caption"
	"github.com/captionqa/captionqa/backend/caption/format"
	"github.com/captionqa/captionqa/backend/fix"
	"github.com/captionqa/captionqa/backend/rules"
	"github.com/captionqa/captionqa/backend/standard"
)

// Process runs the whole QA pass over one file. The result's lists keep
// the first [MaxPerCode] entries of each code, the rest counted in their
// report's Omitted, unless req.AllDiagnostics asks for all; the statuses,
// summaries and grading count every entry. Control characters in the
// cues' text are left out of every output and reported
// ([CodeControlCharacter]).
//
// It returns [apperr.BadRequest] (details.field names preset, fixProfile,
// standard or format) for an unknown name (details.field media for a
// media analysis with a bad version, times or order), [apperr.InputTooLarge] when the
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
	// Control characters leave the text before anything reads it: the
	// rules, the fixes and the grading all see the text delivered.
	src, controls := stripControls(src)
	in := input{opts: o, format: inFmt, source: src, readerDiags: readerDiags, size: len(req.Data)}
	in.structural = append(structural(readerDiags), controls...)
	in.dropped = droppedContent(readerDiags)
	in.labelled, in.labelNotes = labelSpeakers(src, o.preset)

	// The source check, the delivery and the aided output share only
	// read-only inputs (the source track, the options), so they run side by
	// side; each writes only its own variables, and the reports are put
	// together once all three are done, so the result does not depend on
	// their timing.
	p := o.preset
	fps := rateOf(p, src, o.media)
	dTargets, aTargets := targets(p, false, o.media, fps), targets(p, true, o.media, fps)
	// The aided output can differ from the delivery only when its targets
	// change what the profile does: warn-only edits nothing, and equal
	// targets make the same edits. Then one output serves both.
	shared := o.profile == fix.WarnOnly || dTargets == aTargets
	var (
		wg         sync.WaitGroup
		dOut, aOut *produced
		derr, aerr error
	)
	in.checkedSource.Add(1)
	wg.Go(func() { dOut, derr = e.produce(ctx, &in, dTargets, true) })
	if !shared {
		wg.Go(func() { aOut, aerr = e.produce(ctx, &in, aTargets, false) })
	}
	in.sourceCheck = checkRules(src, p, false, nil, o.media)
	in.findings = in.sourceCheck.all
	in.checkedSource.Done()
	wg.Wait()
	if derr != nil {
		return nil, derr
	}
	if aerr != nil {
		return nil, aerr
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	// The aided output is offered as the better file, so it keeps the
	// delivery's cue wherever its own fixes made a problem the delivery
	// has not.
	if shared {
		aOut = dOut
	} else if aOut, err = e.keepDelivery(ctx, &in, dOut, aOut); err != nil {
		return nil, err
	}
	delivery, aided := dOut.split(false, in.dropped), aOut.split(true, in.dropped)
	// The input's diagnostics, the reader's (and the control characters
	// found in the text) then the rules', listed by both reports. Without
	// the reader's they are the source check's own slice, which
	// suggestions and remaining problems may share too; clipped, so
	// appending copies.
	lead := readerDiags
	if len(controls) > 0 {
		lead = append(slices.Clip(readerDiags), controls...)
	}
	diags := slices.Clip(in.findings)
	if len(lead) > 0 || diags == nil {
		diags = slices.Clip(append(append(make([]caption.Diagnostic, 0, len(lead)+len(in.findings)), lead...), in.findings...))
	}
	dr, ar := in.report(delivery, diags, false), in.report(aided, diags, true)
	res := &Result{
		Report:              dr,
		Output:              delivery.output,
		AidedOutput:         aided.output,
		AidedReport:         ar,
		Suggestions:         delivery.suggestions,
		AidedSameAsDelivery: shared || aided.output == delivery.output,
		DeliveryStatus:      dr.status,
		AidedStatus:         ar.status,
		Applied:             in.opts.preset,
	}
	// The statuses, summaries and grading above counted every finding;
	// only the lists handed back are cut.
	if !req.AllDiagnostics {
		res.capLists(MaxPerCode)
	}
	return res, nil
}

// input is what both deliveries share.
type input struct {
	opts        options
	format      string
	source      *caption.Track
	readerDiags []caption.Diagnostic
	// labelled is the source with its speakers' labels written in, what
	// the fixes start from ([labelSpeakers]; the source itself when no
	// label is needed), and labelNotes says which labels each cue got.
	labelled   *caption.Track
	labelNotes []string
	// sourceCheck is the preset's rule check of the source and findings
	// its findings, severity set. Process sets them while the deliveries
	// run, then marks checkedSource done; a delivery waits for that
	// before it reads them.
	sourceCheck   *checked
	findings      []caption.Diagnostic
	checkedSource sync.WaitGroup
	// structural are the reader diagnostics that break a structural rule
	// (enforced on every preset), with the reader's severity, and the
	// control characters found in the cues ([stripControls]): writing the
	// output repairs each ([readerRepairs]).
	structural []caption.Diagnostic
	// dropped are the reader diagnostics for content it had to leave out.
	dropped []caption.Diagnostic
	// size is the input's length in bytes.
	size int
}

// produced is one output and what the preset's rules found on it.
type produced struct {
	output string
	// cues counts the cues the output delivers, which leaves out those
	// its format cannot show (see [undelivered]).
	cues    int
	changes []fix.Change
	// after holds the findings on the output, severity set.
	after    []caption.Diagnostic
	standard *standard.Report
	// shaped is what the output was written from, which [keepDelivery]
	// takes cues of.
	shaped shaped
}

// shaped is a fixed and normalised track before it is written.
type shaped struct {
	track *caption.Track
	// sources[i] is the source cue of track.Cues[i]; nil: the same index.
	sources []int
	// fixes are the fix profile's changes, naming source cues;
	// normalised normalisation's, naming cues of track.
	fixes, normalised []fix.Change
}

// sourceOf is the source cue of the output's cue i.
func (s *shaped) sourceOf(i int) int {
	if s.sources == nil {
		return i
	}
	return s.sources[i]
}

// delivery is one output seen as the delivery or as the aided output:
// which of its findings block it and which are suggestions.
type delivery struct {
	*produced
	remaining   []caption.Diagnostic
	suggestions []caption.Diagnostic
}

// split sorts the findings on the output: for the delivery, findings of
// enforced rules remain and the rest are suggestions; for the aided
// output, whose targets include the suggestions, every finding remains.
// No profile brings back what the reader had to leave out (dropped): an
// editor must repair the source, so it always blocks.
func (p *produced) split(aided bool, dropped []caption.Diagnostic) *delivery {
	remaining, suggestions := split(p.after, aided)
	return &delivery{produced: p, remaining: append(remaining, dropped...), suggestions: suggestions}
}

// produce fixes the labelled source, normalises, writes and checks one
// output, aiming at tg: the enforced rules' targets for the delivery, the
// enforced and suggested rules' for the aided output, under the same fix
// profile. With grade, the output is also graded against the standard,
// beside its rule check.
func (e *Engine) produce(ctx context.Context, in *input, tg fix.Targets, grade bool) (*produced, error) {
	// Warn-only edits nothing, so the output starts from the labelled
	// source itself rather than from a copy.
	t, owned := in.labelled, false
	var changes []fix.Change
	var sources []int // the source cue of each output cue; nil: the same index
	if in.opts.profile != fix.WarnOnly {
		// The engine checks the output with the preset's rules below; the
		// fix's own list of what it left would be measured twice.
		tg.SkipUnfixed = true
		fixed := fix.Apply(in.labelled, in.opts.profile, tg)
		t, owned, changes, sources = fixed.Track, true, fixed.Changes, fixed.Sources
		if err := ctx.Err(); err != nil {
			return nil, err
		}
	}
	out, stripped := normalise(t, in.opts.preset, owned, in.labelNotes, sources)
	return e.finish(ctx, in, shaped{track: out, sources: sources, fixes: changes, normalised: stripped}, grade)
}

// finish writes and checks the output sh holds, as [Engine.produce]
// describes.
func (e *Engine) finish(ctx context.Context, in *input, sh shaped, grade bool) (*produced, error) {
	p := in.opts.preset
	out, sources := sh.track, sh.sources
	unread := undelivered(out, p.Output)
	// A copy: sh keeps normalisation's changes as they are.
	stripped := append(append(slices.Clone(sh.normalised), unread...), rewritten(out, p.Output)...)
	// Every change names the cue of the uploaded file, as the fix
	// profile's do; normalisation worked on the output's cues.
	for i := range stripped {
		if c := &stripped[i]; c.CueIndex >= 0 && sources != nil {
			c.CueIndex = sources[c.CueIndex]
		}
	}
	changes := append(append(nonNil(slices.Clip(sh.fixes)), readerRepairs(in.structural, in.dropped, in.source, out, sources, p.Output)...), stripped...)
	if lang := in.opts.language; lang != "" && !caption.LanguageDeclared(out.Language) && format.CarriesLanguage(p.Output) {
		// A shallow copy: out may be the source itself (warn-only).
		declared := *out
		declared.Language = lang
		out = &declared
		changes = append(changes, fix.Change{Code: rules.CodeMissingLanguageTag, CueIndex: fix.FileLevel,
			Action: actionSetLanguage, Message: fmt.Sprintf("the delivery declares the language %q the request gave", lang)})
	}
	var buf strings.Builder
	// The output is about the size of the input; growing by doubling
	// would copy a 4 MiB delivery several times.
	buf.Grow(in.size + in.size/8)
	if err := format.Write(p.Output, &buf, out); err != nil {
		return nil, fmt.Errorf("engine: write %s: %w", p.Output, err)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	d := &produced{output: buf.String(), cues: len(out.Cues) - len(unread), changes: changes, shaped: sh}
	// The standard grades the delivery, the file that is handed over; the
	// aided output is a proposal an editor reviews. Grading reads only
	// the finished output and tracks, so it runs beside the rule check.
	var wg sync.WaitGroup
	if c := in.opts.standard; c != nil && grade {
		wg.Go(func() {
			gin := standard.Input{
				Source: in.source, Delivery: out, OutputFormat: p.Output,
				ReaderDiagnostics: in.readerDiags, Media: in.opts.media,
			}
			// A standard none of whose clauses looks at the output read
			// back (DCMP) grades the same without it.
			if c.ReadsOutput() {
				gin.Reparse = readBack(p.Output, d.output)
			}
			rep := standard.Grade(c, gin)
			d.standard = &rep
		})
	}
	// The output keeps the source's findings of per-cue-text rules for
	// every cue whose text the fixes and normalisation left alone.
	in.checkedSource.Wait()
	d.after = checkRules(out, p, true, in.sourceCheck, in.opts.media).all
	if !showsText(out) {
		// Whatever the preset checks, a delivery with nothing to show is
		// not one: the fixes removed every cue, or no cue has text.
		d.after = append(slices.Clip(d.after), caption.Diagnostic{Code: caption.CodeNoCues, Severity: caption.SeverityError,
			Message: "the delivery has no cue with text to show: every cue was empty or removed"})
	}
	wg.Wait()
	return d, nil
}

// report puts together the report of a delivery, once the source's
// findings are known.
func (in *input) report(d *delivery, diags []caption.Diagnostic, aided bool) *Report {
	p := in.opts.preset
	broken := len(in.structural) + len(in.dropped) + countHeld(in.findings, aided)
	r := &Report{
		Preset:        p.ID,
		FixProfile:    string(in.opts.profile),
		InputFormat:   in.format,
		OutputFormat:  p.Output,
		InputCues:     len(in.source.Cues),
		OutputCues:    d.cues,
		Diagnostics:   diags,
		Fixes:         d.changes,
		Remaining:     d.remaining,
		Counting:      counting,
		PlatformNotes: p.Notes,
		status:        status(broken, len(d.remaining)),
	}
	if !aided {
		// Only the delivery is graded, even when it is also the aided
		// output.
		r.Standard = d.standard
	}
	if in.source.Source != nil {
		r.Encoding = in.source.Source.Encoding
	}
	r.Summary = summarise(r, p, in.findings, in.structural, len(d.suggestions), aided)
	return r
}

// showsText reports whether some cue of t has visible text.
func showsText(t *caption.Track) bool {
	for i := range t.Cues {
		if strings.TrimSpace(t.Cues[i].Text) != "" {
			return true
		}
	}
	return false
}

// readBack reads the written output with its own reader, so grading can
// tell whether a player will read what was delivered.
func readBack(f string, out string) *standard.Reparse {
	t, diags, err := format.Parse(f, strings.NewReader(out))
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
