package exporttpl

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/captionqa/captionqa/backend/caption"
)

// Limits of a template script and its runs. The runtime enforces the
// time and memory limits ([Runner]); the service checks the sizes.
const (
	// MaxScriptBytes bounds a template's source.
	MaxScriptBytes = 256 << 10
	// MaxOutputBytes bounds what one run may return.
	MaxOutputBytes = 16 << 20
	// CompileTimeout bounds validating a script: compiling it and
	// loading it in a fresh VM.
	CompileTimeout = 2 * time.Second
	// RunTimeout bounds one run of exportTimeline.
	RunTimeout = 10 * time.Second
	// MemoryLimit caps the JavaScript heap of one run.
	MemoryLimit = 64 << 20
)

// Runner compiles and runs template scripts in a sandbox: a fresh VM per
// call, no file system, network, process, timers or host objects, each
// call bounded by its timeout and [MemoryLimit]. Package jsrun implements
// it. Its methods are safe for concurrent use and bound the calls at
// once themselves: a call that finds no VM slot free within the runner's
// own wait returns [ErrBusy].
type Runner interface {
	// Compile checks src (JavaScript, ES2023) and that it defines a
	// function exportTimeline(cues, ctx), within [CompileTimeout]. It
	// returns the script to store, or a *[ScriptError] (Phase
	// "compile": a syntax error with its line and column, or
	// "missing_export"; Phase "load": the top level threw). ctx's error
	// when ctx ends first, [ErrBusy] when no VM slot freed in time.
	Compile(ctx context.Context, src string) (*Compiled, error)
	// Run calls exportTimeline(cues, ctx) of c on in, within timeout (0
	// is [RunTimeout]), and returns what it made: a string, or an object
	// {body, filename, contentType} with body a string. A script failure
	// is a *[ScriptError] (Phase "load" when the top level throws or
	// defines no exportTimeline, "run" or "result"); ctx's error when ctx
	// ends first, [ErrBusy] when no VM slot freed in time.
	Run(ctx context.Context, c *Compiled, in *Input, timeout time.Duration) (*Output, error)
}

// ErrBusy is a [Runner]'s answer when every VM slot stayed taken for
// its wait: nothing ran, so nothing is charged to the account.
var ErrBusy = errors.New("exporttpl: every template VM stayed busy")

// Compiled is a script ready to run: the JavaScript the runtime
// evaluates, made from the source by Compile. It is stored with the
// template (text, never bytecode).
type Compiled struct {
	JS string
}

// Input is what a run gets: the cues and the context.
type Input struct {
	Cues []Cue
	Ctx  Context
}

// Cue is one cue as a script sees it.
type Cue struct {
	Index   int    `json:"index"` // from 0, in presentation order
	ID      string `json:"id"`
	StartMs int64  `json:"startMs"`
	EndMs   int64  `json:"endMs"`
	Text    string `json:"text"`
	// Lines is Text split at its line breaks.
	Lines []string       `json:"lines"`
	Spans []caption.Span `json:"spans"`
	// Speaker is the cue's voice, nil when it has none.
	Speaker   *string            `json:"speaker"`
	Placement *caption.Placement `json:"placement"`
}

// Context is a run's ctx argument, besides the helpers the runtime adds
// (see package jsrun).
type Context struct {
	ProjectID   string  `json:"projectId"`
	ProjectName string  `json:"projectName"`
	IRRevision  int     `json:"irRevision"`
	Language    string  `json:"language"`  // "" when the timeline has none
	FrameRate   float64 `json:"frameRate"` // 0 when the timeline has none
	// Preset names the preset of the export the run is part of; "" for a
	// template run on its own.
	Preset       string `json:"preset"`
	TemplateName string `json:"templateName"`
}

// Output is what a run made. Filename and ContentType are "" when the
// script returned a plain string.
type Output struct {
	Body        string
	Filename    string
	ContentType string
}

// Phases of a [ScriptError].
const (
	PhaseCompile = "compile" // esbuild: syntax, the exportTimeline check
	PhaseLoad    = "load"    // the script's top level ran in the VM
	PhaseRun     = "run"     // exportTimeline ran
	PhaseResult  = "result"  // what it returned was checked
)

// Kinds of a [ScriptError] besides the JavaScript error names
// (SyntaxError, TypeError, RangeError, ReferenceError, Error ...).
const (
	KindTimeout        = "timeout"
	KindMemoryLimit    = "memory_limit"
	KindStackOverflow  = "stack_overflow"
	KindMissingExport  = "missing_export"
	KindBadReturn      = "bad_return"
	KindOutputTooLarge = "output_too_large"
)

// ScriptError is a template script's failure, as its author can act on
// it: where (Phase), what (Kind, Message), at which line and column of
// the template (1-based; 0 when unknown), and a short stack whose frames
// name the template ("template.js"), never the runtime's own files.
type ScriptError struct {
	Phase   string
	Kind    string
	Message string
	Line    int
	Column  int
	Stack   []string
}

func (e *ScriptError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s: %s at template.js:%d:%d", e.Kind, e.Message, e.Line, e.Column)
	}
	return e.Kind + ": " + e.Message
}
