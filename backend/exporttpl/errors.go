package exporttpl

import (
	"errors"

	"github.com/captionqa/captionqa/backend/apperr"
)

// scriptRefused words a script that cannot be saved: a *ScriptError of
// compiling or loading it becomes [apperr.BadRequest] on the field
// scriptSource, with reason "syntax_error", "missing_export" or
// "load_error" and where it is; anything else (ctx's end, the runtime's
// own failure) passes through.
func scriptRefused(err error) error {
	var se *ScriptError
	if !errors.As(err, &se) {
		return err
	}
	reason := "load_error"
	switch {
	case se.Kind == KindMissingExport:
		reason = "missing_export"
	case se.Phase == PhaseCompile:
		reason = "syntax_error"
	}
	e := apperr.New(apperr.BadRequest, "scriptSource: %s", se.Error()).WithDetail("field", "scriptSource").
		WithDetail("reason", reason)
	return withWhere(e, se).Wrap(err)
}

// scriptFailed words a run that failed: a *ScriptError becomes
// [apperr.ProcessingFailed] with where and why it failed; anything else
// passes through.
func scriptFailed(err error) error {
	var se *ScriptError
	if !errors.As(err, &se) {
		return err
	}
	e := apperr.New(apperr.ProcessingFailed, "the template failed: %s", se.Error())
	return withWhere(e, se).Wrap(err)
}

func withWhere(e *apperr.Error, se *ScriptError) *apperr.Error {
	e = e.WithDetail("phase", se.Phase).WithDetail("kind", se.Kind).WithDetail("message", se.Message)
	if se.Line > 0 {
		e = e.WithDetail("line", se.Line).WithDetail("column", se.Column)
	}
	stack := se.Stack
	if stack == nil {
		stack = []string{}
	}
	return e.WithDetail("stack", stack)
}
