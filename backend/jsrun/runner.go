package jsrun

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
	"unsafe"

	"github.com/captionqa/captionqa/backend/exporttpl"
	lib "modernc.org/libquickjs"
	"modernc.org/quickjs"
)

// DefaultMaxStackSlots is the engine's call-depth limit unless
// [Options.MaxStackSlots] says otherwise: about 4,000 plain JavaScript
// calls, fewer through built-ins that call back (a recursion through
// Array.prototype.map gets about 800 deep), and a bounded parser nesting.
// Each slot costs about 3 KiB of Go stack at its deepest, so a run's Go
// stack stays under about 16 MiB.
//
// The limit must be set: the engine's own default (a million slots) lets
// an unbounded recursion grow the goroutine's stack past Go's 1 GB maximum,
// which is a fatal error of the whole process, not a catchable one.
const DefaultMaxStackSlots = 4000

// Options configures a [Runner]. The zero value is usable.
type Options struct {
	// MaxConcurrent bounds the VMs alive at once (Compile and Run
	// together); 0 is runtime.GOMAXPROCS(0).
	MaxConcurrent int
	// MemoryLimit caps each VM's JavaScript heap, in bytes; 0 is
	// exporttpl.MemoryLimit.
	MemoryLimit int
	// MaxStackSlots bounds each VM's call depth; 0 is DefaultMaxStackSlots.
	MaxStackSlots int
	// QueueWait bounds how long a call waits for a VM slot before it
	// returns exporttpl.ErrBusy, running nothing; 0 waits as long as the
	// call's context (docs/templates.md, Limits).
	QueueWait time.Duration
}

// Runner compiles and runs export templates, each call in a fresh VM. It
// implements exporttpl.Runner and is safe for concurrent use.
type Runner struct {
	sem        chan struct{}
	wait       time.Duration
	bufs       sync.Pool // *[]byte for the cues' JSON
	memLimit   uintptr
	stackSlots uintptr
	prelude    string // the Go-side source evaluating the prelude
}

var _ exporttpl.Runner = (*Runner)(nil)

// New returns a Runner with opts.
func New(opts Options) *Runner {
	n := opts.MaxConcurrent
	if n <= 0 {
		n = runtime.GOMAXPROCS(0)
	}
	mem := opts.MemoryLimit
	if mem <= 0 {
		mem = exporttpl.MemoryLimit
	}
	slots := opts.MaxStackSlots
	if slots <= 0 {
		slots = DefaultMaxStackSlots
	}
	return &Runner{
		sem:        make(chan struct{}, n),
		wait:       opts.QueueWait,
		memLimit:   uintptr(mem),
		stackSlots: uintptr(slots),
		prelude:    preludeEval(exporttpl.MaxOutputBytes),
	}
}

// Compile checks src and returns it as the script to store: the source
// itself, so that the lines and columns of later run errors are the
// author's. It runs, within exporttpl.CompileTimeout:
//  1. the engine's parse (compile only, in a fresh VM), which bounds the
//     nesting before esbuild, whose recursive parser is slow on a deeply
//     nested source, sees it;
//  2. esbuild's parse, for its clearer syntax errors;
//  3. the script's top level in that VM, then the check that
//     exportTimeline is a function.
func (r *Runner) Compile(ctx context.Context, src string) (*exporttpl.Compiled, error) {
	if err := r.acquire(ctx); err != nil {
		return nil, err
	}
	defer r.release()
	// The time limit starts with the VM: the wait for a slot is not the
	// script's.
	s := r.open(ctx, time.Now().Add(exporttpl.CompileTimeout))
	defer s.close()

	// 1. The engine parses without running anything.
	var parseErr error
	if err := s.arm(exporttpl.PhaseCompile); err != nil {
		return nil, err
	}
	fn, err := s.vm.EvalValue(src, quickjs.EvalGlobal|lib.MJS_EVAL_FLAG_COMPILE_ONLY)
	if err == nil {
		fn.Free()
	} else if !isTemplateParseError(err) {
		return nil, s.fail(exporttpl.PhaseCompile, err)
	} else if se := s.fail(exporttpl.PhaseCompile, err); isKind(se, exporttpl.KindStackOverflow) {
		return nil, se // too deep for esbuild to be worth running
	} else {
		parseErr = moduleHint(se, src)
	}

	// 2. esbuild, whose message wins when both reject the source.
	if se := checkSyntax(src); se != nil {
		return nil, se
	}
	if parseErr != nil {
		return nil, parseErr
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}

	// 3. The top level, then the export.
	if err := s.load(src, exporttpl.PhaseLoad); err != nil {
		return nil, err
	}
	if err := s.arm(exporttpl.PhaseLoad); err != nil {
		return nil, err
	}
	typ, err := s.vm.Eval("typeof exportTimeline", quickjs.EvalGlobal)
	if err != nil {
		return nil, s.fail(exporttpl.PhaseLoad, err)
	}
	if typ != "function" {
		msg := "the script defines no function exportTimeline(cues, ctx) at its top level"
		if typ != "undefined" {
			msg = fmt.Sprintf("exportTimeline is a %v, not a function", typ)
		}
		return nil, &exporttpl.ScriptError{Phase: exporttpl.PhaseCompile, Kind: exporttpl.KindMissingExport, Message: msg}
	}
	return &exporttpl.Compiled{JS: src}, nil
}

// Run calls exportTimeline(cues, ctx) of c on in, in a fresh VM, within
// timeout (0 or less is exporttpl.RunTimeout). The cues and the context
// go in as one JSON string each, parsed inside the VM before any of the
// script runs: an input too big for the heap or the time limit is a
// ScriptError of phase "run", kind memory_limit or timeout, whose message
// names the input. A failure of the script's top level is a ScriptError of
// phase "load", exportTimeline's of phase "run", and what it returned is
// checked in phase "result".
func (r *Runner) Run(ctx context.Context, c *exporttpl.Compiled, in *exporttpl.Input, timeout time.Duration) (*exporttpl.Output, error) {
	if c == nil || in == nil {
		return nil, errors.New("jsrun: Run needs a script and an input")
	}
	if timeout <= 0 {
		timeout = exporttpl.RunTimeout
	}
	buf := r.getBuf()
	defer r.putBuf(buf)
	cuesJSON, err := encodeCues(*buf, in.Cues)
	*buf = cuesJSON
	if err != nil {
		return nil, fmt.Errorf("jsrun: encode cues: %w", err)
	}
	ctxJSON, err := json.Marshal(in.Ctx)
	if err != nil {
		return nil, fmt.Errorf("jsrun: encode ctx: %w", err)
	}

	if err := r.acquire(ctx); err != nil {
		return nil, err
	}
	defer r.release()
	s := r.open(ctx, time.Now().Add(timeout))
	defer s.close()

	// The prelude, then the input, before any template code.
	if err := s.arm(exporttpl.PhaseRun); err != nil {
		return nil, err
	}
	prepare, err := s.vm.EvalValue(r.prelude, quickjs.EvalGlobal)
	if err != nil {
		return nil, s.inputError(err, len(in.Cues), len(cuesJSON))
	}
	defer prepare.Free()
	// The engine copies both strings in; cuesJSON, from the pool, is not
	// written meanwhile, so it is not copied to a Go string first.
	call, err := prepare.CallValue(quickjs.UndefinedValue, unsafe.String(unsafe.SliceData(cuesJSON), len(cuesJSON)), string(ctxJSON))
	if err != nil {
		return nil, s.inputError(err, len(in.Cues), len(cuesJSON))
	}
	defer call.Free()

	if err := s.load(c.JS, exporttpl.PhaseLoad); err != nil {
		return nil, err
	}
	if err := s.arm(exporttpl.PhaseRun); err != nil {
		return nil, err
	}
	res, err := call.CallValue(quickjs.UndefinedValue)
	if err != nil {
		return nil, s.fail(exporttpl.PhaseRun, err)
	}
	defer res.Free()
	return s.output(res)
}

// maxPooledBuf is the largest cues buffer kept for the next run.
const maxPooledBuf = 4 << 20

func (r *Runner) getBuf() *[]byte {
	if b, ok := r.bufs.Get().(*[]byte); ok {
		return b
	}
	return new([]byte)
}

func (r *Runner) putBuf(b *[]byte) {
	if cap(*b) <= maxPooledBuf {
		r.bufs.Put(b)
	}
}

// acquire takes a VM slot, or returns ctx's error when ctx ends first
// and exporttpl.ErrBusy when the runner's queue wait does.
func (r *Runner) acquire(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	select {
	case r.sem <- struct{}{}:
		return nil
	default:
	}
	var busy <-chan time.Time
	if r.wait > 0 {
		t := time.NewTimer(r.wait)
		defer t.Stop()
		busy = t.C
	}
	select {
	case r.sem <- struct{}{}:
		return nil
	case <-busy:
		return exporttpl.ErrBusy
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (r *Runner) release() { <-r.sem }

// session is one fresh VM with its limits and watchdog.
type session struct {
	ctx      context.Context
	vm       *quickjs.VM
	deadline time.Time
	wd       *watchdog
}

// open makes a VM with the runner's limits and starts its watchdog. The
// caller must close it, on every path.
func (r *Runner) open(ctx context.Context, deadline time.Time) *session {
	vm, err := quickjs.NewVM()
	if err != nil {
		// NewVM fails only when the allocator cannot map memory; nothing
		// useful can run then.
		panic(fmt.Sprintf("jsrun: new VM: %v", err))
	}
	vm.SetMemoryLimit(r.memLimit)
	vm.SetMaxStackSize(r.stackSlots)
	return &session{ctx: ctx, vm: vm, deadline: deadline, wd: startWatchdog(ctx, vm, deadline, newKicker(vm))}
}

// close stops the watchdog, then frees the VM (never the other way round:
// the watchdog writes into the VM's memory).
func (s *session) close() {
	s.wd.stop()
	s.vm.Close()
}

// arm sets the eval timeout to what is left before the deadline, or
// returns the timeout (or ctx's error) when nothing is left. Each eval
// restarts the engine's own clock, so every eval is armed.
func (s *session) arm(phase string) error {
	if s.wd.reason() == firedCtx {
		return s.ctx.Err()
	}
	left := time.Until(s.deadline)
	if left <= 0 || s.wd.reason() == firedDeadline {
		return &exporttpl.ScriptError{Phase: phase, Kind: exporttpl.KindTimeout, Message: "the script ran past its time limit"}
	}
	return s.vm.SetEvalTimeout(left)
}

// load evaluates the template's source: its top level runs.
func (s *session) load(src, phase string) error {
	if err := s.arm(phase); err != nil {
		return err
	}
	v, err := s.vm.EvalValue(src, quickjs.EvalGlobal)
	if err != nil {
		if isTemplateParseError(err) {
			return moduleHint(s.fail(exporttpl.PhaseCompile, err), src)
		}
		return s.fail(phase, err)
	}
	v.Free()
	return nil
}

// fail maps an engine error: ctx's error when ctx ended it, else a
// ScriptError.
func (s *session) fail(phase string, err error) error {
	switch s.wd.reason() {
	case firedCtx:
		if cerr := s.ctx.Err(); cerr != nil {
			return cerr
		}
	case firedDeadline:
		return scriptError(phase, err, true)
	}
	return scriptError(phase, err, !time.Now().Before(s.deadline))
}

// inputError maps a failure to take the input in: the template has not
// run yet, so it is the input's size (or the caller's context).
func (s *session) inputError(err error, cues, size int) error {
	err = s.fail(exporttpl.PhaseRun, err)
	var se *exporttpl.ScriptError
	if !errors.As(err, &se) {
		return err
	}
	what := fmt.Sprintf("the input (%d cues, %d bytes of JSON)", cues, size)
	switch se.Kind {
	case exporttpl.KindMemoryLimit:
		se.Message = what + " does not fit in the JavaScript heap limit"
	case exporttpl.KindTimeout:
		se.Message = what + " did not load within the time limit"
	default:
		return fmt.Errorf("jsrun: load %s: %w", what, err)
	}
	se.Line, se.Column, se.Stack = 0, 0, nil
	return se
}

// output reads the glue's record (see preludeSource).
func (s *session) output(res quickjs.Value) (*exporttpl.Output, error) {
	var f [5]string
	for i, name := range [5]string{"k", "m", "b", "f", "t"} {
		atom, err := s.vm.NewAtom(name)
		if err != nil {
			return nil, fmt.Errorf("jsrun: read result: %w", err)
		}
		v, err := res.Property(atom)
		if err != nil {
			return nil, s.fail(exporttpl.PhaseResult, err)
		}
		str, ok := v.(string)
		if !ok {
			return nil, fmt.Errorf("jsrun: read result: field %s is %T", name, v)
		}
		f[i] = str
	}
	kind, msg, body := f[0], f[1], f[2]
	switch {
	case kind == exporttpl.KindMissingExport:
		return nil, &exporttpl.ScriptError{Phase: exporttpl.PhaseLoad, Kind: kind, Message: msg}
	case kind != "":
		return nil, &exporttpl.ScriptError{Phase: exporttpl.PhaseResult, Kind: kind, Message: msg}
	case len(body) > exporttpl.MaxOutputBytes:
		return nil, &exporttpl.ScriptError{
			Phase: exporttpl.PhaseResult, Kind: exporttpl.KindOutputTooLarge,
			Message: fmt.Sprintf("exportTimeline returned %d bytes, over the limit of %d", len(body), exporttpl.MaxOutputBytes),
		}
	}
	return &exporttpl.Output{Body: validUTF8(body), Filename: validUTF8(f[3]), ContentType: validUTF8(f[4])}, nil
}

// validUTF8 replaces what is not UTF-8 (a lone surrogate of a JavaScript
// string comes out as one) with U+FFFD.
func validUTF8(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	return strings.ToValidUTF8(s, "\uFFFD")
}

func isKind(err error, kind string) bool {
	var se *exporttpl.ScriptError
	return errors.As(err, &se) && se.Kind == kind
}
