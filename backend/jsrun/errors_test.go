package jsrun

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/captionqa/captionqa/backend/exporttpl"
	"modernc.org/quickjs"
)

func TestFrames(t *testing.T) {
	stack := "    at pre (<input>:1:32)\n    at g (<eval>:1:40)\n    at map (native)\n    at f (<eval>:3:22)\n" +
		"    at <anonymous> (<eval>:4:5)\n    at run (<input>:90:10)\n    at <eval> (<eval>:5:2)\n    at <eval>:6:7\n    garbage\n    at x (<eval>:0:1)\n    at y (<eval>:a:1)\n"
	got := frames(stack)
	want := []string{"at g (template.js:1:40)", "at f (template.js:3:22)", "at <anonymous> (template.js:4:5)", "at template.js:5:2", "at template.js:6:7"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("frames = %q\nwant %q", got, want)
	}
	line, col := position(&quickjs.Error{Stack: stack})
	if line != 1 || col != 40 {
		t.Errorf("position = %d:%d, want the first template frame 1:40", line, col)
	}
	// At most maxFrames frames and maxStackBytes bytes.
	long := strings.Repeat("    at f (<eval>:1:2)\n", 5000)
	if got := frames(long); len(got) != maxFrames {
		t.Errorf("%d frames", len(got))
	}
	wide := strings.Repeat("    at "+strings.Repeat("n", 5000)+" (<eval>:1:2)\n", 50)
	got = frames(wide)
	size := 0
	for _, f := range got {
		size += len(f)
		if len(f) > maxFrameBytes || !strings.HasSuffix(f, "(template.js:1:2)") || !utf8.ValidString(f) {
			t.Errorf("frame %.40q… of %d bytes", f, len(f))
		}
	}
	if size > maxStackBytes {
		t.Errorf("stack of %d bytes", size)
	}
}

func TestScriptErrorMapping(t *testing.T) {
	for _, tt := range []struct {
		e        *quickjs.Error
		timedOut bool
		kind     string
	}{
		{&quickjs.Error{Name: "InternalError", Message: "interrupted"}, true, exporttpl.KindTimeout},
		{&quickjs.Error{}, true, exporttpl.KindTimeout}, // an empty error on a kicked interrupt
		{&quickjs.Error{Name: "InternalError", Message: "out of memory"}, false, exporttpl.KindMemoryLimit},
		{&quickjs.Error{Name: "InternalError", Message: "stack overflow"}, false, exporttpl.KindStackOverflow},
		{&quickjs.Error{Name: "SyntaxError", Message: "stack overflow"}, false, exporttpl.KindStackOverflow},
		{&quickjs.Error{Name: "TypeError", Message: "x"}, false, "TypeError"},
		{&quickjs.Error{Name: "Bad Name", Message: "x"}, false, "Error"},
	} {
		err := scriptError(exporttpl.PhaseRun, tt.e, tt.timedOut)
		var se *exporttpl.ScriptError
		if !errors.As(err, &se) || se.Kind != tt.kind || se.Message == "" {
			t.Errorf("%+v: %#v, want kind %s", tt.e, err, tt.kind)
		}
	}
	// Not an engine exception: a plain error, not a ScriptError.
	var se *exporttpl.ScriptError
	if err := scriptError(exporttpl.PhaseRun, errors.New("OOM"), false); errors.As(err, &se) {
		t.Errorf("a Go error became a ScriptError: %v", err)
	}
}

func TestCharColumn(t *testing.T) {
	for _, tt := range []struct {
		line      string
		byteCol   int
		wantChars int
	}{
		{"abc", 0, 1},
		{"abc", 2, 3},
		{"é😀x", 6, 3},  // é is 2 bytes, 😀 4
		{"é😀x", 7, 4},  // past x: the end of the line
		{"ab", 5, 6},   // beyond the kept text
		{"abc", -1, 1}, // clamped
	} {
		if got := charColumn(tt.line, tt.byteCol); got != tt.wantChars {
			t.Errorf("charColumn(%q, %d) = %d, want %d", tt.line, tt.byteCol, got, tt.wantChars)
		}
	}
}

func TestClip(t *testing.T) {
	s := strings.Repeat("é", 100)
	for n := 0; n < 50; n++ {
		got := clip(s, n)
		if !utf8.ValidString(got) || (n >= 4 && len(got) > n) {
			t.Errorf("clip(%d) = %q (%d bytes)", n, got, len(got))
		}
	}
	if clip("short", 10) != "short" {
		t.Error("clip changed a short string")
	}
}
