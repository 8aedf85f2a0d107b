package jsrun

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/captionqa/captionqa/backend/exporttpl"
	"modernc.org/quickjs"
)

// Bounds of what a ScriptError carries from the engine.
const (
	maxFrames       = 10
	maxStackBytes   = 2 << 10
	maxFrameBytes   = 256
	maxMessageBytes = 1 << 10
	templateFile    = "template.js"
	// templateEvalFile is the file name the engine gives every VM.Eval:
	// only the template is evaluated that way with code that can fail
	// (the prelude runs through an indirect eval, whose file is "<input>",
	// as is any eval or Function the template runs itself).
	templateEvalFile = "<eval>"
)

// scriptError maps an engine error from the given phase to a
// *exporttpl.ScriptError. timedOut says whether the run's deadline had
// passed (the watchdog fired), which makes an interruption a timeout.
func scriptError(phase string, err error, timedOut bool) error {
	var qe *quickjs.Error
	if !errors.As(err, &qe) {
		// Not a JavaScript exception: the engine could not even set the
		// call up (no memory for an argument, say).
		return fmt.Errorf("jsrun: %s: %w", phase, err)
	}
	se := &exporttpl.ScriptError{Phase: phase}
	se.Line, se.Column = position(qe)
	se.Stack = frames(qe.Stack)
	switch {
	case qe.Name == "InternalError" && qe.Message == "interrupted", timedOut && qe.Name == "" && qe.Message == "":
		se.Kind = exporttpl.KindTimeout
		se.Message = "the script ran past its time limit"
	case qe.Name == "InternalError" && qe.Message == "out of memory":
		se.Kind = exporttpl.KindMemoryLimit
		se.Message = "the script ran out of memory (the JavaScript heap limit was reached)"
	case qe.Name == "" && qe.Message == "" && qe.Error() == "null":
		// QuickJS throws null when it cannot allocate the error object
		// itself, which happens only at the memory limit. A script that
		// throws null lands here too.
		se.Kind = exporttpl.KindMemoryLimit
		se.Message = "the script ran out of memory (the JavaScript heap limit was reached; no error object could be allocated)"
	case (qe.Name == "InternalError" || qe.Name == "SyntaxError" || qe.Name == "RangeError") &&
		(qe.Message == "stack overflow" || qe.Message == "Maximum call stack size exceeded"):
		se.Kind = exporttpl.KindStackOverflow
		se.Message = "too much recursion or nesting: the call stack limit was reached"
	case qe.Name == "":
		// A thrown value that is not an Error: throw 'x', throw 42 ...
		se.Kind = "Error"
		se.Message = "uncaught exception: " + clip(qe.Error(), maxMessageBytes)
		if qe.Error() == "" {
			se.Message = "uncaught exception without a value"
		}
	default:
		se.Kind = errorName(qe.Name)
		se.Message = clip(qe.Message, maxMessageBytes)
	}
	return se
}

// isTemplateParseError reports whether err is the engine rejecting the
// template's own source (not a SyntaxError the script raised at run time,
// from JSON.parse, eval or RegExp).
func isTemplateParseError(err error) bool {
	var qe *quickjs.Error
	return errors.As(err, &qe) && qe.Name == "SyntaxError" && qe.FileName == templateEvalFile && qe.LineNumber > 0
}

// moduleHint explains the engine's syntax error at an import or export
// statement of src: esbuild accepts module syntax, a classic script does
// not, and the engine's own message ("expecting '('") does not say so.
func moduleHint(err error, src string) error {
	var se *exporttpl.ScriptError
	if !errors.As(err, &se) || se.Kind != "SyntaxError" || se.Line <= 0 {
		return err
	}
	line := ""
	for i, l := range strings.SplitN(src, "\n", se.Line+1) {
		if i == se.Line-1 {
			line = strings.TrimSpace(l)
		}
	}
	for _, kw := range []string{"import", "export"} {
		rest, ok := strings.CutPrefix(line, kw)
		if ok && (rest == "" || !isIdentChar(rest[0])) {
			se.Message += " (a template is a plain script: declare function exportTimeline(cues, ctx) at its top level, without import or export)"
			break
		}
	}
	return se
}

func isIdentChar(b byte) bool {
	return b == '_' || b == '$' || b >= 0x80 || (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z') || (b >= '0' && b <= '9')
}

// errorName keeps a JavaScript error name as the kind when it looks like
// one (TypeError, RangeError, a script's own MyError), else "Error".
func errorName(name string) string {
	if name == "" || len(name) > 64 {
		return "Error"
	}
	for i, r := range name {
		ok := r == '_' || r == '$' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || (i > 0 && r >= '0' && r <= '9')
		if !ok {
			return "Error"
		}
	}
	return name
}

// position returns the template line and column of e: the engine's own
// position for a parse error of the template, else the first template
// frame of its stack. The engine counts columns in code points, from 1.
func position(e *quickjs.Error) (line, col int) {
	if e.FileName == templateEvalFile && e.LineNumber > 0 {
		return e.LineNumber, e.ColumnNumber
	}
	for s := range strings.Lines(e.Stack) {
		if _, l, c, ok := parseFrame(s); ok {
			return l, c
		}
	}
	return 0, 0
}

// parseFrame parses one stack line of the template: "at NAME
// (<eval>:L:C)", or "at <eval>:L:C" for a parse error. ok is false for
// every other frame (native, prelude, the template's own evals).
func parseFrame(s string) (name string, line, col int, ok bool) {
	s = strings.TrimSpace(s)
	s, found := strings.CutPrefix(s, "at ")
	if !found {
		return "", 0, 0, false
	}
	loc := s
	if strings.HasSuffix(s, ")") {
		i := strings.LastIndex(s, " (")
		if i < 0 {
			return "", 0, 0, false
		}
		name, loc = s[:i], s[i+2:len(s)-1]
	}
	rest, found := strings.CutPrefix(loc, templateEvalFile+":")
	if !found {
		return "", 0, 0, false
	}
	ls, cs, found := strings.Cut(rest, ":")
	if !found {
		return "", 0, 0, false
	}
	line, err1 := strconv.Atoi(ls)
	col, err2 := strconv.Atoi(cs)
	if err1 != nil || err2 != nil || line <= 0 {
		return "", 0, 0, false
	}
	return name, line, col, true
}

// frames returns the template's frames of an engine stack, "<eval>"
// renamed template.js, native and runtime frames dropped, at most
// maxFrames frames and maxStackBytes in all.
func frames(stack string) []string {
	var out []string
	size := 0
	for s := range strings.Lines(stack) {
		name, line, col, ok := parseFrame(s)
		if !ok {
			continue
		}
		loc := templateFile + ":" + strconv.Itoa(line) + ":" + strconv.Itoa(col)
		var f string
		if name == "" || name == templateEvalFile {
			f = "at " + loc // the top level of the script
		} else {
			f = "at " + clip(name, maxFrameBytes-len(loc)-6) + " (" + loc + ")"
		}
		if len(out) == maxFrames || size+len(f) > maxStackBytes {
			break
		}
		out = append(out, f)
		size += len(f)
	}
	return out
}

// clip cuts s to at most n bytes on a rune boundary, marking the cut.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	if n < 4 {
		n = 4
	}
	cut := n - 3 // room for "…"
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}
