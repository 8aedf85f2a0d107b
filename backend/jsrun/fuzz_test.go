package jsrun

import (
	"context"
	"errors"
	"testing"

	"github.com/captionqa/captionqa/backend/exporttpl"
)

// FuzzCompile: any source compiles or fails with a ScriptError of the
// compile or load phase; nothing panics, and a success stores the source.
func FuzzCompile(f *testing.F) {
	for _, s := range []string{
		"",
		"function exportTimeline(cues, ctx) { return '' }",
		srtTemplate,
		"export function exportTimeline() {}",
		"import x from 'y'",
		"function exportTimeline(cues: number) {}",
		"let a; let a;",
		"'\\ud800'",
		"(((((((((((",
		"`${`${`${",
		"/(?<a>x)\\k<a>/u",
		"class A { #x; static { } }",
		"throw null",
		"var exportTimeline = 1",
		"\x00\xff\xfe",
		"return",
		"await 1",
		"with (Math) { var exportTimeline = () => String(PI) }",
		"\ufeff#!/usr/bin/env node\nfunction exportTimeline() {}",
	} {
		f.Add(s)
	}
	r := New(Options{MaxConcurrent: 2})
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > exporttpl.MaxScriptBytes {
			t.Skip("over the size the service accepts")
		}
		c, err := r.Compile(context.Background(), src)
		if err == nil {
			if c.JS != src {
				t.Fatalf("Compiled.JS is not the source")
			}
			return
		}
		var se *exporttpl.ScriptError
		if !errors.As(err, &se) {
			t.Fatalf("err = %v (%T), want a *ScriptError", err, err)
		}
		if se.Phase != exporttpl.PhaseCompile && se.Phase != exporttpl.PhaseLoad {
			t.Fatalf("phase %q", se.Phase)
		}
		if se.Kind == "" || se.Message == "" || se.Line < 0 || se.Column < 0 || len(se.Stack) > maxFrames {
			t.Fatalf("malformed error %#v", se)
		}
	})
}
